"""The compiler: play every secret with a strategy at once and keep the games as one tree.

All secrets start in one state; a guess splits them by feedback into child states, each explored once.
So the strategy is asked exactly once per distinct game state (guess history), however many secrets
pass through it, and the merged tree is consistent by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from treegen.data import History, Node
from treegen.errors import StrategyError
from treegen.rules.game import Game
from treegen.rules.scoring import Scorer, scorer_for
from treegen.strategies.base import State, Strategy, chosen

if TYPE_CHECKING:
    from treegen.run.seam import Executor, Farm

#: A subtree's nodes, depth first: each one's guess, the answer that leads to it (None for the
#: first) and its level.
Nodes = tuple[list[str], list[str | None], list[int]]
#: How many early states a strategy that is not known to be pure is asked again, to catch randomness.
RECHECKED_STATES = 8
#: A set of this many secrets or fewer is handed whole to a strategy's compiled walk, where it
#: has one (:meth:`Strategy.walked`), in a game whose guesses fall in classes of equivalent
#: guesses: above it, scoring one guess of each class in Python is quicker than every guess in
#: the walk (benchmarks/walked.py). In a game without such classes every set is walked.
WALKED_FROM = 200
#: A game of at least this many secrets built with workers hands each class of its first guess
#: to a worker, a subtree of its own; below, starting the workers costs more than they save.
APART_FROM = 10_000
#: With workers, a class of more than 1/(SHARES x workers) of the game is split here rather than
#: handed out whole: no worker is left with a share that ends long after the others.
SHARES = 2


def compile_tree(game: Game, strategy: Strategy, first: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 below: tuple[np.ndarray, History] | None = None,
                 scorer: Scorer | None = None, executor: Executor | None = None
                 ) -> tuple[Node, np.ndarray]:
    """The strategy's decision tree and, per secret (enumeration order), the guesses it needs;
    with ``below`` (the candidates and history of a state), only the subtree of that state, the
    guesses counted from it (0 for the secrets outside it). ``scorer``: how guesses are scored
    (by default the table where it fits and pays, see :func:`treegen.rules.scoring.scorer_for`);
    ``executor``: where a large game's subtrees may be built (see :func:`walk_tree`)."""
    nodes = NodeBuilder()
    depths = walk_tree(game, strategy, nodes, first, progress, below, scorer, executor)
    return nodes.root, depths


def walk_tree(game: Game, strategy: Strategy, sink: TreeSink, first: str | None = None,
              progress: Callable[[int], None] | None = None,
              below: tuple[np.ndarray, History] | None = None,
              scorer: Scorer | None = None, executor: Executor | None = None) -> np.ndarray:
    """:func:`compile_tree`, each node handed to ``sink`` as it is decided (depth first, answers
    in index order) rather than kept: a book can be written as it is built. With an
    ``executor`` (workers), a large game's top is decided here and the sets below it are built
    by the workers (:func:`shares_work`, :func:`_walk_apart`)."""
    scorer = scorer_for(game) if scorer is None else scorer
    if executor is not None and below is None and shares_work(game, strategy):
        strategy.start(game, game.index(first) if first is not None else None)
        with executor.farm(None) as farm:
            depths = _walk_apart(game, strategy, sink, first, progress, scorer.alone(), farm)
        strategy.finished(int(depths.sum()))
        return depths
    texts = game.feedback_texts
    solved = game.solved_index
    first_index = game.index(first) if first is not None else None
    depths = np.zeros(game.size, dtype=np.int64)
    cands, history = below if below is not None else (np.arange(game.size), ())
    base = len(history)
    if below is None:
        strategy.start(game, first_index)
    seed = strategy.seed if strategy.seed is not None else 0
    walked = strategy.walked(game)
    walked_from = WALKED_FROM if strategy.symmetry and game.has_symmetries else game.size
    # (answer that leads here, candidates, history), or None: the node above is complete
    stack: list[tuple[str | None, np.ndarray, History] | None] = [(None, cands, history)]
    asked: list[tuple[State, int]] = []
    while stack:
        top = stack.pop()
        if top is None:
            sink.leave()
            continue
        key, cands, history = top
        if len(cands) == 1 and strategy.first_of_few and (history or first_index is None):
            sink.enter(key, game.code_name(cands[0]))  # the one secret left: guess it
            sink.leave()
            depths[cands[0]] = len(history) - base + 1
            if progress:
                progress(1)
            continue
        level = len(history) - base + 1
        forced = first_index if len(history) == base else None
        if walked is not None and len(cands) <= walked_from and forced is None:
            found = scorer.walk(walked, strategy.pool == "consistent", cands, level, depths,
                                [guess for guess, _ in history])
            if found is not None:
                sink.subtree(key, _named(found, game, texts))
                if progress:
                    progress(len(cands))
                continue
        state = State(game, scorer, cands, history, seed)
        if forced is not None:
            guess = forced
        else:
            guess = chosen(strategy, state)
            if not strategy.pure and len(asked) < RECHECKED_STATES:
                asked.append((state, guess))
        classes = _split(scorer, guess, cands)
        if len(classes) == 1 and classes[0][0] != solved:
            raise StrategyError(
                f"strategy {strategy.name} would never finish: {game.code_name(guess)} {state.describe()} "
                f"does not split the {len(cands)} possible secrets")
        sink.enter(key, game.code_name(guess))
        stack.append(None)
        children: list[tuple[str | None, np.ndarray, History] | None] = []
        for feedback, members in classes:
            if feedback == solved:
                depths[guess] = level
                if progress:
                    progress(1)
                continue
            children.append((texts[feedback], members, (*history, (guess, feedback))))
        stack.extend(reversed(children))
    _ask_again(strategy, game, scorer, asked, seed)
    if below is None:
        strategy.finished(int(depths.sum()))
    return depths


class TreeSink(Protocol):
    """Where the compiler puts the tree: a node is entered (with the answer that leads to it from
    its parent, None at the top) before its children and left after them; a subtree walked
    whole comes at once, as its :data:`Nodes` (:func:`replay` enters and leaves them in turn,
    for a sink with nothing quicker)."""

    def enter(self, key: str | None, guess: str) -> None: ...

    def leave(self) -> None: ...

    def subtree(self, key: str | None, nodes: Nodes) -> None: ...


class NodeBuilder:
    """The tree kept as nested nodes (the book's ``tree``), for a book held in memory."""

    def __init__(self) -> None:
        self._open: list[dict[str, Any]] = []
        self._root: dict[str, Any] = {}

    @property
    def root(self) -> Node:
        return cast(Node, self._root)

    def enter(self, key: str | None, guess: str) -> None:
        node: dict[str, Any] = {"guess": guess, "next": {}}
        if self._open:
            self._open[-1]["next"][key] = node
        else:
            self._root = node
        self._open.append(node)

    def leave(self) -> None:
        self._open.pop()

    def subtree(self, key: str | None, nodes: Nodes) -> None:
        replay(self, key, nodes)


def _split(scorer: Scorer, guess: int, cands: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """A guess's classes of ``cands``: (feedback, its candidates in their order), by feedback."""
    row = scorer.block(np.array([guess]), cands)[0]
    order = np.argsort(row, kind="stable")
    ordered = row[order]
    starts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist()]
    return [(int(ordered[lo]), cands[order[lo:hi]])
            for lo, hi in zip(starts, [*starts[1:], len(order)])]


def replay(sink: TreeSink, key: str | None, nodes: Nodes) -> None:
    """Nodes (guess, answer that leads there, None for the first; level; depth first) entered
    into ``sink`` and left as the compiler itself would, the first under ``key``."""
    opened: list[int] = []
    for guess, answer, level in zip(*nodes):
        while opened and opened[-1] >= level:
            sink.leave()
            opened.pop()
        sink.enter(key if answer is None else answer, guess)
        opened.append(level)
    for _ in opened:
        sink.leave()


def _named(walked: tuple[np.ndarray, np.ndarray, np.ndarray], game: Game,
           texts: list[str]) -> Nodes:
    """A compiled walk's nodes (indices, -1 for the first's answer) by their names."""
    guesses, answers, levels = walked
    return (game.code_names(guesses), [texts[a] if a >= 0 else None for a in answers.tolist()],
            levels.tolist())


def _ask_again(strategy: Strategy, game: Game, scorer: Scorer,
               asked: list[tuple[State, int]], seed: int) -> None:
    """Ask a strategy again at states it was asked before: a different guess means its book
    would depend on the order it was asked in, so it is refused."""
    for state, guess in asked:
        again = chosen(strategy, State(game, scorer, state.candidates, state.history, seed))
        if again != guess:
            raise StrategyError(
                f"strategy {strategy.name} is not deterministic: {state.describe()} it guessed "
                f"{game.code_name(guess)} and then {game.code_name(again)}; derive random choices from "
                "state.rng")


def shares_work(game: Game, strategy: Strategy) -> bool:
    """Whether a build with workers hands them its first guess's classes: a game of
    :data:`APART_FROM` secrets or more and one of treegen's own strategies, each of whose
    subtrees is the same wherever it is built (a strategy of one's own may not be picklable, or
    may keep state between states)."""
    return game.size >= APART_FROM and strategy.builtin and strategy.pure and \
        not strategy.searches


def _walk_apart(game: Game, strategy: Strategy, sink: TreeSink, first: str | None,
                progress: Callable[[int], None] | None, scorer: Scorer, farm: Farm
                ) -> np.ndarray:
    """:func:`walk_tree` with the top of the tree decided here and each set below it built by a
    worker of ``farm`` (largest first), entered into ``sink`` in order as they come back. The
    top is the first guess and every set of more than 1/(:data:`SHARES` x workers) of the game:
    the workers' shares then end near together."""
    texts, solved = game.feedback_texts, game.solved_index
    seed = strategy.seed if strategy.seed is not None else 0
    limit = max(game.size // (SHARES * max(1, farm.jobs)), WALKED_FROM)
    depths = np.zeros(game.size, dtype=np.int64)
    # the top, in the order the sink takes it: ("enter", answer, guess), ("set", k), ("leave",)
    top: list[tuple[Any, ...]] = []
    sets: list[tuple[str, np.ndarray, History]] = []

    def decide(key: str | None, cands: np.ndarray, history: History) -> None:
        guess = game.index(first) if first is not None and not history else \
            chosen(strategy, State(game, scorer, cands, history, seed))
        classes = _split(scorer, guess, cands)
        if len(classes) == 1 and classes[0][0] != solved:
            raise StrategyError(f"strategy {strategy.name} would never finish: {game.code_name(guess)} "
                                f"does not split the {len(cands)} possible secrets")
        top.append(("enter", key, guess))
        for feedback, members in classes:
            after = (*history, (guess, feedback))
            if feedback == solved:
                depths[guess] = len(after)
                if progress:
                    progress(1)
            elif len(members) > limit:  # a few levels at most: each is a share of the game
                decide(texts[feedback], members, after)
            else:
                top.append(("set", len(sets)))
                sets.append((texts[feedback], members, after))
        top.append(("leave",))

    decide(None, np.arange(game.size), ())
    order = sorted(range(len(sets)), key=lambda k: (-len(sets[k][1]), k))
    items = [(game, strategy, scorer, sets[k][1], sets[k][2]) for k in order]
    back: dict[int, tuple[Nodes, np.ndarray]] = {}
    written = 0

    def heard(k: int, solved_now: Any) -> None:
        if progress and isinstance(solved_now, int):
            progress(solved_now)

    def drain() -> None:
        nonlocal written
        while written < len(top):
            event = top[written]
            if event[0] == "enter":
                sink.enter(event[1], game.code_name(event[2]))
            elif event[0] == "leave":
                sink.leave()
            elif event[1] in back:
                walked, found = back.pop(event[1])
                key, members, history = sets[event[1]]
                sink.subtree(key, walked)
                depths[members] = found + len(history)
            else:
                return
            written += 1

    drain()
    for k, result in farm.apart(build_apart, items, heard):
        back[order[k]] = result
        drain()
    return depths


def build_apart(item: tuple[Game, Strategy, Scorer, np.ndarray, History],
                tell: Callable[[Any], None]) -> tuple[Nodes, np.ndarray]:
    """A worker's part of :func:`_walk_apart`: the subtree of one set (its :data:`Nodes`) and
    the guesses each of its secrets needs from it; ``tell`` hears how many secrets are solved,
    a share at a time."""
    game, strategy, scorer, members, history = item  # the parent's scorer, made here once
    nodes = NodeRecorder()
    share, told = max(1, len(members) // 100), 0

    def solved(count: int) -> None:
        nonlocal told
        told += count
        if told >= share:
            tell(told)
            told = 0

    depths = walk_tree(game, strategy, nodes, progress=solved, below=(members, history),
                       scorer=scorer)
    if told:
        tell(told)
    return nodes.nodes, depths[members]


class NodeRecorder:
    """The tree kept as its nodes (:data:`Nodes`): a subtree that travels back from a worker
    compactly, its names those the game already holds."""

    def __init__(self) -> None:
        self._guesses: list[str] = []
        self._answers: list[str | None] = []
        self._levels: list[int] = []
        self._depth = 0

    def enter(self, key: str | None, guess: str) -> None:
        self._guesses.append(guess)
        self._answers.append(key)
        self._levels.append(self._depth)
        self._depth += 1

    def leave(self) -> None:
        self._depth -= 1

    def subtree(self, key: str | None, nodes: Nodes) -> None:
        guesses, answers, levels = nodes
        if not guesses:
            return
        shift = self._depth - levels[0]
        self._guesses.extend(guesses)
        self._answers.append(key)
        self._answers.extend(answers[1:])
        self._levels.extend(level + shift for level in levels)

    @property
    def nodes(self) -> Nodes:
        return self._guesses, self._answers, self._levels
