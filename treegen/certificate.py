"""Check a certificate: the proof that no tree of a game needs fewer than so many guesses.

This module is the whole checker, on the standard library and numpy alone, and shares no code with
the search that writes certificates: it enumerates the codes, scores them, counts level filling and
floors, and names the game's symmetries itself, from the rules written in the file. What it trusts
is arithmetic and the file's bytes; what it proves is printed from what it derived.

A certificate is a list of claims (docs/certificate-format.md). Claim 0 is about the secrets still
possible after the statement's history; every other claim is about the set its first user names:
a class (the secrets giving one answer to one guess) of an earlier claim's set. A claim "the set
S, with d guesses left, needs at least L guesses in all" holds when, for every guess g the rules
allow at S, |S| plus a lower bound on every class of g (level filling, or the bound an entry gives:
another claim's, or the class's one-step floor) reaches L. Guesses that split nothing are left
out (a best tree never asks one), and so are guesses a listed symmetry maps onto a checked one:
a permutation of positions and symbols that keeps the game's answers and maps the set (and, in hard
mode, the guesses its history allows) onto itself leaves every cost as it was. Every class is
smaller than its set, so the claims stand on each other without a circle.

    proven = check("mastermind.cert")  # a Proven, or CertificateError naming the first flaw
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import stat
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["CertificateError", "Proven", "check", "read_certificate"]

MAGIC = b"treegen-certificate 1\n"
INFINITE = 1 << 40
#: Bounds on what a file may declare, before anything is allocated.
MOST_ITEMS = 1 << 31
MOST_HEADER = 64 << 20
MOST_CODES = 20_000_000
MOST_PREMISES = 100_000
#: Scores kept as a whole table up to this many bytes; larger games score each set as it comes.
TABLE_BYTES = 600 << 20
_BODY = (("bound", "<i8", "claims"), ("depth", "<i1", "claims"), ("count", "<u4", "claims"),
         ("set", "<i4", "claims"), ("guess", "<i4", "entries"), ("feedback", "<u2", "entries"),
         ("child", "<i4", "entries"), ("positions", "u1", "symmetries*length"),
         ("symbols", "u1", "symmetries*symbols"), ("size", "<u4", "sets"),
         ("member", "<u4", "members"))


class CertificateError(ValueError):
    """The file proves nothing: unreadable, damaged, or a claim that does not hold."""


@dataclass(frozen=True)
class Proven:
    """What a checked certificate proves: in ``game`` (its JSON description), with at most
    ``max_depth`` guesses, every tree for the secrets possible after ``history`` ([guess, answer]
    pairs), opening with ``first`` when it is given, needs ``bound`` guesses at least."""

    game: dict[str, Any]
    history: list[list[str]]
    first: str | None
    max_depth: int | None
    bound: int
    claims: int
    entries: int
    treegen: str


def _fail(message: str) -> Any:
    raise CertificateError(message)


# -- reading ---------------------------------------------------------------------------------------

def read_certificate(data: bytes) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The header and the body's arrays of a certificate's bytes, every size bounded."""
    if not data.startswith(MAGIC):
        _fail("not a treegen certificate")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MOST_HEADER)
    if end < 0:
        _fail("the certificate's header is cut off")
    try:
        header = json.loads(data[len(MAGIC):end].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _fail("the certificate's header is not JSON")
    if not isinstance(header, dict) or header.get("format") != "treegen-certificate" or \
            header.get("version") != 1:
        _fail("not a treegen certificate of format version 1")
    sizes, body = header.get("sizes"), header.get("body")
    if not isinstance(sizes, dict) or not isinstance(body, dict):
        _fail("the certificate's header has no sizes")
    game = header.get("game")
    length = game.get("length") if isinstance(game, dict) else None
    symbols = game.get("symbols") if isinstance(game, dict) else None
    if type(length) is not int or not isinstance(symbols, str):
        _fail("the certificate names no game")
    counts = {"length": length, "symbols": len(symbols)}
    for key in ("claims", "entries", "symmetries", "sets", "members"):
        value = sizes.get(key)
        if type(value) is not int or not 0 <= value < MOST_ITEMS:
            _fail(f"the certificate's size of {key} is not a count")
        counts[key] = value
    packed = data[end + 1:]
    if body.get("bytes") != len(packed) or \
            body.get("sha256") != hashlib.sha256(packed).hexdigest():
        _fail("the certificate's body is damaged or cut off")
    widths = [(name, np.dtype(kind), _count(counts, many)) for name, kind, many in _BODY]
    expected = sum(kind.itemsize * n for _, kind, n in widths)
    unpack = zlib.decompressobj()
    try:
        raw = unpack.decompress(packed, expected + 1)
    except zlib.error:
        return _fail("the certificate's body is not compressed data")
    if len(raw) != expected or not unpack.eof or unpack.unconsumed_tail:
        _fail("the certificate's body does not hold the arrays its header counts")
    arrays, at = {}, 0
    for name, kind, n in widths:
        arrays[name] = np.frombuffer(raw, kind, n, at).astype(np.int64)
        at += kind.itemsize * n
    return header, arrays


def _count(counts: dict[str, int], many: str) -> int:
    total = 1
    for part in many.split("*"):
        total *= counts[part]
    return total


# -- the game --------------------------------------------------------------------------------------

class _Game:
    """The codes and answers of a game, from its JSON description alone."""

    def __init__(self, game: dict[str, Any]) -> None:
        symbols, length, repetition = game.get("symbols"), game.get("length"), game.get("repetition")
        rule, hard = game.get("rule", "pegs"), game.get("hard", False)
        if not isinstance(symbols, str) or not symbols or len(set(symbols)) != len(symbols) or \
                type(length) is not int or not 1 <= length <= 20 or type(repetition) is not bool \
                or rule not in ("pegs", "black", "wordle") or (rule == "wordle" and length > 5) \
                or hard not in (False, True, "hints") or (hard == "hints" and rule != "wordle"):
            _fail("the certificate's game is not a game")
        self.rule, self.hard, self.length, self.nsym = rule, hard, length, len(symbols)
        answers, guesses = game.get("answers"), game.get("guesses")
        if answers is None and guesses is None:
            self.listed = False
            count = self.nsym ** length if repetition else \
                int(np.prod(np.arange(self.nsym - length + 1, self.nsym + 1, dtype=np.float64)))
            if count > MOST_CODES:
                _fail(f"the certificate's game has more than {MOST_CODES:,} codes")
            rows = itertools.product(range(self.nsym), repeat=length) if repetition else \
                itertools.permutations(range(self.nsym), length)
            self.codes = np.array(list(rows), dtype=np.uint8).reshape(-1, length)
            self.secrets = len(self.codes)
        else:
            if not isinstance(answers, list) or not isinstance(guesses, list) or \
                    not 0 < len(answers) <= len(guesses) <= MOST_CODES or \
                    not all(isinstance(w, str) and len(w) == length and set(w) <= set(symbols)
                            for w in guesses) or not set(answers) <= set(guesses) or \
                    len(set(answers)) != len(answers) or len(set(guesses)) != len(guesses):
                _fail("the certificate's word lists are not lists of the game's words")
            self.listed = True
            kept = set(answers)
            order = [*answers, *(w for w in guesses if w not in kept)]
            where = {c: i for i, c in enumerate(symbols)}
            self.codes = np.array([[where[c] for c in w] for w in order], dtype=np.uint8
                                  ).reshape(-1, length)
            self.secrets = len(answers)
        self.names = ["".join(symbols[s] for s in row) for row in self.codes.tolist()]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.answers = self._answers()
        self.solved = self._solved()
        #: Every secret's answer to every guess (a row per secret), where it fits.
        self.table: np.ndarray | None = None
        if len(self.codes) * self.secrets <= TABLE_BYTES:
            self.table = self.score(np.arange(len(self.codes)), np.arange(self.secrets))

    def _answers(self) -> list[str]:
        n = self.length
        if self.rule == "black":
            return [f"{a}A" for a in range(n + 1)]
        if self.rule == "wordle":
            return ["".join(".YG"[i // 3 ** (n - 1 - p) % 3] for p in range(n)) for i in range(3 ** n)]
        return [f"{a}A{b}B" for a in range(n + 1) for b in range(n + 1 - a)]

    def _solved(self) -> int:
        n = self.length
        return self.answers.index("G" * n if self.rule == "wordle" else
                                  f"{n}A" if self.rule == "black" else f"{n}A0B")

    def score(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """The answer (its index in :attr:`answers`) of every secret (rows) to every guess
        (columns)."""
        if self.table is not None:
            rows = self.table[secrets]
            return rows if len(guesses) == rows.shape[1] else rows[:, guesses]
        out = np.empty((len(secrets), len(guesses)), dtype=np.uint8)
        step = max(1, (1 << 22) // max(1, len(guesses) * self.length))
        guess_codes = self.codes[guesses][None, :, :]
        for lo in range(0, len(secrets), step):
            out[lo:lo + step] = self._answer(guess_codes,
                                             self.codes[secrets[lo:lo + step]][:, None, :])
        return out

    def pairs(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """The answer of each secret to the guess beside it."""
        if self.table is not None:
            return self.table[secrets, guesses].astype(np.int64)
        return self._answer(self.codes[guesses], self.codes[secrets]).astype(np.int64)

    def _answer(self, g: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Answers (indices) of codes ``s`` as secrets to codes ``g`` as guesses, along the last
        axis, the others broadcast."""
        same = g == s
        a = same.sum(axis=-1)
        n = self.length
        if self.rule == "black":
            return a.astype(np.uint8)
        if self.rule == "pegs":
            common = np.zeros(a.shape, dtype=np.int64)
            for x in range(self.nsym):
                common += np.minimum((g == x).sum(axis=-1), (s == x).sum(axis=-1))
            b = common - a
            return (a * (n + 1) - a * (a - 1) // 2 + b).astype(np.uint8)
        # tiles: green in place; a letter elsewhere is yellow while the secret has it unmatched
        value = np.zeros(a.shape, dtype=np.int64)
        for p in range(n):
            x = g[..., p]
            unmatched = sum((s[..., q] == x) & ~same[..., q] for q in range(n))
            before = sum(((g[..., q] == x) & ~same[..., q] for q in range(p)),
                         np.zeros(a.shape, dtype=np.int64))
            tile = np.where(same[..., p], 2, np.where(before < unmatched, 1, 0))
            value += tile * 3 ** (n - 1 - p)
        return value.astype(np.uint8)

    def keeps(self, guess: int, answer: int, later: np.ndarray) -> np.ndarray:
        """Of the guesses ``later``, those hard mode allows after ``guess`` was answered ``answer``."""
        if self.hard != "hints":  # the strict rule: each would give that answer as the secret
            return later[self._answer(self.codes[guess][None, :], self.codes[later]) == answer]
        tiles, word = self.answers[answer], self.codes[guess]
        keep = np.ones(len(later), dtype=bool)
        rows = self.codes[later]
        for p, tile in enumerate(tiles):
            if tile == "G":
                keep &= rows[:, p] == word[p]
        marked = [int(word[p]) for p, tile in enumerate(tiles) if tile != "."]
        for x in set(marked):
            keep &= (rows == x).sum(axis=1) >= marked.count(x)
        return later[keep]

    def apply(self, positions: np.ndarray, symbols: np.ndarray) -> np.ndarray:
        """The index of every code's image under a symmetry (code'[p] = symbols[code[positions[p]]]),
        or a CertificateError when it is not one of the game's."""
        if sorted(positions.tolist()) != list(range(self.length)) or \
                sorted(symbols.tolist()) != list(range(self.nsym)):
            _fail("a symmetry of the certificate is not a permutation")
        if self.listed or (self.rule == "wordle" and positions.tolist() != list(range(self.length))):
            _fail("a symmetry of the certificate does not keep the game's answers")
        image = symbols[self.codes[:, positions]]
        weights = self.nsym ** np.arange(self.length - 1, -1, -1, dtype=np.int64)
        number, numbers = image.astype(np.int64) @ weights, self.codes.astype(np.int64) @ weights
        return np.searchsorted(numbers, number)


def _levels(k: int, depth: int, upto: int) -> np.ndarray:
    """Level filling: the fewest guesses m secrets need when a guess finds at most one of them and
    leaves the rest in at most k classes, with ``depth`` guesses left (-1: no limit)."""
    k = max(k, 1)
    out = np.zeros(upto + 1, dtype=np.int64)
    m = np.arange(upto + 1, dtype=np.int64)
    placed, level, width = 0, 1, 1
    while placed < upto:
        if 0 <= depth < level:
            out[m > placed] = INFINITE
            break
        out += np.clip(m - placed, 0, width) * level
        placed += width
        level += 1
        width = min(width * k, upto)
    return out


# -- checking --------------------------------------------------------------------------------------

def check(source: str | bytes, folder: str | None = None,
          checked: dict[str, Proven] | None = None) -> Proven:
    """Check a certificate (a file's path or its bytes): what it proves, or a CertificateError
    naming its first flaw. Its premises are read from ``folder`` (by default the file's own);
    ``checked`` holds the certificates already checked, by SHA-256 (this function adds to it)."""
    if isinstance(source, str):
        data = _read(source)
        folder = os.path.dirname(source) if folder is None else folder
    else:
        data = source
    checked = {} if checked is None else checked
    digest = hashlib.sha256(data).hexdigest()
    if digest not in checked:
        header, arrays = read_certificate(data)
        checked[digest] = _Checker(header, arrays, folder or ".", checked).run()
    return checked[digest]


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                _fail(f"{path} is not a regular file")
            return fh.read()
    except OSError as exc:
        return _fail(f"cannot read {path}: {exc.strerror or exc}")


class _Checker:
    def __init__(self, header: dict[str, Any], arrays: dict[str, np.ndarray], folder: str,
                 checked: dict[str, Proven]) -> None:
        self.header, self.a = header, arrays
        self.folder, self.checked = folder, checked
        self.game = _Game(header["game"])
        self.nfb = len(self.game.answers)
        self.claims = len(arrays["bound"])
        self.starts = np.concatenate([[0], np.cumsum(arrays["count"])])
        self.levels: dict[tuple[int, int], np.ndarray] = {}
        self.perms: dict[int, np.ndarray] = {}
        self.orbits: dict[int, np.ndarray] = {}
        self.set_starts = np.concatenate([[0], np.cumsum(arrays["size"])])
        self.pending: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
        self.digests: dict[int, bytes] = {}
        self.every = np.arange(len(self.game.codes))
        self._check_ranges()

    def _check_ranges(self) -> None:
        a, game = self.a, self.game
        if self.claims == 0 or self.starts[-1] != len(a["guess"]) or \
                self.set_starts[-1] != len(a["member"]):
            _fail("the certificate's counts do not add up")
        checks = (("depth", -1, 127), ("set", -1, len(a["size"]) - 1),
                  ("guess", 0, len(game.codes) - 1), ("feedback", 0, self.nfb - 1),
                  ("child", -len(self._premises()), self.claims - 1),
                  ("positions", 0, game.length - 1),
                  ("symbols", 0, game.nsym - 1), ("member", 0, len(a["positions"]) // game.length - 1),
                  ("bound", 0, INFINITE))
        for name, low, high in checks:
            values = a[name]
            if len(values) and (values.min() < low or values.max() > high):
                _fail(f"the certificate's {name} values are out of range")

    def run(self) -> Proven:
        game, claim = self.game, self.header.get("claim")
        if not isinstance(claim, dict):
            return _fail("the certificate states no claim")
        history, first, depth, bound = (claim.get(k) for k in ("history", "first", "max_depth", "bound"))
        if type(bound) is not int or not 0 < bound <= INFINITE or \
                (depth is not None and (type(depth) is not int or not 0 < depth <= 127)) or \
                not isinstance(history, list) or (first is not None and first not in game.index):
            _fail("the certificate's claim is malformed")
        cands = np.arange(game.secrets)
        allowed = self.every if game.hard else None
        for step in history:
            if not isinstance(step, list) or len(step) != 2 or step[0] not in game.index or \
                    step[1] not in game.answers:
                _fail(f"the certificate's history step {step!r} is not a guess and an answer")
            guess, answer = game.index[step[0]], game.answers.index(step[1])
            cands = cands[game.score(np.array([guess]), cands)[:, 0] == answer]
            if allowed is not None:
                allowed = game.keeps(guess, answer, allowed)
        left = -1 if depth is None else depth - len(history)
        if len(cands) == 0 or (depth is not None and left < 0):
            _fail("the certificate's history leaves nothing to claim")
        if self.a["depth"][0] != left or self.a["bound"][0] != bound:
            _fail("the certificate's first claim is not its statement")
        self.first = None if first is None else game.index[first]
        self.pending[0] = (cands, allowed)
        self.digests[0] = _digest(cands, allowed, left)
        for i in range(self.claims):
            if i not in self.pending:
                _fail(f"claim {i} is not reached from the claims before it")
            self._claim(i, *self.pending.pop(i))
        return Proven(dict(self.header["game"]), history, first, depth, bound, self.claims,
                      len(self.a["guess"]), str(self.header.get("treegen", "")))

    # -- one claim ---------------------------------------------------------------------------

    def _claim(self, i: int, cands: np.ndarray, allowed: np.ndarray | None) -> None:
        a, game = self.a, self.game
        depth, bound, n = int(a["depth"][i]), int(a["bound"][i]), len(cands)
        lo, hi = self.starts[i], self.starts[i + 1]
        guesses, answers, children = a["guess"][lo:hi], a["feedback"][lo:hi], a["child"][lo:hi]
        if depth == 0:
            if hi > lo:
                _fail(f"claim {i} has no guess left but lists entries")
            return  # no tree at all: any bound holds
        keys = guesses * self.nfb + answers
        if np.any(np.diff(keys) <= 0):
            _fail(f"claim {i}'s entries are not in order or repeat")
        pool = allowed if allowed is not None else self.every
        if i == 0 and self.first is not None:
            if np.any(guesses != self.first) or not np.isin(self.first, pool):
                _fail("the certificate's first claim is not about its opening guess")
            tried = np.array([self.first])
        else:
            labels = self._orbit_labels(int(a["set"][i]), cands, allowed)
            reps = pool[labels[pool] == pool]
            tried = np.union1d(reps, guesses)
        if not np.all(_within(guesses, pool)):
            _fail(f"claim {i} names a guess its rules do not allow")
        scores = game.score(tried, cands)
        counts = self._counts(scores)
        if i == 0 and self.first is not None:
            widest = self._widest(cands, pool)
        else:
            widest = int(((counts > 0).sum(axis=1) - (counts[:, game.solved] > 0)).max())
        child = depth - 1 if depth > 0 else -1
        level = self._level(widest, child)
        values = self._values(counts, tried, cands, level)
        where = np.searchsorted(tried, guesses)
        if np.any(values[where] >= INFINITE):
            _fail(f"claim {i} names a class of a guess that splits nothing")
        subs, laters, shown = [], [], np.zeros(len(guesses), dtype=np.int64)
        for e in range(len(guesses)):
            row, answer = where[e], int(answers[e])
            if counts[row, answer] == 0 or answer == game.solved:
                _fail(f"claim {i} names an empty or solved class")
            subs.append(cands[scores[:, row] == answer])
            laters.append(None if allowed is None else game.keeps(int(guesses[e]), answer, allowed))
            if children[e] >= 0:
                shown[e] = self._bind(i, int(children[e]), subs[e], laters[e], child)
            else:
                if i != 0:
                    _fail(f"claim {i} names a premise: only the first claim may")
                step = [game.names[int(guesses[e])], game.answers[answer]]
                shown[e] = self._premise(-1 - int(children[e]), step)
        sizes = counts[where, answers]
        np.add.at(values, where, np.maximum(shown, level[sizes]) - level[sizes])
        listed = np.zeros(counts.shape, dtype=bool)
        listed[where, answers] = True
        if i == 0 and self.first is not None:
            short = np.flatnonzero(values < bound)
        else:
            labels = self.labels_of(int(a["set"][i]))[tried]
            best = np.full(len(self.every), -1, dtype=np.int64)
            np.maximum.at(best, labels, np.minimum(values, INFINITE))
            # of an orbit short of the bound, the member that reaches furthest
            short_orbits = np.flatnonzero(best[labels] < bound)
            short = short_orbits[values[short_orbits] == best[labels[short_orbits]]]
            short = short[np.unique(labels[short], return_index=True)[1]]
        if len(short):
            self._floors_reach(i, bound, short, values, counts, scores, listed, tried, cands,
                               allowed, child, widest, level)

    def _floors_reach(self, i: int, bound: int, short: np.ndarray, values: np.ndarray,
                      counts: np.ndarray, scores: np.ndarray, listed: np.ndarray,
                      tried: np.ndarray, cands: np.ndarray, allowed: np.ndarray | None,
                      child: int, widest: int, level: np.ndarray) -> None:
        """Raise each guess short of the bound by the one-step floors of its classes that no
        entry names, largest class first (as the search refutes a guess), until it reaches the
        bound; a guess still short then is the claim's flaw."""
        sizes = np.where(listed, 0, counts)
        sizes[:, self.game.solved] = 0
        order = np.argsort(-sizes[short], axis=1, kind="stable")
        for step in range(self.nfb):
            answers = order[:, step]
            size = sizes[short, answers]
            open_ = (size > 2) & (values[short] < bound)
            rows, answers = short[open_], answers[open_]
            if len(rows) == 0:
                break
            subs = [cands[scores[:, r] == f] for r, f in zip(rows, answers)]
            laters = [None if allowed is None else self.game.keeps(int(tried[r]), int(f), allowed)
                      for r, f in zip(rows, answers)]
            floors = self._floors(subs, laters, child, widest)
            np.add.at(values, rows, np.maximum(floors, level[size[open_]]) - level[size[open_]])
        still = short[values[short] < bound]
        if len(still):
            _fail(f"claim {i} (bound {self.a['bound'][i]}) fails: guess "
                  f"{self.game.names[tried[still[0]]]} of its set reaches only "
                  f"{values[still[0]]}")

    def _counts(self, scores: np.ndarray) -> np.ndarray:
        """Class sizes: for each guess (a column of answers), how many secrets give each answer."""
        guesses = scores.shape[1]
        return np.bincount((scores + np.arange(guesses) * self.nfb).ravel(),
                           minlength=guesses * self.nfb).reshape(guesses, self.nfb)

    def _values(self, counts: np.ndarray, tried: np.ndarray, cands: np.ndarray,
                level: np.ndarray) -> np.ndarray:
        """Each guess's one-step bound on the set; a guess that splits nothing off counts as
        infinite."""
        n = len(cands)
        costs = level[counts]
        costs[:, self.game.solved] = 0
        values = n + costs.sum(axis=1)
        values[~_within(tried, cands) & (counts.max(axis=1) == n)] = INFINITE
        return values

    def _widest(self, cands: np.ndarray, pool: np.ndarray) -> int:
        """The most classes other than the solved one any allowed guess makes of the set: no
        set below it splits into more."""
        most = 0
        step = max(1, (1 << 24) // max(1, len(cands)))
        for lo in range(0, len(pool), step):
            counts = self._counts(self.game.score(pool[lo:lo + step], cands))
            counts[:, self.game.solved] = 0
            most = max(most, int((counts > 0).sum(axis=1).max()))
        return most

    def _floors(self, subs: list[np.ndarray], laters: list[np.ndarray | None], depth: int,
                widest: int) -> np.ndarray:
        """The one-step floor of each class: the least one-step bound any guess allowed there
        reaches on it. Guesses in the class first: a guess outside it finds none of it at once,
        so reaches at least level filling from the second guess on, and is scored only when
        the class's own guesses do not all reach that."""
        if depth == 0:
            return np.full(len(subs), INFINITE, dtype=np.int64)
        level = self._level(widest, depth - 1 if depth > 0 else -1)
        sizes = np.array([len(sub) for sub in subs], dtype=np.int64)
        outside = self._level(widest, depth)[sizes + 1] - 1
        if laters[0] is not None:  # hard mode: each class has guesses of its own
            return np.array([self._floor_of(sub, later, level, cap)
                             for sub, later, cap in zip(subs, laters, outside)], dtype=np.int64)
        best = self._inside(subs, sizes, level)
        wide = np.flatnonzero(best > outside)
        if len(wide):
            best[wide] = np.minimum(best[wide], self._everyone(
                [subs[k] for k in wide], sizes[wide], level))
        return best

    def _everyone(self, subs: list[np.ndarray], sizes: np.ndarray, level: np.ndarray
                  ) -> np.ndarray:
        """The least one-step bound of every guess on each class.

        Level filling costs 2s - 1 at least for s secrets (one found at once, the rest later), so
        a guess's bound is at least 3n less its classes, less 2 when it is in the class: a count
        of classes, cheap for every guess at once. While level filling is exactly that for every
        size up to the class's, that is the bound; otherwise the guesses are counted in full in
        the order of that estimate, until the estimate reaches the best found."""
        out = np.empty(len(subs), dtype=np.int64)
        exact = level[sizes] == 2 * sizes - 1
        for size in np.unique(sizes):  # classes of one size at a time: a block of codes each
            which = np.flatnonzero(sizes == size)
            step = max(1, (1 << 23) // (int(size) * len(self.every)))
            for lo in range(0, len(which), step):
                batch = which[lo:lo + step]
                members = np.stack([subs[k] for k in batch])
                block = self.game.score(self.every, members.ravel()).reshape(len(batch), size, -1)
                member = np.zeros((len(batch), len(self.every)), dtype=bool)
                member[np.repeat(np.arange(len(batch)), size), members.ravel()] = True
                classes = self._classes(block)
                estimate = 3 * int(size) - 2 * member - classes
                estimate[~member & (classes == 1)] = INFINITE
                for row, k in enumerate(batch):
                    out[k] = estimate[row].min() if exact[k] else \
                        self._refine(block[row], members[row], estimate[row], level)
        return out

    def _classes(self, block: np.ndarray) -> np.ndarray:
        """How many classes other than the solved one each guess (last axis) makes of each set
        (first axis) whose answers (middle axis) ``block`` holds."""
        if self.nfb <= 64:
            kind = np.uint16 if self.nfb <= 16 else np.uint32 if self.nfb <= 32 else np.uint64
            masks = np.bitwise_or.reduce(np.left_shift(kind(1), block.astype(kind)), axis=1)
            return np.bitwise_count(masks & ~kind(1 << self.game.solved)).astype(np.int64)
        count = np.zeros((block.shape[0], block.shape[2]), dtype=np.int64)
        for word in range((self.nfb + 63) // 64):
            bits = np.where(block >> 6 == word, np.left_shift(np.uint64(1),
                                                              (block & 63).astype(np.uint64)), 0)
            masks = np.bitwise_or.reduce(bits.astype(np.uint64), axis=1)
            if word == self.game.solved >> 6:
                masks &= ~np.uint64(1 << (self.game.solved & 63))
            count += np.bitwise_count(masks)
        return count

    def _refine(self, block: np.ndarray, sub: np.ndarray, estimate: np.ndarray,
                level: np.ndarray) -> int:
        """The least one-step bound on a class: the guesses of the lowest estimate counted in
        full, then every guess whose estimate is below the best found."""
        best = INFINITE
        lowest = np.flatnonzero(estimate == estimate.min())
        for chunk in (lowest[:64], None):
            if chunk is None:
                chunk = np.flatnonzero(estimate < best)
            for lo in range(0, len(chunk), 4096):
                part = chunk[lo:lo + 4096]
                counts = self._counts(block[:, part])
                best = min(best, int(self._values(counts, self.every[part], sub, level).min()))
        return best

    def _inside(self, subs: list[np.ndarray], sizes: np.ndarray, level: np.ndarray) -> np.ndarray:
        """The least one-step bound of each class's own secrets as guesses, all classes at once."""
        flat = np.concatenate(subs)
        of_row = np.repeat(np.arange(len(subs)), sizes)
        length = sizes[of_row]
        pair_row = np.repeat(np.arange(len(flat)), length)
        first = np.repeat(np.cumsum(length) - length, length)
        starts = np.cumsum(sizes) - sizes
        secret = flat[starts[of_row[pair_row]] + np.arange(len(pair_row)) - first]
        scores = self.game.pairs(flat[pair_row], secret)
        counts = np.bincount(pair_row * self.nfb + scores,
                             minlength=len(flat) * self.nfb).reshape(len(flat), self.nfb)
        costs = level[counts]
        costs[:, self.game.solved] = 0
        values = length + costs.sum(axis=1)
        return np.minimum.reduceat(values, starts)

    def _floor_of(self, sub: np.ndarray, pool: np.ndarray, level: np.ndarray, cap: int) -> int:
        """One class's floor over the guesses ``pool``: its own secrets first, the others only
        when those do not all reach ``cap`` (-1: all at once)."""
        inside = sub[_within(sub, pool)]
        best = INFINITE
        if len(inside):
            best = int(self._values(self._counts(self.game.score(inside, sub)), inside, sub,
                                    level).min())
        if best <= cap:
            return best
        others = pool[~_within(pool, sub)]
        step = max(1, (1 << 24) // max(1, len(sub)))
        for lo in range(0, len(others), step):
            chunk = others[lo:lo + step]
            counts = self._counts(self.game.score(chunk, sub))
            best = min(best, int(self._values(counts, chunk, sub, level).min()))
        return best

    def _premises(self) -> list[Any]:
        premises = self.header.get("premises", [])
        if not isinstance(premises, list) or len(premises) > MOST_PREMISES:
            _fail("the certificate's premises are not a list")
        return premises

    def _premise(self, k: int, step: list[str]) -> int:
        """The bound premise ``k`` proves for the class reached by ``step`` from the statement."""
        premise = self._premises()[k]
        if not isinstance(premise, dict) or not isinstance(premise.get("file"), str) or \
                type(premise.get("bound")) is not int or not isinstance(premise.get("sha256"), str):
            return _fail(f"premise {k} of the certificate is malformed")
        name = premise["file"]
        parts = name.split("/")
        if name.startswith("/") or "\\" in name or "\0" in name or any(p in ("", ".") for p in parts):
            return _fail(f"premise {k} names {name!r}, not a path from the certificate's folder")
        data = _read(os.path.join(self.folder, *parts))
        if hashlib.sha256(data).hexdigest() != premise["sha256"]:
            _fail(f"premise {name} is not the file the certificate names (its SHA-256 differs)")
        if len(self.checked) > MOST_PREMISES:
            _fail("the certificate's premises go on without end")
        proven = check(data, self.folder, self.checked)
        claim = self.header["claim"]
        if proven.game != self.header["game"] or proven.max_depth != claim.get("max_depth") or \
                proven.first is not None or proven.history != [*claim["history"], step] or \
                proven.bound < premise["bound"] or premise.get("history") != proven.history:
            _fail(f"premise {name} proves another claim than the class it stands for")
        return int(premise["bound"])

    def _bind(self, i: int, target: int, cands: np.ndarray, allowed: np.ndarray | None,
              depth: int) -> int:
        """The bound of claim ``target`` for a class of claim ``i``: the claim is about that set."""
        if target <= 0 or target == i:
            _fail(f"claim {i} names claim {target} for one of its classes")
        if int(self.a["depth"][target]) != depth:
            _fail(f"claim {i} names claim {target} of another depth for one of its classes")
        digest = _digest(cands, allowed, depth)
        known = self.digests.get(target)
        if known is None:
            if target < i:
                _fail(f"claim {i} names claim {target}, which no earlier claim reached")
            self.digests[target] = digest
            self.pending[target] = (cands, allowed)
        elif known != digest:
            _fail(f"claim {target} is used for two different sets")
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
                    _fail("a symmetry of the certificate does not map its claim's set onto itself")
        return self.labels_of(which)

    def _members(self, which: int) -> np.ndarray:
        return self.a["member"][self.set_starts[which]:self.set_starts[which + 1]]

    def labels_of(self, which: int) -> np.ndarray:
        if which < 0:
            return self.every
        if which not in self.orbits:
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
            game = self.game
            positions = self.a["positions"][k * game.length:(k + 1) * game.length]
            symbols = self.a["symbols"][k * game.nsym:(k + 1) * game.nsym]
            perm = game.apply(positions, symbols)
            if not np.array_equal(np.sort(perm), self.every):
                _fail("a symmetry of the certificate does not map the codes onto themselves")
            self.perms[k] = perm
        return self.perms[k]

    def _level(self, widest: int, depth: int) -> np.ndarray:
        """Level filling of every set size up to the game's secrets and one more."""
        key = (widest, depth)
        if key not in self.levels:
            self.levels[key] = _levels(widest, depth, self.game.secrets + 1)
        return self.levels[key]


def _within(items: np.ndarray, sorted_pool: np.ndarray) -> np.ndarray:
    """Which of ``items`` are in ``sorted_pool`` (ascending)."""
    if len(sorted_pool) == 0:
        return np.zeros(len(items), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_pool, items), len(sorted_pool) - 1)
    return sorted_pool[at] == items


def _digest(cands: np.ndarray, allowed: np.ndarray | None, depth: int) -> bytes:
    hashed = hashlib.blake2b(np.ascontiguousarray(cands, dtype=np.int64).tobytes(), digest_size=16)
    hashed.update(b"|" if allowed is None else b"|" + np.ascontiguousarray(allowed, dtype=np.int64).tobytes())
    hashed.update(str(depth).encode())
    return hashed.digest()
