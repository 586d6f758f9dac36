"""Rebuilding the library: which books are out of date and why, and bringing each up to date.

Every file is a pure function of treegen's code (and, for pictures, of the Graphviz version), so a
fresh clone rebuilds byte-identical files with ``treegen books rebuild books``.

Up to date, exactly: the book file exists, reads as a book of the current format version, and records
the game and strategy parameters the entry asks for (a grafted book: is its base book with its
record's classes grafted in); and its picture exists and carries the stamp of this very book file
(its sha256) and of this treegen version. A picture stamped by another treegen version means the
book came from another version too, so both are rebuilt; a picture of other book bytes (the book was
rebuilt by hand, say) is only redrawn. ``--force`` rebuilds regardless."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from treegen import book as books
from treegen.data import BookData
from treegen.errors import LibraryError, TreegenError
from treegen.library.catalogue import Entry, requested, select
from treegen.library.pictures import draw, picture_stamp
from treegen.library.times import file_digest, record_time
from treegen.version import __version__


@dataclass(frozen=True)
class Task:
    """What a rebuild does for one entry: nothing, draw the picture again, or build the book."""

    entry: Entry
    reason: str | None  #: why it is out of date; None when it is up to date
    book: bool = False  #: the book itself must be built (else only the picture is drawn)


def stale(entry: Entry, folder: str, force: bool = False) -> Task:
    """Whether ``entry`` is up to date in ``folder`` (see the module docstring for the rule)."""
    if force:
        return Task(entry, "forced", book=True)
    path = os.path.join(folder, entry.book_file)
    if not os.path.exists(path):
        return Task(entry, "not built yet", book=True)
    try:
        data = books.load(path)
    except TreegenError as exc:
        return Task(entry, f"unreadable ({exc})", book=True)
    if entry.grafted is not None:
        try:
            if books.dumps(grafted_book(entry, folder)) != books.dumps(data):
                return Task(entry, "the record or the book it grafts onto changed", book=True)
        except TreegenError as exc:
            return Task(entry, f"cannot be grafted ({exc})", book=True)
    else:
        game, strategy = entry.parameters()
        recorded = requested({k: v for k, v in data["strategy"].items() if k != "first"})
        held = entry.first is not None and data["strategy"].get("first") != entry.first
        if data["game"] != game or recorded != strategy or held:
            return Task(entry, "built with other parameters", book=True)
    picture_path = os.path.join(folder, entry.picture_file)
    stamp = picture_stamp(picture_path)
    if stamp is None:
        return Task(entry, "picture not drawn by the library" if os.path.exists(picture_path)
                    else "picture missing")
    version, _graphviz, digest = stamp
    if version != __version__:
        return Task(entry, f"built by treegen {version}", book=True)
    if digest != file_digest(path):
        return Task(entry, "picture of another build")
    return Task(entry, None)


def tasks(folder: str, force: bool = False, only: str | None = None) -> list[Task]:
    """What a rebuild of ``folder`` does for each entry (matching ``only``)."""
    return [stale(entry, folder, force) for entry in select(only)]


def update(task: Task, folder: str, jobs: int | None = None) -> BookData | None:
    """Carry out a task: build and save the book if needed, then draw its picture.

    The book is built by its own ``treegen build`` command, in a process of its own, so that its
    time and peak memory are its own; an interrupted build keeps its checkpoint and the next
    rebuild continues it. Returns the new book, or None when only the picture was drawn (or
    nothing was to do).
    """
    if task.reason is None:
        return None
    os.makedirs(folder, exist_ok=True)
    result = None
    if task.book and task.entry.grafted is not None:
        start = time.monotonic()
        result = grafted_book(task.entry, folder)
        path = os.path.join(folder, task.entry.book_file)
        books.save(result, path)
        record_time(folder, task.entry, time.monotonic() - start, None, file_digest(path))
    elif task.book:
        path = os.path.join(folder, task.entry.book_file)
        workers = (jobs or os.cpu_count() or 1) if task.entry.parallel else None
        seconds, peak = _run_build(task.entry, path, workers)
        result = books.load(path)
        record_time(folder, task.entry, seconds, workers, file_digest(path), peak)
    draw(task.entry, folder)
    return result


def grafted_book(entry: Entry, folder: str) -> BookData:
    """A grafted entry's book: its base book with the classes its record proves swapped in, its
    lower bound raised by the records of the game's other first guesses."""
    from treegen.library.certificates import checked_elsewhere
    from treegen.proofs import graft_records
    from treegen.search.records import load_record
    base = books.load(os.path.join(folder, entry.base.book_file))
    elsewhere = checked_elsewhere(folder)
    return graft_records(base, [load_record(os.path.join(folder, file), elsewhere=elsewhere)
                                for file in entry.record_files])


def _run_build(entry: Entry, path: str, jobs: int | None) -> tuple[float, int]:
    """Run the entry's build command into ``path``: (wall seconds, peak memory of its largest
    process in bytes)."""
    import signal
    import subprocess
    import sys
    argv = [sys.executable, "-m", "treegen", "build", *entry.arguments(), "-o", path]
    if jobs is not None:
        argv += ["--jobs", str(jobs)]
        if os.path.exists(path + ".checkpoint"):
            argv.append("--resume")
    start = time.monotonic()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    try:
        _, status, usage = os.wait4(child.pid, 0)  # its own peak, and its workers'
    except BaseException:  # Ctrl-C reaches the build too: it keeps its checkpoint and ends
        child.send_signal(signal.SIGINT)
        child.wait()
        raise
    child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    if child.returncode == 130 or child.returncode == -signal.SIGINT:
        raise KeyboardInterrupt
    if child.returncode != 0:
        raise LibraryError(f"building {entry.name} failed (exit {child.returncode}); "
                           f"run `{entry.command(os.path.dirname(path) or '.')}` to see why")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB elsewhere
    return seconds, usage.ru_maxrss * scale
