"""Settings read from the environment, in one place: each is parsed strictly and a bad value is a
one-line error naming the variable, never a traceback.

- ``TREEGEN_MEMORY_LIMIT``: memory treegen may plan for (default: the memory available now).
- ``TREEGEN_CACHE``: the score-table cache folder (default ``$XDG_CACHE_HOME/treegen`` or
  ``~/.cache/treegen``); empty turns the cache off.
- ``TREEGEN_CACHE_MAX``: the most the cache folder may hold (default 4G); older tables are evicted.
- ``TREEGEN_CHECKPOINT_SECONDS``: how often the optimal search writes its checkpoint (default 5).
- ``TREEGEN_STATE``: where treegen keeps its signing key (default ``$XDG_STATE_HOME/treegen`` or
  ``~/.local/state/treegen``).

Sizes are bytes (``1000000``) or a number with a unit: ``512M``, ``10G``, ``1.5GiB``, ``800kB``
(K, M, G, T are powers of 1024, as ``ulimit`` and ``free`` use them; kB, MB, GB, TB powers of 1000).
"""

from __future__ import annotations

import os
import re

from treegen.errors import SettingError

DEFAULT_CACHE_MAX = 4 << 30
#: Sizes above this are refused: every size must fit the 64-bit counts of compiled code.
MAX_SIZE = 1 << 60

_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*([kKmMgGtT]?)(i?)([bB]?)\s*$")
_POWER = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4}


def parse_size(text: str, name: str = "size") -> int:
    """Bytes from ``10G``, ``512M``, ``1.5GiB``, ``800kB`` or ``1000000``."""
    match = _SIZE.match(text) if isinstance(text, str) and len(text) < 40 else None
    if not match:
        raise SettingError(f"{name}={text!r} is not a size: write bytes (1000000) or a number with "
                           "a unit (512M, 10G, 1.5GiB)")
    number, unit, binary, byte = match.groups()
    unit = unit.lower()
    decimal = bool(byte) and not binary and unit != ""
    if binary and not unit:
        raise SettingError(f"{name}={text!r} is not a size: 'i' needs a unit before it (GiB)")
    base = 1000 if decimal else 1024
    size = int(float(number) * base ** _POWER[unit])
    if size > MAX_SIZE:
        raise SettingError(f"{name}={text!r} is more than any machine has (at most 1 EiB)")
    return size


_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(s|m|min|h)?\s*$")


def parse_duration(text: str, name: str = "duration") -> float:
    """Seconds from ``90m``, ``2h``, ``1.5h``, ``3600s`` or ``3600``."""
    match = _DURATION.match(text) if isinstance(text, str) and len(text) < 40 else None
    if not match:
        raise SettingError(f"{name}={text!r} is not a duration: write 90m, 2h or 3600s")
    seconds = float(match.group(1)) * {None: 1, "s": 1, "m": 60, "min": 60, "h": 3600}[match.group(2)]
    if not 0 < seconds <= 10 ** 9:
        raise SettingError(f"{name}={text!r} is not a duration between a moment and 30 years")
    return seconds


def memory_limit() -> int | None:
    """``TREEGEN_MEMORY_LIMIT`` in bytes, or None when it is not set."""
    text = os.environ.get("TREEGEN_MEMORY_LIMIT")
    return parse_size(text, "TREEGEN_MEMORY_LIMIT") if text else None


def cache_dir() -> str | None:
    """Where score tables are kept: $TREEGEN_CACHE, else the user cache folder; "" disables it."""
    folder = os.environ.get("TREEGEN_CACHE")
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "treegen")
    return folder or None


def state_dir() -> str:
    """Where treegen keeps its private state (the key that signs checkpoints and cached tables):
    $TREEGEN_STATE, else the user state folder."""
    folder = os.environ.get("TREEGEN_STATE")
    if not folder:
        base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                                 "state")
        folder = os.path.join(base, "treegen")
    return folder


def cache_max() -> int:
    """``TREEGEN_CACHE_MAX`` in bytes (default 4 GiB)."""
    text = os.environ.get("TREEGEN_CACHE_MAX")
    return parse_size(text, "TREEGEN_CACHE_MAX") if text else DEFAULT_CACHE_MAX


def checkpoint_seconds() -> float:
    """``TREEGEN_CHECKPOINT_SECONDS``: seconds between checkpoints of the optimal search (default 5)."""
    return _seconds("TREEGEN_CHECKPOINT_SECONDS", 5.0)


def _seconds(name: str, default: float) -> float:
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e9:
        raise SettingError(f"{name}={text[:40]!r} is not a number of seconds")
    return value


#: The proof a class's search writes, in words of the tape, from which it is kept as a fact.
DEFAULT_FACT_WORDS = 1 << 16


def fact_words() -> int:
    """``TREEGEN_FACT_WORDS``: the proof, in words of the tape, that a class settled inside a
    class's proof must have written to be kept as a fact, a certificate of its own (default
    65,536, about half a megabyte of tape; see :mod:`treegen.search.facts`)."""
    return _count("TREEGEN_FACT_WORDS", DEFAULT_FACT_WORDS, "words")


#: The size a certificate file is kept under, so that it can be committed: a class's or a book's
#: certificate that would pass it names the facts its search kept as premises instead of holding
#: their proofs (see :mod:`treegen.search.facts`).
COMMIT_BYTES = 5 << 20


def split_bytes() -> int:
    """``TREEGEN_SPLIT_BYTES``: the size above which a class's or a book's certificate, and each
    premise it names, names its largest classes as premises, files of their own, instead of holding
    their proofs (default :data:`COMMIT_BYTES`)."""
    return _count("TREEGEN_SPLIT_BYTES", COMMIT_BYTES, "bytes")


def _count(name: str, default: int, unit: str) -> int:
    """A setting that is a whole number of ``unit``, or its default when unset."""
    text = os.environ.get(name)
    if not text:
        return default
    if not text.isdigit() or len(text) > 15:
        raise SettingError(f"{name}={text[:40]!r} is not a whole number of {unit}")
    return int(text)


def usable_cores() -> int:
    """Processors this process may run on: more worker processes than that only add overhead."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def available_memory() -> int:
    """Memory treegen may use: MemAvailable, or physical memory when /proc is absent."""
    override = memory_limit()
    if override is not None:
        return override
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def human_size(nbytes: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if nbytes < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return f"{nbytes} B"
