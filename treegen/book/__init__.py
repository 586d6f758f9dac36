"""The strategy book: its format (format.py, standard library only), written as its tree is built
(writer.py) and read node by node (reader.py) so that a book of millions of secrets is never held
whole, an independent replay of every secret (replay.py), and grafting proven classes into it
(graft.py).

``from treegen import book`` gives the format's functions, as the modules that read and write books
use them."""

from treegen.book.format import (
    FORMAT,
    SECTIONS,
    VERSION,
    check,
    dumps,
    feedback,
    file_name,
    game_slug,
    load,
    load_sections,
    loads,
    make_book,
    make_stats,
    open_book,
    save,
    save_to,
    summary,
)

__all__ = [
    "FORMAT",
    "SECTIONS",
    "VERSION",
    "check",
    "dumps",
    "feedback",
    "file_name",
    "game_slug",
    "load",
    "load_sections",
    "loads",
    "make_book",
    "make_stats",
    "open_book",
    "save",
    "save_to",
    "summary",
]
