"""A heuristic's keys of every code over an alphabet, compiled, without a list of the guesses.

Deep in a large game a set of a few secrets is scored against every guess of the pool, and this
is where a heuristic build spends most of its time. Where the guesses are every code over some
symbols (a game with repeats; the symbols the secrets still hold, see
:func:`treegen.rules.symmetry.guess_alphabet`), they are walked in enumeration order as an
odometer: the answer of a secret to a guess is a sum over positions (black pegs) and over
symbols (each further copy of a symbol adds a common peg while the secret holds that many), so
the sums of a prefix are kept per position and a guess costs one position's step, not all of
them. The keys, the drops past the best and the end of a run are those of
:func:`treegen.rules.code_scores.scan` (the tests compare them guess by guess); the kernels are
in :mod:`treegen.rules.alphabet_kernels`.
"""

from __future__ import annotations

import numpy as np

from treegen.rules import native
from treegen.rules.code_scores import GROWING, KINDS, Codes, least_key, shared


def scan_alphabet(game: Codes, kind: int, alphabet: np.ndarray, secrets: np.ndarray,
                  steps: np.ndarray, best_only: bool, bound: float = -1.0,
                  threads: int | None = None) -> np.ndarray:
    """The key of ``secrets`` under ``kind`` (not "counts") of every code of ``game``'s length
    positions over ``alphabet`` (ascending symbols), in enumeration order (the guesses of
    :func:`treegen.rules.symmetry.product_codes`). ``best_only``: exact only where it may tie
    with the best, as in :func:`treegen.rules.code_scores.scan`: with minimax and expected, a
    guess is dropped (key infinite) once past ``bound`` (below 0: none) or the best found, and
    a run of guesses ends at the first whose key is the least any guess can have (of ``nfb``
    answers, :func:`treegen.rules.code_scores.least_key`). Rules: pegs and black pegs, up to 15
    positions (a raw answer fits a byte); ``threads`` as for
    :func:`treegen.rules.code_scores.scan`."""
    rule, codes, tally, _, nfb = game
    if kind == KINDS["counts"] or rule not in (0, 1) or codes.shape[1] > 15:
        raise ValueError("scan_alphabet gives the keys of pegs and black pegs only")
    length, width = codes.shape[1], len(alphabet)
    keys = np.empty(width ** length, dtype=np.float64)
    kernels = native.load()
    placed, held = kernels.lay_out(codes, tally, secrets)
    least = least_key(kind, len(secrets), nfb) if best_only else -np.inf
    best = bound if best_only and kind in GROWING else -1.0
    blacks = length + 1 if rule == 0 else 1  # raw answers stay apart: below 256
    commons = 1 if rule == 0 else 0
    threaded = shared(len(keys) * len(secrets), threads) if length > 1 and width > 1 else None
    (threaded.walk if threaded else kernels.walk_serial)(
        kind, np.ascontiguousarray(alphabet, dtype=np.uint8), placed, held, blacks, commons, steps,
        keys, best, least)
    return keys
