"""The book library shipped in ``books/``: its catalogue (catalogue.py), rebuilding what is out of
date (rebuild.py), pictures (pictures.py), build times (times.py) and the index (index.py)."""

from treegen.errors import LibraryError
from treegen.library.catalogue import (
    CONSISTENT_DIFFERS,
    DEPTH_FLOORS,
    DEPTH_LIMITS,
    FRONTIER,
    GAMES,
    GRAFTED,
    HELD_OPENINGS,
    HEURISTICS,
    OPENINGS,
    OPTIMAL_GAMES,
    OPTIMAL_SIZES,
    RECORD_SEARCHES,
    SLOW,
    DepthFloor,
    Entry,
    entries,
    requested,
    select,
)
from treegen.library.index import index_text, lower_text, opening_files, write_index
from treegen.library.pictures import PICTURE_DEPTH, draw, picture, picture_stamp
from treegen.library.rebuild import Task, grafted_book, stale, tasks, update
from treegen.library.sources import BEFORE, PUBLISHED, SOURCES_CHECKED, Published
from treegen.library.times import TIMES_FILE, build_times, file_digest, record_time, time_text

__all__ = ["BEFORE", "CONSISTENT_DIFFERS", "DEPTH_FLOORS", "DEPTH_LIMITS", "FRONTIER", "GAMES", "GRAFTED",
           "HELD_OPENINGS", "HEURISTICS", "OPENINGS", "OPTIMAL_GAMES", "OPTIMAL_SIZES", "PICTURE_DEPTH",
           "PUBLISHED", "RECORD_SEARCHES", "SLOW", "SOURCES_CHECKED", "TIMES_FILE", "DepthFloor", "Entry",
           "LibraryError", "Published", "Task", "build_times", "draw", "entries", "file_digest",
           "grafted_book", "index_text", "lower_text", "opening_files", "picture", "picture_stamp",
           "record_time", "requested", "select", "stale", "tasks", "time_text", "update", "write_index"]
