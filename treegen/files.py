"""Atomic file writing: a temporary file in the target's folder, then a rename over the target, so a
reader never sees half a file and a failed write leaves the old file untouched."""

from __future__ import annotations

import os
import tempfile

from .errors import WriteError


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write text (UTF-8) or bytes to ``path`` atomically; failures are a one-line WriteError."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".treegen-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
