"""The strategy book: its format (format.py, standard library only), an independent replay of every
secret (replay.py), and grafting proven classes into it (graft.py).

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
    loads,
    make_book,
    make_stats,
    save,
    save_to,
    summary,
)

__all__ = ["FORMAT", "SECTIONS", "VERSION", "check", "dumps", "feedback", "file_name", "game_slug",
           "load", "loads", "make_book", "make_stats", "save", "save_to", "summary"]
