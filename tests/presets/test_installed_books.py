"""The proven optimal books installed with treegen: the library's own, byte for byte, each checked
against its digest when read; `next`, `play` and `load_preset` use them from any folder."""

import hashlib
import json
import lzma
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

import treegen
from treegen import presets
from treegen.errors import BookError, GameError
from treegen.library.catalogue import entries
from treegen.player import score
from treegen.rules.game import Game
from treegen.sessions.advice import advise, exact_from

ROOT = Path(__file__).resolve().parents[2]
BOOKS = ROOT / "books"


def _library(name, suffix=".json"):
    return (BOOKS / f"{name}{suffix}").read_bytes()


def test_the_installed_books_are_the_library_s_byte_for_byte():
    found = presets.manifest()
    assert set(found) == set(presets.PRESET_BOOKS.values())
    for name, entry in found.items():
        assert presets.read(name) == _library(name), name
        if entry.shipped_certificate:
            assert presets.read(name, certificate=True) == _library(name, ".cert"), name


def test_packing_again_writes_the_same_manifest(tmp_path):
    """What `treegen books package books` writes now is what is installed: nothing drifted."""
    presets.pack(BOOKS, tmp_path)
    installed = Path(presets.default_folder())
    assert (tmp_path / presets.MANIFEST).read_bytes() == (installed / presets.MANIFEST).read_bytes()
    assert sorted(os.listdir(tmp_path)) == sorted(
        f for f in os.listdir(installed) if f != "__init__.py" and not f.startswith("__"))


def test_each_is_its_game_s_proven_optimum_within_the_guesses_it_allows():
    library = {entry.name: entry for entry in entries()}
    checked = json.loads((BOOKS / "certificates.json").read_text())["books"]
    for (name, hard), book in presets.PRESET_BOOKS.items():
        entry = library[book]
        assert (entry.game.name, entry.game.hard or "") == (name, hard)
        assert entry.strategy == "optimal"
        assert checked[book]["book_sha256"] == hashlib.sha256(_library(book)).hexdigest()
        data = json.loads(_library(book))
        assert data["strategy"]["optimal"] is True
        assert data["stats"]["total"] == checked[book]["bound"]
        limit = entry.game.guess_limit
        assert entry.max_depth == limit or (entry.max_depth is None and
                                            (limit is None or data["stats"]["max"] <= limit))


def test_the_wheel_takes_every_installed_file():
    """The package data of pyproject.toml names every file of the folder."""
    import fnmatch
    tomllib = pytest.importorskip("tomllib")
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["treegen.presets"]
    folder = Path(presets.default_folder())
    for file in os.listdir(folder):
        if file.endswith(".py") or file.startswith("__"):
            continue
        assert any(fnmatch.fnmatch(file, p) for p in patterns), file


@pytest.fixture
def damaged(tmp_path, monkeypatch):
    """The installed files copied to a folder the reader is pointed at, to be damaged there."""
    for file in os.listdir(presets.default_folder()):
        if not file.endswith(".py") and not file.startswith("__"):
            shutil.copy(os.path.join(presets.default_folder(), file), tmp_path)
    monkeypatch.setattr(presets, "_folder", lambda: tmp_path)
    return tmp_path


def test_a_damaged_file_is_one_line_and_never_used(damaged):
    path = damaged / "mastermind-optimal-all.json.xz"
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(BookError, match="mastermind-optimal-all is damaged"):
        presets.read("mastermind-optimal-all")
    with pytest.raises(BookError, match="damaged"):
        treegen.load_preset("mastermind")
    with pytest.raises(BookError, match="damaged"):
        advise("mastermind")


def test_a_swapped_file_is_refused_by_its_digest(damaged):
    """Another book, well compressed, where this one should be: its SHA-256 gives it away."""
    other = presets.read("mastermind-hard-optimal-all")
    size = presets.manifest()["mastermind-optimal-all"].bytes
    (damaged / "mastermind-optimal-all.json.xz").write_bytes(lzma.compress(other))
    with pytest.raises(BookError, match="bytes its manifest names"):
        presets.read("mastermind-optimal-all")
    same_size = other[:size].ljust(size, b" ")
    (damaged / "mastermind-optimal-all.json.xz").write_bytes(lzma.compress(same_size))
    with pytest.raises(BookError, match="SHA-256 is not its manifest's"):
        presets.read("mastermind-optimal-all")


@pytest.mark.parametrize("change, words", [
    (lambda m: m["books"]["mastermind-optimal-all"].update(bytes=1 << 40), "bytes"),
    (lambda m: m["books"]["mastermind-optimal-all"].update(sha256="x" * 64), "SHA-256"),
    (lambda m: m["books"]["mastermind-optimal-all"].update(certificate_sha256=3), "SHA-256"),
    (lambda m: m["books"].update({"../etc": {}}), "name"),
    (lambda m: m.update(format=2), "format"),
])
def test_a_bad_manifest_is_one_line(damaged, change, words):
    data = json.loads((damaged / presets.MANIFEST).read_text())
    change(data)
    (damaged / presets.MANIFEST).write_text(json.dumps(data))
    with pytest.raises(BookError, match=words):
        presets.read("mastermind-optimal-all")


def test_a_damaged_book_stops_next_with_one_line(damaged, run):
    (damaged / "wordle-optimal-all.json.xz").write_bytes(b"not xz")
    result = run("next", "--game", "wordle")
    assert result.exit_code == 1 and "damaged" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_next_at_wordle_s_start_is_the_proven_book_s_salet(run):
    advice = advise("wordle")
    assert (advice.guess, advice.source, advice.book) == ("salet", "book", "wordle-optimal-all")
    assert advice.total == json.loads(_library("wordle-optimal-all"))["stats"]["total"]
    out = run("next", "--game", "wordle").output
    assert "next guess: salet  (the move of the proven optimal book" in out
    assert "certified" in out and f"{advice.total / 2315:.3f} a secret" in out


@pytest.mark.parametrize("name", ["mastermind", "wordle", "bulls-and-cows"])
def test_on_the_book_s_path_its_total_is_the_exact_search_s(name):
    """Where the search solves the position, the installed book's move and the total counted
    from its subtree agree with the exact optimum computed without it."""
    game = Game.preset(name)
    book = json.loads(_library(presets.name_for(game)))
    rng, checked = random.Random(name), 0
    for _ in range(400):
        node, moves = book["tree"], []
        while node["next"] and len(moves) < rng.randrange(1, 4):
            answer = rng.choice(sorted(node["next"]))
            moves.append((node["guess"], answer))
            node = node["next"][answer]
        on = advise(game, moves)
        assert on.source in ("book", "only") and on.guess == node["guess"]
        if not 1 < len(on.candidates) <= min(exact_from(game), 60):
            continue
        off = advise(game, moves, installed=False)
        assert off.source == "optimal" and on.total == off.total, moves
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_leaving_the_book_falls_back_to_the_search():
    advice = advise("mastermind", "1122=1A0B")  # never on the book's path: no word of it
    assert advice.source == "optimal" and advice.book is None
    assert "book" not in advice.note
    left = advise("mastermind", "1123=0A0B,4444=1A0B")  # on it, then off it
    assert left.book is None and "left the installed optimal book's path" in left.note
    assert advise("mastermind", strategy="minimax").guess == "1122"  # a strategy asked: no book


def test_no_book_computes_every_move(run):
    assert "next guess: 1123  (the move of the proven optimal book" in run(
        "next", "--game", "mastermind").output
    out = run("next", "--game", "mastermind", "--no-book").output
    assert "proven optimal book" not in out and "the best heuristic for mastermind" in out
    both = run("next", "--book", str(BOOKS / "mastermind-optimal-all.json"), "--no-book")
    assert both.exit_code != 0 and "give one of them" in both.output


def test_a_tighter_limit_than_the_book_s_is_computed():
    """Mastermind's optimal book needs six guesses: within five it is not the optimum."""
    assert advise("mastermind", "1123=1A0B", max_depth=6).source == "book"
    assert advise("mastermind", "1123=1A0B", max_depth=5).source != "book"


def test_the_exact_optimum_reads_per_secret(run):
    out = run("next", "--game", "mastermind", "--after", "1122=1A0B").output
    advice = advise("mastermind", "1122=1A0B")
    assert f"{advice.total} guesses in all for the 256 secrets, {advice.total / 256:.3f} a secret" in out


def test_next_json_names_the_lists_by_their_digest(run):
    text = run("next", "--game", "wordle", "--json").output
    data = json.loads(text)
    assert data["game"] == Game.preset("wordle").identity() and "answers" not in data["game"]
    assert data["guess"] == "salet" and data["book"] == "wordle-optimal-all"
    assert len(data["candidates"]) == 2315 and len(text) < 60_000


def test_play_from_the_installed_book(run):
    out = run("play", "--game", "mastermind", "--secret", "3456").output
    ours = run("play", str(BOOKS / "mastermind-optimal-all.json"), "--secret", "3456").output
    assert "solved in" in out and out.splitlines()[1:] == ours.splitlines()[1:]
    data = json.loads(run("play", "--game", "wordle", "--hard", "--secret", "cigar", "--json").output)
    assert data["book"] == "wordle-hard-optimal-depth6-all" and data["moves"][-1]["guess"] == "cigar"
    assert all(score(m["guess"], "cigar", "wordle") == m["feedback"] for m in data["moves"])
    for args, words in ((["--secret", "3456"], "give a BOOK"),
                        ([str(BOOKS / "mastermind-optimal-all.json"), "--game", "mastermind"],
                         "not both"),
                        (["--symbols", "123", "--length", "2"], "no book of")):
        result = run("play", *args)
        assert result.exit_code != 0 and words in result.output


def test_load_preset():
    assert "load_preset" in treegen.__all__
    book = treegen.load_preset("mastermind")
    assert book == treegen.load(BOOKS / "mastermind-optimal-all.json")
    assert treegen.load_preset("wordle", hard="hints").game.hard == "hints"
    with pytest.raises(GameError, match="no book of"):
        treegen.load_preset(Game("123", 2, True))
    with pytest.raises(GameError, match="hard must be"):
        treegen.load_preset("mastermind", hard="x")


def test_installed_books_and_their_certificates_written_out(run):
    out = run("books", "installed").output
    assert "wordle: wordle-optimal-all, first salet, total 7920" in out
    run("books", "installed", "--to", "proven")
    assert Path("proven/mastermind-optimal-all.json").read_bytes() == _library("mastermind-optimal-all")
    result = run("verify", "proven/mastermind-optimal-all.json", "--certificate",
                 "proven/mastermind-optimal-all.cert")
    assert result.exit_code == 0 and "optimal" in result.output


def test_an_installed_treegen_reads_them_from_another_folder(tmp_path):
    """A process started elsewhere, with no books/ folder, finds them by the package alone."""
    import subprocess
    code = ("import treegen; from treegen.sessions.advice import advise; "
            "print(treegen.load_preset('mastermind').stats['total'], advise('wordle').guess)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["5625", "salet"]
