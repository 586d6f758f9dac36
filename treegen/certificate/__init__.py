"""Check a certificate: the proof that no tree of a game needs fewer than so many guesses.

This package is the whole checker, on the standard library, numpy and compiled loops of its own
(numba: the floors of many classes over every code, :mod:`treegen.certificate.floor_kernels`),
and shares no code with the search that writes certificates: it enumerates the codes, scores
them, counts level filling and floors, and names the game's symmetries itself, from the rules
written in the file. What it trusts
is arithmetic and the file's bytes; what it proves is printed from what it derived.

A certificate is a list of claims (docs/certificate-format.md). Claim 0 is about the secrets still
possible after the statement's history; every other claim is about the set its first user names:
a class (the secrets giving one answer to one guess) of an earlier claim's set. A claim "the set
S, with d guesses left, needs at least L guesses in all" holds when, for every guess g the rules
allow at S, |S| plus a lower bound on every class of g (level filling, or the bound an entry gives:
another claim's, or the class's one-step floor) reaches L. Guesses that split nothing are left
out (a best tree never asks one), and so are guesses a listed symmetry maps onto a checked one:
a permutation of positions and symbols that keeps the game's answers and maps the set (and, in hard
mode, the guesses its history allows) onto itself leaves every cost as it was. Every class is
smaller than its set, so the claims stand on each other without a circle.

    proven = check("mastermind.cert")  # a Proven, or CertificateRefused naming the first flaw
"""

from treegen.certificate.claims import check, premise_path
from treegen.certificate.file import (
           MOST_PREMISES,
           CertificateRefused,
           Proven,
           read_certificate,
           read_file,
           read_header,
)
from treegen.certificate.rules import INFINITE

__all__ = ["INFINITE", "MOST_PREMISES", "CertificateRefused", "Proven", "check", "premise_path",
           "read_certificate", "read_file", "read_header"]
