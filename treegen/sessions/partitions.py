"""The partition table: how each kind of guess splits the secrets still possible, feedback by feedback.

Guesses that a symmetry of the game (fixing the guesses made so far) maps onto each other split the
secrets into classes of the same sizes, so one row per class of equivalent guesses says everything.
At the start of Muertos y Heridos that is five rows, ABCD, AABC, AABB, AAAB and AAAA: the table from
which Knuth's minimax picks ABCD, whose largest class (3048) is the smallest of the five.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from treegen.data import History
from treegen.errors import CodeError
from treegen.notation import split_moves
from treegen.player import feedback_keys
from treegen.rules.game import Game
from treegen.rules.scoring import Scorer, scorer_for
from treegen.rules.symmetry import equivalent_guesses


def parse_history(game: Game, text: str) -> History:
    """``0123=1A2B,4567=0A1B`` as (guess index, feedback index) pairs, checked against the game."""
    moves = split_moves(text)
    if not moves:
        raise CodeError("an empty history: write it as GUESS=FEEDBACK,... e.g. 0123=1A2B,4567=0A1B")
    return tuple((game.index(guess), game.feedback_texts.index(game.parse_answer(answer)))
                 for guess, answer in moves)


def candidates(game: Game, history: History = (), scorer: Scorer | None = None) -> np.ndarray:
    """The secrets consistent with every move of ``history``, scored by ``scorer`` (None: the
    game's own); none is a CodeError naming the moves up to the one that left none."""
    scorer = scorer or scorer_for(game)
    cands = np.arange(game.size)
    for k, (guess, fb) in enumerate(history):
        cands = cands[scorer.block(np.array([guess]), cands)[0] == fb]
        if not len(cands):
            moves = describe(game, history[:k + 1]).removeprefix("after ")
            raise CodeError(f"no secret of {game.title} gives all the answers {moves}: one of "
                            "them is mistyped")
    return cands


def pattern(code: str) -> str:
    """The shape of a code: symbols renamed A, B, C... in order of first appearance (0012 -> AABC)."""
    names: dict[str, str] = {}
    return "".join(names.setdefault(c, chr(ord("A") + len(names))) for c in code)


def partition_table(game: Game, history: History = ()) -> list[dict[str, Any]]:
    """One row per class of equivalent guesses (ordered by first code): class sizes per feedback."""
    if not game.has_symmetries:
        raise CodeError(f"{game.title} has no symmetry: every one of its {game.guess_count:,} "
                        "guesses is a class of its own, too many rows for this table; treegen "
                        "next shows the best guess and how it splits the secrets")
    cands = candidates(game, history)
    classes = equivalent_guesses(game, history)
    firsts = np.array([members[0] for members in classes], dtype=np.intp)
    counts = scorer_for(game).counts(firsts, cands)
    possible = set(feedback_keys(game.to_dict_rules()))  # 3A1B of 4 pegs is never given
    shown = [i for i, key in enumerate(game.feedback_texts) if key in possible]
    rows = []
    for members, first, row in zip(classes, firsts, counts):
        code = game.code_strings[first]
        rows.append({"guess": code, "pattern": pattern(code), "guesses": len(members),
                     "counts": {game.feedback_texts[i]: int(row[i]) for i in shown},
                     "largest": int(row.max())})
    return rows


def describe(game: Game, history: History) -> str:
    """Where the moves lead, answers in the game's notation."""
    if not history:
        return "at the start"
    write = game.notation.format
    return "after " + ",".join(f"{game.code_strings[g]}={write(game.feedback_texts[f])}"
                               for g, f in history)


def format_partitions(game: Game, history: History, rows: list[dict[str, Any]]) -> str:
    """A text table, answers in the game's notation; ``*`` marks the largest class of each row,
    ``-`` an empty one."""
    secrets = sum(rows[0]["counts"].values())
    head = (f"{game.title} {describe(game, history)}: {secrets} secret{'s' if secrets != 1 else ''}, "
            f"{len(rows)} class{'es' if len(rows) != 1 else ''} of equivalent guesses "
            "(* marks the largest class of each)")
    write = game.notation.format
    headers = ["guess", "like", "codes", *(f"{write(t)} " for t in rows[0]["counts"]), "largest"]
    body = []
    for row in rows:
        cells = [(f"{n}*" if n == row["largest"] else f"{n} ") if n else "- "
                 for n in row["counts"].values()]
        body.append([row["guess"], row["pattern"], str(row["guesses"]), *cells, str(row["largest"])])
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(headers)]
    lines = [head, "  ".join(h.rjust(w) if i >= 2 else h.ljust(w)
                             for i, (h, w) in enumerate(zip(headers, widths))).rstrip()]
    for r in body:
        lines.append("  ".join(c.rjust(w) if i >= 2 else c.ljust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    return "\n".join(lines)
