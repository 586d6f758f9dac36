"""A certificate's bytes: the claims a proof's root stands on, cut from the tape the search wrote
(:mod:`treegen.search.tape`), and encoded as docs/certificate-format.md says, or composed from
other certificates. Nothing here searches: the searches that prove are in
:mod:`treegen.search.certify`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import zlib
from dataclasses import dataclass

import numpy as np

from treegen.data import History
from treegen.errors import CertificateError
from treegen.rules.game import Game
from treegen.search.proof_log import Symmetry
from treegen.search.tape import LISTED, NO_SYMMETRY, PREMISE
from treegen.version import __version__

__all__ = ["BODY", "FORMAT", "MAGIC", "VERSION", "Claim", "certificate_bytes", "compose",
           "cut_certificate", "encode"]

MAGIC = b"treegen-certificate 1\n"
FORMAT, VERSION = "treegen-certificate", 1


@dataclass(frozen=True)
class Claim:
    """What a certificate proves: with the depth limit ``max_depth``, every tree for the secrets
    still possible after ``history`` (opening with ``first`` when given) needs ``bound`` guesses
    at least, counted from the start of the game's set (the guesses of the history not counted)."""

    game: Game
    bound: int
    history: History = ()
    first: int | None = None
    max_depth: int | None = None

    def to_dict(self) -> dict[str, object]:
        codes, texts = self.game.code_strings, self.game.feedback_texts
        return {"history": [[codes[g], texts[f]] for g, f in self.history],
                "first": codes[self.first] if self.first is not None else None,
                "max_depth": self.max_depth, "bound": self.bound}


def _cut(tape: np.ndarray, root: int) -> tuple[np.ndarray, np.ndarray]:
    """The claims ``root`` stands on and their entries (see :func:`treegen.search.proof_tape.cut`),
    the tape left as it was: the cut numbers the claims it takes in two of their words, which the
    rows it returns hold, so they are put back (no copy of a tape of gigabytes)."""
    from treegen.search.native import load
    rows, entries, _ = load().cut(tape, root)
    tape[rows[:, 0] + 3] = rows[:, 4]
    tape[rows[:, 0] + 4] = rows[:, 5]
    return rows, entries


def certificate_bytes(claim: Claim, tape: np.ndarray, root: int,
                      listed: dict[int, list[Symmetry]],
                      premises: list[dict[str, object]] | None = None) -> bytes:
    """The certificate of ``claim`` as the claim at offset ``root`` of ``tape`` proves it
    (``listed``: the symmetries of the claims the top levels wrote; ``premises``: the
    certificates the tape's premise claims stand for, by number, as the header names them)."""
    return cut_certificate(claim, tape, root, listed, premises)[0]


def cut_certificate(claim: Claim, tape: np.ndarray, root: int,
                    listed: dict[int, list[Symmetry]],
                    premises: list[dict[str, object]] | None = None
                    ) -> tuple[bytes, list[dict[str, object]]]:
    """:func:`certificate_bytes`, and the premises the certificate names (those of ``premises``
    its claims reach), in its header's order."""
    game = claim.game
    rows, entries = _cut(tape, root)
    rows, entries, named = _premises(rows, entries, premises or [])
    sets, members, symmetries, of_claim = _symmetry_sets(game, rows, listed)
    arrays = {"bound": rows[:, 1], "depth": rows[:, 2], "count": rows[:, 5], "set": of_claim,
              "guess": entries[:, 0], "feedback": entries[:, 1], "child": entries[:, 2],
              "positions": symmetries[0].ravel(), "symbols": symmetries[1].ravel(),
              "size": sets, "member": members}
    return encode(game, claim.to_dict(), arrays, named), named


def _premises(rows: np.ndarray, entries: np.ndarray, premises: list[dict[str, object]]
              ) -> tuple[np.ndarray, np.ndarray, list[dict[str, object]]]:
    """The cut claims without those that stand for premises, each entry that named one naming the
    premise instead (-1 - k), and the premises so named, numbered in order of first use. Only
    claim 0 may name a premise (the format's rule)."""
    standing = rows[:, 3] == PREMISE
    if not standing.any():
        return rows, entries, []
    owner = np.repeat(np.arange(len(rows)), rows[:, 5])
    target = entries[:, 2]
    to_premise = standing[target]
    if standing[0] or (owner[to_premise] != 0).any():
        raise CertificateError("a premise stands below the claim's own classes: no certificate "
                               "written")
    numbers = rows[target[to_premise], 4]
    if (numbers < 0).any() or (numbers >= len(premises)).any():
        raise CertificateError("the search named a premise it was not given")
    used, first = np.unique(numbers, return_index=True)
    order = used[np.argsort(first)]
    renumber = np.full(len(premises), -1, dtype=np.int64)
    renumber[order] = np.arange(len(order))
    keep = ~standing
    claim_number = np.cumsum(keep) - 1
    entries = entries.copy()
    entries[:, 2] = claim_number[target]
    entries[to_premise, 2] = -1 - renumber[numbers]
    return rows[keep], entries, [premises[int(k)] for k in order]


#: The body's arrays, in order, with their types (docs/certificate-format.md).
BODY = (("bound", "<i8"), ("depth", "<i1"), ("count", "<u4"), ("set", "<i4"), ("guess", "<i4"),
        ("feedback", "<u2"), ("child", "<i4"), ("positions", "u1"), ("symbols", "u1"),
        ("size", "<u4"), ("member", "<u4"))


def encode(game: Game, claim: dict[str, object], arrays: dict[str, np.ndarray],
           premises: list[dict[str, object]] | None = None) -> bytes:
    """A certificate's bytes from its claim, the body's arrays and the premises it names."""
    body = b"".join(np.ascontiguousarray(arrays[name], dtype=kind).tobytes()
                    for name, kind in BODY)
    packed = zlib.compress(body, 6)
    nsym = len(game.symbols)
    header = {"format": FORMAT, "version": VERSION, "treegen": __version__,
              "game": dict(game.to_dict()), "claim": claim,
              "sizes": {"claims": len(arrays["bound"]), "entries": len(arrays["guess"]),
                        "symmetries": len(arrays["symbols"]) // nsym, "sets": len(arrays["size"]),
                        "members": len(arrays["member"])},
              "body": {"bytes": len(packed), "sha256": hashlib.sha256(packed).hexdigest()}}
    if premises:
        header["premises"] = premises
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return MAGIC + text.encode("utf-8") + b"\n" + packed


def _symmetry_sets(game: Game, rows: np.ndarray, listed: dict[int, list[Symmetry]]
                   ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The symmetries each claim names the guesses it skipped by, as sets of a table of
    symmetries: (set sizes, set members, (positions, symbols) of each symmetry, each claim's
    set or -1)."""
    table: dict[Symmetry, int] = {}
    sets: dict[tuple[int, ...], int] = {}
    of_claim = np.full(len(rows), -1, dtype=np.int64)

    def set_of(generators: list[Symmetry]) -> int:
        ids = tuple(sorted(table.setdefault(g, len(table)) for g in generators))
        return sets.setdefault(ids, len(sets)) if ids else -1

    if game.has_symmetries and len(rows):
        masks = rows[:, 3:5]
        plain = masks[:, 0] >= 0
        kinds, back = np.unique(masks[plain], axis=0, return_inverse=True)
        chosen = np.array([set_of(_interchangeable(game, int(u), int(p))) for u, p in kinds],
                          dtype=np.int64)
        of_claim[plain] = chosen[back.ravel()] if len(kinds) else -1
        for k in np.flatnonzero(masks[:, 0] == LISTED):
            of_claim[k] = set_of(listed.get(int(rows[k, 0]), []))
    nsym = len(game.symbols)
    positions = np.array([g[0] for g in table], dtype=np.uint8).reshape(-1, game.length)
    symbols = np.array([g[1] for g in table], dtype=np.uint8).reshape(-1, nsym)
    sizes = np.array([len(ids) for ids in sets], dtype=np.int64)
    members = np.array([i for ids in sets for i in ids], dtype=np.int64)
    return sizes, members, (positions, symbols), of_claim


def _interchangeable(game: Game, used: int, present: int) -> list[Symmetry]:
    """Swaps of symbols that map a set onto itself, generating the classes the compiled search's
    pool keeps one guess of (:func:`treegen.search.kernels.free_pool`): symbols no guess of the
    history used, and symbols no secret of the set holds; when some symbol is both, all of them
    together, by swaps with that one."""
    if used == NO_SYMMETRY:
        return []
    nsym = len(game.symbols)
    unused = [s for s in range(nsym) if not used >> s & 1]
    absent = [s for s in range(nsym) if used >> s & 1 and not present >> s & 1]
    both = [s for s in unused if not present >> s & 1]
    if both:
        hub = both[0]
        pairs = [(hub, s) for s in unused + absent if s != hub]
    else:
        pairs = [pair for group in (unused, absent) for pair in itertools.pairwise(group)]
    found = []
    for a, b in pairs:
        swap = list(range(nsym))
        swap[a], swap[b] = b, a
        found.append((tuple(range(game.length)), tuple(swap)))
    return found


def compose(claim: Claim, entries: list[tuple[int, int, int]], premises: list[dict[str, object]],
            symmetries: list[Symmetry]) -> bytes:
    """A certificate of one claim resting on other certificates (``premises``, each about a class
    of its first guess) and on floors: its entries (guess, feedback, -1 - k for premise k),
    ``symmetries`` naming the guesses it leaves out."""
    rows = sorted(entries)
    nsym = len(claim.game.symbols)
    arrays = {"bound": np.array([claim.bound]),
              "depth": np.array([-1 if claim.max_depth is None else claim.max_depth]),
              "count": np.array([len(rows)]), "set": np.array([0 if symmetries else -1]),
              "guess": np.array([r[0] for r in rows], dtype=np.int64),
              "feedback": np.array([r[1] for r in rows], dtype=np.int64),
              "child": np.array([r[2] for r in rows], dtype=np.int64),
              "positions": np.array([g[0] for g in symmetries], dtype=np.int64).ravel(),
              "symbols": np.array([g[1] for g in symmetries], dtype=np.int64).reshape(-1, nsym).ravel(),
              "size": np.array([len(symmetries)] if symmetries else [], dtype=np.int64),
              "member": np.arange(len(symmetries))}
    return encode(claim.game, claim.to_dict(), arrays, premises)
