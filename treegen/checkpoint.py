"""Checkpoints of the exact search: what it has solved so far, so a long build can be resumed.

A checkpoint holds the search's caches (each solved candidate set with its exact cost and canonical
guess, and the lower bounds learnt from failed budgets). Every answer of the search is canonical
whatever its caches hold, so a resumed build replays quickly through what was solved and finishes
with a book byte-identical to an uninterrupted one.

The file is a magic line, a JSON header naming what it is a checkpoint of (treegen version, game,
strategy, depth limit, forced first guess), the entry counts and the sha256 of the payload, then
the raw arrays. A checkpoint of anything else, or one whose bytes do not match, is refused in one
line; it is written atomically, so an interrupted write leaves the previous one whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import TreegenError
from .files import replace_atomic

MAGIC = b"treegen-checkpoint\n"
VERSION = 1
SUFFIX = ".checkpoint"
_HEADER_MAX = 64 * 1024
#: Bytes per entry in the payload: a uint64 key and three int64 values.
_ENTRY = 32


class CheckpointError(TreegenError):
    """A checkpoint that cannot be resumed: another build's, damaged, or unreadable."""


def path_for(output: str) -> str:
    """Where the checkpoint of a build writing ``output`` lives: next to it."""
    return output + SUFFIX


def save(path: str, identity: Mapping[str, Any], caches: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Write ``caches`` (keys, values per cache) atomically, signed with ``identity``."""
    payload = [part for keys, values in caches
               for part in (np.ascontiguousarray(keys, dtype=np.uint64).tobytes(),
                            np.ascontiguousarray(values, dtype=np.int64).tobytes())]
    digest = hashlib.sha256()
    for part in payload:
        digest.update(part)
    header = {"format": "treegen-checkpoint", "version": VERSION, "of": dict(identity),
              "entries": [len(keys) for keys, _ in caches], "sha256": digest.hexdigest()}
    head = MAGIC + json.dumps(header, sort_keys=True).encode("utf-8") + b"\n"
    replace_atomic(path, [head, *payload])


def load(path: str, identity: Mapping[str, Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The caches of a checkpoint written by :func:`save` with the same ``identity``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CheckpointError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CheckpointError(f"cannot read checkpoint {path}: not a regular file")
        head = fh.read(len(MAGIC))
        line = fh.readline(_HEADER_MAX)
        if head != MAGIC or not line.endswith(b"\n"):
            raise CheckpointError(f"{path} is not a treegen checkpoint")
        try:
            header = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise CheckpointError(f"checkpoint {path} is damaged: its header is not JSON") from None
        entries = header.get("entries") if isinstance(header, dict) else None
        if not isinstance(header, dict) or header.get("version") != VERSION or \
                not isinstance(entries, list) or \
                not all(type(n) is int and n >= 0 for n in entries):
            raise CheckpointError(f"checkpoint {path} is of an unknown kind or version")
        mismatch = _mismatch(header.get("of"), identity)
        if mismatch:
            raise CheckpointError(f"checkpoint {path} is of another build ({mismatch}); delete it "
                                  "or build without --resume")
        size = sum(entries) * _ENTRY
        if info.st_size != len(head) + len(line) + size:
            raise CheckpointError(f"checkpoint {path} is damaged: it has the wrong length")
        data = fh.read(size)
    if hashlib.sha256(data).hexdigest() != header.get("sha256"):
        raise CheckpointError(f"checkpoint {path} is damaged: its checksum does not match")
    caches, at = [], 0
    for n in entries:
        keys = np.frombuffer(data, dtype=np.uint64, count=n, offset=at)
        values = np.frombuffer(data, dtype=np.int64, count=3 * n, offset=at + 8 * n).reshape(n, 3)
        caches.append((keys, values))
        at += n * _ENTRY
    return caches


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
    text = json.dumps(value, sort_keys=True, ensure_ascii=False) if value is not None else "none"
    return text if len(text) <= 60 else text[:57] + "..."
