"""Certificates made to hurt the checker: whatever a file announces (a game of too many symbols or
codes, claims its body cannot hold, more than the memory allows) is refused in one line before it
is allocated, and the processes a check may start are bounded by the work and the cores, and
started only for a file that is a certificate."""

from __future__ import annotations

import hashlib
import json
import tracemalloc
import zlib

import numpy as np
import pytest

from treegen.certificate import CertificateRefused, check
from treegen.errors import CertificateError as Refused

MAGIC = b"treegen-certificate 1\n"
MiB = 1 << 20


def certificate(game: dict, sizes: dict | None = None, body: bytes | None = None,
                bound: int = 2, packed: bytes | None = None) -> bytes:
    """A certificate made by hand: one claim (bound ``bound``, no limit, no entries) unless
    ``sizes`` and ``body`` say otherwise."""
    if body is None:
        body = (np.array([bound], "<i8").tobytes() + np.array([-1], "i1").tobytes() +
                np.array([0], "<u4").tobytes() + np.array([-1], "<i4").tobytes())
    packed = zlib.compress(body, 9) if packed is None else packed
    header = {"format": "treegen-certificate", "version": 1, "treegen": "hand",
              "game": game, "claim": {"history": [], "first": None, "max_depth": None,
                                      "bound": bound},
              "sizes": sizes or {"claims": 1, "entries": 0, "symmetries": 0, "sets": 0,
                                 "members": 0},
              "body": {"bytes": len(packed), "sha256": hashlib.sha256(packed).hexdigest()}}
    return MAGIC + json.dumps(header).encode() + b"\n" + packed


def peak_of(action) -> int:
    """The most memory (Python's and numpy's) ``action`` held at once, in bytes."""
    tracemalloc.start()
    try:
        action()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


# -- the game a header names ---------------------------------------------------------------------

@pytest.mark.parametrize("game", [
    {"symbols": "".join(chr(0x100 + i) for i in range(300)), "length": 1, "repetition": True},
    {"symbols": "".join(chr(0x100 + i) for i in range(257)), "length": 2, "repetition": False,
     "rule": "wordle", "answers": ["\u0100\u0101"], "guesses": ["\u0100\u0101"]},
], ids=["enumerated", "listed"])
def test_a_game_of_more_than_256_symbols_is_refused_in_one_line(game):
    """A symmetry's symbol images are bytes, so a certificate's game has 256 symbols at most."""
    with pytest.raises(CertificateRefused, match="more than the 256 a certificate can name") as info:
        check(certificate(game))
    assert "\n" not in str(info.value)


def test_256_symbols_are_a_game_the_checker_reads():
    symbols = "".join(chr(0x100 + i) for i in range(256))
    proven = check(certificate({"symbols": symbols, "length": 1, "repetition": True}, bound=1))
    assert proven.bound == 1 and len(proven.game["symbols"]) == 256


@pytest.mark.parametrize("symbols, length, codes", [("0123456789", 7, 10 ** 7),
                                                    ("12345678", 8, 8 ** 8)])
def test_a_game_too_large_for_the_memory_is_refused_before_it_is_made(symbols, length, codes):
    """A header of a few hundred bytes names a game of millions of codes: what its arrays take is
    estimated from the count and refused against the memory, nothing made."""
    data = certificate({"symbols": symbols, "length": length, "repetition": True})
    assert len(data) < 600

    def refused() -> None:
        with pytest.raises(CertificateRefused, match=rf"game of {codes:,} codes needs about .* "
                                                   r"more than the 64\.0 MiB the checker may use"):
            check(data, memory=64 * MiB)
    assert peak_of(refused) < 4 * MiB


def test_a_set_too_large_to_score_is_refused_before_it_is_scored():
    """A game that fits, whose statement's set cannot be scored against every guess within the
    memory: the claim is refused, naming what it would score."""
    data = certificate({"symbols": "0123456789", "length": 5, "repetition": True})

    def refused() -> None:
        with pytest.raises(CertificateRefused, match=r"scoring 100,000 secrets against 100,000 "
                                                   r"guesses needs about"):
            check(data, memory=256 * MiB)
    assert peak_of(refused) < 64 * MiB


def test_permutations_are_enumerated_in_order_without_a_tuple_a_code():
    import itertools

    from treegen.certificate.rules import Rules
    rules = Rules({"symbols": "abcdef", "length": 4, "repetition": False})
    assert rules.codes.tolist() == [list(p) for p in itertools.permutations(range(6), 4)]
    assert rules.name(7) == "abed" and rules.number("abed") == 7 and rules.number("abba") is None


# -- what the header counts ------------------------------------------------------------------------

GAME = {"symbols": "123456", "length": 4, "repetition": True}


def many_claims(claims: int, entries: int) -> tuple[dict, bytes]:
    """Sizes of ``claims`` claims and ``entries`` entries, and a body of zeros of their length."""
    sizes = {"claims": claims, "entries": entries, "symmetries": 0, "sets": 0, "members": 0}
    return sizes, bytes(claims * 17 + entries * 10)


def test_claims_a_body_cannot_hold_are_refused_before_it_is_unpacked():
    """Deflate makes at most 1032 bytes of one: 2^26 claims announced in a body of about 100
    bytes are false on their face."""
    sizes, _ = many_claims(1 << 26, 1 << 26)
    data = certificate(GAME, sizes, packed=zlib.compress(bytes(100_000), 9))

    def refused() -> None:
        with pytest.raises(CertificateRefused, match=r"more than its body of .* bytes can hold"):
            check(data)
    assert peak_of(refused) < 4 * MiB


def test_more_claims_than_entries_name_are_refused_from_the_header():
    """Every claim past the first is some entry's: 2^20 claims of no entry are refused before a
    byte is unpacked."""
    sizes, body = many_claims(1 << 20, 0)
    data = certificate(GAME, sizes, body)

    def refused() -> None:
        with pytest.raises(CertificateRefused, match="every claim but the first is named by an"):
            check(data)
    assert peak_of(refused) < 4 * MiB


def test_claims_beyond_the_memory_are_refused_before_they_are_unpacked():
    sizes, body = many_claims(1 << 20, 1 << 20)
    data = certificate(GAME, sizes, body)

    def refused() -> None:
        with pytest.raises(CertificateRefused, match=r"1,048,576 claims and 1,048,576 entries needs "
                                                   r"about .* more than the 16\.0 MiB"):
            check(data, memory=16 * MiB)
    assert peak_of(refused) < 4 * MiB


def test_entries_their_claims_do_not_count_are_refused_before_they_are_unpacked():
    """The claims' counts come before the entries in the body: when they do not add up to the
    entries announced, the entries are never unpacked."""
    sizes, body = many_claims(1, 1 << 20)
    data = certificate(GAME, sizes, body)

    def refused() -> None:
        with pytest.raises(CertificateRefused, match="counts do not add up"):
            check(data)
    assert peak_of(refused) < 4 * MiB


def test_a_file_larger_than_the_memory_is_not_read(tmp_path, monkeypatch):
    from treegen.files.checked import check_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", "1M")
    big = tmp_path / "big.cert"
    big.write_bytes(certificate(GAME) + bytes(2 * MiB))
    with pytest.raises(Refused, match=r"big\.cert \(2,097,.* bytes\) needs about 2\.0 MiB of "
                                      r"memory, more than the 1\.0 MiB"):
        check_certificate(big, remember=False)


# -- processes -------------------------------------------------------------------------------------

@pytest.fixture
def small_certificate(tmp_path, monkeypatch):
    """A certificate of a game of 125 codes with dozens of claims, in a memory of this test
    alone."""
    from treegen.certificate import read_certificate
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    target = tmp_path / "small.cert"
    write_certificate(Claim(Game("12345", 3, True), 450), target)
    assert read_certificate(target.read_bytes())[0]["sizes"]["claims"] > 2
    return target


@pytest.fixture
def processes(monkeypatch):
    """The processes a check makes, counted (a third is refused at once); two cores, whatever
    this machine has."""
    import multiprocessing

    import treegen.files.checked as checked
    made: list[int] = []
    context = multiprocessing.get_context("fork")

    class Counted(context.Process):
        def __init__(self, *args, **kwargs) -> None:
            made.append(1)
            if len(made) > 2:
                raise AssertionError("more processes than cores")
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(context, "Process", Counted)
    monkeypatch.setattr(checked, "get_context", lambda method=None: context)
    monkeypatch.setattr(checked.settings, "usable_cores", lambda: 2)
    return made


@pytest.mark.parametrize("jobs", [0, -3, 1.5, True, "2", None])
def test_jobs_must_be_a_positive_whole_number(small_certificate, jobs):
    from treegen.files.checked import check_certificate
    with pytest.raises(Refused, match="jobs must be a whole number of processes, 1 or more"):
        check_certificate(small_certificate, remember=False, jobs=jobs)


def test_jobs_beyond_the_cores_start_a_process_a_core(small_certificate, processes):
    from treegen.files.checked import check_certificate
    alone = check_certificate(small_certificate, remember=False)
    assert check_certificate(small_certificate, remember=False, jobs=10 ** 30) == alone
    assert len(processes) == 2


def test_no_process_is_started_for_what_is_no_certificate(tmp_path, processes):
    from treegen.files.checked import check_certificate
    junk = tmp_path / "junk.cert"
    junk.write_bytes(b"hello\n" * 100)
    with pytest.raises(Refused, match="not a treegen certificate"):
        check_certificate(junk, remember=False, jobs=200)
    assert processes == []
