"""The score-table disk cache: large tables kept between runs, never trusted blindly.

A cache file is a header (the game's rules, the table's size and the HMAC of its bytes under this
user's key, see :mod:`treegen.files.signing`) and the raw table. Anything wrong with a file — another
game, a short or long file, a changed byte, a table edited and re-hashed, a pipe or a folder in its
place — means "recompute and replace"; the cache can cost time, never a wrong book. Files are
replaced atomically, interrupted writes leave no temporary file, and the folder is kept under
``TREEGEN_CACHE_MAX`` by evicting the tables used least recently. Only files this cache wrote are
ever evicted: a name of its own pattern that starts with its header.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat

import numpy as np

from treegen import settings
from treegen.errors import SigningError, TreegenError
from treegen.files import signing
from treegen.files.atomic import replace_atomic
from treegen.rules.game import Game

#: Tables of games with at least this many codes are kept in the cache folder between runs: below
#: that, computing a table is about as quick as reading one back and checking it.
CACHE_FROM = 1000
#: Bump when the table's meaning or the file layout changes, so stale files are never read.
TABLE_FORMAT = 4
MAGIC = b"treegen-score-table\n"
SUFFIX = ".table"
_HEADER_MAX = 4096
_NAME = re.compile(r"^table-[0-9a-f]{16}\.table$")


def identity(game: Game, secrets: int | None = None) -> dict[str, object]:
    """What a table depends on: the rules, and the digest of the lists of a listed game; and how
    many codes it scores against when not the game's secrets (hard mode's square table, see
    :func:`treegen.rules.scoring.guess_table`)."""
    fields: dict[str, object] = {"format": TABLE_FORMAT, **game.identity(), "codes": game.size,
                                 "guesses": game.guess_count}
    if secrets is not None and secrets != game.size:
        fields["against"] = secrets
    return fields


def _columns(game: Game, secrets: int | None) -> int:
    return game.size if secrets is None else secrets


def cache_path(game: Game, secrets: int | None = None) -> str | None:
    """The cache file of a game's table (scoring ``secrets`` codes, by default its secrets), or
    None when the cache is off or the game is small."""
    folder = settings.cache_dir()
    if folder is None or game.size < CACHE_FROM:
        return None
    rules = json.dumps(identity(game, secrets), sort_keys=True)
    digest = hashlib.sha256(rules.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return os.path.join(folder, f"table-{digest}{SUFFIX}")


def _header(game: Game, table: np.ndarray) -> bytes:
    fields = {**identity(game, table.shape[1]), "hmac": signing.sign([table.data.cast("B")])}
    return MAGIC + json.dumps(fields, sort_keys=True).encode("ascii") + b"\n"


def load(game: Game, nfeedback: int, secrets: int | None = None) -> np.ndarray | None:
    """The cached table (of ``secrets`` columns, by default the game's secrets) if the file is
    whole and its checksum holds; None otherwise."""
    path = cache_path(game, secrets)
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    info = os.fstat(fd)
    n, rows = _columns(game, secrets), game.guess_count
    if not stat.S_ISREG(info.st_mode) or info.st_size > _HEADER_MAX + rows * n:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as fh:
        try:
            head = fh.read(len(MAGIC))
            line = fh.readline(_HEADER_MAX)
            if head != MAGIC or not line.endswith(b"\n"):
                return None
            fields = json.loads(line)
            expected = identity(game, secrets)
            if not isinstance(fields, dict) or any(fields.get(k) != v for k, v in expected.items()):
                return None
            if info.st_size != len(head) + len(line) + rows * n:
                return None
            table = np.empty((rows, n), dtype=np.uint8)
            if fh.readinto(table.data.cast("B")) != rows * n:
                return None
        except (OSError, ValueError, UnicodeDecodeError):
            return None
    try:
        if not signing.matches(fields.get("hmac"), [table.data.cast("B")]) or \
                int(table.max()) >= nfeedback:
            return None
    except SigningError:
        return None  # no key, no cache: recomputing only costs time
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: evicted last
    return table


def store(game: Game, table: np.ndarray) -> None:
    """Keep a table for later runs, if the cache is on and it fits; failures are silently skipped."""
    path = cache_path(game, table.shape[1])
    if path is None:
        return
    size = table.nbytes + _HEADER_MAX
    limit = settings.cache_max()
    if size > limit:
        return
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        _evict(folder, limit - size, keep=path)
        replace_atomic(path, (_header(game, table), table.data.cast("B")))
    except (OSError, TreegenError):
        pass


def _evict(folder: str, room: int, keep: str) -> None:
    """Delete the least recently used tables until the rest take at most ``room`` bytes; tables of
    an older cache format are removed outright."""
    tables = []
    for entry in os.scandir(folder):
        if not _NAME.match(entry.name) or entry.path == keep or \
                not entry.is_file(follow_symlinks=False) or not _ours(entry.path):
            continue
        info = entry.stat(follow_symlinks=False)
        tables.append((info.st_mtime, entry.path, info.st_size))
    used = sum(size for _, _, size in tables)
    for _, path, size in sorted(tables):
        if used <= room:
            break
        _unlink(path)
        used -= size


def _ours(path: str) -> bool:
    """Whether the file starts as this cache's files do (the folder may hold a user's files)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
