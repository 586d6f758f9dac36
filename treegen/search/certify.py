"""Certificates: the searches that prove a lower bound, whose proof is then cut from their tape
into a file that a small independent program checks (:mod:`treegen.search.certificate_file`;
the checker is :mod:`treegen.certificate`, the format docs/certificate-format.md).

A bound is proven by searching for a tree that beats it and failing: the exact search with the
budget one below the bound, run in this process with its proof written as it goes
(:mod:`treegen.search.proof_log`). Its every refutation of a guess is kept; what it tried and
superseded is not reachable from the root claim and is left out.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from treegen import settings
from treegen.data import History, Node
from treegen.errors import CertificateError
from treegen.files.atomic import write_atomic
from treegen.rules.game import Game
from treegen.run.seam import Inline, Plan
from treegen.search.bounds import UNLIMITED
from treegen.search.certificate_file import Claim, certificate_bytes
from treegen.search.exact import Search
from treegen.search.facts import (
    FACT_FILE,
    Fact,
    Facts,
    Reference,
    fact_file,
    fact_place,
    facts_folder,
)
from treegen.search.progress import Progress
from treegen.search.proof_log import ProofLog
from treegen.search.tape import MASK_SYMBOLS
from treegen.search.tasks import Tasks

__all__ = ["CertificateError", "Claim", "prove", "prove_apart", "solve_proven",
           "write_certificate"]

def prove(claim: Claim, memory: int | None = None,
          status: Callable[[Progress], None] | None = None, facts: Facts | None = None) -> bytes:
    """The certificate of ``claim`` (a file's bytes); a CertificateError when a tree beats the
    bound (the claim is false). ``facts`` gives the search its facts (see
    :mod:`treegen.search.facts`): those it takes up are the certificate's premises."""
    proof, root, facts = _refute(claim, memory, status, facts)
    return _cut(claim, proof, root, facts)


def write_certificate(claim: Claim, path: str | os.PathLike[str], memory: int | None = None,
                      status: Callable[[Progress], None] | None = None,
                      split: int | None = None) -> int:
    """Prove ``claim`` and write its certificate at ``path``; its size. With ``split``, a
    certificate that would pass that many bytes names its largest classes as premises, each a
    certificate of its own (split the same way) in the folder named after it
    (:func:`~treegen.search.facts.facts_folder`); a claim that forces its first guess is
    written whole, and so is one whose folder would be anything but such certificates. The facts
    are gathered apart and take the folder's place only with the certificate, so a search that
    fails leaves the certificate there and its premises as they were."""
    path = os.fspath(path)
    target = os.path.realpath(path)
    where, name = os.path.split(target)
    below = facts_folder(name)
    folder = os.path.join(where, below)
    if split is not None and not _splittable(target, name, folder):
        split = None
    gathered = os.path.join(where, f".{below}.{os.getpid()}.facts")
    written: dict[str, str] = {}  # the SHA-256 of each fact's certificate written, by place

    def keep(fact: Fact, data: bytes) -> Reference:
        place = os.path.join(gathered, *fact_place(below, fact.history[len(claim.history):])[1:])
        os.makedirs(os.path.dirname(place), exist_ok=True)
        write_atomic(place, data)
        sha256 = hashlib.sha256(data).hexdigest()
        written[place] = sha256
        return {"file": fact_file(below, fact.history[len(claim.history):]), "sha256": sha256}

    try:
        facts = None if split is None else \
            Facts(claim.game, claim.max_depth, claim.history, [], keep, settings.fact_words(),
                  split, deep=False)
        data = prove(claim, memory, status, facts)
        named = set() if facts is None else facts.files()
        for place, sha256 in written.items():  # proven again inside the certificate
            if sha256 not in named:
                os.remove(place)
        if split is not None and os.path.isdir(folder):
            shutil.rmtree(folder)  # the premises of the certificate this one replaces
        if named:
            for inside, _, files in os.walk(gathered, topdown=False):
                if inside != gathered and not files and not os.listdir(inside):
                    os.rmdir(inside)  # a folder of facts all proven again above
            os.rename(gathered, folder)
        write_atomic(path, data)
    finally:
        if os.path.isdir(gathered):
            shutil.rmtree(gathered)
    return len(data)


def _splittable(target: str, name: str, folder: str) -> bool:
    """Whether a certificate may name premises in the folder named after it: a regular file (or
    none yet) with a name of its own, whose folder holds nothing but facts' certificates (those
    of the certificate it replaces)."""
    if not name.endswith(".cert") or name == ".cert" or \
            (os.path.exists(target) and not os.path.isfile(target)):
        return False
    if not os.path.lexists(folder):
        return True
    return _only_facts(folder)


def _only_facts(folder: str) -> bool:
    """Whether a folder (not a link) holds facts' certificates only, and their folders likewise."""
    if not os.path.isdir(folder) or os.path.islink(folder):
        return False
    for entry in os.listdir(folder):
        inside = os.path.join(folder, entry)
        if FACT_FILE.fullmatch(entry + ".cert") and os.path.isdir(inside):
            if not _only_facts(inside):
                return False
        elif not (FACT_FILE.fullmatch(entry) and os.path.isfile(inside) and
                  not os.path.islink(inside)):
            return False
    return True


def solve_proven(claim: Claim, cands: np.ndarray, budget: int | None, memory: int | None = None,
                 status: Callable[[Progress], None] | None = None, facts: Facts | None = None,
                 found: Callable[[int, int, bytes], None] | None = None,
                 trees: Mapping[History, Node] | None = None,
                 made: Callable[[History, np.ndarray, Plan], None] | None = None
                 ) -> tuple[int, Plan | None, bytes]:
    """Solve the set after the claim's history exactly (within ``budget`` when given) and prove
    it in the same search: (cost, plan, certificate of that cost), or (-1, None, certificate that
    the set needs more than ``budget``). The claim's bound is not used. One search instead of a
    search and then a proof of what it found. The plan is made afterwards (see :func:`plan_guess`),
    once ``found`` has heard the cost, the guess and the certificate: making it may take a while;
    ``trees`` and ``made`` are those of :func:`plan_guess`."""
    game, history = claim.game, claim.history
    search = Search(game, claim.max_depth, status, memory, proof=True)
    search.facts = facts
    depth = UNLIMITED if claim.max_depth is None else claim.max_depth - len(history)
    with Inline().farm(Tasks(search)) as farm:
        cost, plan = search.best_with(cands, history, depth, farm, budget=budget)
    proof = search.proof
    assert proof is not None
    if plan is None and budget is None:
        raise CertificateError("no tree fits the depth limit: nothing to certify")
    if not proof.sound:
        raise CertificateError("the search used a bound it cannot back; no certificate written")
    bound = cost if plan is not None else budget + 1  # type: ignore[operator]
    data = _cut(Claim(game, bound, history, None, claim.max_depth), proof, proof.of(history), facts)
    if plan is None:
        return -1, None, data
    guess = plan[history]
    if found is not None:
        found(cost, guess, data)
    costs = {} if facts is None else facts.costs()
    search.proof = search.facts = None  # proven: the plan needs no proof
    return cost, plan_guess(search, cands, history, depth, guess, costs, trees, made), data


def plan_guess(search: Search, cands: np.ndarray, history: History, depth: int, guess: int,
               costs: Mapping[History, int], trees: Mapping[History, Node] | None = None,
               made: Callable[[History, np.ndarray, Plan], None] | None = None) -> Plan:
    """The plan of a set's subtree from its optimal ``guess``: each class of the guess taken
    from the tree made for it before (``trees``, checked as the record was read), or searched
    within the cost a fact gave it (``costs``: far faster than a search for its optimum, and in
    the top levels' symmetry), or found in the caches, then planned in compiled code; ``made``
    hears each class planned that had a fact, with its secrets and plan, so that its tree is
    kept and never searched again."""
    plan: Plan = {history: guess}
    ordered, start, classes = search.split(guess, cands)
    below = depth - 1 if depth >= 0 else UNLIMITED
    for f in classes:
        child, sub = (*history, (guess, int(f))), ordered[start[f]:start[f + 1]]
        if trees is not None and child in trees:
            plan.update(plan_of_tree(search.game, trees[child], child))
            continue
        if child in costs and search.cost(sub, child, costs[child], below) != costs[child]:
            game = search.game
            steps = ", ".join(f"{game.code_strings[g]} {game.feedback_texts[a]}" for g, a in child)
            raise CertificateError(f"the class after {steps} does not cost {costs[child]}, as "
                                   "its fact says")
        planned = search.plan(sub, child, below)
        plan.update(planned)
        if made is not None and child in costs:
            made(child, sub, planned)
    return plan


def plan_of_tree(game: Game, tree: Node, history: History) -> Plan:
    """The plan a tree is: the guess of each of its states, by the history that reaches it."""
    plan: Plan = {}
    texts = {text: k for k, text in enumerate(game.feedback_texts)}
    todo = [(tree, history)]
    while todo:
        node, here = todo.pop()
        guess = game.index(node["guess"])
        plan[here] = guess
        todo += [(child, (*here, (guess, texts[answer])))
                 for answer, child in node.get("next", {}).items()]
    return plan


def prove_apart(spec: dict[str, Any], tell: Callable[[Any], None]) -> dict[str, Any]:
    """One class proven by a worker of its own (see :meth:`treegen.run.seam.Farm.apart`): solved
    and proven in one search, or, given its ``bound``, proven only. ``spec`` says the game, the
    class (its history and secrets), the budget, the memory, the facts known, the folder of those
    it keeps and the size past which it names them (``below``, ``split_bytes``); each fact kept is
    told as (its steps below the class, bound, exact, certificate bytes). Returns the cost and
    plan found (cost -1 when only proven or over the budget), the certificate's bytes, the SHA-256
    of the facts it names as premises and the seconds it took."""
    began = time.monotonic()
    game = Game.from_dict(spec["game"])
    history = tuple((int(g), int(f)) for g, f in spec["history"])
    known = [(Fact(tuple((int(g), int(f)) for g, f in h), bound, exact), ref)
             for h, bound, exact, ref in spec["facts"]]
    facts = Facts(game, spec["max_depth"], history, known,
                  lambda fact, data: _told(tell, spec["below"], history, fact, data),
                  spec["fact_words"], spec["split_bytes"])
    claim = Claim(game, spec["bound"] or 0, history, None, spec["max_depth"])
    if spec["bound"] is not None:
        cost, plan = -1, None
        data = prove(claim, spec["memory"], facts=facts)
    else:
        cost, plan, data = solve_proven(claim, np.asarray(spec["cands"], dtype=np.int64),
                                        spec["budget"], spec["memory"], facts=facts)
    return {"cost": cost, "plan": plan, "certificate": data,
            "used": [p["sha256"] for p in facts.premises()],
            "seconds": time.monotonic() - began}


def _told(tell: Callable[[Any], None], below: str, root: History, fact: Fact, data: bytes
          ) -> Reference:
    """A fact kept by a worker: told to the process that writes it (its steps below ``root``),
    and where it will be."""
    tell((fact.history[len(root):], fact.bound, fact.exact, data))
    return {"file": fact_file(below, fact.history[len(root):]), "sha256": hashlib.sha256(data).hexdigest()}


def _cut(claim: Claim, proof: ProofLog, root: int, facts: Facts | None) -> bytes:
    """The certificate of ``claim`` cut from ``proof`` at ``root``: with facts, naming those
    taken up (and, past their split, those kept) as premises."""
    if facts is None:
        return certificate_bytes(claim, proof.tape, root, proof.symmetries)
    return facts.certificate(claim, proof, root)


def _refute(claim: Claim, memory: int | None, status: Callable[[Progress], None] | None,
            facts: Facts | None = None) -> tuple[ProofLog, int, Facts | None]:
    """The proof of the search that fails to beat the claim's bound, the offset of its root
    claim, and the facts it used (none when the claim forces a first guess)."""
    game = claim.game
    if any(feedback == game.solved_index for _, feedback in claim.history):
        raise CertificateError("the history ends the game: there is nothing to certify")
    if game.has_symmetries and len(game.symbols) > MASK_SYMBOLS:
        raise CertificateError(f"certificates of games of more than {MASK_SYMBOLS} symbols are "
                               "not supported")
    search = Search(game, claim.max_depth, status, memory, proof=True)
    if facts is not None and claim.first is None:
        search.facts = facts
    cands = np.arange(game.size, dtype=np.int64)
    for guess, feedback in claim.history:
        cands = cands[search.context.table[guess, cands] == feedback]
    depth = UNLIMITED if claim.max_depth is None else claim.max_depth - len(claim.history)
    forced = None if claim.first is None else np.array([claim.first], dtype=np.int64)
    with Inline().farm(Tasks(search)) as farm:
        cost, _ = search.best_with(cands, claim.history, depth, farm, forced,
                                   budget=claim.bound - 1)
    if cost >= 0:
        raise CertificateError(f"a tree of total {cost} exists: no certificate of a bound of "
                               f"{claim.bound}")
    proof = search.proof
    assert proof is not None
    if not proof.sound:
        raise CertificateError("the search used a bound it cannot back; no certificate written")
    return proof, proof.of(claim.history), search.facts
