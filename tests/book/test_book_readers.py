"""Every reader of a book gives one verdict: verify, stats, play, render, export, site, next --book
and the library's loaders refuse the same books with the same line, whether the book is read node
by node (treegen's layout) or whole (any other layout)."""

from __future__ import annotations

import json

import pytest

import treegen
from treegen import book as books
from treegen.api import build_book
from treegen.book.reader import game_problem
from treegen.book.replay import verify_file
from treegen.errors import BookError, GameError, TreegenError
from treegen.rules.game import Game
from treegen.views.top import top_of

#: Every command that reads a book, with what it needs besides the book ({first}: a code of the
#: book's game).
COMMANDS = [["verify"], ["stats"], ["stats", "--json"], ["play", "--secret", "{first}"],
            ["render", "--format", "dot", "-o", "out.dot"],
            ["render", "--depth", "all", "--format", "dot", "-o", "out.dot"],
            ["export", "-o", "out.graphml"], ["site", "-o", "site"], ["next", "--book"]]
LOADERS = [books.load, books.load_sections, books.open_book, treegen.load,
           lambda path: verify_file(path), lambda path: top_of(path, None, 2)]


def one_line_error(result):
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0][len("Error: "):]


def verdicts(run, tmp_path, text: bytes, first: str) -> set[str]:
    """The lines every reader refuses the book ``text`` with, as ``b.json`` and in another layout
    (read whole) as ``b.json`` too."""
    found = set()
    for layout in ("treegen", "indented"):
        if layout == "indented":
            text = _indented(text)
        (tmp_path / "b.json").write_bytes(text)
        for command in COMMANDS:
            args = [arg.format(first=first) for arg in command]
            found.add(one_line_error(run(args[0], *args[1:], "b.json")))
        for load in LOADERS:
            with pytest.raises(TreegenError) as refused:
                load(tmp_path / "b.json")
            found.add(str(refused.value).replace(str(tmp_path / "b.json"), "b.json"))
        assert not (tmp_path / "site").exists() and not (tmp_path / "out.dot").exists()
    return found


def _indented(text: bytes) -> bytes:
    """The book in another layout: one key a line, two spaces a level, its bytes kept."""
    lines = []
    for line in text.split(b"\n"):
        lines.append(line.replace(b'":{"', b'": {\n  "').replace(b'},"', b'},\n  "'))
    return b"\n".join(lines)


def small_text() -> tuple[bytes, str]:
    data = build_book(Game("ABC", 2, True), "minimax")
    return books.dumps(data).encode("utf-8"), data["tree"]["guess"]


def test_a_byte_that_is_not_utf8_inside_the_tree_is_one_line_from_every_reader(run, tmp_path):
    text, first = small_text()
    tree = text.index(b' "tree": ')
    guess = text.index(b'"guess":"', text.index(b'"next":{', tree)) + len(b'"guess":"')
    broken = text[:guess] + b"\xff" + text[guess + 1:]
    assert verdicts(run, tmp_path, broken, first) == {
        "b.json is not a treegen book: it is not UTF-8 text"}


def test_a_branch_given_twice_is_refused_by_every_reader(run, tmp_path):
    """JSON keeps the last of two members of one name; a reader that took the first would play
    another tree: no reader takes either."""
    text, first = small_text()
    data = json.loads(text)
    key = next(iter(data["tree"]["next"]))
    at = text.index(b'"next":{"' + key.encode() + b'":')
    twice = (text[:at] + b'"next":{"' + key.encode() + b'":{"guess":"AA","next":{}},' +
             text[at + len(b'"next":{'):])
    with pytest.raises(ValueError):
        json.loads(twice, object_pairs_hook=_unique)
    assert verdicts(run, tmp_path, twice, first) == {
        f"b.json is not a treegen book: duplicate branch {key!r}"}


def _unique(pairs):
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("twice")
    return dict(pairs)


def test_a_key_given_twice_in_the_sections_is_refused(tmp_path):
    text, _ = small_text()
    twice = text.replace(b'"pool": ', b'"pool": "all", "pool": ', 1)
    (tmp_path / "b.json").write_bytes(twice)
    for load in LOADERS:
        with pytest.raises(TreegenError, match="is not a treegen book: duplicate key 'pool'"):
            load(tmp_path / "b.json")


def huge_game_text() -> bytes:
    """400 bytes naming a game of 10^12 codes: no reader may enumerate them, nor write a page
    that does."""
    game = {"name": "custom", "symbols": "0123456789", "length": 12, "repetition": True}
    data = books.make_book(game, {"name": "x", "pool": "all", "first": "0" * 12},
                           {"guess": "0" * 12, "next": {}}, [1])
    return books.dumps(data).encode("utf-8")


def test_a_game_too_large_for_memory_is_refused_by_every_reader_in_one_line(
        run, tmp_path, monkeypatch):
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", "8G")  # the same words from one call to the next
    text = huge_game_text()
    game = json.loads(text)["game"]
    with pytest.raises(GameError) as held:  # the words of every other part of treegen
        Game.from_dict(game).check_fits(tables=False)
    assert game_problem(game) == str(held.value)
    assert verdicts(run, tmp_path, text, "0" * 12) == {f"b.json: {held.value}"}
    with pytest.raises(BookError, match="1,000,000,000,000 codes"):
        books.loads(text.decode())


def test_the_size_of_a_game_is_checked_after_its_rules(run, tmp_path):
    """A game whose rules are wrong is refused for them, not for its size."""
    text = huge_game_text().replace(b'"repetition": true', b'"repetition": 1')
    (tmp_path / "b.json").write_bytes(text)
    for load in LOADERS:
        with pytest.raises(TreegenError, match="repetition must be true or false"):
            load(tmp_path / "b.json")
