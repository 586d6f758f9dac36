"""Certificates in pieces: the classes a claim names written as premises of their own, checked
piece by piece, deepest first, each remembered as it passes, so that a long check stopped goes on
from the pieces it has done; any piece damaged, swapped or missing is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from treegen.certificate import check, read_certificate
from treegen.errors import CertificateError
from treegen.files.checked import check_certificate
from treegen.rules.game import Game
from treegen.search.certify import Claim, write_certificate

MASTERMIND = Game.preset("mastermind")


@pytest.fixture(scope="module")
def pieces(tmp_path_factory) -> Path:
    """Mastermind's optimum, one file whole and the same claim in pieces one and two levels deep."""
    folder = tmp_path_factory.mktemp("pieces")
    for depth in (0, 1, 2):
        write_certificate(Claim(MASTERMIND, 5625), folder / f"m{depth}.cert", depth)
    return folder


def pieces_of(folder: Path, name: str) -> list[Path]:
    return sorted((folder / f"{name}.pieces").rglob("*.cert"))


@pytest.fixture
def fresh_memory(tmp_path, monkeypatch):
    """A memory of checked certificates of this test alone."""
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))


def test_a_certificate_in_pieces_proves_what_the_whole_one_does(pieces, fresh_memory):
    whole = check_certificate(pieces / "m0.cert", remember=False)
    for depth in (1, 2):
        proven = check_certificate(pieces / f"m{depth}.cert", remember=False)
        assert (proven.bound, proven.history, proven.game) == (5625, [], whole.game)
    header, arrays = read_certificate((pieces / "m1.cert").read_bytes())
    assert header["sizes"]["claims"] == 1 and len(header["premises"]) == len(arrays["guess"])
    assert all(p["file"].startswith("m1.pieces/g") for p in header["premises"])
    # two levels: the pieces of the first level name theirs, beside them
    assert len(pieces_of(pieces, "m2")) > len(pieces_of(pieces, "m1")) > 10
    nested = [p for p in pieces_of(pieces, "m2") if p.parent.name != "m2.pieces"]
    assert nested and all(p.parent.parent.name == "m2.pieces" for p in nested)


def test_a_check_stopped_goes_on_from_the_pieces_it_has_done(pieces, fresh_memory):
    everyone = len(pieces_of(pieces, "m2"))
    done: list[str] = []

    def stop_after_twenty(path: str, seconds: float) -> None:
        done.append(path)
        if len(done) == 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        check_certificate(pieces / "m2.cert", told=stop_after_twenty)
    rest: list[str] = []
    proven = check_certificate(pieces / "m2.cert", told=lambda path, s: rest.append(path))
    assert proven.bound == 5625 and rest[-1] == str(pieces / "m2.cert")  # the whole one last
    assert len(rest) == everyone - 20 + 1 and not set(rest) & set(done)
    again: list[str] = []
    check_certificate(pieces / "m2.cert", told=lambda path, s: again.append(path))
    assert again == [str(pieces / "m2.cert")]  # remembered: nothing is checked again


def test_pieces_are_checked_in_parallel_processes_alike(pieces, fresh_memory):
    told: list[str] = []
    proven = check_certificate(pieces / "m1.cert", jobs=2, told=lambda p, s: told.append(p))
    assert proven.bound == 5625 and len(told) == len(pieces_of(pieces, "m1")) + 1


def copy(pieces: Path, tmp_path: Path, name: str = "m1") -> Path:
    import shutil
    shutil.copy(pieces / f"{name}.cert", tmp_path / f"{name}.cert")
    shutil.copytree(pieces / f"{name}.pieces", tmp_path / f"{name}.pieces")
    return tmp_path / f"{name}.cert"


def test_a_missing_or_damaged_piece_is_refused(pieces, tmp_path, fresh_memory):
    target = copy(pieces, tmp_path)
    victim = pieces_of(tmp_path, "m1")[3]
    data = victim.read_bytes()
    victim.write_bytes(data[:-10])
    with pytest.raises(CertificateError, match=victim.name):
        check_certificate(target)
    victim.unlink()
    with pytest.raises(CertificateError, match=r"cannot read|No such file|missing"):
        check_certificate(target)


def test_a_piece_swapped_for_another_class_s_is_refused(pieces, tmp_path, fresh_memory):
    target = copy(pieces, tmp_path)
    header, _ = read_certificate(target.read_bytes())
    one, two = pieces_of(tmp_path, "m1")[:2]
    one_bytes, two_bytes = one.read_bytes(), two.read_bytes()
    one.write_bytes(two_bytes)
    two.write_bytes(one_bytes)
    with pytest.raises(CertificateError, match="SHA-256"):
        check_certificate(target)
    # a header edited to match: the piece proves another class than the one it stands for
    digests = {p["file"]: p["sha256"] for p in header["premises"]}
    text = target.read_bytes()
    swapped = text.replace(digests[f"m1.pieces/{one.name}"].encode(), b"X" * 64) \
        .replace(digests[f"m1.pieces/{two.name}"].encode(), digests[f"m1.pieces/{one.name}"].encode()) \
        .replace(b"X" * 64, digests[f"m1.pieces/{two.name}"].encode())
    target.write_bytes(swapped)
    with pytest.raises(CertificateError, match="another claim"):
        check_certificate(target)


def test_a_piece_named_outside_the_folder_is_refused(pieces, tmp_path, fresh_memory):
    target = copy(pieces, tmp_path)
    magic, header, body = target.read_bytes().split(b"\n", 2)
    data = json.loads(header)
    data["premises"][0]["file"] = "../" + data["premises"][0]["file"]
    target.write_bytes(magic + b"\n" + json.dumps(data).encode() + b"\n" + body)
    with pytest.raises(CertificateError, match="not a file in the certificate's folder"):
        check_certificate(target)
    assert check(str(pieces / "m1.cert")).bound == 5625  # the honest one still passes
    assert os.path.exists(pieces / "m1.pieces")
