"""What books claim of their optimality, and the certificates that prove it: written by the exact
search (:mod:`treegen.search.certify`), checked by the independent checker
(:mod:`treegen.certificate`), and compared with a book's claims.

A checked certificate is remembered, by its SHA-256 and the checker's own, in a file of the state
folder signed with this user's key (:mod:`treegen.files.signing`): checking the records of a
long campaign again costs nothing, and an edited memory is simply not trusted.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from treegen import certificate, settings
from treegen.data import BookData
from treegen.errors import CertificateError, TreegenError
from treegen.files import signing
from treegen.files.atomic import write_atomic
from treegen.notation import game_title
from treegen.rules.game import Game

__all__ = ["Proven", "book_claim", "check", "certify", "judge"]

Proven = certificate.Proven
_MEMORY = "checked-certificates.json"


def book_claim(book: BookData) -> tuple[int, str | None] | None:
    """The bound a book claims, and the first guess it is scoped to (None: the game's): an
    optimal book its total, a bounded search's book its lower bound; None when it claims none."""
    strategy, total = book["strategy"], book["stats"]["total"]
    after = strategy.get("after")
    if isinstance(after, dict):
        lower = total if after.get("optimal") else after.get("lower_bound")
        return (lower, after["first"]) if isinstance(lower, int) else None
    if strategy.get("optimal") is True:
        return total, None
    lower = strategy.get("lower_bound")
    return (lower, None) if isinstance(lower, int) else None


def certify(book: BookData, path: str | os.PathLike[str], memory: int | None = None,
            status: Callable[[Any], None] | None = None) -> int:
    """Write the certificate of what ``book`` claims to ``path`` (by an exact search that fails to
    beat the claim); returns its size in bytes. A CertificateError when the book claims nothing."""
    from treegen.search.certify import Claim, prove
    claimed = book_claim(book)
    if claimed is None:
        raise CertificateError("the book claims no bound to certify (a book of the optimal "
                               "strategy does)")
    bound, first = claimed
    game = Game.from_dict(book["game"])
    depth = book["strategy"].get("max_depth")
    claim = Claim(game, bound, (), None if first is None else game.index(first), depth)
    data = prove(claim, memory, status)
    write_atomic(path, data)
    return len(data)


def check(path: str | os.PathLike[str], remember: bool = True) -> Proven:
    """Check a certificate file (and its premises); a one-line CertificateError on any flaw.
    Certificates this checker has passed before, here, are not checked again (``remember``)."""
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


def judge(book: BookData, proven: Proven) -> tuple[list[str], list[str]]:
    """What a checked certificate proves of a book (lines to print) and what is wrong (the
    certificate is of another game or claim, or the book claims more than it proves)."""
    title, total = game_title(book["game"]), book["stats"]["total"]
    strategy = book["strategy"]
    problems = []
    if _rules(proven.game) != _rules(book["game"]):
        problems.append("the certificate is of another game than the book")
    if proven.max_depth != strategy.get("max_depth"):
        problems.append(f"the certificate counts trees of at most {proven.max_depth} guesses, the "
                        f"book {strategy.get('max_depth')}")
    if proven.history:
        problems.append("the certificate is about the secrets left after "
                        + ", ".join(f"{g}={a}" for g, a in proven.history) + ", not the book's game")
    if proven.first is not None and proven.first != strategy["first"]:
        problems.append(f"the certificate is about trees opening with {proven.first}, the book "
                        f"opens with {strategy['first']}")
    if problems:
        return [], problems
    scope = "" if proven.first is None else f" opening with {proven.first}"
    verdict = "optimal" if proven.bound == total else \
        f"at most {total - proven.bound} above the optimum"
    if proven.first is not None:
        verdict += f" after {proven.first}"
    if proven.bound > total:
        problems.append(f"the certificate proves {proven.bound}, above the book's own total {total}")
    lines = [f"{title}: no tree{scope} needs fewer than {proven.bound} guesses; this book has "
             f"{total}: {verdict}"]
    claimed = book_claim(book)
    if claimed is not None:
        bound, first = claimed
        covers = first == proven.first or proven.first is None
        if not covers or bound > proven.bound:
            what = "the game" if first is None else f"the trees opening with {first}"
            problems.append(f"the book claims {bound} for {what}; the certificate proves "
                            f"{proven.bound}" + (scope and f" only for the trees{scope}"))
    return lines, problems


def _rules(game: Mapping[str, Any]) -> dict[str, Any]:
    """A game without its name: two names of the same rules are one game."""
    return {key: value for key, value in game.items() if key != "name"}


# -- what was checked here before ------------------------------------------------------------------

def _checker() -> str:
    """The checker's own fingerprint: a memory is of this checker's verdicts only."""
    return hashlib.sha256(Path(certificate.__file__).read_bytes()).hexdigest()


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
