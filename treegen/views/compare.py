"""Books side by side: the rows of ``treegen stats`` and :func:`treegen.compare`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from treegen.data import BookData
from treegen.notation import game_title
from treegen.views.encode import terminal_text

HEADERS = ["book", "game", "strategy", "pool", "first", "secrets", "total", "claims", "average",
           "max", "histogram"]


def compare_rows(books: Sequence[tuple[str, BookData]]) -> list[dict[str, Any]]:
    """One row per (label, book): the label, the game's title, the strategy record and the stats."""
    return [{"book": label, "game": game_title(data["game"]), **data["strategy"], **data["stats"]}
            for label, data in books]


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell, two spaces apart; a cell's control characters shown
    as code points (:func:`treegen.views.encode.terminal_text`) before it is measured."""
    rows = [[terminal_text(cell) for cell in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


def compare_text(books: Sequence[tuple[str, BookData]]) -> str:
    """The table ``treegen stats`` prints."""
    table = [[str(r["book"]), r["game"], r["name"], r["pool"], r["first"], str(r["secrets"]),
              str(r["total"]), proven_text(r), f"{r['average']:.4f}", str(r["max"]),
              " ".join(f"{k}:{v}" for k, v in r["histogram"].items())]
             for r in compare_rows(books)]
    return format_table(HEADERS, table)


def proven_text(row: dict[str, Any]) -> str:
    """What a book claims of its optimality (its own word: only ``verify --certificate`` proves
    it), in a few characters and with its scope: "optimal",
    "optimal after 1122", "≥ 5694 after 1122", "≥ 53114", or both of a grafted book of a forced
    opening ("≥ 5625; optimal after 1122"); nothing for a heuristic's book."""
    said = []
    if row.get("optimal") is True:
        said.append("optimal")
    elif isinstance(row.get("lower_bound"), int):
        said.append(f"≥ {row['lower_bound']}")
    after = row.get("after")
    if isinstance(after, dict):
        said.append(f"optimal after {after.get('first')}" if after.get("optimal") else
                    f"≥ {after.get('lower_bound')} after {after.get('first')}")
    return "; ".join(said)
