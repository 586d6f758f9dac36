"""Certificates checked here before: the independent checker (:mod:`treegen.certificate`) with a
memory of its verdicts.

A certificate that passed is remembered, by its SHA-256 and the checker's own, in a file of the
state folder signed with this user's key (:mod:`treegen.files.signing`): reading the records of a
long campaign again checks only what is new, and an edited memory is simply not trusted.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from treegen import certificate, settings
from treegen.certificate import Proven
from treegen.errors import CertificateError, TreegenError
from treegen.files import signing
from treegen.files.atomic import write_atomic

__all__ = ["check_certificate"]

_MEMORY = "checked-certificates.json"


def check_certificate(path: str | os.PathLike[str], remember: bool = True) -> Proven:
    """Check a certificate file (and its premises); a one-line CertificateError on any flaw.
    Certificates this checker passed before, here, are not checked again (``remember``)."""
    path = os.fspath(path)
    memory = _recall() if remember else {}
    known = dict(memory)
    try:
        proven = certificate.check(path, None, known)
    except certificate.CertificateError as exc:
        raise CertificateError(f"{path}: {exc}") from None
    if remember and len(known) > len(memory):
        _remember(known)
    return proven


def _checker() -> str:
    """The checker's own fingerprint (every source file of it): a memory is of this checker's
    verdicts only."""
    hashed = hashlib.sha256()
    for path in sorted(Path(certificate.__file__).parent.glob("*.py")):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


def _memory_path() -> str:
    return os.path.join(settings.state_dir(), _MEMORY)


def _recall() -> dict[str, Proven]:
    try:
        with open(_memory_path(), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("checker") != _checker():
        return {}
    entries = data.get("checked")
    if not isinstance(entries, dict):
        return {}
    try:
        if not signing.matches(data.get("signature"), [_canonical(entries).encode()]):
            return {}
        return {digest: Proven(**fields) for digest, fields in entries.items()}
    except (TypeError, AttributeError, signing.SigningError):
        return {}


def _remember(known: Mapping[str, Proven]) -> None:
    entries = {digest: dataclasses.asdict(proven) for digest, proven in known.items()}
    try:
        text = json.dumps({"checker": _checker(), "checked": entries,
                           "signature": signing.sign([_canonical(entries).encode()])},
                          sort_keys=True)
        os.makedirs(os.path.dirname(_memory_path()), mode=0o700, exist_ok=True)
        write_atomic(_memory_path(), text + "\n")
    except (OSError, TreegenError):
        pass  # a memory that cannot be kept only costs checking again


def _canonical(entries: object) -> str:
    return json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
