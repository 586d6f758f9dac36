"""The game a certificate names, from its JSON description alone: its codes in treegen's order,
every answer by its number, hard mode's rules, symmetries as permutations of the codes, and level
filling."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from treegen.certificate.file import MOST_SYMBOLS, afford, fail, memory_available

#: What no tree within the depth limit costs.
INFINITE = 1 << 40
MOST_CODES = 20_000_000
#: Scores kept as a whole table up to this many bytes; larger games score each set as it comes.
TABLE_BYTES = 600 << 20
#: Hard mode's allowed guesses kept, in bytes.
KEPT_BYTES = 256 << 20
#: Bytes a game holds for each code: the code's number, the list of every code (the checker's and
#: the floors'), an orbit's labels and a symmetry's images of the codes as they are checked, the
#: answers of a code to every other as hard mode keeps them, level filling.
PER_CODE = 64
#: Bytes for each answer scored: the answer, and its class's number as classes are counted.
SCORE_COST = 9


#: Each rule's answers in number order for a length, and its solved answer: pegs ``aAbB`` by a
#: then b, black pegs ``aA`` by a, Wordle's tiles as base-3 numbers (grey 0, yellow 1, green 2,
#: the first position most significant), Jotto's counts of symbols in common, then ``win``.
ANSWERS: dict[str, tuple[Callable[[int], list[str]], Callable[[int], str]]] = {
    "pegs": (lambda n: [f"{a}A{b}B" for a in range(n + 1) for b in range(n + 1 - a)],
             lambda n: f"{n}A0B"),
    "black": (lambda n: [f"{a}A" for a in range(n + 1)], lambda n: f"{n}A"),
    "wordle": (lambda n: ["".join(".YG"[i // 3 ** (n - 1 - p) % 3] for p in range(n))
                          for i in range(3 ** n)], lambda n: "G" * n),
    "jotto": (lambda n: [str(c) for c in range(n + 1)] + ["win"], lambda n: "win"),
}


class Rules:
    """The codes and answers of a game, from its JSON description alone; what the game will hold
    in memory is estimated from its count of codes before any is made."""

    def __init__(self, game: dict[str, Any], memory: int | None = None) -> None:
        symbols, length, repetition = game.get("symbols"), game.get("length"), game.get("repetition")
        rule, hard = game.get("rule", "pegs"), game.get("hard", False)
        if not isinstance(symbols, str) or not symbols or len(set(symbols)) != len(symbols) or \
                type(length) is not int or not 1 <= length <= 20 or type(repetition) is not bool \
                or not isinstance(rule, str) or rule not in ANSWERS or (rule == "wordle" and length > 5) \
                or hard not in (False, True, "hints") or (hard == "hints" and rule != "wordle"):
            fail("the certificate's game is not a game")
        if len(symbols) > MOST_SYMBOLS:
            fail(f"the certificate's game has {len(symbols):,} symbols, more than the "
                 f"{MOST_SYMBOLS} a certificate can name (a symmetry's symbols are bytes)")
        self.memory = memory_available() if memory is None else memory
        self.rule, self.hard, self.length, self.nsym = rule, hard, length, len(symbols)
        self.symbols = symbols
        answers, guesses = game.get("answers"), game.get("guesses")
        self.listed = not (answers is None and guesses is None)
        if not self.listed:
            count = self.nsym ** length if repetition else math.perm(self.nsym, length)
            if count > MOST_CODES:
                fail(f"the certificate's game has {count:,} codes, more than the "
                     f"{MOST_CODES:,} the checker enumerates")
            self.secrets = count
        else:
            if not isinstance(answers, list) or not isinstance(guesses, list) or \
                    not 0 < len(answers) <= len(guesses) <= MOST_CODES or \
                    not all(isinstance(w, str) and len(w) == length and set(w) <= set(symbols)
                            for w in guesses) or not set(answers) <= set(guesses) or \
                    len(set(answers)) != len(answers) or len(set(guesses)) != len(guesses):
                fail("the certificate's word lists are not lists of the game's words")
            count, self.secrets = len(guesses), len(answers)
        #: Every secret's answer to every guess (a row per secret), where it fits.
        self.table: np.ndarray | None = None
        table = count * self.secrets <= min(TABLE_BYTES, self.memory // (2 * SCORE_COST))
        afford(f"the certificate's game of {count:,} codes",
               count * (PER_CODE + length) + (count * self.secrets if table else 0), self.memory)
        if not self.listed:
            self.codes = _enumerate(self.nsym, length, repetition)
        else:
            assert isinstance(answers, list) and isinstance(guesses, list)
            kept = set(answers)
            order = [*answers, *(w for w in guesses if w not in kept)]
            where = {c: i for i, c in enumerate(symbols)}
            self.codes = np.array([[where[c] for c in w] for w in order], dtype=np.uint8
                                  ).reshape(-1, length)
            self._index = {name: i for i, name in enumerate(order)}
        weights = self.nsym ** np.arange(length - 1, -1, -1, dtype=np.int64)
        #: Each code as a number in base ``nsym``, ascending for enumerated codes.
        self.numbers: np.ndarray = self.codes.astype(np.int64) @ weights
        self.answers = self._answers()
        self.solved = self._solved()
        self._kept: dict[object, np.ndarray] = {}
        if table:
            self.table = self.score(np.arange(len(self.codes)), np.arange(self.secrets))

    @property
    def names(self) -> list[str]:
        """Every code as text (made on demand: a large game's names would take gigabytes)."""
        return [self.name(i) for i in range(len(self.codes))]

    def name(self, code: int) -> str:
        return "".join(self.symbols[s] for s in self.codes[code].tolist())

    def number(self, text: object) -> int | None:
        """The number of the code written ``text``, or None when it is no code of the game."""
        if not isinstance(text, str) or len(text) != self.length:
            return None
        if self.listed:
            return self._index.get(text)
        places = [self.symbols.find(c) for c in text]
        if min(places) < 0:
            return None
        value = 0
        for place in places:
            value = value * self.nsym + place
        at = int(np.searchsorted(self.numbers, value))
        return at if at < len(self.numbers) and self.numbers[at] == value else None

    def afford(self, what: str, nbytes: int) -> None:
        afford(what, nbytes, self.memory)

    def _answers(self) -> list[str]:
        return ANSWERS[self.rule][0](self.length)

    def _solved(self) -> int:
        return self.answers.index(ANSWERS[self.rule][1](self.length))

    def score(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """The answer (its index in :attr:`answers`) of every secret (rows) to every guess
        (columns)."""
        afford(f"scoring {len(secrets):,} secrets against {len(guesses):,} guesses",
               len(secrets) * len(guesses) * SCORE_COST, self.memory)
        if self.table is not None:
            rows = self.table[secrets]
            picked: np.ndarray = rows if len(guesses) == rows.shape[1] else rows[:, guesses]
            return picked
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
            answers: np.ndarray = self.table[secrets, guesses].astype(np.int64)
            return answers
        return self._answer(self.codes[guesses], self.codes[secrets]).astype(np.int64)

    def _answer(self, g: np.ndarray, s: np.ndarray) -> np.ndarray:
        """Answers (indices) of codes ``s`` as secrets to codes ``g`` as guesses, along the last
        axis, the others broadcast."""
        n = self.length
        if self.rule != "wordle":  # small integers, position by position: no 3-D arrays
            a = np.zeros(np.broadcast_shapes(g.shape, s.shape)[:-1], dtype=np.int16)
            for p in range(n):
                a += g[..., p] == s[..., p]
            if self.rule == "black":
                black: np.ndarray = a.astype(np.uint8)
                return black
            common = np.zeros(a.shape, dtype=np.int16)
            for x in range(self.nsym):
                common += np.minimum((g == x).sum(axis=-1, dtype=np.int16),
                                     (s == x).sum(axis=-1, dtype=np.int16))
            if self.rule == "jotto":  # the count in common; the secret itself is the last answer
                jotto: np.ndarray = np.where(a == n, n + 1, common).astype(np.uint8)
                return jotto
            pegs: np.ndarray = (a * (n + 1) - a * (a - 1) // 2 + common - a).astype(np.uint8)
            return pegs
        same = g == s
        a = same.sum(axis=-1)
        # tiles: green in place; a letter elsewhere is yellow while the secret has it unmatched
        value = np.zeros(a.shape, dtype=np.int64)
        for p in range(n):
            letter = g[..., p]
            unmatched = sum((s[..., q] == letter) & ~same[..., q] for q in range(n))
            before = sum(((g[..., q] == letter) & ~same[..., q] for q in range(p)),
                         np.zeros(a.shape, dtype=np.int64))
            tile = np.where(same[..., p], 2, np.where(before < unmatched, 1, 0))
            value += tile * 3 ** (n - 1 - p)
        return value.astype(np.uint8)

    def keeps(self, guess: int, answer: int, later: np.ndarray) -> np.ndarray:
        """Of the guesses ``later``, those hard mode allows after ``guess`` was answered ``answer``."""
        kept: np.ndarray = later[self._allows(guess, answer)[later]]
        return kept

    def _allows(self, guess: int, answer: int) -> np.ndarray:
        """Which codes hard mode allows after ``guess`` was answered ``answer``, over every code.
        One guess recurs over thousands of claims, so what it allows is kept (up to
        :data:`KEPT_BYTES`)."""
        key = guess if self.hard != "hints" else (guess, answer)
        mask = self._kept.get(key)
        if mask is None:
            if len(self._kept) * len(self.codes) >= min(KEPT_BYTES, self.memory // 8):
                self._kept.clear()
            if self.hard != "hints":  # the strict rule: each would give that answer as the secret
                mask = self._answer(self.codes[guess][None, :], self.codes)
            else:
                mask = self._hinted(guess, answer)
            self._kept[key] = mask
        return mask == answer if self.hard != "hints" else mask

    def _hinted(self, guess: int, answer: int) -> np.ndarray:
        """The hints rule: green letters kept in place, every marked letter used as often."""
        tiles, word, rows = self.answers[answer], self.codes[guess], self.codes
        keep = np.ones(len(rows), dtype=bool)
        for p, tile in enumerate(tiles):
            if tile == "G":
                keep &= rows[:, p] == word[p]
        marked = [int(word[p]) for p, tile in enumerate(tiles) if tile != "."]
        for x in set(marked):
            keep &= (rows == x).sum(axis=1) >= marked.count(x)
        return keep

    def apply(self, positions: np.ndarray, symbols: np.ndarray) -> np.ndarray:
        """The index of every code's image under a symmetry (code'[p] = symbols[code[positions[p]]]),
        or a CertificateRefused when it is not one of the game's."""
        if sorted(positions.tolist()) != list(range(self.length)) or \
                sorted(symbols.tolist()) != list(range(self.nsym)):
            fail("a symmetry of the certificate is not a permutation")
        if self.listed or (self.rule == "wordle" and positions.tolist() != list(range(self.length))):
            fail("a symmetry of the certificate does not keep the game's answers")
        image = symbols[self.codes[:, positions]]
        weights = self.nsym ** np.arange(self.length - 1, -1, -1, dtype=np.int64)
        images: np.ndarray = np.searchsorted(self.numbers, image.astype(np.int64) @ weights)
        return images


def levels(k: int, depth: int, upto: int) -> np.ndarray:
    """Level filling: the fewest guesses m secrets need when a guess finds at most one of them and
    leaves the rest in at most k classes, with ``depth`` guesses left (-1: no limit)."""
    m = np.arange(upto + 1, dtype=np.int64)
    if k <= 1:  # a chain: one secret per level
        chain: np.ndarray = m * (m + 1) // 2
        if depth >= 0:
            chain[m > depth] = INFINITE
        return chain
    out = np.zeros(upto + 1, dtype=np.int64)
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



def _enumerate(nsym: int, length: int, repetition: bool) -> np.ndarray:
    """Every code in lexicographic order of its symbols' places, made by numpy (a row a code,
    never a Python object a code)."""
    if repetition:
        return np.ascontiguousarray(np.indices((nsym,) * length, dtype=np.uint8).reshape(length, -1).T)
    rows = np.arange(nsym, dtype=np.uint8)[:, None]
    for _ in range(1, length):  # each row extended by every symbol it lacks, in order
        free = np.ones((len(rows), nsym), dtype=bool)
        free[np.arange(len(rows))[:, None], rows] = False
        which, symbol = np.nonzero(free)
        rows = np.concatenate([rows[which], symbol.astype(np.uint8)[:, None]], axis=1)
    return np.ascontiguousarray(rows)


_GAMES: dict[str, Rules] = {}


def rules_of(description: object, memory: int | None = None) -> Rules:
    """The game a header describes; the last few are kept, since a certificate's premises (and
    a record's classes) are all of one game, whose table takes seconds to score."""
    key = json.dumps(description, sort_keys=True)
    if key not in _GAMES:
        if len(_GAMES) >= 2:
            _GAMES.pop(next(iter(_GAMES)))
        if not isinstance(description, dict):
            fail("the certificate's game is not a game")
        _GAMES[key] = Rules(description, memory)
    rules = _GAMES[key]
    rules.memory = memory_available() if memory is None else memory
    return rules


def within(items: np.ndarray, sorted_pool: np.ndarray) -> np.ndarray:
    """Which of ``items`` are in ``sorted_pool`` (ascending)."""
    if len(sorted_pool) == 0:
        return np.zeros(len(items), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_pool, items), len(sorted_pool) - 1)
    found: np.ndarray = sorted_pool[at] == items
    return found
