"""The layout of the search's proof as it is found: a tape of claims, written by compiled code and by the top
levels alike, from which a certificate is cut (:mod:`treegen.search.certify`).

A claim says that a set of secrets (the one its first user reaches) costs at least ``bound``
guesses with ``depth`` left: for every guess, the bounds of its classes reach it, each class's
the claim an entry names for it (``child``, the claim's offset on the tape) or else its
level-filling or one-step floor, which a checker derives itself. Claims are written when their set
is settled, so a claim's children are on the tape before it.

The tape is one int64 array, so that it crosses into and out of compiled code as plain numpy:
``tape[0]`` is the words used, ``tape[1]`` a flag set when the search could not back a bound it
used (a certificate is then refused). A claim at offset ``o`` is ``bound, depth, used, present,
count`` and ``count`` entries of ``guess, feedback, child``; ``used`` and ``present`` are the
symbols (bit masks) the history's guesses use and the set's codes hold, from which the guesses
the search skipped as interchangeable are named (:data:`LISTED`: the top levels keep that list
beside the tape; :data:`NO_SYMMETRY`: the search skipped none; :data:`PREMISE`: the claim is
proven elsewhere, by a certificate the one cut from the tape names). A function that may grow the tape
returns it: callers go on with what it returns.
"""

from __future__ import annotations

#: Words before the first claim: the words used, and the flag.
HEADER = 2
#: Words of a claim before its entries, and of an entry.
CLAIM_WORDS, ENTRY_WORDS = 5, 3
#: ``used`` of a claim whose guesses were not reduced by interchangeable symbols.
NO_SYMMETRY = -1
#: ``used`` of a claim the top levels wrote, whose symmetries they keep beside the tape.
LISTED = -2
#: ``used`` of a claim that stands for a premise, a certificate of its own (:mod:`treegen.search.facts`):
#: its ``present`` is the premise's number, and it has no entries.
PREMISE = -3
#: The most symbols a mask holds.
MASK_SYMBOLS = 62
