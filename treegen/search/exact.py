"""The exact search: the tree with the fewest total guesses over a set of secrets.

Depth-first branch and bound. The cost of a set S of possible secrets is
``T(S) = |S| + min over guesses g of sum over non-solved feedbacks f of T(S_f(g))``.
Lower bounds come from the feedback alphabet (:mod:`treegen.search.bounds`) and from the classes
each guess makes (:mod:`treegen.search.floors`). Guesses are tried in order of their one-step
bound, results are cached per candidate set, and every set below the top levels is solved
entirely in compiled code (:mod:`treegen.search.branch_bound`).

Above it runs one loop (:meth:`Search._branch`): at a set, the hopeful guesses in order, each
guess's classes handed to a farm (:mod:`treegen.run.seam`) with the budget left when each is
handed out. Nested inside a class the farm is the calling thread; at the top it is the executor's
workers, and a set with many hopeful guesses, or a class too large for one worker, has its guesses
tried side by side instead (:mod:`treegen.search.side_by_side`).

Which optimal tree is returned is canonical: at every node, the first guess in the order
(one-step bound, possible secret first, enumeration index) whose exact cost is optimal. That guess
is always a symmetry representative, so the tree does not depend on search order, cache contents,
or how work was split between processes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from treegen import settings
from treegen.data import History
from treegen.errors import Cancelled, ImpossibleError, signalled
from treegen.rules.game import Game
from treegen.rules.scoring import guess_table, score_table, secret_major
from treegen.run.seam import CancelToken, ClassTask, Farm, Here, Job, Learnt, Plan, Result
from treegen.search.bounds import INFEASIBLE, SMALL, UNLIMITED, bound_table
from treegen.search.context import Context
from treegen.search.facts import Facts
from treegen.search.native import PLAIN, WITH_CLAIMS
from treegen.search.pools import Pools
from treegen.search.progress import Progress, StatusLine
from treegen.search.proof_log import Entry, ProofLog
from treegen.search.side_by_side import Ordered, side_by_side
from treegen.search.tally import Classes, Tally, hand_out_order
from treegen.settings import available_memory

__all__ = ["ImpossibleError", "Ordered", "Search", "cache_entries"]

#: A set's guesses as the search tries them (see :meth:`Search.ordered`).
#: The compiled search's sign that it writes no proof.
NO_PROOF = np.empty(0, dtype=np.int64)


def cache_entries(game: Game, memory: int | None) -> int:
    """How many sets the search may cache: ``memory`` bytes (default: half of what is available
    once the score table is in), at least enough for a useful search."""
    from treegen.search.native import ENTRY_BYTES
    if memory is None:
        memory = max(0, available_memory() - game.memory_estimate()) // 2
    return max(64, memory // ENTRY_BYTES)


class Search:
    """One exact search over a game: caches, bound tables and the loop above the compiled search."""

    #: Up to this many guesses into the game, the top levels run here (see :class:`Pools`).
    FULL_SYMMETRY = Pools.FULL_SYMMETRY
    #: At the deepest of those levels, sets up to this size go to the compiled search all the
    #: same: there the Python level costs more than the symmetry saves.
    LAST_LEVEL_FROM = 50
    #: With several jobs, classes over 1/(SPLIT * jobs) of the set are searched in this process
    #: (their guesses tried side by side), so that no one worker holds up the others with a class
    #: that is a large share of the whole search; splitting has a price (processes share no
    #: cache), so only the largest are split (see docs/search.md).
    SPLIT = 2
    #: With several jobs, a set with at least this many hopeful guesses per job has them tried
    #: side by side (:mod:`treegen.search.side_by_side`); with fewer, one of them would be left
    #: to a single worker while the others wait (Bulls and Cows has one first guess up to
    #: symmetry), so the classes of each guess are handed out instead.
    SIDE_BY_SIDE_FROM = 2

    def __init__(self, game: Game, max_depth: int | None = None,
                 status: Callable[[Progress], None] | None = None,
                 memory: int | None = None, proof: bool = False) -> None:
        from treegen.search.native import load
        self.kernels = load()
        self.game, self.max_depth, self.memory = game, max_depth, memory
        #: Exact costs and lower bounds of the sets searched (:mod:`treegen.search.set_cache`); the
        #: compiled search may hand back a grown table, which replaces this one.
        self.cache = self.kernels.new_table(cache_entries(game, memory),
                                            WITH_CLAIMS if proof else PLAIN)
        table = guess_table(game) if game.hard else score_table(game)
        self.branches = game.branching
        self.pools = Pools(game, table, self.kernels)
        #: What every compiled kernel reads (see :class:`Context`).
        self.context = Context.of(table, secret_major(game, score_table(game)),
                                  len(game.feedback_texts), game.solved_index,
                                  bound_table(game.size, self.branches, max_depth),
                                  self.pools.codes, self.pools.hints)
        self.lock = threading.Lock()
        # what the process that owns the search does as it goes (a worker does none of it)
        self.line = StatusLine(status, game.code_strings)
        #: Writes the checkpoint; called at most every TREEGEN_CHECKPOINT_SECONDS.
        self.saver: Callable[[], None] | None = None
        #: Called at most once a second (a bounded search's status line).
        self.pulse: Callable[[], None] | None = None
        self.saved_at = self.pulsed = time.monotonic()
        self.every = settings.checkpoint_seconds()
        #: In a task: whether the guess it serves was given up (see :meth:`run_class`).
        self.cancelled: Callable[[], bool] | None = None
        #: The proof the search writes, when asked (every task must then run in this process).
        self.proof = ProofLog(game, self.kernels) if proof else None
        #: With a proof: the facts it takes up and keeps (see :mod:`treegen.search.facts`).
        self.facts: Facts | None = None

    # -- one set ----------------------------------------------------------------------------

    def cost(self, cands: np.ndarray, history: History, budget: int, depth: int) -> int:
        """The exact cost of a set if it is at most ``budget``, else -1: as a fact settles it, when
        one does (see :mod:`treegen.search.facts`)."""
        facts, proof = self.facts, self.proof
        if facts is None or proof is None:
            return self._solve(cands, history, budget, depth)[0]
        known = facts.recall(proof, history, budget, depth)
        if known is not None:
            return known
        began = facts.begin(proof)
        cost = self._solve(cands, history, budget, depth)[0]
        facts.settled(proof, history, budget, depth, cost, began)
        return cost

    def best(self, cands: np.ndarray, history: History, depth: int) -> tuple[int, int]:
        """(exact cost, canonical guess) of a set, or (INFEASIBLE, -1) when no tree fits the
        depth limit."""
        cost, guess = self._solve(cands, history, INFEASIBLE - 1, depth)
        return (cost, guess) if guess >= 0 else (INFEASIBLE, -1)

    def plan(self, cands: np.ndarray, history: History, depth: int) -> Plan:
        """The canonical optimal guess of every state of a solvable set's subtree, by history."""
        rows, self.cache = self.kernels.plan(self.context, cands, depth, self.pools.used(history),
                                             self.pools.allowed(history), self.branches,
                                             self.cache)
        parents, feedbacks, guesses = rows.T.tolist()
        histories = [history]
        for k in range(1, len(guesses)):
            up = parents[k]
            histories.append((*histories[up], (guesses[up], feedbacks[k])))
        return dict(zip(histories, guesses))

    def lower(self, depth: int, m: int) -> int:
        """The level-filling bound of m secrets with ``depth`` guesses left."""
        return int(self.kernels.level_bound(self.context.lbt, self.branches, depth, m))

    def _solve(self, cands: np.ndarray, history: History, budget: int, depth: int
               ) -> tuple[int, int]:
        """(cost, canonical guess) if the set costs at most ``budget``, else (-1, -1): compiled
        below the top levels, searched here (with full symmetry) above them, cached either way."""
        n, proof = len(cands), self.proof
        if n <= SMALL or len(history) > self.FULL_SYMMETRY or \
                (len(history) == self.FULL_SYMMETRY and n <= self.LAST_LEVEL_FROM):
            tape = proof.tape if proof is not None else NO_PROOF
            cost, guess, self.cache, tape, claim = self.kernels.search(
                self.context, cands, budget, depth, self.pools.used(history),
                self.pools.allowed(history), self.branches, self.cache, tape)
            if proof is not None:
                proof.tape = tape
                proof.back(history, claim)
            self.tick()
            return int(cost), int(guess)
        allowed = self.pools.allowed(history)
        known, cost, guess, claim = self.kernels.recall(self.cache, cands, allowed, depth, budget)
        if known:
            if proof is not None:
                proof.back(history, claim)
            return (int(cost), int(guess)) if known > 0 else (-1, -1)
        if self.lower(depth, n) > budget:
            if proof is not None:
                proof.back(history, -1)
            return -1, -1
        premises = len(self.facts.used) if self.facts is not None else 0
        cost, plan = self._branch(cands, history, depth, budget, Here(), n, plans=False)
        guess = plan[history] if plan is not None else -1
        claim = proof.of(history) if proof is not None else -1
        if self.facts is None or len(self.facts.used) == premises:
            # a claim that names premises is no claim to hand out anywhere else: only a
            # certificate's first claim may name one (the set stands as a fact of its own)
            self.cache = self.kernels.remember(self.cache, cands, allowed, depth, budget, cost,
                                               guess, claim)
        return (cost, guess) if guess >= 0 else (-1, -1)

    def key(self, cands: np.ndarray, history: History, depth: int) -> tuple[int, int]:
        """A set's key in the cache, and its check (see :func:`set_cache.set_key`)."""
        key, check = self.kernels.set_key(cands, self.pools.allowed(history), depth)
        return int(key), int(check)

    def split(self, guess: int, cands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A guess's classes of ``cands`` (see :func:`treegen.search.kernels.split`)."""
        return self.kernels.split(self.context, guess, cands)

    def guesses(self, cands: np.ndarray, history: History) -> np.ndarray:
        """The guesses tried at a set (see :meth:`Pools.guesses`)."""
        return self.pools.guesses(cands, history)

    def ordered(self, cands: np.ndarray, history: History, depth: int, budget: int,
                pool: np.ndarray | None = None) -> Ordered:
        """(guesses, their one-step bounds, the indices of those within ``budget`` in canonical
        order, the branching that bounds every set below this one). The guesses are ``pool`` when
        given (a forced first guess); the branching is always every allowed guess's, since the
        sets below are searched with every guess."""
        every = self.guesses(cands, history)
        if pool is not None:
            every = np.union1d(every, pool)
        bounds, possible, widest = self.kernels.guess_bounds(self.context, every, cands, depth)
        if pool is not None:
            keep = np.isin(every, pool)
            every, bounds, possible = every[keep], bounds[keep], possible[keep]
        return every, bounds, self.kernels.search_order(bounds, possible, every, budget), widest

    def classes(self, guess: int, cands: np.ndarray, history: History, depth: int, widest: int,
                limit: int) -> Classes | None:
        """A guess's classes with a floor each, smallest first, or None when the floors exceed
        ``limit``: then the guess cannot beat the best tree found. Smallest first, so that a
        hopeless guess is given up after solving small classes, not the largest one."""
        ordered, start, classes = self.split(guess, cands)
        child_depth = depth - 1 if depth >= 0 else UNLIMITED
        floors, hopeful = self.kernels.class_bounds(self.context, ordered, start, classes,
                                                    child_depth, widest, limit, guess,
                                                    self.pools.allowed(history),
                                                    self.pools.used((*history, (guess, -1))))
        if not hopeful:
            return None
        return _smallest_first(guess, ordered, start, classes, floors, history, child_depth)

    def hopeful(self, cands: np.ndarray, history: History, depth: int, widest: int, best: int,
                pool: np.ndarray, bounds: np.ndarray, order: np.ndarray, rank: int
                ) -> tuple[int, int, Classes | None]:
        """From ``rank`` of ``order``, the first guess whose classes' floors leave it a chance
        against a best tree of ``best``: (its rank, the guess, its classes as :meth:`classes`
        gives them), or (rank, -1, None) once the one-step bounds reach ``best`` or no guess is
        left."""
        child_depth = depth - 1 if depth >= 0 else UNLIMITED
        rank, ordered, start, classes, floors = self.kernels.first_hopeful(
            self.context, pool, order, bounds, rank, best, cands, child_depth, widest,
            self.pools.allowed(history), self.pools.used(history))
        if rank >= len(order) or bounds[order[rank]] >= best:
            return rank, -1, None
        guess = int(pool[order[rank]])
        return rank, guess, _smallest_first(guess, ordered, start, classes, floors, history,
                                            child_depth)

    def tick(self) -> None:
        """Between steps: stop a task whose guess was given up (:class:`Cancelled`), or on a
        Ctrl-C whose KeyboardInterrupt was lost (see :func:`errors.signalled`); write a checkpoint
        if one is due, and refresh the status line."""
        if signalled():
            raise KeyboardInterrupt
        if self.cancelled is not None and self.cancelled():
            raise Cancelled
        now = time.monotonic()
        if self.pulse is not None and now - self.pulsed >= 1:
            self.pulsed = now
            self.pulse()
        if self.saver is not None and now - self.saved_at >= self.every:
            self.saver()
            self.saved_at = time.monotonic()

    def caches(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The caches as arrays, for a checkpoint."""
        return [self.kernels.export_entries(self.cache, exact) for exact in (True, False)]

    def restore(self, caches: list[tuple[np.ndarray, np.ndarray]]) -> None:
        """Fill the caches from a checkpoint's arrays (checked by :func:`checkpoint.load`)."""
        for keys, values in caches:  # the compiled kernels take writable int64 arrays
            self.cache = self.kernels.import_entries(self.cache, keys.astype(np.int64),
                                                     values.astype(np.int64))

    # -- the loop ---------------------------------------------------------------------------

    def best_with(self, cands: np.ndarray, history: History, depth: int, farm: Farm,
                  pool: np.ndarray | None = None, follow: int | None = None,
                  budget: int | None = None) -> tuple[int, Plan | None]:
        """(exact cost, plan) of a set, its guesses or their classes solved by a running
        ``farm``. Without a tree: cost INFEASIBLE when none fits the depth limit, or -1 when
        none costs at most ``budget`` (often far cheaper to show than the optimum; a tree the
        depth forbids costs more than any budget). The status line follows the guesses of the sets
        ``follow`` guesses into the game (default: this set's)."""
        follow = len(history) if follow is None else follow
        limit = INFEASIBLE - 1 if budget is None else min(budget, INFEASIBLE - 1)
        ordered = self.ordered(cands, history, depth, limit, pool)
        if farm.jobs > 1 and len(ordered[2]) >= self.SIDE_BY_SIDE_FROM * farm.jobs:
            result = self._side_by_side(ClassTask(cands, history, limit, depth), farm, (), ordered,
                                        follow)
            cost, plan = result.cost, result.plan
        else:
            cost, plan = self._branch(cands, history, depth, limit, farm,
                                      self.split_size(len(cands), farm.jobs), ordered, (), follow)
        return (INFEASIBLE, None) if plan is None and budget is None else (cost, plan)

    def split_size(self, n: int, jobs: int) -> int:
        """With several jobs, the size above which a class of a set of ``n`` is searched here
        rather than left to one worker (see :attr:`SPLIT`)."""
        return max(SMALL, n // (self.SPLIT * jobs)) if jobs > 1 else n

    def _branch(self, cands: np.ndarray, history: History, depth: int, budget: int, farm: Farm,
                big: int, ordered: Ordered | None = None, tokens: tuple[CancelToken, ...] = (),
                follow: int | None = None, plans: bool = True) -> tuple[int, Plan | None]:
        """Branch and bound at one node: the hopeful guesses in canonical order, the classes of
        each solved by ``farm`` (classes over ``big`` searched here the same way, their guesses
        side by side when the farm has workers), each with the budget left when it is handed out.
        Stops early once one of ``tokens`` is cancelled (the guess above was given up); its result
        is then not used. ``plans``: whether the plan of the tree is wanted (else only its first
        guess)."""
        n = len(cands)
        best, best_plan = budget + 1, None
        pool, bounds, order, widest = ordered or self.ordered(cands, history, depth, budget)
        refuted: list[Entry] | None = [] if self.proof is not None else None
        rank = 0
        while True:
            # the guesses whose classes' floors refute them are passed over in compiled code (a
            # checker derives those floors)
            rank, guess, classes = self.hopeful(cands, history, depth, widest, best, pool,
                                                bounds, order, rank)
            if classes is None:
                break
            shown = self.line.guess(len(history), rank, len(order), guess, len(classes), best) \
                if len(history) == follow else None
            total, plan = self._guess(n, guess, classes, history, best, farm, big, tokens, shown,
                                      plans, refuted, widest)
            if total >= 0:
                best, best_plan = total, plan
            if any(token.cancelled() for token in tokens):
                return -1, None
            rank += 1
        if self.proof is not None and refuted is not None:
            self.proof.claim(cands, history, best, depth, refuted, self.pools)
        return (best, best_plan) if best_plan is not None else (-1, None)

    def guess_total(self, start: int, guess: int, classes: Classes, history: History, best: int,
                    farm: Farm, big: int) -> tuple[int, Plan | None]:
        """``start`` plus the exact costs of a guess's classes (solved by ``farm``, those over
        ``big`` searched here), with the plan of its subtree, if that is below ``best``; else
        (-1, None). A bounded search totals the exact part of its guesses this way."""
        return self._guess(start, guess, classes, history, best, farm, big)

    def _guess(self, start: int, guess: int, classes: Classes, history: History, best: int,
               farm: Farm, big: int, tokens: tuple[CancelToken, ...] = (),
               shown: Callable[[int, int], None] | None = None, plans: bool = True,
               refuted: list[Entry] | None = None, widest: int = 0) -> tuple[int, Plan | None]:
        tally = Tally(start, hand_out_order(classes, big, best, farm.jobs))
        outcome = self._tally(tally, guess, history, best, farm, big, tokens, shown, plans)
        if refuted is not None and self.proof is not None:
            refuted += self.proof.entries(tally, guess, start, lambda depth, m:
                                          self.kernels.level_bound(self.context.lbt, widest,
                                                                   depth, m))
        return outcome

    def _tally(self, tally: Tally, guess: int, history: History, best: int, farm: Farm, big: int,
               tokens: tuple[CancelToken, ...], shown: Callable[[int, int], None] | None,
               plans: bool) -> tuple[int, Plan | None]:
        token = farm.token()
        token.publish(best - 1 - tally.lower())
        jobs = (self._job(task, farm, big, (*tokens, token), plans) for task in tally.tasks(best))
        plan: Plan = {history: guess}
        try:
            for result in farm.run(jobs, token):
                if result.cost < 0:
                    tally.failed = result.history
                if result.cost < 0 or any(t.cancelled() for t in tokens):
                    break
                if result.plan is not None:
                    plan.update(result.plan)
                self._learn(tally, result)
                token.publish(best - 1 - tally.lower())
                if tally.lower() >= best:
                    break  # the guess cannot win: stop its classes still running
                if shown is not None:
                    shown(tally.solved, tally.lower())
            else:
                if tally.solved == len(tally.classes) and tally.total < best:
                    return tally.total, plan
        finally:
            token.cancel()  # whatever of this guess still runs or waits is of no use now
        return -1, None

    def _job(self, task: ClassTask, farm: Farm, big: int, tokens: tuple[CancelToken, ...],
             plans: bool) -> Job:
        """A class as a job: a task for the farm, or a search in this process (a class too large
        for one worker, or any class when no plan is wanted)."""
        if not plans:
            return lambda: Result(task.history,
                                  self.cost(task.cands, task.history, task.budget, task.depth), None)
        if len(task.cands) <= big:
            return task
        if farm.jobs > 1:
            return lambda: self._side_by_side(task, farm, tokens)
        return lambda: Result(task.history, *self._branch(task.cands, task.history, task.depth,
                                                          task.budget, farm, big, None, tokens))

    def _side_by_side(self, task: ClassTask, farm: Farm, tokens: tuple[CancelToken, ...],
                      ordered: Ordered | None = None, follow: int | None = None) -> Result:
        """Branch and bound at one node with its guesses tried side by side, one per worker
        (see :mod:`treegen.search.side_by_side`)."""
        if ordered is None:
            ordered = self.ordered(task.cands, task.history, task.depth, task.budget)
        return side_by_side(self, task, farm, tokens, ordered, follow)

    def _learn(self, tally: Tally, result: Result) -> None:
        """Count a solved class in the guess's tally, and keep it in this process's caches (a
        worker's result too), so a checkpoint holds it."""
        with self.lock:  # searches in threads here share the caches
            if result.history in tally.open:
                sub, depth, _ = tally.open[result.history]
                tally.close(result.history, result.cost)
                if result.plan is not None:
                    claim = self.proof.of(result.history) if self.proof is not None else -1
                    self._remember(sub, result.history, depth, result.cost,
                                   result.plan[result.history], claim)
            self.tick()

    def learn(self, cands: np.ndarray, learnt: tuple[Learnt, ...]) -> None:
        """Keep in the caches here the classes a worker solved exactly while trying a guess of
        the set ``cands`` (each given by its history, whose last step names the guess and
        feedback)."""
        for child, depth, cost, guess in learnt:
            tried, feedback = child[-1]
            sub = cands[self.context.table[tried, cands] == feedback]  # ascending, as split's
            with self.lock:
                self._remember(sub, child, depth, cost, guess, -1)

    def _remember(self, sub: np.ndarray, history: History, depth: int, cost: int, guess: int,
                  claim: int) -> None:
        """Cache a set's exact cost (sets of up to SMALL are not cached: searched faster)."""
        if len(sub) > SMALL:
            self.cache = self.kernels.remember(self.cache, sub, self.pools.allowed(history), depth,
                                               cost, cost, guess, claim)

    def step(self) -> None:
        """:meth:`tick` from a loop that may share this search with threads."""
        with self.lock:
            self.tick()


def _smallest_first(guess: int, ordered: np.ndarray, start: np.ndarray, classes: np.ndarray,
                    floors: np.ndarray, history: History, depth: int) -> Classes:
    """A guess's classes as :func:`treegen.search.kernels.split` and the floors give them
    (largest first), listed smallest first with their histories."""
    subs = [ordered[start[f]:start[f + 1]] for f in classes]
    return [(sub, (*history, (guess, int(f))), int(floor), depth)
            for sub, f, floor in zip(subs[::-1], classes[::-1], floors[::-1])]
