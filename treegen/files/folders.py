"""Replacing a whole folder (a site) so that its path always holds the old folder or the new one.

The new folder is built under a staging name next to the target, then exchanged with the target in
one system call (``renameat2(RENAME_EXCHANGE)`` on Linux, ``renamex_np(RENAME_SWAP)`` on macOS), and
the old one, now under the staging name, is removed. Where no exchange call exists, the old folder
is first moved aside; a process killed between the two renames leaves it aside, and the next run
puts it back. Staging names carry the process id, so leftovers of dead processes are recognised and
cleaned up by the next run in the same folder.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import sys
import tempfile

from treegen.files.atomic import orphans

_STAGING = re.compile(r"^\.treegen-(site|old)-(?P<pid>\d+)-")


def staging(parent: str) -> str:
    """A new, empty staging folder in ``parent``, named for this process."""
    return tempfile.mkdtemp(prefix=f".treegen-site-{os.getpid()}-", dir=parent)


def swap(new: str, target: str) -> None:
    """Put the folder ``new`` at ``target``, replacing the folder there (if any) in one step."""
    if not os.path.lexists(target):
        os.rename(new, target)
        return
    if _exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)  # the old folder, now under the staging name
        return
    aside = tempfile.mkdtemp(prefix=f".treegen-old-{os.getpid()}-", dir=os.path.dirname(target))
    os.rename(target, os.path.join(aside, os.path.basename(target)))
    os.rename(new, target)
    shutil.rmtree(aside, ignore_errors=True)


def recover(parent: str) -> None:
    """Clean up after treegen processes that died while replacing a folder in ``parent``: a folder
    moved aside goes back where it was if nothing took its place; staging folders are removed."""
    for name, match in orphans(parent, _STAGING):
        path = os.path.join(parent, name)
        if os.path.islink(path) or not os.path.isdir(path):  # not a folder treegen made: unlink it
            with contextlib.suppress(OSError):
                os.unlink(path)
            continue
        if match.group(1) == "old":
            for kept in _listdir(path):
                if not os.path.lexists(os.path.join(parent, kept)):
                    with contextlib.suppress(OSError):
                        os.rename(os.path.join(path, kept), os.path.join(parent, kept))
        shutil.rmtree(path, ignore_errors=True)


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _exchange(a: str, b: str) -> bool:
    """Exchange two paths atomically; False when this system has no such call."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    if sys.platform.startswith("linux") and hasattr(libc, "renameat2"):
        at_fdcwd, rename_exchange = -100, 2
        result = libc.renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    elif sys.platform == "darwin" and hasattr(libc, "renamex_np"):
        rename_swap = 2
        result = libc.renamex_np(os.fsencode(a), os.fsencode(b), rename_swap)
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # not supported by this kernel or file system: fall back
    raise OSError(code, os.strerror(code), b)
