"""Writing files without losing anything: atomic replacement of regular files, writes that go through
symlinks to their target, straight writes into pipes and character devices, and a refusal to write
over any file the command read.

A regular file is replaced by renaming a finished temporary file over it, so a reader never sees half a
file and a failed or interrupted write leaves the old file as it was. Temporary files carry the writing
process's id; one left behind by a process that was killed is removed by the next write in that folder.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Sequence
from typing import Union

from treegen.errors import TreegenError, WriteError, unknown

Data = Union[str, bytes, bytearray, memoryview, Iterable[Union[bytes, bytearray, memoryview]]]  # noqa: UP007 -- evaluated at run time on 3.10

_TEMP = re.compile(r"^\.treegen-(?P<pid>\d+)-[^/]*\.tmp$")


def write_atomic(path: str | os.PathLike[str], data: Data, *, sources: Iterable[str | os.PathLike[str]] = ()
                 ) -> None:
    """Write ``data`` (text as UTF-8, bytes, or an iterable of byte chunks) to ``path``.

    A regular file (or a symlink to one) is replaced atomically, keeping its permissions; a new file
    is created the same way. A pipe or character device (``/dev/null``, ``/dev/stdout``) is written
    straight into. A read-only file, a folder, a block device or a socket is refused. ``sources`` are
    the files the command read: writing over one of them is refused, whatever the path is called.
    """
    path = os.fspath(path)
    refuse_sources(path, sources)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _error(path, exc) from None
    if info is None:
        # a new file, or a dangling symlink: create the file the link points to
        replace_atomic(os.path.realpath(path) if os.path.islink(path) else path, data, shown=path)
    elif stat.S_ISREG(info.st_mode):
        if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
            raise WriteError(f"cannot write {path}: the file is read-only")
        replace_atomic(os.path.realpath(path), data, shown=path, mode=stat.S_IMODE(info.st_mode))
    elif stat.S_ISDIR(info.st_mode):
        raise WriteError(f"cannot write {path}: it is a folder")
    elif stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        _write_stream(path, data)
    else:
        kind = "block device" if stat.S_ISBLK(info.st_mode) else "socket or special file"
        raise WriteError(f"cannot write {path}: it is a {kind}; treegen writes files, pipes and "
                         "character devices")


def replace_atomic(path: str, data: Data, *, shown: str | None = None, mode: int | None = None
                   ) -> None:
    """Put ``data`` at ``path`` by renaming a finished temporary file over whatever is there."""
    shown = shown or path
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale_temporaries(folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".treegen-{os.getpid()}-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _error(shown, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in _chunks(data):
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:  # Ctrl-C and SIGTERM too: never leave the temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _error(shown, exc) from None
        raise


def format_from_suffix(path: str | os.PathLike[str] | None, fmt: str | None, suffixes: dict[str, str],
                       formats: Sequence[str], *, what: str, hint: str,
                       default: str | None = None, error: type[TreegenError] = WriteError) -> str:
    """The output format asked for, else the one the file's suffix names, else ``default``: the one
    rule every command that writes several formats follows."""
    if fmt is not None:
        if fmt not in formats:
            raise error(unknown(what, fmt, formats))
        return fmt
    if path is None and default is not None:
        return default
    suffix = os.path.splitext(os.fspath(path or ""))[1].lower()
    if suffix not in suffixes:
        raise error(f"cannot tell the {what} of {os.fspath(path or '')!r} from its suffix; {hint}")
    return suffixes[suffix]


def refuse_sources(path: str | os.PathLike[str], sources: Iterable[str | os.PathLike[str]]) -> None:
    """A WriteError when ``path`` is (by real path or by inode) one of the files read."""
    path = os.fspath(path)
    for source in sources:
        source = os.fspath(source)
        if os.path.realpath(path) == os.path.realpath(source) or _same_file(path, source):
            raise WriteError(f"{path} is the input file {source}; treegen never writes over a file "
                             "it reads: choose another output")


def remove_stale_temporaries(folder: str) -> None:
    """Remove temporary files that treegen processes which no longer run left in ``folder``."""
    for name, _ in orphans(folder, _TEMP):
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, name))


def orphans(folder: str, pattern: re.Pattern[str]) -> list[tuple[str, re.Match[str]]]:
    """Entries of ``folder`` that ``pattern`` names as a treegen process's leftovers (its group
    ``pid`` holds the process id) and whose process no longer runs."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for name in names:
        match = pattern.match(name)
        if match and not pid_alive(int(match.group("pid"))):
            found.append((name, match))
    return found


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _write_stream(path: str, data: Data) -> None:
    """Write into a pipe or character device as it is: no temporary file, no rename."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise WriteError(f"cannot write {path}: it is a pipe that nobody reads") from None
        raise _error(path, exc) from None
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        with os.fdopen(fd, "wb") as fh:
            fd = -1
            for chunk in _chunks(data):
                fh.write(chunk)
    except OSError as exc:
        raise _error(path, exc) from None
    finally:
        if fd >= 0:
            os.close(fd)


def _chunks(data: Data) -> Iterable[bytes | bytearray | memoryview]:
    if isinstance(data, str):
        return (data.encode("utf-8"),)
    if isinstance(data, (bytes, bytearray, memoryview)):
        return (data,)
    return data


def _error(path: str, exc: OSError) -> WriteError:
    return WriteError(f"cannot write {path}: {exc.strerror or exc}")
