"""Keyed digests of the files treegen writes for itself and reads back: checkpoints and cached
score tables.

A plain checksum only catches accidents: anyone who edits such a file can recompute it, and an
edited checkpoint or table reaches compiled code and published claims ("optimal"). So both carry an
HMAC-SHA256 under a key of this user's own, made on first use and kept in the state folder
(``TREEGEN_STATE``), readable by its owner only. A file signed under another key, or not at all,
is simply not trusted: a table is recomputed, a checkpoint refused.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import stat
from collections.abc import Iterable

from treegen import settings
from treegen.errors import SigningError

KEY_BYTES = 32
_NAME = "signing.key"


def key_path() -> str:
    return os.path.join(settings.state_dir(), _NAME)


def key() -> bytes:
    """This user's signing key, made on first use; a one-line SigningError when there can be none."""
    path = key_path()
    found = _read(path)
    if found is not None:
        return found
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, tmp = _private_temporary(folder)
        try:
            os.write(fd, secrets.token_bytes(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never replaces a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    except OSError as exc:
        raise SigningError(f"cannot make the signing key {path}: {exc.strerror or exc} "
                        "(set TREEGEN_STATE to a folder of your own)") from None
    made = _read(path)
    if made is None:
        raise SigningError(f"cannot read the signing key {path}")
    return made


def _private_temporary(folder: str) -> tuple[int, str]:
    name = os.path.join(folder, f".{_NAME}.{os.getpid()}.{secrets.token_hex(4)}")
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), name


def _read(path: str) -> bytes | None:
    """The key at ``path``; None when there is none yet; SigningError when the file is not one a key
    can be trusted from (another owner's, readable by others, not a regular file, wrong size)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SigningError(f"cannot read the signing key {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != KEY_BYTES:
            raise SigningError(f"{path} is not a treegen signing key; delete it and treegen makes a "
                            "new one")
        if info.st_mode & 0o077 or info.st_uid != os.geteuid():
            raise SigningError(f"the signing key {path} can be read or written by others; delete it "
                            "and treegen makes a new one")
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise SigningError(f"{path} is not a treegen signing key; delete it and treegen makes a new one")
    return data


def sign(parts: Iterable[bytes | bytearray | memoryview], secret: bytes | None = None) -> str:
    """The HMAC-SHA256 of the concatenated ``parts`` under this user's key, as hex."""
    mac = hmac.new(secret if secret is not None else key(), digestmod=hashlib.sha256)
    for part in parts:
        mac.update(part)
    return mac.hexdigest()


def matches(signature: object, parts: Iterable[bytes | bytearray | memoryview],
            secret: bytes | None = None) -> bool:
    """Whether ``signature`` is this user's signature of ``parts`` (in constant time)."""
    return isinstance(signature, str) and hmac.compare_digest(signature, sign(parts, secret))
