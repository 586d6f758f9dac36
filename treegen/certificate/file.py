"""The certificate file: its header and body read back, every size bounded before anything is
allocated (the format: docs/certificate-format.md)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zlib
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

MAGIC = b"treegen-certificate 1\n"
#: Bounds on what a file may declare, before anything is allocated.
MOST_ITEMS = 1 << 31
MOST_HEADER = 64 << 20
MOST_PREMISES = 100_000
#: The most symbols a game may have: a symmetry's images of the symbols are bytes.
MOST_SYMBOLS = 256
MOST_LENGTH = 20
#: Deflate writes at least 2 bits for a run of 258 bytes: no body unpacks to more than this many
#: times its size, so an announcement beyond it is false without unpacking anything.
DEFLATE_RATIO = 1032
#: Bytes a header's JSON may take in memory for each of its bytes, at most (a list of small
#: numbers is the worst).
JSON_COST = 40
#: Bytes a claim holds beyond its arrays while it is checked: where its entries start, the digest
#: of its set, its place among the pending.
PER_CLAIM = 256
BODY = (("bound", "<i8", "claims"), ("depth", "<i1", "claims"), ("count", "<u4", "claims"),
        ("set", "<i4", "claims"), ("guess", "<i4", "entries"), ("feedback", "<u2", "entries"),
        ("child", "<i4", "entries"), ("positions", "u1", "symmetries*length"),
        ("symbols", "u1", "symmetries*symbols"), ("size", "<u4", "sets"),
        ("member", "<u4", "members"))


class CertificateRefused(ValueError):
    """The file proves nothing: unreadable, damaged, or a claim that does not hold. The checker's
    own, as it imports nothing of treegen; treegen reports it as a ``CertificateError``."""


@dataclass(frozen=True)
class Proven:
    """What a checked certificate proves: in ``game`` (its JSON description), with at most
    ``max_depth`` guesses, every tree for the secrets possible after ``history`` ([guess, answer]
    pairs), opening with ``first`` when it is given, needs ``bound`` guesses at least."""

    game: dict[str, Any]
    history: list[list[str]]
    first: str | None
    max_depth: int | None
    bound: int
    claims: int
    entries: int
    treegen: str


def fail(message: str) -> NoReturn:
    """Refuse the certificate, saying why."""
    raise CertificateRefused(message)


def memory_available() -> int:
    """What the checker may use when its caller names no budget: the memory available now."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError, AttributeError):
        return 1 << 30


def size_text(nbytes: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if nbytes < 1024 or unit == "TiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return ""  # pragma: no cover


def afford(what: str, nbytes: int, memory: int) -> None:
    """Refuse what would need more memory than the checker may use, before it is allocated."""
    if nbytes > memory:
        fail(f"{what} needs about {size_text(nbytes)} of memory, more than the "
             f"{size_text(memory)} the checker may use")


def read_file(path: str, memory: int | None = None) -> bytes:
    """A certificate's bytes: a regular file only (a pipe or a device could block or never end),
    and no larger than the memory the checker may use (it is read whole)."""
    try:  # opened without waiting: opening a pipe to read blocks until a writer comes
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return fail(f"cannot read {path}: {exc.strerror or exc}")
    try:
        with os.fdopen(fd, "rb") as fh:
            status = os.fstat(fh.fileno())
            if not stat.S_ISREG(status.st_mode):
                fail(f"{path} is not a regular file")
            afford(f"{path} ({status.st_size:,} bytes)", status.st_size,
                   memory_available() if memory is None else memory)
            return fh.read(status.st_size + 1)
    except OSError as exc:
        return fail(f"cannot read {path}: {exc.strerror or exc}")


def read_header(data: bytes, memory: int | None = None) -> tuple[dict[str, Any], bytes]:
    """A certificate's header, checked for what it announces, and its packed body; nothing the
    header counts is allocated yet. The arrays it counts must fit the body (deflate expands a byte
    to at most :data:`DEFLATE_RATIO`), and their place in memory must fit ``memory``."""
    memory = memory_available() if memory is None else memory
    if not data.startswith(MAGIC):
        fail("not a treegen certificate")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MOST_HEADER)
    if end < 0:
        fail("the certificate's header is cut off")
    afford(f"the certificate's header of {end - len(MAGIC):,} bytes", (end - len(MAGIC)) * JSON_COST,
           memory)
    try:
        header = json.loads(data[len(MAGIC):end].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return fail("the certificate's header is not JSON")
    if not isinstance(header, dict) or header.get("format") != "treegen-certificate" or \
            header.get("version") != 1:
        fail("not a treegen certificate of format version 1")
    sizes, body = header.get("sizes"), header.get("body")
    if not isinstance(sizes, dict) or not isinstance(body, dict):
        fail("the certificate's header has no sizes")
    game = header.get("game")
    length = game.get("length") if isinstance(game, dict) else None
    symbols = game.get("symbols") if isinstance(game, dict) else None
    if type(length) is not int or not 1 <= length <= MOST_LENGTH or not isinstance(symbols, str) \
            or not symbols:
        fail("the certificate names no game")
    if len(symbols) > MOST_SYMBOLS:
        fail(f"the certificate's game has {len(symbols):,} symbols, more than the "
             f"{MOST_SYMBOLS} a certificate can name (a symmetry's symbols are bytes)")
    counts = {"length": length, "symbols": len(symbols)}
    for key in ("claims", "entries", "symmetries", "sets", "members"):
        value = sizes.get(key)
        if type(value) is not int or not 0 <= value < MOST_ITEMS:
            fail(f"the certificate's size of {key} is not a count")
        counts[key] = value
    if not 1 <= counts["claims"] <= counts["entries"] + 1:  # each claim past 0 is some entry's
        fail(f"the certificate counts {counts['claims']:,} claims for {counts['entries']:,} "
             "entries: every claim but the first is named by an entry")
    packed = data[end + 1:]
    if body.get("bytes") != len(packed) or \
            body.get("sha256") != hashlib.sha256(packed).hexdigest():
        fail("the certificate's body is damaged or cut off")
    raw = sum(np.dtype(kind).itemsize * _count(counts, many) for _, kind, many in BODY)
    if raw > DEFLATE_RATIO * len(packed):
        fail(f"the certificate's sizes announce {raw:,} bytes of arrays, more than its body of "
             f"{len(packed):,} bytes can hold ({DEFLATE_RATIO} times as many at most)")
    held = sum(8 * _count(counts, many) for _, _, many in BODY) + PER_CLAIM * counts["claims"]
    afford(f"the certificate's {counts['claims']:,} claims and {counts['entries']:,} entries",
           held, memory)
    return header, packed


def read_certificate(data: bytes, memory: int | None = None
                     ) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The header and the body's arrays of a certificate's bytes, every size bounded; the body is
    unpacked an array at a time, so that no more is ever held than the arrays themselves."""
    header, packed = read_header(data, memory)
    sizes, game = header["sizes"], header["game"]
    counts = {"length": game["length"], "symbols": len(game["symbols"]), **sizes}
    unpack, tail = zlib.decompressobj(), packed
    arrays: dict[str, np.ndarray] = {}
    try:
        for name, kind, many in BODY:
            width = np.dtype(kind)
            want, got = width.itemsize * _count(counts, many), bytearray()
            while len(got) < want:
                chunk = unpack.decompress(tail, want - len(got))
                tail = unpack.unconsumed_tail
                if not chunk:
                    fail("the certificate's body does not hold the arrays its header counts")
                got += chunk
            arrays[name] = np.frombuffer(got, width).astype(np.int64)
            del got
            if name == "count" and int(arrays["count"].sum()) != sizes["entries"]:
                fail("the certificate's counts do not add up")
        if unpack.decompress(tail, 1) or not unpack.eof or unpack.unconsumed_tail:
            fail("the certificate's body does not hold the arrays its header counts")
    except zlib.error:
        return fail("the certificate's body is not compressed data")
    return header, arrays


def _count(counts: dict[str, int], many: str) -> int:
    total = 1
    for part in many.split("*"):
        total *= counts[part]
    return total


