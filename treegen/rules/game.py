"""Game rules: which codes exist, in which order, and how feedback is written.

A game is a value: symbols, length, whether a code may repeat a symbol, and the rule answers are
given by (pegs, black pegs only, or Wordle's tiles). Codes are enumerated in lexicographic order of
the symbol string; a game may instead list its answers (the secrets) and its allowed guesses, which
are then numbered answers first, in the order given, then the other guesses: a secret's number is
also its number as a guess. That order is the tie-break order of every strategy, so it is defined
here once.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from treegen.data import GameData
from treegen.errors import CodeError, GameError, unknown
from treegen.notation import Feedback, game_slug, game_title, parse_feedback
from treegen.player import (
    DEFAULT_RULE,
    HARD_MODES,
    HardMode,
    Rule,
    brief,
    check_game,
    feedback_keys,
    find_rule,
    solved_key,
    spoken,
)
from treegen.settings import available_memory, human_size

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
    "wordle": "Wordle: 2,315 answers, 12,972 allowed guesses, green/yellow/grey tiles",
    "jotto": "Jotto on Wordle's lists: answered with the number of letters in common",
}
#: The guesses a player has, in the games whose rules set a limit (``challenge`` ends there).
GUESS_LIMITS = {"wordle": 6}
#: Presets of listed words, whose lists come with the install (see treegen.rules.wordlists):
#: Wordle's answers and guesses, each preset with its rule of feedback.
WORD_PRESETS = {"wordle": "wordle", "jotto": "jotto"}
#: Games of up to this many codes keep every code's name in a list; larger ones name the codes
#: asked for from their symbols (8 x 6's 1.7 million names take 116 MB in each process).
NAMES_LISTED_UP_TO = 1 << 17


def preset_key(name: str) -> str:
    """A preset's name as typed (any case, an alias) -> the name the preset tables use."""
    folded = name.strip().lower()
    return ALIASES.get(folded, folded)


@dataclass(frozen=True)
class Game:
    """The rules of one code-breaking game."""

    symbols: str
    length: int
    repetition: bool
    name: str = "custom"
    #: The rule of feedback's name (see :attr:`feedback_rule`).
    rule: str = DEFAULT_RULE
    #: The secrets and the allowed guesses (a superset), or None when every code is both.
    answers: tuple[str, ...] | None = None
    guesses: tuple[str, ...] | None = None
    #: Hard mode (see HARD_MODES): "" (off), "strict" or "hints".
    hard: str = ""

    def __post_init__(self) -> None:
        hard: object = self.hard
        if isinstance(hard, bool):  # hard=True, as books write the strict rule
            object.__setattr__(self, "hard", "strict" if hard else "")
        elif hard not in ("", *HARD_MODES):
            raise GameError(f"hard must be true, false, {' or '.join(map(repr, HARD_MODES))}, "
                            f"not {brief(hard)}")
        for field in ("answers", "guesses"):  # lists where a sequence is natural; kept as tuples
            words: object = getattr(self, field)
            if isinstance(words, list):
                object.__setattr__(self, field, tuple(words))
            elif words is not None and not isinstance(words, tuple):
                raise GameError(f"{field} must be a list of words, not {brief(words)}")
        if (self.answers is None) != (self.guesses is None):
            raise GameError("a game of listed words needs both its answers and its guesses "
                            "(Game.of_words(answers) makes the guesses the answers)")
        problem = check_game(self.to_dict())  # the contract every book's game is read by
        if problem:
            raise GameError(problem)

    @classmethod
    def of_words(cls, answers: Sequence[str], guesses: Sequence[str] | None = None,
                 rule: str = "wordle", name: str = "custom") -> Game:
        """A game of listed words (``guesses`` by default the answers themselves); its symbols are
        the letters the guesses use, and it allows repeats when any word repeats a letter."""
        for given in (answers, *([] if guesses is None else [guesses])):
            if isinstance(given, str) or not isinstance(given, Iterable):
                raise GameError(f"words come as a list of words, not {brief(given)}")
        answers = list(answers)
        words = list(guesses) if guesses is not None else answers
        if not words or not all(isinstance(w, str) for w in (*words, *answers)):
            raise GameError("a word game needs at least one word, and words are strings")
        symbols = "".join(sorted(set("".join(words)) | set("".join(answers))))
        repeats = any(len(set(w)) != len(w) for w in words)
        return cls(symbols, len(words[0]), repeats, name, rule, tuple(answers), tuple(words))

    def __reduce__(self) -> tuple[Any, ...]:
        """Sent to another process as its definition, not with what it keeps (its codes, their
        names and an index of them: tens of megabytes in a large game); the process receiving it
        makes one game of each definition and keeps it for the next piece of work."""
        return _game_of, (tuple(getattr(self, field.name) for field in fields(self)),)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Game:
        if not isinstance(name, str):
            raise GameError(f"a preset game is named by a string, not {brief(name)}")
        key = preset_key(name)
        if key in WORD_PRESETS:
            from treegen.rules.wordlists import wordle_lists
            answers, others = wordle_lists()
            return cls.of_words(answers, sorted([*answers, *others]), WORD_PRESETS[key], key)
        if key not in PRESETS:
            raise GameError(unknown("game", name, sorted([*PRESETS, *WORD_PRESETS, *ALIASES])))
        symbols, length, repetition = PRESETS[key]
        return cls(symbols, length, repetition, key)

    @classmethod
    def make(cls, name: str | None = None, symbols: str | None = None, length: int | None = None,
             repetition: bool | None = None) -> Game:
        """A preset, a custom game, or a preset with some rules changed (then it is "custom")."""
        base = cls.preset(name or "bulls-and-cows")
        if symbols is None and length is None and repetition is None:
            return base
        if base.listed:
            raise GameError(f"{base.name} is a game of listed words: --symbols, --length and "
                            "--repetition do not apply (give other lists with --answers and --guesses)")
        game = cls(symbols if symbols is not None else base.symbols,
                   length if length is not None else base.length,
                   repetition if repetition is not None else base.repetition)
        return game.named()

    def named(self) -> Game:
        """The same rules under the preset name they match, or "custom"."""
        if self.rule != DEFAULT_RULE or self.guesses is not None:
            return self
        for key, rules in PRESETS.items():
            if rules == (self.symbols, self.length, self.repetition):
                return Game(*rules, key)
        return Game(self.symbols, self.length, self.repetition, "custom")

    def to_dict(self) -> GameData:
        data: GameData = {"name": self.name, "symbols": self.symbols, "length": self.length,
                          "repetition": self.repetition}
        if self.rule != DEFAULT_RULE:
            data["rule"] = self.rule
        if self.answers is not None and self.guesses is not None:
            data["answers"], data["guesses"] = list(self.answers), list(self.guesses)
        if self.hard:
            data["hard"] = HARD_MODES[self.hard].written
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        if not isinstance(data, Mapping):
            raise GameError(f"a game description is a mapping, not {brief(data)}")
        try:
            answers, guesses = data.get("answers"), data.get("guesses")
            return cls(data["symbols"], data["length"], data["repetition"],
                       data.get("name", "custom"), data.get("rule", DEFAULT_RULE),
                       tuple(answers) if isinstance(answers, list) else answers,
                       tuple(guesses) if isinstance(guesses, list) else guesses,
                       data.get("hard", False))
        except (KeyError, TypeError) as exc:
            raise GameError(f"malformed game description: {exc}") from None

    def identity(self) -> dict[str, Any]:
        """The game as files that depend on it (checkpoints, cached tables) name it: its rules,
        and a listed game's lists by their SHA-256 (a header stays small)."""
        data: dict[str, Any] = dict(self.to_dict_rules())
        data["hard"] = self.to_dict().get("hard", False)
        if self.listed:
            words = "\n".join(self.code_strings) + f"\n{self.size}"
            data["lists"] = hashlib.sha256(words.encode("utf-8", "surrogatepass")).hexdigest()
        return data

    @property
    def hard_mode(self) -> HardMode | None:
        """The hard mode the game is played in (:data:`treegen.player.HARD_MODES`), if any."""
        return HARD_MODES.get(self.hard)

    @property
    def listed(self) -> bool:
        """Whether the game lists its answers and guesses (else every code is both)."""
        return self.guesses is not None

    @property
    def symmetric_scores(self) -> bool:
        """Whether a guess scores against a secret as the secret would against the guess, with
        every code both: enumerated codes under a symmetric rule such as pegs or black pegs (the
        table is its transpose)."""
        return not self.listed and self.feedback_rule.symmetric_scores

    @property
    def feedback_rule(self) -> Rule:
        """The rule of feedback the game is scored by (:data:`treegen.player.RULES`)."""
        return find_rule(self.rule)

    @property
    def notation(self) -> Rule:
        """The rule as the game's players write it (Mastermind's black and white pegs; see
        :data:`treegen.player.NOTATIONS`): what every view shows and reads, keyed as the rule."""
        return spoken(self.feedback_rule, self.name)

    @property
    def has_symmetries(self) -> bool:
        """Whether renaming symbols and reordering positions keeps the game and its answers: true
        of enumerated codes scored by pegs or black pegs, not of lists (a renamed word is rarely
        a word) nor of tiles (reordering positions reorders the answer): the same games whose
        scores are symmetric."""
        return self.symmetric_scores

    @property
    def guess_limit(self) -> int | None:
        """The guesses the game's own rules give a player (Wordle's six), or None."""
        return GUESS_LIMITS.get(self.name)

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
        """How many secrets the game has, computed without enumerating codes."""
        if self.answers is not None:
            return len(self.answers)
        s, n = len(self.symbols), self.length
        return s ** n if self.repetition else math.perm(s, n)

    @property
    def guess_count(self) -> int:
        """How many guesses the game allows (the secrets are the first ``size`` of them)."""
        return len(self.guesses) if self.guesses is not None else self.size

    def memory_estimate(self, tables: bool = True) -> int:
        """Bytes treegen needs for this game: the codes, and with ``tables`` the guess x secret
        score table, which dominates, twice where scores are not symmetric (the exact search reads
        a transposed copy too), and in hard mode a guess x guess table beside them (the exact
        search splits the allowed guesses)."""
        n, g = self.size, self.guess_count
        codes = g * (self.length + len(self.symbols) + 64)
        if not tables:
            return codes
        square = g * g if self.hard and not self.symmetric_scores else 0
        return (1 if self.symmetric_scores else 2) * g * n + square + codes

    def check_fits(self, available: int | None = None, tables: bool = True) -> None:
        """Refuse, before allocating anything, a game whose codes (and with ``tables`` its score
        tables) would not fit in memory."""
        available = available_memory() if available is None else available
        need = self.memory_estimate(tables)
        if need > available:
            what = "for its score table" if tables else "for its codes"
            raise GameError(
                f"game {self.slug} has {self.size:,} codes and needs about {human_size(need)} of memory "
                f"{what}; only {human_size(available)} is available")

    @cached_property
    def order(self) -> tuple[str, ...]:
        """A listed game's guesses in number order: the answers, then the other guesses."""
        assert self.answers is not None and self.guesses is not None
        answers = set(self.answers)
        return (*self.answers, *(w for w in self.guesses if w not in answers))

    @cached_property
    def codes(self) -> np.ndarray:
        """All guesses as a (guesses, length) uint8 array of symbol indices, in number order; the
        first ``size`` rows are the secrets."""
        self.check_fits(tables=False)
        if self.listed:
            lookup = {c: i for i, c in enumerate(self.symbols)}
            return np.array([[lookup[c] for c in word] for word in self.order], dtype=np.uint8
                            ).reshape(-1, self.length)
        s, n = len(self.symbols), self.length
        if self.repetition:
            grid = np.indices((s,) * n, dtype=np.uint8).reshape(n, -1).T
            return np.ascontiguousarray(grid)
        flat = np.fromiter(itertools.chain.from_iterable(itertools.permutations(range(s), n)),
                           dtype=np.uint8, count=self.size * n)
        return flat.reshape(-1, n)

    @cached_property
    def code_strings(self) -> list[str]:
        """Every guess as text, in number order (the secrets first)."""
        if self.listed:
            return list(self.order)
        table = np.array(list(self.symbols))  # one character a symbol
        named: list[str] = table[self.codes].view(f"<U{self.length}").ravel().tolist()
        return named

    def code_name(self, index: int) -> str:
        """The code at ``index`` by name (see :meth:`code_names`)."""
        return self.code_names([index])[0]

    def code_names(self, indices: Sequence[int] | np.ndarray) -> list[str]:
        """The codes at ``indices`` by name: from the list of every name in a listed or small
        game, else from the codes' symbols, so that no large list is made."""
        if self.listed or self.size <= NAMES_LISTED_UP_TO or "code_strings" in self.__dict__:
            every = self.code_strings
            if isinstance(indices, np.ndarray):
                indices = indices.tolist()  # Python ints index a list three times as fast
            return [every[i] for i in indices]
        table = np.array(list(self.symbols))  # one character a symbol
        picked = self.codes[np.asarray(indices, dtype=np.int64)]
        named: list[str] = table[picked].view(f"<U{self.length}").ravel().tolist()
        return named

    @cached_property
    def _index(self) -> dict[str, int]:
        return {code: i for i, code in enumerate(self.code_strings)}

    def rank(self, codes: np.ndarray) -> np.ndarray:
        """Enumeration indices of an (M, length) array of symbol indices, vectorised (games that
        enumerate their codes)."""
        s = len(self.symbols)
        number = codes.astype(np.int64) @ (s ** np.arange(self.length - 1, -1, -1, dtype=np.int64))
        return number if self.repetition else self._rank_lut[number]

    @property
    def rank_table(self) -> np.ndarray:
        """The index of each code's number in base ``len(symbols)`` (-1 for numbers that are no
        code): :meth:`rank` of a game without repeats."""
        return self._rank_lut

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
        code = self.fold(text.strip())
        if len(code) != self.length:
            raise CodeError(f"code {text!r} has {len(code)} symbols; {self.name} codes have {self.length}")
        bad = [c for c in code if c not in self.symbols]
        if bad:
            raise CodeError(f"code {text!r} uses {bad[0]!r}, which is not one of the symbols {self.symbols}")
        if not self.repetition and len(set(code)) != len(code):
            raise CodeError(f"code {text!r} repeats a symbol, which {self.name} does not allow")
        if self.listed and code not in self._index:
            raise CodeError(f"{code!r} is not one of the {self.guess_count:,} guesses {self.title} "
                            "allows")
        return code

    def fold(self, text: str) -> str:
        """``text`` with each character that is no symbol, but whose other case is, in that case:
        people type CRANE for crane (never ambiguous, since a game with both cases keeps both)."""
        if all(c in self._symbol_set for c in text):
            return text
        return "".join(c if c in self._symbol_set else self._other_case.get(c, c) for c in text)

    @cached_property
    def _symbol_set(self) -> frozenset[str]:
        return frozenset(self.symbols)

    @cached_property
    def _other_case(self) -> dict[str, str]:
        other = {}
        for c in self.symbols:
            for v in (c.upper(), c.lower()):
                if len(v) == 1 and v != c and v not in self._symbol_set:
                    other[v] = c
        return other

    def index(self, code: str) -> int:
        """Position of a code in enumeration order."""
        code = self.validate_code(code)
        if self.listed or self.size <= NAMES_LISTED_UP_TO or not self.repetition:
            return self._index[code]
        digits = np.array([[self.symbols.index(c) for c in code]], dtype=np.uint8)
        return int(self.rank(digits)[0])

    # -- feedback -----------------------------------------------------------------------------

    @cached_property
    def feedback_texts(self) -> list[str]:
        """What each feedback index (a score table's value) stands for, in index order: for pegs
        (a, b) by a then b, for black pegs a, for tiles the base-3 number of grey 0, yellow 1,
        green 2. Some can never be given (``3A1B`` of 4 pegs, ``GGGGY``); see :attr:`branching`."""
        return self.feedback_rule.indexed(self.length)

    @cached_property
    def branching(self) -> int:
        """How many answers other than all-correct some secret can give: the most classes a
        guess splits the secrets into, besides the one it solves."""
        return len(feedback_keys(self.to_dict_rules())) - 1

    @cached_property
    def solved_index(self) -> int:
        """The feedback index of all-correct."""
        return self.feedback_texts.index(solved_key(self.to_dict_rules()))

    @cached_property
    def feedbacks(self) -> list[tuple[int, int]]:
        """Every (a, b) pair a feedback index holds, in index order (a game of aAbB answers)."""
        return [parse_feedback(text) for text in self.feedback_texts]

    def to_dict_rules(self) -> GameData:
        """The game's rules without its lists (what scoring depends on)."""
        data: GameData = {"name": self.name, "symbols": self.symbols, "length": self.length,
                          "repetition": self.repetition, "rule": self.rule}
        return data

    def parse_answer(self, text: object) -> str:
        """Any spelling of an answer the rule gives, written canonically (``1A2B``, ``2A``,
        ``GY..Y``); answers no secret gives are refused."""
        from treegen.player import PlayerError, parse_answer
        try:
            return parse_answer(text, self.to_dict_rules())
        except PlayerError as exc:
            raise CodeError(str(exc)) from None

    def parse_feedback(self, text: object) -> Feedback:
        """Any spelling :mod:`treegen.notation` reads; refuses answers impossible for the game."""
        return parse_feedback(text, self.length)


@lru_cache(maxsize=8)
def _game_of(definition: tuple[Any, ...]) -> Game:
    """The game of a definition (:meth:`Game.__reduce__`), one in this process for each."""
    return Game(*definition)
