"""An opening's classes solved exactly, one at a time, each recorded as soon as it is proven.

For a game too large to solve outright, the exact optimum after a fixed first guess splits into one
independent problem per feedback class. Solving them one by one, smallest first, turns a search of
unknown length into facts that accumulate: the record (:mod:`treegen.search.records`) holds each
class's optimal cost and its tree as soon as it is proven, and floors for the rest, so the optimum
after the opening is bracketed at any moment and the work can be continued later, elsewhere, or
spread over machines class by class. The class being searched is checkpointed like any optimal
build.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from treegen import faults, settings
from treegen.compiler import compile_tree
from treegen.data import History, Node
from treegen.errors import ImpossibleError, StrategyError, resumable
from treegen.files.atomic import write_atomic
from treegen.player import brief
from treegen.rules.game import Game
from treegen.run.seam import Executor, Farm, Inline, Plan
from treegen.search.bounds import UNLIMITED
from treegen.search.exact import Search
from treegen.search.facts import Fact, Facts, Reference, fact_file, facts_folder
from treegen.search.options import SearchOptions, effective_depth
from treegen.search.progress import Progress
from treegen.search.records import (
    Record,
    certificate_folder,
    certificate_name,
    certify_entries,
    class_bound,
    fact_path,
    fresh,
    load_record,
    merge,
    read,
    record_text,
    totals,
)
from treegen.search.tasks import Tasks
from treegen.strategies.base import Planned
from treegen.version import __version__

__all__ = ["certify_record", "solve_classes"]

def solve_classes(game: Game | str, first: str, path: str | os.PathLike[str],
                  search: SearchOptions | None = None, *,
                  status: Callable[[Progress], None] | None = None,
                  told: Callable[[dict[str, Any]], None] | None = None,
                  executor: Executor | None = None, rule_out: int | None = None,
                  certificates: bool = True, elsewhere: Mapping[str, int] | None = None,
                  check: bool = True) -> Record:
    """Solve the classes of the opening ``first`` exactly, smallest first, writing the record at
    ``path`` after each (an existing record of the same opening is checked and continued; any other
    file is refused), with the depth limit and memory of ``search``. ``told`` hears of each class
    solved; ``executor`` runs the search's tasks
    (default: this thread). With ``rule_out``, stop as soon as the record's lower bound reaches
    it: the opening then cannot beat a tree of that total, and the rest is not needed to show it;
    each class is then searched within the most it may cost for the opening to beat ``rule_out``,
    and a class that costs more is recorded as costing ``at_least`` one more than that (which
    rules the opening out) instead of being solved. Returns the record: each class's size, floor
    and, once solved, optimal cost and tree; ``lower_bound`` and, when every class is solved,
    ``total``. ``elsewhere`` names certificates checked where they were written (see
    :func:`treegen.search.records.load_record`): a record continued on another machine takes
    them as they are rather than spending hours checking them again before it searches. Without
    ``check``, certificates are written but none is checked here: a large class's check can take
    longer than its search, and another process (``treegen verify RECORD``) does it meanwhile."""
    game, options = _checked(game, search, rule_out)
    executor = executor or Inline()
    path = os.fspath(path)
    first = game.validate_code(first)
    guess = game.index(first)
    limit = effective_depth(game, options.max_depth)
    memory = options.memory
    solver = Search(game, limit, status, None if memory is None else memory // executor.jobs)
    record = fresh(game, first, options.max_depth, solver)
    if os.path.lexists(path):
        record = merge(record, read(path), path)
        certify_entries(record, path, elsewhere, found=False, check=check)
    kept = path + ".checkpoint"
    _resume(solver, kept, record, foreign=certificates)
    opening = _Opening(game, guess, record, path, memory, certificates, told, check)
    by_feedback = {entry["feedback"]: entry for entry in record["classes"]}
    ordered, start, classes = solver.split(guess, np.arange(game.size, dtype=np.int64))
    depth = _child(UNLIMITED if limit is None else limit)
    write_atomic(path, record_text(record))
    with executor.farm(Tasks(solver)) as running:
        if certificates and running.jobs > 1 and rule_out is None:
            opening.apart(running, by_feedback, ordered, start, classes)
        for f in sorted(classes, key=lambda f: (start[f + 1] - start[f], f)):
            entry = by_feedback[game.feedback_texts[f]]
            # a class found and proven whose tree is still to make is checked once it has its
            # tree: the check of a class's certificate and its facts may take longer than that
            if certificates and not entry.get("certified") and ("cost" in entry or (
                    "at_least" in entry and "guess" not in entry)) and \
                    (check or "certificate" not in entry):
                opening.certify(entry, int(f))
            if "cost" in entry:
                continue
            if rule_out is not None and record["lower_bound"] >= rule_out:
                break
            # the most this class may cost for the opening still to beat rule_out
            budget = None if rule_out is None else \
                rule_out - 1 - (record["lower_bound"] - class_bound(entry))
            if not opening.solve(solver, running, entry, int(f), ordered[start[f]:start[f + 1]],
                                 depth, budget):
                break  # more than the budget: the opening is ruled out
            faults.reached("class")
    from treegen.search.checkpoint import remove
    remove(kept)
    return record


def _checked(game: Game | str, search: SearchOptions | None, rule_out: int | None
             ) -> tuple[Game, SearchOptions]:
    """The game and options of :func:`solve_classes`, or a StrategyError naming what is wrong."""
    if isinstance(game, str):
        game = Game.preset(game)
    if not isinstance(game, Game):
        raise StrategyError(f"game must be a Game or a preset name, not {brief(game)}")
    options = search or SearchOptions()
    if not isinstance(options, SearchOptions):
        raise StrategyError(f"search options must be a SearchOptions, not {brief(options)}")
    if rule_out is not None and (isinstance(rule_out, bool) or not isinstance(rule_out, int)
                                 or rule_out < 1):
        raise StrategyError(f"rule_out must be a positive whole number of guesses, not {brief(rule_out)}")
    return game, options


@dataclass
class _Opening:
    """An opening's record as its classes are solved and certified: each written as it lands."""

    game: Game
    guess: int
    record: Record
    path: str
    memory: int | None
    certificates: bool
    told: Callable[[dict[str, Any]], None] | None
    check: bool = True

    def solve(self, solver: Search, farm: Farm, entry: dict[str, Any], feedback: int,
              cands: np.ndarray, depth: int, budget: int | None) -> bool:
        """Solve a class within ``budget`` and record its cost and tree, or that it costs more
        (then False: the opening is ruled out)."""
        child = ((self.guess, feedback),)
        # the search this class had in earlier pieces, ended by a stop: its time counts too
        before = float(entry.get("seconds", 0)) \
            if "at_least" not in entry or "guess" in entry else 0.0
        began = time.monotonic()
        proven = None
        plan: Plan | None
        try:
            if "guess" in entry:  # found and proven by an earlier piece: its tree is left to make
                cost, plan = entry["at_least"], self.planned(solver, entry, cands, depth)
            elif self.certificates and isinstance(farm, Inline):
                # searched and proven in one go, each class settled below it kept as a fact,
                # and with each fact the time searched so far (a piece may end with no stop)
                cost, plan, proven = self.prove(
                    entry, feedback, cands, budget, solver.line.status,
                    lambda: round(before + time.monotonic() - began, 1))
            else:
                cost, plan = solver.best_with(cands, child, depth, farm, follow=1, budget=budget)
        except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
            if resumable(exc):
                if solver.saver is not None:
                    solver.saver()
                entry["seconds"] = round(before + time.monotonic() - began, 1)
                write_atomic(self.path, record_text(self.record))
            raise
        seconds = round(before + time.monotonic() - began, 1)
        entry.pop("certificate", None)
        if plan is None:
            if budget is None:
                raise ImpossibleError(f"impossible: no strategy solves every {self.game.title} "
                                      f"secret in at most {self.record['max_depth']} guesses "
                                      f"opening with {self.record['first']} (the class "
                                      f"{entry['feedback']} has no tree short enough)")
            entry.update(at_least=budget + 1, seconds=seconds)
        else:
            for key in ("at_least", "guess"):  # a bound, superseded by the cost
                entry.pop(key, None)
            entry.update(cost=cost, seconds=seconds,
                         tree=_tree(self.game, plan, cands, child, cost))
            for fact in entry.get("facts", []):  # the class's tree holds them now
                fact.pop("tree", None)
        # kept before the certificate is written, which may take longer than the search: a stop
        # then loses the certificate's work only, and the next run certifies without searching
        totals(self.record)
        write_atomic(self.path, record_text(self.record))
        faults.reached("solved")
        if proven is not None:
            _name_certificate(self.record, entry, self.path, proven, check=self.check)
        elif self.certificates:
            self.certify(entry, feedback)
        if self.told is not None:
            self.told(entry)
        return plan is not None

    def apart(self, farm: Farm, by_feedback: dict[str, dict[str, Any]], ordered: np.ndarray,
              start: np.ndarray, classes: np.ndarray) -> None:
        """Solve and prove the classes open, side by side, one per worker (largest first, so
        that none is left alone at the end); certify those solved without a certificate the
        same way. Each worker's facts are written into the record as they come."""
        game, record = self.game, self.record
        items, entries = [], []
        for f in sorted(classes, key=lambda f: (-(start[f + 1] - start[f]), f)):
            entry = by_feedback[game.feedback_texts[f]]
            solved = "cost" in entry or "at_least" in entry
            if solved and entry.get("certified"):
                continue
            step = (self.guess, int(f))
            if solved and _written(game, record, entry, step, self.path,
                                   entry["cost"] if "cost" in entry else entry["at_least"]):
                self.certify(entry, int(f))  # its certificate is there: only its check is left
                continue
            known = _known_facts(game, entry, step, self.path)
            items.append({
                "game": dict(game.to_dict()), "max_depth": record["max_depth"],
                "history": [step], "cands": ordered[start[f]:start[f + 1]], "budget": None,
                "bound": (entry["cost"] if "cost" in entry else entry["at_least"]) if solved
                else None,
                "memory": None if self.memory is None else self.memory // farm.jobs,
                "fact_words": settings.fact_words(), "split_bytes": settings.split_bytes(),
                "below": _facts_folder(entry),
                "facts": [([list(s) for s in fact.history], fact.bound, fact.exact, ref)
                          for fact, ref in known]})
            entries.append((entry, step))

        def heard(k: int, message: Any) -> None:
            entry, step = entries[k]
            steps, bound, exact, data = message
            _keep_fact(game, record, entry, self.path,
                       Fact((step, *((int(g), int(f)) for g, f in steps)), int(bound),
                            bool(exact)), data)

        from treegen.search.certify import prove_apart
        for k, result in farm.apart(prove_apart, items, heard):
            entry, step = entries[k]
            if result["cost"] >= 0:  # solved here (else only proven: its cost was known)
                cands = items[k]["cands"]
                entry.pop("at_least", None)
                before = float(entry.get("seconds", 0))
                entry.update(cost=result["cost"], seconds=round(before + result["seconds"], 1),
                             tree=_tree(game, result["plan"], cands, (step,), result["cost"]))
            _settle_facts(entry, set(result["used"]), self.path)
            totals(record)
            _name_certificate(record, entry, self.path, result["certificate"], check=self.check)
            faults.reached("class")
            if self.told is not None:
                self.told(entry)

    def planned(self, solver: Search, entry: dict[str, Any], cands: np.ndarray, depth: int
                ) -> Plan:
        """The plan of a class found and proven by an earlier piece, from the guess it recorded
        and the costs of its facts (see :func:`treegen.search.certify.plan_guess`); the facts
        its certificate does not name are let go, as once it is written."""
        from treegen.certificate import CertificateRefused, read_header
        from treegen.search.certify import plan_guess
        step = (self.guess, self.game.feedback_texts.index(entry["feedback"]))
        known = _known_facts(self.game, entry, step, self.path)
        costs = {fact.history: fact.bound for fact, _ in known if fact.exact}
        trees, made = self.subtrees(entry, step)
        plan = plan_guess(solver, cands, (step,), depth, self.game.index(entry["guess"]), costs,
                          trees, made)
        where = os.path.join(os.path.dirname(os.path.abspath(self.path)),
                             *entry["certificate"]["file"].split("/"))
        try:  # else (absent, another file, unreadable) its facts are kept: its check will say
            with open(where, "rb") as fh:
                data = fh.read()
            if hashlib.sha256(data).hexdigest() == entry["certificate"]["sha256"]:
                header, _ = read_header(data)
                _settle_facts(entry, {str(p["sha256"]) for p in header.get("premises", [])
                                      if isinstance(p, dict)}, self.path)
        except (OSError, CertificateRefused):
            pass
        return plan

    def subtrees(self, entry: dict[str, Any], step: tuple[int, int]
                 ) -> tuple[dict[History, Node], Callable[[History, np.ndarray, Plan], None]]:
        """The trees kept in the class's facts (made by earlier pieces below its guess, checked
        as the record was read), by their history; and what keeps each tree made for an exact
        fact in that fact at once, the record written, so that a piece stopped while the class's
        tree is made keeps what it made, and no piece searches it again."""
        def facts() -> dict[History, dict[str, Any]]:  # read when asked: a search adds facts
            return {fact.history: kept for (fact, _), kept in
                    zip(_known_facts(self.game, entry, step, self.path), entry.get("facts", []))}

        def made(child: History, sub: np.ndarray, plan: Plan) -> None:
            fact = facts().get(child)
            if fact is not None and fact["exact"]:
                fact["tree"] = _tree(self.game, plan, sub, child, fact["bound"])
                write_atomic(self.path, record_text(self.record))
            faults.reached("subtree")

        return {h: fact["tree"] for h, fact in facts().items() if "tree" in fact}, made

    def prove(self, entry: dict[str, Any], feedback: int, cands: np.ndarray, budget: int | None,
              status: Callable[[Progress], None] | None,
              searched: Callable[[], float] | None = None) -> tuple[int, Plan | None, bytes]:
        """Solve a class and prove what is found in the same search (see
        :func:`treegen.search.certify.solve_proven`), with the facts of earlier pieces;
        ``searched()``, the class's seconds so far, goes into the record with each new fact."""
        from treegen.search.certify import Claim, solve_proven
        step = (self.guess, feedback)
        facts = _facts(self.game, self.record, entry, step, self.path, searched)
        claim = Claim(self.game, 0, (step,), None, self.record["max_depth"])

        def found(cost: int, guess: int, data: bytes) -> None:
            # kept before the tree is made, which may take long: a piece killed meanwhile leaves
            # the class proven, and the next makes the tree from the guess without a search
            entry.update(at_least=cost, guess=self.game.code_strings[guess])
            if searched is not None:
                entry["seconds"] = searched()
            _write_certificate(self.record, entry, self.path, data)
            totals(self.record)
            write_atomic(self.path, record_text(self.record))
            faults.reached("proven")

        cost, plan, data = solve_proven(claim, cands, budget, self.memory, status, facts, found,
                                        *self.subtrees(entry, step))
        _settle_facts(entry, _taken(facts), self.path)
        return cost, plan, data

    def certify(self, entry: dict[str, Any], feedback: int) -> tuple[float | None, float | None]:
        """Certify a class's cost or bound (see :func:`_certify`)."""
        return _certify(self.game, self.record, entry, (self.guess, feedback), self.path,
                        self.memory, self.check)


def _certify(game: Game, record: Record, entry: dict[str, Any], step: tuple[int, int], path: str,
             memory: int | None, check: bool = True) -> tuple[float | None, float | None]:
    """Write and check the certificate of a class's cost (or bound), beside the record, and name
    it in the class's entry; the seconds each took, None for what was not done here: a
    certificate taken up was written before, and one whose verdict this checker remembered was
    not checked now. The record names the certificate before it is checked: a check stopped then
    goes on when the record is read again, without a new search."""
    from treegen.files.checked import remembered
    from treegen.search.certify import Claim, prove
    bound = entry["cost"] if "cost" in entry else entry["at_least"]
    began = time.monotonic()
    data = _written(game, record, entry, step, path, bound)
    taken = data is not None
    if data is None:
        facts = _facts(game, record, entry, step, path)
        data = prove(Claim(game, bound, (step,), None, record["max_depth"]), memory, facts=facts)
        _settle_facts(entry, _taken(facts), path)
    wrote = time.monotonic()
    judged = taken and remembered(os.path.join(certificate_folder(path),
                                               certificate_name(entry["feedback"])))
    _name_certificate(record, entry, path, data, written=taken, check=check)
    return (None if taken else round(wrote - began, 1),
            None if judged else round(time.monotonic() - wrote, 1))


def _written(game: Game, record: Record, entry: dict[str, Any], step: tuple[int, int], path: str,
             bound: int) -> bytes | None:
    """The certificate already written for a class, where its file says it proves the class's
    claim (a piece stopped before it was checked, or one whose record was committed without it):
    taken up rather than written again, to be checked as any other. None when there is none."""
    from treegen.certificate import CertificateRefused, read_header
    where = os.path.join(certificate_folder(path), certificate_name(entry["feedback"]))
    if not os.path.isfile(where):
        return None
    with open(where, "rb") as fh:
        data = fh.read()
    try:
        header, _ = read_header(data)
    except CertificateRefused:
        return None
    claim = header.get("claim")
    wanted = {"history": [[game.code_strings[step[0]], game.feedback_texts[step[1]]]],
              "first": None, "max_depth": record["max_depth"]}
    if not isinstance(claim, dict) or header.get("game") != dict(game.to_dict()) or \
            any(claim.get(key) != value for key, value in wanted.items()) or \
            type(claim.get("bound")) is not int or claim["bound"] < bound:
        return None
    return data


def _name_certificate(record: Record, entry: dict[str, Any], path: str, data: bytes,
                      written: bool = False, check: bool = True) -> None:
    """Write a class's certificate beside the record (unless it is there already, ``written``),
    name it in the class's entry, and check it (with every other certificate the record names)."""
    _write_certificate(record, entry, path, data, written)
    write_atomic(path, record_text(record))
    certify_entries(record, path, check=check)
    totals(record)
    write_atomic(path, record_text(record))


def _write_certificate(record: Record, entry: dict[str, Any], path: str, data: bytes,
                       written: bool = False) -> None:
    """Write a class's certificate beside the record (unless it is there already, ``written``)
    and name it, not yet checked, in the class's entry."""
    folder = certificate_folder(path)
    os.makedirs(folder, exist_ok=True)
    name = certificate_name(entry["feedback"])
    if not written:
        write_atomic(os.path.join(folder, name), data)
    entry["certificate"] = {"file": f"{os.path.basename(folder)}/{name}",
                            "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    entry.pop("certified", None)


def _facts(game: Game, record: Record, entry: dict[str, Any], step: tuple[int, int],
           path: str, searched: Callable[[], float] | None = None) -> Facts:
    """The facts of a class's proof search: those earlier pieces kept (in the class's entry, their
    certificates in a folder named after the class's), and each new one written there and into
    the record as soon as it is settled (with ``searched()``, the class's seconds so far)."""
    return Facts(game, record["max_depth"], (step,), _known_facts(game, entry, step, path),
                 lambda fact, data: _keep_fact(game, record, entry, path, fact, data, searched),
                 settings.fact_words(), settings.split_bytes())


def _known_facts(game: Game, entry: dict[str, Any], step: tuple[int, int], path: str
                 ) -> list[tuple[Fact, Reference]]:
    """The facts a class's entry names (where their steps put them, as reading the record
    checked), each with its certificate's place as the certificate that names it as a premise
    names it (see :func:`fact_file`)."""
    texts = game.feedback_texts
    known = []
    for kept in entry.get("facts", []):
        steps = [*kept.get("after", []), kept["step"]]
        fact = Fact((step, *((game.index(g), texts.index(f)) for g, f in steps)), kept["bound"],
                    kept["exact"])
        known.append((fact, {"file": fact_file(_facts_folder(entry), fact.history[1:]),
                             "sha256": kept["certificate"]["sha256"]}))
    return known


def _keep_fact(game: Game, record: Record, entry: dict[str, Any], path: str, fact: Fact,
               data: bytes, searched: Callable[[], float] | None = None) -> Reference:
    """Write a fact's certificate in the folder named after its class's (or after the fact's just
    above), and the fact into the class's entry of the record (with ``searched()``, the seconds its
    class was searched so far: a piece killed outright keeps them); where the certificate that
    names it would name it."""
    base = os.path.dirname(os.path.abspath(path))
    file = fact_path(path, entry["feedback"], fact.history[1:])
    where = os.path.join(base, *file.split("/"))
    os.makedirs(os.path.dirname(where), exist_ok=True)
    write_atomic(where, data)
    sha256 = hashlib.sha256(data).hexdigest()
    codes, texts = game.code_strings, game.feedback_texts
    steps = [[codes[g], texts[f]] for g, f in fact.history[1:]]
    kept: dict[str, Any] = {"step": steps[-1]}
    if len(steps) > 1:
        kept["after"] = steps[:-1]
    kept.update(bound=fact.bound, exact=fact.exact,
                certificate={"file": file, "sha256": sha256, "bytes": len(data)})
    # a class settled again (searched anew within a larger budget) replaces its fact: one file
    # a place, one fact a class
    facts = [other for other in entry.get("facts", []) if _steps(other) != _steps(kept)]
    entry["facts"] = [*facts, kept]
    if searched is not None:
        entry["seconds"] = searched()
    write_atomic(path, record_text(record))
    faults.reached("fact")
    return {"file": fact_file(_facts_folder(entry), fact.history[1:]), "sha256": sha256}


def _facts_folder(entry: dict[str, Any]) -> str:
    """The folder, beside a class's certificate, of the certificates of its facts."""
    return facts_folder(certificate_name(entry["feedback"]))


def _settle_facts(entry: dict[str, Any], named: Collection[str], path: str) -> None:
    """Once a class's certificate is written: keep the facts its search took up (``named``, by
    SHA-256; those it needed are its premises) and those their certificates name in turn, and
    remove those it kept itself, which it proves again inside."""
    from treegen.certificate import CertificateRefused, read_header
    base = os.path.dirname(os.path.abspath(path))
    facts = entry.pop("facts", [])
    by_sha256 = {fact["certificate"]["sha256"]: fact for fact in facts}
    kept: set[str] = set()
    todo = [sha256 for sha256 in named if sha256 in by_sha256]
    while todo:
        sha256 = todo.pop()
        if sha256 in kept:
            continue
        kept.add(sha256)
        where = os.path.join(base, *by_sha256[sha256]["certificate"]["file"].split("/"))
        try:
            with open(where, "rb") as fh:
                header, _ = read_header(fh.read())
            todo += [p["sha256"] for p in header.get("premises", [])
                     if isinstance(p, dict) and p.get("sha256") in by_sha256]
        except (OSError, CertificateRefused):  # its check will say; what may lie below it stays
            steps = _steps(by_sha256[sha256])
            todo += [other for other, fact in by_sha256.items()
                     if _steps(fact)[:len(steps)] == steps]
    for fact in facts:
        if fact["certificate"]["sha256"] in kept:
            continue
        where = os.path.join(base, *fact["certificate"]["file"].split("/"))
        if os.path.isfile(where):
            os.remove(where)
        for _ in fact.get("after", []):  # the folders of facts below another, once empty
            where = os.path.dirname(where)
            if os.path.isdir(where) and not os.listdir(where):
                os.rmdir(where)
    if kept:
        entry["facts"] = [fact for fact in facts if fact["certificate"]["sha256"] in kept]


def _steps(fact: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """A fact's steps below its class, as the record names them."""
    return tuple((str(g), str(f)) for g, f in (*fact.get("after", []), fact["step"]))


def _taken(facts: Facts) -> set[str]:
    return {str(premise["sha256"]) for premise in facts.premises()}


def certify_record(path: str | os.PathLike[str], memory: int | None = None,
                   told: Callable[[dict[str, Any]], None] | None = None,
                   elsewhere: Mapping[str, int] | None = None) -> Record:
    """Certify every class of a record that is solved (or bounded) but has no certificate, without
    searching anything else; ``told`` hears of each class certified, with the seconds its
    certificate took to write and to check. A class whose certificate ``elsewhere`` names (see
    :func:`load_record`) has one, here or not. Returns the record."""
    path = os.fspath(path)
    record = load_record(path, memory, elsewhere)
    game = Game.from_dict(record["game"])
    guess = game.index(record["first"])
    for entry in sorted(record["classes"], key=lambda e: (e["secrets"], e["feedback"])):
        if entry.get("certified") or not ("cost" in entry or "at_least" in entry):
            continue
        wrote, checked = _certify(game, record, entry,
                                  (guess, game.feedback_texts.index(entry["feedback"])), path, memory)
        if told is not None:
            told({**entry, "seconds": wrote, "check_seconds": checked})
    return record


def _child(depth: int) -> int:
    return depth - 1 if depth >= 0 else UNLIMITED


def _tree(game: Game, plan: Plan, cands: np.ndarray, history: History, cost: int) -> Node:
    """The tree of a solved class, compiled from the search's plan; it must cost what the search
    said."""
    tree, depths = compile_tree(game, Planned(plan), below=(cands, history))
    if int(depths.sum()) != cost:
        raise StrategyError(f"the search found a cost of {cost} but its tree costs "
                            f"{int(depths.sum())}: its caches are inconsistent (a damaged "
                            "checkpoint?)")
    return tree


def _resume(search: Search, path: str, record: Record, foreign: bool) -> None:
    """Continue the class being searched from its checkpoint, and keep one as the search goes.
    With ``foreign`` (the classes are certified) the checkpoint may come from another machine,
    committed beside the record: a class's cost is believed only once its certificate, written
    by a search of its own and checked by the independent checker, proves it, and its tree is
    counted again on reading, so the checkpoint is a speed-up and nothing more."""
    from treegen.search import checkpoint
    from treegen.search.native import CACHE_FORMAT
    identity = {"treegen": __version__, "cache": CACHE_FORMAT, "game": record["game"],
                "strategy": "classes", "max_depth": record["max_depth"], "first": record["first"]}
    checkpoint.check_place(path)
    if os.path.lexists(path):
        search.restore(checkpoint.load(path, identity, ("exact", "lower"), search.game.size,
                                       foreign=foreign))
    search.saver = checkpoint.keeper(path, identity, search.caches)

