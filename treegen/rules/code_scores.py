"""Scoring from the codes themselves, compiled: what a game too large for a score table reads.

A dense table of every guess against every secret grows with the square of the game (6 pegs of 7
colours: 78 GB); the kernels (:mod:`treegen.rules.score_kernels`) score a guess against the
secrets it is asked about from the codes and each code's symbol tally, so memory grows with the
codes. Each rule of feedback names the branch of the kernels that scores it (its ``kernel``,
:data:`treegen.player.KERNELS`; a rule of counts reads its answers through a lookup), and they
agree with :data:`treegen.rules.scoring.SCORERS` on every pair (the tests compare them). Guesses are shared
among threads (numba's ``prange``) where there is enough work.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from treegen.errors import GameError
from treegen.player import KERNELS
from treegen.rules import native


def branch(rule: object) -> int:
    """A compiled scorer's branch, checked: the kernels take any other number for tiles."""
    if type(rule) is not int or rule not in KERNELS:
        raise GameError(f"no compiled scorer has the branch {rule!r} (there are {KERNELS})")
    return rule



class Codes(NamedTuple):
    """What the kernels read of one game and never change, as one value (like the search's
    :class:`treegen.search.context.Context`): passed one by one, they made calls of seventeen
    positional arguments in which two tables of the same type could swap unnoticed. The
    kernels themselves keep their arguments (their compiled modules are keyed by their source);
    the value is unpacked here, in Python."""

    #: The rule's branch of the kernels (:func:`branch`).
    rule: int
    #: Every code as symbol indices, and how often each symbol occurs in each (:func:`tally_of`).
    codes: np.ndarray
    tally: np.ndarray
    #: A rule of counts' answer index of each raw answer (unused by tiles).
    lut: np.ndarray
    #: How many answers the rule has.
    nfb: int

    @classmethod
    def of(cls, rule: int, codes: np.ndarray, lut: np.ndarray, nfb: int,
           symbols: int | None = None) -> Codes:
        """The value with the layout the kernels are compiled for, its branch checked and the
        tally of ``symbols`` symbols (None: as many as the codes use) counted here."""
        codes = np.ascontiguousarray(codes, dtype=np.uint8)
        count = int(codes.max(initial=0)) + 1 if symbols is None else symbols
        return cls(branch(rule), codes, tally_of(codes, count),
                   np.ascontiguousarray(lut, dtype=np.uint8), int(nfb))


#: What a scan of guesses returns for each: its class sizes, or a heuristic's key of them.
KINDS = {"counts": 0, "minimax": 1, "expected": 2, "parts": 3, "entropy": 4}


def scan(game: Codes, kind: int, guesses: np.ndarray, secrets: np.ndarray, steps: np.ndarray,
         best_only: bool = False, threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``game``'s guesses' class sizes of ``secrets`` (``kind`` "counts": (guesses, nfb)), or only
    its key under a heuristic (:data:`KINDS`, lower is better; entropy's sum of s ln s, by the
    ``steps`` from s to s + 1), so that no row of sizes is kept. Guesses are shared among
    ``threads`` of numba's (None: every core) where there is enough work to pay for starting
    them (see :func:`shared`).

    ``best_only``: only the keys that may tie with the best must be exact. Minimax's and
    expected's keys only grow as secrets are added, so a guess is dropped (key infinite) as soon
    as its key so far passes the best found. The guesses that are possible secrets (they win
    ties) are scored first, or else a few spread over the pool;
    when the best of the possible secrets already reaches the least key any guess can have (all
    answers as even as can be), no other guess is scored; else the scan of a run of guesses
    ends at the first that reaches it (the later ones, in enumeration order, would lose the
    tie). Most parts and entropy end their runs so too (a guess that splits every secret apart,
    or makes as many classes as there are answers), but drop no guess: entropy's key grows too,
    but late, and dropping saved it nothing (benchmarks/heuristic_keys.py)."""
    rule, codes, tally, lut, nfb = game
    rows = len(guesses) if kind == KINDS["counts"] else 0
    sizes = np.zeros((rows, nfb), dtype=np.int64)
    keys = np.zeros(len(guesses), dtype=np.float64)
    kernels = native.load()
    placed, held = kernels.lay_out(codes, tally, secrets)
    bound, least = -1.0, -np.inf  # no guess is dropped; the scan does not stop
    if best_only and kind != KINDS["counts"]:
        least = least_key(kind, len(secrets), nfb)
    if least > -np.inf:
        lead = np.flatnonzero(np.isin(guesses, secrets))
        first = lead if len(lead) else \
            np.unique(np.linspace(0, len(guesses) - 1, min(_SAMPLE, len(guesses))).astype(np.int64))
        found = np.zeros(len(first), dtype=np.float64)
        kernels.scan_serial(rule, kind, codes, tally, lut, guesses[first], secrets, placed, held,
                            nfb, steps, sizes, found, np.inf, -np.inf)
        if first is lead and found.min() <= least:
            keys[:] = np.inf
            keys[first] = found
            return sizes, keys
        bound = float(found.min()) if kind in GROWING else -1.0
    threaded = shared(len(guesses) * len(secrets), threads)
    (threaded.scan if threaded else kernels.scan_serial)(
        rule, kind, codes, tally, lut, guesses, secrets, placed, held, nfb, steps, sizes, keys,
        bound, least)
    return sizes, keys


def shared(pairs: int, threads: int | None) -> Any:
    """numba's threaded kernels, set to ``threads`` threads (None: every core), where ``pairs``
    of (guess, secret) pay for starting them and more than one thread is there; else None (the
    kernels of :func:`native.load`, with no numba where they were compiled ahead of time)."""
    if pairs < PARALLEL_FROM or threads == 1:
        return None
    found = native.threaded()
    if threads is not None:
        found.set_threads(max(1, min(threads, found.most)))
    return found if found.threads() > 1 else None


def least_key(kind: int, count: int, nfb: int) -> float:
    """The least key any guess can have on ``count`` secrets (its answers as even as can be),
    where it is a whole number that a guess reaching it gives exactly; -inf where it is not
    (entropy's, but for the split of every secret apart: 0)."""
    even, extra = divmod(count, nfb)
    if kind == 1:
        return float(even + (extra > 0))
    if kind == 2:
        return float((nfb - extra) * even * even + extra * (even + 1) ** 2)
    if kind == 3:
        return -float(min(count, nfb))
    return 0.0 if count <= nfb else -np.inf


#: The heuristics whose guesses are dropped once past the best: minimax and expected.
GROWING = (1, 2)
#: Guesses scored whole first, spread over the pool, for a first best to drop others by.
_SAMPLE = 32
#: Pairs of (guess, secret) from which a scan is shared among threads.
PARALLEL_FROM = 1 << 20


def block(game: Codes, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """The answer of each of ``secrets`` to each of ``guesses``: (guesses, secrets) uint8."""
    found: np.ndarray = native.load().block(game.rule, game.codes, game.tally, game.lut, guesses,
                                            secrets)
    return found


def tally_of(codes: np.ndarray, symbols: int) -> np.ndarray:
    """How often each symbol occurs in each code: (codes, symbols) uint8."""
    out = np.zeros((len(codes), symbols), dtype=np.uint8)
    rows = np.arange(len(codes))
    for p in range(codes.shape[1]):
        out[rows, codes[:, p]] += 1  # one symbol of each code a position: no index repeats
    return out
