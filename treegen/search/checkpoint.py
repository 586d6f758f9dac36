"""Checkpoints of the exact search: what it has solved so far, so a long build can be resumed.

A checkpoint holds the search's caches (each solved candidate set with its exact cost and canonical
guess, and the lower bounds learnt from failed budgets). Every answer of the search is canonical
whatever its caches hold, so a resumed build replays quickly through what was solved and finishes
with a book byte-identical to an uninterrupted one.

The file is a magic line, a JSON header naming what it is a checkpoint of (treegen version, game,
strategy, depth limit, forced first guess), the entry counts, the process writing it and the HMAC
of the payload under this user's key (:mod:`treegen.files.signing`), then the raw arrays. What a
checkpoint holds reaches compiled code and decides which book is called optimal, so it is trusted
only when signed under this user's key, and every number in it is bounded on read besides. A
checkpoint of anything else, one edited or damaged, one another running build is writing, or
anything that is not a regular file, is refused in one line. It is written atomically, so an
interrupted write leaves the previous one whole.
"""

from __future__ import annotations

import json
import os
import stat
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from treegen import faults
from treegen.errors import CheckpointError, CheckpointWarning, TreegenError
from treegen.files import signing
from treegen.files.atomic import pid_alive, replace_atomic
from treegen.search.bounds import INFEASIBLE

MAGIC = b"treegen-checkpoint\n"
VERSION = 2
SUFFIX = ".checkpoint"
_HEADER_MAX = 64 * 1024
#: Bytes per entry in the payload: a uint64 key and three int64 values.
_ENTRY = 32

#: What the entries of a cache may hold: (check, value, guess) rows, each bounded on read.
#: ``exact``: a solved set, its cost and canonical guess; ``lower``: a lower bound learnt from a
#: failed budget (guess -1); ``total``: a bounded search's total and guess (-1 when no tree
#: fits); ``floor``: a bounded search's lower bound (third column 0).
KINDS = ("exact", "lower", "total", "floor")

Caches = list[tuple[np.ndarray, np.ndarray]]


def path_for(output: str) -> str:
    """Where the checkpoint of a build writing ``output`` lives: next to it."""
    return output + SUFFIX


def save(path: str, identity: Mapping[str, Any], caches: Caches) -> None:
    """Write ``caches`` (keys, values per cache) atomically, signed with this user's key and
    named for ``identity``."""
    payload = [part for keys, values in caches
               for part in (np.ascontiguousarray(keys, dtype=np.uint64).tobytes(),
                            np.ascontiguousarray(values, dtype=np.int64).tobytes())]
    header = {"format": "treegen-checkpoint", "version": VERSION, "of": dict(identity),
              "entries": [len(keys) for keys, _ in caches], "hmac": signing.sign(payload),
              "writer": _this_process()}
    head = MAGIC + json.dumps(header, sort_keys=True).encode("utf-8") + b"\n"
    replace_atomic(path, [head, *payload])


def keeper(path: str, identity: Mapping[str, Any], caches: Callable[[], Caches]
           ) -> Callable[[], None]:
    """What a search calls to write its checkpoint. A write that fails (a full disk, a folder in
    the way, no key) warns once and leaves the last good checkpoint; the search goes on, since
    losing it would cost more than losing the checkpoint."""
    failed: list[str] = []

    def save_now() -> None:
        try:
            save(path, identity, caches())
        except TreegenError as exc:
            if not failed:
                warnings.warn(CheckpointWarning(f"no checkpoint written ({exc}); the search goes on"),
                              stacklevel=2)
            failed.append(str(exc))
        else:
            failed.clear()
            faults.reached("checkpoint")
    return save_now


def load(path: str, identity: Mapping[str, Any], kinds: Sequence[str], codes: int,
         foreign: bool = False) -> Caches:
    """The caches of a checkpoint written by :func:`save` with the same ``identity``: one per kind
    of :data:`KINDS` in ``kinds``, every guess a code index below ``codes``. With ``foreign``, a
    checkpoint signed on another machine (or not at all) is taken too, its numbers bounded all
    the same: for a search whose every claim is then proven by a certificate written by a search
    of its own (a class of an opening), a checkpoint can only speed it up or slow it down, never
    make a false claim pass."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CheckpointError(f"cannot read checkpoint {path}: not a regular file")
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            header, at = _header(fh, path)
            _check_header(header, path, identity, kinds)
            entries = header["entries"]
            size = sum(entries) * _ENTRY
            if info.st_size != at + size:
                raise CheckpointError(f"checkpoint {path} is damaged: it has the wrong length")
            data = fh.read(size)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) != size:
        raise CheckpointError(f"checkpoint {path} is damaged: it has the wrong length")
    if not foreign and not signing.matches(header.get("hmac"), [data]):
        raise CheckpointError(f"checkpoint {path} is damaged or was edited: its signature does not "
                              "match (checkpoints are signed with this user's key)")
    caches, offset = [], 0
    for n, kind in zip(entries, kinds):
        keys = np.frombuffer(data, dtype=np.int64, count=n, offset=offset)
        values = np.frombuffer(data, dtype=np.int64, count=3 * n, offset=offset + 8 * n).reshape(n, 3)
        problem = _problem(keys, values, kind, codes)
        if problem:
            raise CheckpointError(f"checkpoint {path} is damaged: {problem}")
        caches.append((keys.copy(), values.copy()))
        offset += n * _ENTRY
    return caches


def _header(fh: Any, path: str) -> tuple[dict[str, Any], int]:
    head = fh.read(len(MAGIC))
    line = fh.readline(_HEADER_MAX)
    if head != MAGIC or not line.endswith(b"\n"):
        raise CheckpointError(f"{path} is not a treegen checkpoint")
    try:
        header = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise CheckpointError(f"checkpoint {path} is damaged: its header is not JSON") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"checkpoint {path} is of an unknown kind or version")
    return header, len(head) + len(line)


def _check_header(header: dict[str, Any], path: str, identity: Mapping[str, Any],
                  kinds: Sequence[str]) -> None:
    entries = header.get("entries")
    if header.get("version") != VERSION or not isinstance(entries, list) or \
            not all(type(n) is int and 0 <= n < 1 << 40 for n in entries):
        raise CheckpointError(f"checkpoint {path} is of an unknown kind or version")
    mismatch = _mismatch(header.get("of"), identity)
    if mismatch:
        raise CheckpointError(f"checkpoint {path} is of another build ({mismatch}); delete it "
                              "or build without --resume")
    if len(entries) != len(kinds):
        raise CheckpointError(f"checkpoint {path} does not hold the caches of this search")
    if writing(header):
        raise CheckpointError(f"checkpoint {path} is being written by a build that is still "
                              f"running (process {header['writer'][0]}); wait for it or stop it")


def _problem(keys: np.ndarray, values: np.ndarray, kind: str, codes: int) -> str | None:
    """What is wrong with a cache's entries, or None: every number bounded before it reaches
    compiled code (keys are odd positive hashes, checks non-negative hashes)."""
    if len(keys) == 0:
        return None
    if (keys <= 0).any() or not (keys & 1).all() or (values[:, 0] < 0).any():
        return "a set's hash is out of range"
    value, guess = values[:, 1], values[:, 2]
    if kind == "exact":
        bad = (value < 1) | (value >= INFEASIBLE) | (guess < 0) | (guess >= codes)
    elif kind == "lower":
        bad = (value < 0) | (value > INFEASIBLE) | (guess != -1)
    elif kind == "total":
        bad = (value < 1) | (value > INFEASIBLE) | (guess < -1) | (guess >= codes) | \
            ((guess == -1) != (value == INFEASIBLE))
    else:
        bad = (value < 0) | (value > INFEASIBLE) | (guess != 0)
    return f"an entry of its {kind} cache is out of range" if bad.any() else None


def check_place(path: str) -> None:
    """Refuse a checkpoint path where something other than a regular file (or a link to one)
    stands: a folder or a pipe is never a checkpoint, and never replaced."""
    if os.path.lexists(path) and not os.path.isfile(path):
        raise CheckpointError(f"cannot keep the checkpoint at {path}: it is not a regular file; "
                              "move it away or choose another output")


def running_writer(path: str) -> int | None:
    """The id of the running build that writes the checkpoint at ``path``, if another one does."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            header, _ = _header(fh, path)
    except CheckpointError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    return int(header["writer"][0]) if writing(header) else None


def _this_process() -> list[int]:
    """This process as a checkpoint names its writer: its id and when it started, so that a
    reused process id is not taken for the writer."""
    return [os.getpid(), _started(os.getpid())]


def _started(pid: int) -> int:
    """When a process started, in clock ticks since boot (0 where /proc does not say)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, ValueError, IndexError):
        return 0


def writing(header: Mapping[str, Any]) -> bool:
    """Whether the process that wrote a checkpoint is another one that still runs."""
    writer = header.get("writer")
    if not (isinstance(writer, list) and len(writer) == 2 and all(type(n) is int for n in writer)):
        return False
    pid, started = writer
    if pid == os.getpid() or not 0 < pid < 1 << 31 or not pid_alive(pid):
        return False
    return bool(started == _started(pid))


def remove(path: str) -> None:
    """Remove a finished build's checkpoint, if it is there."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise CheckpointError(f"cannot remove checkpoint {path}: {exc.strerror or exc}") from None


def _mismatch(found: object, expected: Mapping[str, Any]) -> str | None:
    """Which part of the identity differs, in words, or None."""
    if not isinstance(found, dict):
        return "no build named"
    for key, value in expected.items():
        if found.get(key) != value:
            return f"{key} {_shown(found.get(key))}, not {_shown(value)}"
    return None


def _shown(value: object) -> str:
    try:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False) if value is not None else "none"
    except (ValueError, TypeError, RecursionError):
        text = "unreadable"
    return text if len(text) <= 60 else text[:57] + "..."
