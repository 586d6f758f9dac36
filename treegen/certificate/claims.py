"""The claims of a certificate checked one by one, in order, each against the set its first user
names (see :mod:`treegen.certificate`)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Collection
from typing import Any

import numpy as np

from treegen.certificate.file import (
    MOST_PREMISES,
    Proven,
    afford,
    fail,
    memory_available,
    read_certificate,
    read_file,
    read_header,
)
from treegen.certificate.floors import Floors
from treegen.certificate.rules import INFINITE, rules_of, within


def check(source: str | bytes, folder: str | None = None,
          checked: dict[str, Proven] | None = None, done: Collection[int] = (),
          passed: Callable[[int], None] | None = None, memory: int | None = None) -> Proven:
    """Check a certificate (a file's path or its bytes): what it proves, or a CertificateRefused
    naming its first flaw. Its premises are read from ``folder`` (by default the file's own);
    ``checked`` holds the certificates already checked, by SHA-256 (this function adds to it).
    A certificate found there is taken as checked only once its premises are found again, each
    the regular file of the SHA-256 it names: a verdict is of the bytes, the premises are files.
    Nothing is allocated beyond ``memory`` bytes (by default the memory available now).

    A long check can be taken in parts: ``passed`` hears the number of each claim as it passes,
    and the claims in ``done`` (ones that passed in an earlier check of these very bytes, as the
    caller remembers it) are not checked again, only followed to the sets they name."""
    memory = memory_available() if memory is None else memory
    if isinstance(source, str):
        data = read_file(source, memory)
        folder = os.path.dirname(source) if folder is None else folder
    else:
        data = source
    checked = {} if checked is None else checked
    digest = hashlib.sha256(data).hexdigest()
    if digest in checked:
        header, _ = read_header(data, memory)
        premises = header.get("premises", [])
        for k in range(len(premises) if isinstance(premises, list) else 0):
            _premise_file(premises, k, folder or ".", checked, memory)
    else:
        header, arrays = read_certificate(data, memory)
        checked[digest] = Checker(header, arrays, folder or ".", checked, memory).run(done, passed)
    return checked[digest]


def premise_path(folder: str, name: object) -> str:
    """Where the premise named ``name`` in a certificate of ``folder`` is: a relative path with
    '/' that resolves, symbolic links followed, inside ``folder``; a name that leads out of it is
    refused (a premise is part of the folder that is checked, not any file a link reaches). Its
    own premises are named from the folder of this path."""
    if not isinstance(name, str) or "\\" in name or "\0" in name or \
            any(part in ("", ".", "..") for part in name.split("/")):
        fail(f"a premise named {name!r} is not a file in the certificate's folder or below")
    where = os.path.join(folder, *name.split("/"))
    real, home = os.path.realpath(where), os.path.realpath(folder)
    if os.path.commonpath([real, home]) != home:
        fail(f"premise {name} leads out of the certificate's folder (to {real})")
    return where


def _premise_file(premises: list[Any], k: int, folder: str, checked: dict[str, Proven],
                  memory: int) -> tuple[dict[str, Any], Proven]:
    """Premise ``k`` found and checked (or found again, when it was): the regular file inside the
    certificate's folder whose SHA-256 is the one named."""
    premise = premises[k]
    if not isinstance(premise, dict) or not isinstance(premise.get("file"), str) or \
            type(premise.get("bound")) is not int or not isinstance(premise.get("sha256"), str):
        fail(f"premise {k} of the certificate is malformed")
    name = premise["file"]
    where = premise_path(folder, name)
    data = read_file(where, memory)
    if hashlib.sha256(data).hexdigest() != premise["sha256"]:
        fail(f"premise {name} is not the file the certificate names (its SHA-256 differs)")
    if len(checked) > MOST_PREMISES:
        fail("the certificate's premises go on without end")
    return premise, check(data, os.path.dirname(where), checked, memory=memory)


class Checker:
    def __init__(self, header: dict[str, Any], arrays: dict[str, np.ndarray], folder: str,
                 checked: dict[str, Proven], memory: int) -> None:
        self.header, self.a = header, arrays
        self.folder, self.checked, self.memory = folder, checked, memory
        self.game = rules_of(header["game"], memory)
        self.floors = Floors(self.game)
        self.nfb = len(self.game.answers)
        self.claims = len(arrays["bound"])
        self.starts = np.concatenate([[0], np.cumsum(arrays["count"])])
        self.perms: dict[int, np.ndarray] = {}
        self.orbits: dict[int, np.ndarray] = {}
        self.reps: dict[int, np.ndarray] = {}
        self.set_starts = np.concatenate([[0], np.cumsum(arrays["size"])])
        self.pending: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
        self.digests: dict[int, bytes] = {}
        #: Bytes of the sets pending, named by a claim and not checked yet.
        self.held = 0
        self.every = np.arange(len(self.game.codes))
        self._check_ranges()

    def _check_ranges(self) -> None:
        a, game = self.a, self.game
        if self.claims == 0 or self.starts[-1] != len(a["guess"]) or \
                self.set_starts[-1] != len(a["member"]):
            fail("the certificate's counts do not add up")
        checks = (("depth", -1, 127), ("set", -1, len(a["size"]) - 1),
                  ("guess", 0, len(game.codes) - 1), ("feedback", 0, self.nfb - 1),
                  ("child", -len(self._premises()), self.claims - 1),
                  ("positions", 0, game.length - 1),
                  ("symbols", 0, game.nsym - 1), ("member", 0, len(a["positions"]) // game.length - 1),
                  ("bound", 0, INFINITE))
        for name, low, high in checks:
            values = a[name]
            if len(values) and (values.min() < low or values.max() > high):
                fail(f"the certificate's {name} values are out of range")

    def run(self, done: Collection[int] = (), passed: Callable[[int], None] | None = None
            ) -> Proven:
        game, claim = self.game, self.header.get("claim")
        if not isinstance(claim, dict):
            return fail("the certificate states no claim")
        history, first, depth, bound = (claim.get(k) for k in ("history", "first", "max_depth", "bound"))
        if type(bound) is not int or not 0 < bound <= INFINITE or \
                (depth is not None and (type(depth) is not int or not 0 < depth <= 127)) or \
                not isinstance(history, list) or \
                (first is not None and game.number(first) is None):
            fail("the certificate's claim is malformed")
        cands = np.arange(game.secrets)
        allowed = self.every if game.hard else None
        for step in history:
            if not isinstance(step, list) or len(step) != 2 or not isinstance(step[0], str) or \
                    not isinstance(step[1], str) or game.number(step[0]) is None or \
                    step[1] not in game.answers:
                fail(f"the certificate's history step {step!r} is not a guess and an answer")
            if game.answers.index(step[1]) == game.solved:
                fail(f"the certificate's history ends the game at {step[0]}: nothing to claim")
            guess, answer = game.number(step[0]), game.answers.index(step[1])
            assert guess is not None
            cands = cands[game.score(np.array([guess]), cands)[:, 0] == answer]
            if allowed is not None:
                allowed = game.keeps(guess, answer, allowed)
        left = -1 if depth is None else depth - len(history)
        if len(cands) == 0 or (depth is not None and left < 0):
            fail("the certificate's history leaves nothing to claim")
        if self.a["depth"][0] != left or self.a["bound"][0] != bound:
            fail("the certificate's first claim is not its statement")
        self.first = None if first is None else game.number(first)
        self.pending[0] = (cands, allowed)
        self.held += _bytes(cands, allowed)
        self.digests[0] = _digest(cands, allowed, left)
        for i in range(self.claims):
            if i not in self.pending:
                fail(f"claim {i} is not reached from the claims before it")
            cands, allowed = self.pending.pop(i)
            self.held -= _bytes(cands, allowed)
            if i in done:
                self._follow(i, cands, allowed)
                continue
            self._claim(i, cands, allowed)
            if passed is not None:
                passed(i)
        return Proven(dict(self.header["game"]), history, first, depth, bound, self.claims,
                      len(self.a["guess"]), str(self.header.get("treegen", "")))

    # -- one claim ---------------------------------------------------------------------------

    def _follow(self, i: int, cands: np.ndarray, allowed: np.ndarray | None) -> None:
        """Bind the sets claim ``i`` names to their claims, without checking it (it passed
        before): the classes of its entries, from their guesses' answers alone."""
        a, game = self.a, self.game
        depth = int(a["depth"][i])
        lo, hi = self.starts[i], self.starts[i + 1]
        guesses, answers, children = a["guess"][lo:hi], a["feedback"][lo:hi], a["child"][lo:hi]
        if depth == 0 or hi == lo:
            return
        named = np.unique(guesses)
        if not np.all(within(named, self.every)):
            fail(f"claim {i} names a guess that is no code")
        scores = game.score(named, cands)
        where = np.searchsorted(named, guesses)
        child = depth - 1 if depth > 0 else -1
        for e in np.flatnonzero(children >= 0):
            sub = cands[scores[:, where[e]] == answers[e]]
            later = None if allowed is None else \
                game.keeps(int(guesses[e]), int(answers[e]), allowed)
            self._bind(i, int(children[e]), sub, later, child)

    def _claim(self, i: int, cands: np.ndarray, allowed: np.ndarray | None) -> None:
        a, game = self.a, self.game
        depth, bound = int(a["depth"][i]), int(a["bound"][i])
        lo, hi = self.starts[i], self.starts[i + 1]
        guesses, answers, children = a["guess"][lo:hi], a["feedback"][lo:hi], a["child"][lo:hi]
        if depth == 0:
            if hi > lo:
                fail(f"claim {i} has no guess left but lists entries")
            return  # no tree at all: any bound holds
        if hi == lo and i > 0 and self.floors.suffice(cands, allowed, depth, bound):
            return
        keys = guesses * self.nfb + answers
        if np.any(np.diff(keys) <= 0):
            fail(f"claim {i}'s entries are not in order or repeat")
        pool = allowed if allowed is not None else self.every
        if i == 0 and self.first is not None:
            if np.any(guesses != self.first) or not np.isin(self.first, pool):
                fail("the certificate's first claim is not about its opening guess")
            tried = np.array([self.first])
        else:
            reps = self._representatives(int(a["set"][i]), cands, allowed)
            tried = reps if np.all(within(guesses, reps)) else np.union1d(reps, guesses)
        if not np.all(within(guesses, pool)):
            fail(f"claim {i} names a guess its rules do not allow")
        scores = game.score(tried, cands)
        counts = self.floors.counts(scores)
        if i == 0 and self.first is not None:
            widest = self.floors.widest(cands, pool)
        else:
            widest = int(((counts > 0).sum(axis=1) - (counts[:, game.solved] > 0)).max())
        child = depth - 1 if depth > 0 else -1
        level = self.floors.level(widest, child)
        values = self.floors.values(counts, tried, cands, level)
        where = np.searchsorted(tried, guesses)
        if np.any(values[where] >= INFINITE):
            fail(f"claim {i} names a class of a guess that splits nothing")
        subs, laters, shown = [], [], np.zeros(len(guesses), dtype=np.int64)
        for e in range(len(guesses)):
            row, answer = where[e], int(answers[e])
            if counts[row, answer] == 0 or answer == game.solved:
                fail(f"claim {i} names an empty or solved class")
            subs.append(cands[scores[:, row] == answer])
            laters.append(None if allowed is None else game.keeps(int(guesses[e]), answer, allowed))
            if children[e] >= 0:
                shown[e] = self._bind(i, int(children[e]), subs[e], laters[e], child)
            else:
                if i != 0:
                    fail(f"claim {i} names a premise: only the first claim may")
                step = [game.name(int(guesses[e])), game.answers[answer]]
                shown[e] = self._premise(-1 - int(children[e]), step)
        sizes = counts[where, answers]
        np.add.at(values, where, np.maximum(shown, level[sizes]) - level[sizes])
        listed = np.zeros(counts.shape, dtype=bool)
        listed[where, answers] = True
        if i == 0 and self.first is not None:
            if values[0] >= INFINITE and counts[0].max() == len(cands) and \
                    not within(tried, cands)[0]:
                fail("the certificate's opening guess splits nothing: a tree opening with it is "
                     "no tree the claim can speak of")
            short = np.flatnonzero(values < bound)
        else:
            labels = self.labels_of(int(a["set"][i]))[tried]
            if np.array_equal(labels, tried):  # one guess an orbit: each stands for itself
                short = np.flatnonzero(values < bound)
            else:
                best = np.full(len(self.every), -1, dtype=np.int64)
                np.maximum.at(best, labels, np.minimum(values, INFINITE))
                # of an orbit short of the bound, the member that reaches furthest
                short = np.flatnonzero(best[labels] < bound)
                short = short[values[short] == best[labels[short]]]
                short = short[np.unique(labels[short], return_index=True)[1]]
        if len(short):
            self._floors_reach(i, bound, short, values, counts, scores, listed, tried, cands,
                               allowed, child, widest, level)

    def _floors_reach(self, i: int, bound: int, short: np.ndarray, values: np.ndarray,
                      counts: np.ndarray, scores: np.ndarray, listed: np.ndarray,
                      tried: np.ndarray, cands: np.ndarray, allowed: np.ndarray | None,
                      child: int, widest: int, level: np.ndarray) -> None:
        """Raise each guess short of the bound by the one-step floors of its classes that no
        entry names, until it reaches the bound; a guess still short then is the claim's flaw.
        Outside hard mode each class is first bounded from below by its own secrets as guesses
        (:meth:`Floors.lower`), which settles many guesses at little cost; the others' classes
        then get their floors, largest class first."""
        sizes = np.where(listed, 0, counts)
        sizes[:, self.game.solved] = 0
        base = level[sizes]  # what each class counts for in ``values`` so far
        if allowed is None:
            rows, answers = np.nonzero(sizes[short] > 2)
            rows = short[rows]
            if len(rows):
                flat, size = self.floors.grouped(cands, scores, rows, answers)
                low, exact = self.floors.lower(flat, size, child, widest)
                low = np.maximum(low, base[rows, answers])
                np.add.at(values, rows, low - base[rows, answers])
                base[rows, answers] = low
                sizes[rows[exact], answers[exact]] = 0  # its floor is counted already
            short = short[values[short] < bound]
        order = np.argsort(-sizes[short], axis=1, kind="stable")
        for step in range(self.nfb):
            answers = order[:, step]
            size = sizes[short, answers]
            open_ = (size > 2) & (values[short] < bound)
            rows, answers = short[open_], answers[open_]
            if len(rows) == 0:
                break
            flat, size = self.floors.grouped(cands, scores, rows, answers)
            subs = np.split(flat, np.cumsum(size)[:-1])
            laters = [None if allowed is None else self.game.keeps(int(tried[r]), int(f), allowed)
                      for r, f in zip(rows, answers)]
            floors = self.floors.floors(subs, laters, child, widest)
            counted = base[rows, answers]
            np.add.at(values, rows, np.maximum(floors, counted) - counted)
        still = short[values[short] < bound]
        if len(still):
            fail(f"claim {i} (bound {self.a['bound'][i]}) fails: guess "
                  f"{self.game.name(int(tried[still[0]]))} of its set reaches only "
                  f"{values[still[0]]}")

    def _premises(self) -> list[Any]:
        premises = self.header.get("premises", [])
        if not isinstance(premises, list) or len(premises) > MOST_PREMISES:
            fail("the certificate's premises are not a list")
        return premises

    def _premise(self, k: int, step: list[str]) -> int:
        """The bound premise ``k`` proves for the class reached by ``step`` from the statement."""
        premise, proven = _premise_file(self._premises(), k, self.folder, self.checked,
                                        self.memory)
        name = premise["file"]
        claim = self.header["claim"]
        if proven.game != self.header["game"] or proven.max_depth != claim.get("max_depth") or \
                proven.first is not None or proven.history != [*claim["history"], step] or \
                proven.bound < premise["bound"] or premise.get("history") != proven.history:
            fail(f"premise {name} proves another claim than the class it stands for")
        return int(premise["bound"])

    def _bind(self, i: int, target: int, cands: np.ndarray, allowed: np.ndarray | None,
              depth: int) -> int:
        """The bound of claim ``target`` for a class of claim ``i``: the claim is about that set."""
        if target <= 0 or target == i:
            fail(f"claim {i} names claim {target} for one of its classes")
        if int(self.a["depth"][target]) != depth:
            fail(f"claim {i} names claim {target} of another depth for one of its classes")
        digest = _digest(cands, allowed, depth)
        known = self.digests.get(target)
        if known is None:
            if target < i:
                fail(f"claim {i} names claim {target}, which no earlier claim reached")
            self.digests[target] = digest
            self.pending[target] = (cands, allowed)
            self.held += _bytes(cands, allowed)
            afford(f"claim {i}: the sets named and not checked yet", self.held, self.memory // 2)
        elif known != digest:
            fail(f"claim {target} is used for two different sets")
        return int(self.a["bound"][target])

    # -- symmetries and level filling ------------------------------------------------------------

    def _orbit_labels(self, which: int, cands: np.ndarray, allowed: np.ndarray | None
                      ) -> np.ndarray:
        """The symmetries of set ``which`` checked on this claim's set (and allowed guesses), and
        each code's orbit under them, named by its first code."""
        if which >= 0:
            for k in self._members(which):
                perm = self._perm(k)
                if not np.array_equal(np.sort(perm[cands]), cands) or \
                        (allowed is not None and not np.array_equal(np.sort(perm[allowed]), allowed)):
                    fail("a symmetry of the certificate does not map its claim's set onto itself")
        return self.labels_of(which)

    def _representatives(self, which: int, cands: np.ndarray, allowed: np.ndarray | None
                         ) -> np.ndarray:
        """The allowed guesses that name their orbits under the symmetries of set ``which``,
        those symmetries checked on this claim's set first."""
        labels = self._orbit_labels(which, cands, allowed)
        if allowed is not None:
            kept: np.ndarray = allowed[labels[allowed] == allowed]
            return kept
        if which not in self.reps:
            if sum(r.nbytes for r in self.reps.values()) > self.memory // 8:
                self.reps.clear()
            self.reps[which] = self.every[labels == self.every]
        return self.reps[which]

    def _members(self, which: int) -> np.ndarray:
        return self.a["member"][self.set_starts[which]:self.set_starts[which + 1]]

    def labels_of(self, which: int) -> np.ndarray:
        if which < 0:
            return self.every
        if which not in self.orbits:
            if len(self.orbits) * self.every.nbytes > self.memory // 8:
                self.orbits.clear()  # a set's orbits cost a number a code: kept while they fit
            labels = self.every.copy()
            perms = [self._perm(int(k)) for k in self._members(which)]
            inverses = [np.argsort(p) for p in perms]
            while True:
                before = labels
                for p, q in zip(perms, inverses):
                    labels = np.minimum(labels, np.minimum(labels[p], labels[q]))
                while True:
                    jumped = labels[labels]
                    if np.array_equal(jumped, labels):
                        break
                    labels = jumped
                if np.array_equal(before, labels):
                    break
            self.orbits[which] = labels
        return self.orbits[which]

    def _perm(self, k: int) -> np.ndarray:
        if k not in self.perms:
            if len(self.perms) * self.every.nbytes > self.memory // 8:
                self.perms.clear()  # a symmetry's images cost a number a code: kept while they fit
            game = self.game
            positions = self.a["positions"][k * game.length:(k + 1) * game.length]
            symbols = self.a["symbols"][k * game.nsym:(k + 1) * game.nsym]
            perm = game.apply(positions, symbols)
            if not np.array_equal(np.sort(perm), self.every):
                fail("a symmetry of the certificate does not map the codes onto themselves")
            self.perms[k] = perm
        return self.perms[k]

def _bytes(cands: np.ndarray, allowed: np.ndarray | None) -> int:
    return int(cands.nbytes) + (0 if allowed is None else int(allowed.nbytes))


def _digest(cands: np.ndarray, allowed: np.ndarray | None, depth: int) -> bytes:
    hashed = hashlib.blake2b(np.ascontiguousarray(cands, dtype=np.int64).tobytes(), digest_size=16)
    hashed.update(b"|" if allowed is None else b"|" + np.ascontiguousarray(allowed, dtype=np.int64).tobytes())
    hashed.update(str(depth).encode())
    return hashed.digest()
