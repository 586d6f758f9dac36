"""Game rules: which codes exist, in which order, and how feedback is written.

A game is a value: symbols, length, and whether a code may repeat a symbol. Codes are enumerated in
lexicographic order of the symbol string; that order is the tie-break order of every strategy, so it is
defined here once.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from treegen.data import GameData
from treegen.errors import CodeError, GameError, unknown
from treegen.notation import Feedback, format_feedback, game_slug, game_title, parse_feedback
from treegen.player import check_game
from treegen.settings import memory_limit

#: Preset games by name; aliases map to the same rules.
PRESETS = {
    "bulls-and-cows": ("0123456789", 4, False),
    "mastermind": ("123456", 4, True),
    "muertos-y-heridos": ("0123456789", 4, True),
}
ALIASES = {"moo": "bulls-and-cows"}
DESCRIPTIONS = {
    "bulls-and-cows": "Bulls and Cows / MOO: 4 distinct digits",
    "mastermind": "Mastermind: 4 pegs of 6 colours, repeats allowed",
    "muertos-y-heridos": "Muertos y Heridos: 4 digits, repeats allowed",
}


@dataclass(frozen=True)
class Game:
    """The rules of one code-breaking game."""

    symbols: str
    length: int
    repetition: bool
    name: str = "custom"

    def __post_init__(self) -> None:
        problem = check_game(self.to_dict())  # the contract every book's game is read by
        if problem:
            raise GameError(problem)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Game:
        key = ALIASES.get(name, name)
        if key not in PRESETS:
            raise GameError(unknown("game", name, sorted([*PRESETS, *ALIASES])))
        symbols, length, repetition = PRESETS[key]
        return cls(symbols, length, repetition, key)

    @classmethod
    def make(cls, name: str | None = None, symbols: str | None = None, length: int | None = None,
             repetition: bool | None = None) -> Game:
        """A preset, a custom game, or a preset with some rules changed (then it is "custom")."""
        base = cls.preset(name or "bulls-and-cows")
        if symbols is None and length is None and repetition is None:
            return base
        game = cls(symbols if symbols is not None else base.symbols,
                   length if length is not None else base.length,
                   repetition if repetition is not None else base.repetition)
        return game.named()

    def named(self) -> Game:
        """The same rules under the preset name they match, or "custom"."""
        for key, rules in PRESETS.items():
            if rules == (self.symbols, self.length, self.repetition):
                return Game(*rules, key)
        return Game(self.symbols, self.length, self.repetition, "custom")

    def to_dict(self) -> GameData:
        return {"name": self.name, "symbols": self.symbols, "length": self.length,
                "repetition": self.repetition}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        try:
            return cls(data["symbols"], data["length"], data["repetition"], data.get("name", "custom"))
        except (KeyError, TypeError) as exc:
            raise GameError(f"malformed game description: {exc}") from None

    @property
    def title(self) -> str:
        """The game as messages name it: the preset name, or its rules (see
        :func:`treegen.notation.game_title`)."""
        return game_title(self.to_dict())

    @property
    def slug(self) -> str:
        """A file-name friendly name: the preset name, or the rules of a custom game."""
        return game_slug(self.to_dict())

    def __str__(self) -> str:
        kind = "repeats allowed" if self.repetition else "no repeats"
        return f"{self.name} ({len(self.symbols)} symbols {self.symbols}, length {self.length}, {kind})"

    # -- codes --------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """How many codes (= secrets) the game has, computed without enumerating them."""
        s, n = len(self.symbols), self.length
        return s ** n if self.repetition else math.perm(s, n)

    def memory_estimate(self) -> int:
        """Bytes treegen needs for this game: the guess x secret score table dominates."""
        n = self.size
        return n * n + n * (self.length + len(self.symbols) + 64)

    def check_fits(self, available: int | None = None) -> None:
        """Refuse, before allocating anything, a game whose tables would not fit in memory."""
        available = available_memory() if available is None else available
        need = self.memory_estimate()
        if need > available:
            raise GameError(
                f"game {self.slug} has {self.size:,} codes and needs about {_human(need)} of memory "
                f"for its score table; only {_human(available)} is available")

    @cached_property
    def codes(self) -> np.ndarray:
        """All codes as an (N, length) uint8 array of symbol indices, in enumeration order."""
        self.check_fits()
        s, n = len(self.symbols), self.length
        if self.repetition:
            grid = np.indices((s,) * n, dtype=np.uint8).reshape(n, -1).T
            return np.ascontiguousarray(grid)
        flat = np.fromiter(itertools.chain.from_iterable(itertools.permutations(range(s), n)),
                           dtype=np.uint8, count=self.size * n)
        return flat.reshape(-1, n)

    @cached_property
    def code_strings(self) -> list[str]:
        table = np.array(list(self.symbols))
        return ["".join(row) for row in table[self.codes]]

    @cached_property
    def _index(self) -> dict[str, int]:
        return {code: i for i, code in enumerate(self.code_strings)}

    def rank(self, codes: np.ndarray) -> np.ndarray:
        """Enumeration indices of an (M, length) array of symbol indices, vectorised."""
        s = len(self.symbols)
        number = codes.astype(np.int64) @ (s ** np.arange(self.length - 1, -1, -1, dtype=np.int64))
        return number if self.repetition else self._rank_lut[number]

    @cached_property
    def _rank_lut(self) -> np.ndarray:
        s = len(self.symbols)
        lut = np.full(s ** self.length, -1, dtype=np.int64)
        lut[self.codes.astype(np.int64) @ (s ** np.arange(self.length - 1, -1, -1, dtype=np.int64))] = \
            np.arange(self.size)
        return lut

    def validate_code(self, text: str) -> str:
        """The code itself if it is valid for the game, else a CodeError saying what is wrong."""
        if not isinstance(text, str):
            raise CodeError(f"a code must be a string, not {type(text).__name__}")
        code = text.strip()
        if len(code) != self.length:
            raise CodeError(f"code {text!r} has {len(code)} symbols; {self.name} codes have {self.length}")
        bad = [c for c in code if c not in self.symbols]
        if bad:
            raise CodeError(f"code {text!r} uses {bad[0]!r}, which is not one of the symbols {self.symbols}")
        if not self.repetition and len(set(code)) != len(code):
            raise CodeError(f"code {text!r} repeats a symbol, which {self.name} does not allow")
        return code

    def index(self, code: str) -> int:
        """Position of a code in enumeration order."""
        return self._index[self.validate_code(code)]

    # -- feedback -----------------------------------------------------------------------------

    @cached_property
    def feedbacks(self) -> list[tuple[int, int]]:
        """Every (a, b) pair a feedback index can hold, in index order (a, then b, ascending)."""
        n = self.length
        return [(a, b) for a in range(n + 1) for b in range(n + 1 - a)]

    @property
    def solved_feedback(self) -> tuple[int, int]:
        return (self.length, 0)

    @cached_property
    def feedback_texts(self) -> list[str]:
        return [format_feedback(fb) for fb in self.feedbacks]

    def parse_feedback(self, text: object) -> Feedback:
        """Any spelling :mod:`treegen.notation` reads; refuses answers impossible for the game."""
        return parse_feedback(text, self.length)


def available_memory() -> int:
    """Memory treegen may use: MemAvailable, or physical memory when /proc is absent."""
    override = memory_limit()
    if override is not None:
        return override
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _human(nbytes: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if nbytes < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return f"{nbytes} B"
