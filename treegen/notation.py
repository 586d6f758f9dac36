"""How feedback and moves are written, read by every command: one grammar, parse/format pairs that
round-trip.

Feedback ``(a, b)`` is written ``1A2B`` (``a`` symbols right and in place, ``b`` right but elsewhere)
and read from ``1A2B``, ``1a2b``, ``12``, ``1 2``, ``1,2``, ``1;2``, ``1/2``, ``1-2`` or the pair
``(1, 2)``. A move is ``GUESS=FEEDBACK``; a path of moves is ``1122=1A0B,1344=2A0B`` (any feedback
spelling, ``1122=1,0,1344=2,0`` too). Standard library only. The grammar of answers is the
standalone player's (:mod:`treegen.player`, its table of rules); this module adds moves, paths and
names of games, and raises treegen's own errors.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from treegen.data import GameData
from treegen.errors import CodeError, ImpossibleFeedback, MalformedFeedback
from treegen.player import ImpossibleAnswer, MalformedAnswer, brief, hard_mode_of, rule_of
from treegen.player import parse_feedback as read_pegs

__all__ = [
    "Feedback",
    "Move",
    "feedback_keys",
    "format_feedback",
    "format_moves",
    "game_slug",
    "parse_feedback",
    "parse_key",
    "parse_moves",
    "possible",
    "split_moves",
]

Feedback = tuple[int, int]
#: A move as read: the guess and the feedback it got.
Move = tuple[str, Feedback]

_KEY = re.compile(r"^(0|[1-9][0-9]?)A(0|[1-9][0-9]?)B$")
#: Commas that start a new move: the ones followed by ``GUESS=`` (a feedback may contain a comma).
_MOVE_SPLIT = re.compile(r",(?=[^,=]*=)")


def format_feedback(fb: Feedback) -> str:
    """``(1, 2)`` -> ``1A2B``: two counts, each a whole number from 0 to 99 (what books hold)."""
    if not (isinstance(fb, (tuple, list)) and len(fb) == 2 and
            all(type(n) is int and 0 <= n < 100 for n in fb)):
        raise MalformedFeedback(f"cannot write {brief(fb)} as a feedback: it must be two counts "
                                "(a, b), e.g. (1, 2)")
    return f"{fb[0]}A{fb[1]}B"


def possible(fb: Feedback, length: int) -> bool:
    """Whether some guess and secret of a game of this length score ``fb``. With ``length - 1``
    symbols in place, the last symbol cannot be elsewhere: ``3A1B`` never happens with 4."""
    a, b = fb
    return a >= 0 and b >= 0 and a + b <= length and not (a == length - 1 and b == 1)


def feedback_keys(length: int, solved: bool = True) -> list[str]:
    """Every possible feedback of a game of this length, written canonically, fewest A then fewest B
    first; ``solved=False`` leaves out all-correct."""
    return [format_feedback((a, b)) for a in range(length + 1) for b in range(length + 1 - a)
            if possible((a, b), length) and (solved or a < length)]


def parse_feedback(text: object, length: int | None = None) -> Feedback:
    """Any accepted spelling -> ``(a, b)`` (the player's grammar, :func:`treegen.player.parse_feedback`);
    with ``length``, answers no secret gives are refused."""
    try:
        return read_pegs(text, length)
    except MalformedAnswer as exc:
        raise MalformedFeedback(str(exc)) from None
    except ImpossibleAnswer as exc:
        raise ImpossibleFeedback(str(exc)) from None


def parse_key(key: str) -> Feedback:
    """A feedback written canonically (``1A2B``, as books store it) -> ``(a, b)``."""
    match = _KEY.match(key) if isinstance(key, str) else None
    if not match:
        raise MalformedFeedback(f"{brief(key)} is not a feedback like 1A2B")
    return int(match.group(1)), int(match.group(2))


def parse_moves(text: str, length: int | None = None) -> list[Move]:
    """``1122=1A0B,1344=2,0`` -> ``[("1122", (1, 0)), ("1344", (2, 0))]``; with ``length``,
    impossible answers are refused. Guesses are not checked here (the caller knows the game)."""
    return [(guess, parse_feedback(answer, length)) for guess, answer in split_moves(text)]


def split_moves(text: str) -> list[tuple[str, str]]:
    """``1122=1A0B,1344=2,0`` -> ``[("1122", "1A0B"), ("1344", "2,0")]``: the moves of a path with
    their answers as written, for the game's rule to read (``salet=GY..Y`` too)."""
    if not isinstance(text, str):
        raise MalformedFeedback(f"cannot read moves {brief(text)}: write them as GUESS=FEEDBACK,..., "
                                "e.g. 1122=1A0B,1344=2A0B")
    moves: list[tuple[str, str]] = []
    for part in (p.strip() for p in _MOVE_SPLIT.split(text.strip())):
        if not part:
            continue
        guess, sep, answer = part.partition("=")
        if not sep or not guess.strip() or not answer.strip():
            raise MalformedFeedback(f"cannot read move {brief(part)}: write each move as GUESS=FEEDBACK, "
                                    "e.g. 1122=1A0B")
        answer, comma, rest = answer.strip().partition(",")
        pair = all(x.strip().isdigit() and len(x.strip()) <= 2 for x in (answer, rest))
        if comma and not pair:  # "1A0B,1344", not "1,0": the next move lacks its answer
            raise MalformedFeedback(f"move {brief(rest.strip())} has no =FEEDBACK: write each move "
                                    "as GUESS=FEEDBACK, e.g. 1122=1A0B,1344=2A0B")
        moves.append((guess.strip(), answer + comma + rest))
    return moves


def format_moves(moves: Sequence[tuple[str, Feedback | str]]) -> str:
    """``[("1122", (1, 0))]`` -> ``1122=1A0B``; feedback already written is kept as it is."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Sequence) or not all(
            isinstance(move, (tuple, list)) and len(move) == 2 and isinstance(move[0], str)
            for move in moves):
        raise CodeError(f"moves are (guess, feedback) pairs, not {brief(moves)}")
    return ",".join(f"{guess}={fb if isinstance(fb, str) else format_feedback(fb)}"
                    for guess, fb in moves)


def hard_title(game: GameData) -> str:
    """What a game's title adds for its hard mode: ", hard mode", or ", hard mode (hints)" for
    Wordle's own rule."""
    mode = hard_mode_of(game)
    return mode.title if mode else ""


def game_title(game: GameData) -> str:
    """The game as people call it: the preset name, or the rules of any other game in a few words
    (``4 of 123456789 with repeats``), so that two custom games are never both just "custom"."""
    hard = hard_title(game)
    if game["name"] != "custom":
        return game["name"] + hard
    rule = rule_of(game).title + hard
    if "answers" in game:
        return (f"words of {game['length']} letters ({len(game['answers'])} answers, "
                f"{len(game['guesses'])} guesses{rule})")
    kind = "with repeats" if game["repetition"] else "without repeats"
    return f"{game['length']} of {game['symbols']} {kind}{rule}"


def game_slug(game: GameData) -> str:
    """A file-name friendly game name: the preset name, or the rules of a custom game.

    Symbols other than ASCII letters and digits are written ``_``, with a digest of the symbols
    added so that two games never share a name.
    """
    mode = hard_mode_of(game)
    hard = mode.slug if mode else ""
    if game["name"] != "custom":
        return game["name"] + hard
    rule = rule_of(game).slug + hard
    if "answers" in game:
        lists = "\n".join(game["answers"]) + "\n\n" + "\n".join(game["guesses"])
        digest = hashlib.sha256(lists.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        return f"words-{game['length']}-{len(game['answers'])}of{len(game['guesses'])}-{digest}{rule}"
    kind = "rep" if game["repetition"] else "norep"
    symbols = game["symbols"]
    shown = re.sub(r"[^A-Za-z0-9]", "_", symbols)
    if shown != symbols:
        shown += "_" + hashlib.sha256(symbols.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"custom-{shown}-{game['length']}-{kind}{rule}"
