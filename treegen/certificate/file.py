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
BODY = (("bound", "<i8", "claims"), ("depth", "<i1", "claims"), ("count", "<u4", "claims"),
        ("set", "<i4", "claims"), ("guess", "<i4", "entries"), ("feedback", "<u2", "entries"),
        ("child", "<i4", "entries"), ("positions", "u1", "symmetries*length"),
        ("symbols", "u1", "symmetries*symbols"), ("size", "<u4", "sets"),
        ("member", "<u4", "members"))


class CertificateError(ValueError):
    """The file proves nothing: unreadable, damaged, or a claim that does not hold."""


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
    raise CertificateError(message)


def read_file(path: str) -> bytes:
    """A certificate's bytes: a regular file only (a pipe or a device could block or never end)."""
    try:  # opened without waiting: opening a pipe to read blocks until a writer comes
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return fail(f"cannot read {path}: {exc.strerror or exc}")
    try:
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                fail(f"{path} is not a regular file")
            return fh.read()
    except OSError as exc:
        return fail(f"cannot read {path}: {exc.strerror or exc}")


def read_certificate(data: bytes) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The header and the body's arrays of a certificate's bytes, every size bounded."""
    if not data.startswith(MAGIC):
        fail("not a treegen certificate")
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MOST_HEADER)
    if end < 0:
        fail("the certificate's header is cut off")
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
    if type(length) is not int or not isinstance(symbols, str):
        fail("the certificate names no game")
    counts = {"length": length, "symbols": len(symbols)}
    for key in ("claims", "entries", "symmetries", "sets", "members"):
        value = sizes.get(key)
        if type(value) is not int or not 0 <= value < MOST_ITEMS:
            fail(f"the certificate's size of {key} is not a count")
        counts[key] = value
    packed = data[end + 1:]
    if body.get("bytes") != len(packed) or \
            body.get("sha256") != hashlib.sha256(packed).hexdigest():
        fail("the certificate's body is damaged or cut off")
    widths = [(name, np.dtype(kind), _count(counts, many)) for name, kind, many in BODY]
    expected = sum(kind.itemsize * n for _, kind, n in widths)
    unpack = zlib.decompressobj()
    try:
        raw = unpack.decompress(packed, expected + 1)
    except zlib.error:
        return fail("the certificate's body is not compressed data")
    if len(raw) != expected or not unpack.eof or unpack.unconsumed_tail:
        fail("the certificate's body does not hold the arrays its header counts")
    arrays, at = {}, 0
    for name, kind, n in widths:
        arrays[name] = np.frombuffer(raw, kind, n, at).astype(np.int64)
        at += kind.itemsize * n
    return header, arrays


def _count(counts: dict[str, int], many: str) -> int:
    total = 1
    for part in many.split("*"):
        total *= counts[part]
    return total


