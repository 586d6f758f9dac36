"""Pictures of a book's top read node by node: the very DOT text of the book read whole, from any
start and depth, in memory that does not grow with the book."""

from __future__ import annotations

import pathlib

import pytest

from treegen import book as books
from treegen.api import build_book, build_file
from treegen.book import reader
from treegen.book.format import section_lines
from treegen.errors import PathError
from treegen.rules.game import Game
from treegen.views import top
from treegen.views.dot import dot_source, fitting_depth
from treegen.views.top import Unread, top_of
from treegen.views.tree import Size, describe_path, locate, parse_path

WORDS = ["abcde", "abced", "badce", "cabed", "edcba", "deabc", "caebd", "bdeca", "aebdc", "ecdab"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("top")
    made = {}
    for name, game, strategy in [("mastermind", "mastermind", "minimax"),
                                 ("bulls", "bulls-and-cows", "entropy"),
                                 ("words", Game.of_words(WORDS[:7], WORDS), "parts")]:
        made[name] = pathlib.Path(build_file(folder / f"{name}.json", game, strategy)[0])
    return made


def starts(book, most=6):
    """The root, each answer to the first guess and a few paths two and three deep."""
    tree, found = book["tree"], [""]
    for key, child in list(tree["next"].items())[:most]:
        found.append(describe_path(tree, [key]))
        for deeper, grand in list(child["next"].items())[:1]:
            found.append(describe_path(tree, [key, deeper]))
            for last in list(grand["next"])[:1]:
                found.append(describe_path(tree, [key, deeper, last]))
    return found


@pytest.mark.parametrize("name", ["mastermind", "bulls", "words"])
def test_the_top_read_from_the_file_draws_the_picture_of_the_whole_book(written, name):
    whole = books.load(written[name])
    for start in starts(whole):
        path = locate(whole, parse_path(start, whole["game"])) if start else ()
        for depth in (1, 2, 3):
            data, top_path, sizes = top_of(written[name], start or None, depth)
            assert top_path == path
            assert dot_source(data, depth, path, sizes=sizes) == dot_source(whole, depth, path)
        data, _, sizes = top_of(written[name], start or None, 3)
        assert fitting_depth(data, path, sizes=sizes) == fitting_depth(whole, path)


def test_the_levels_not_kept_are_never_walked(written):
    data, _, _ = top_of(written["mastermind"], None, 2)
    below = [child for child in data["tree"]["next"].values() if child["next"]]
    assert below and all(isinstance(child["next"], Unread) for child in below)
    with pytest.raises(Exception, match="below the levels read"):
        list(below[0]["next"])


def test_a_start_the_book_does_not_have_is_refused_as_on_the_whole_book(written):
    whole = books.load(written["mastermind"])
    for start in ["1122=4A0B", "1122=0A0B,1111=0A0B", "1122=0A0B,3345=4A0B", "1122=1A3B"]:
        with pytest.raises(PathError) as on_whole:
            locate(whole, parse_path(start, whole["game"]))
        with pytest.raises(PathError) as on_top:
            top_of(written["mastermind"], start, 2)
        assert str(on_top.value) == str(on_whole.value)


def test_the_top_of_a_book_takes_memory_for_the_levels_drawn(tmp_path, monkeypatch, traced_peak):
    monkeypatch.setattr(reader, "CHUNK", 1 << 14)
    path, _ = build_file(tmp_path / "bulls.json", "bulls-and-cows", "minimax")
    whole = traced_peak(lambda: books.load(path))
    top = traced_peak(lambda: top_of(path, None, 2))
    assert top * 10 < whole


def test_render_draws_a_book_from_its_top_without_reading_it_whole(run, written, monkeypatch):
    expected = dot_source(books.load(written["bulls"]), 2)

    def refused(*args, **kwargs):
        raise AssertionError("the book was read whole")
    monkeypatch.setattr("treegen.book.reader.read_book", refused)
    monkeypatch.setattr("treegen.book.format.read_book", refused)
    out = run("render", written["bulls"], "--format", "dot", "-o", "top.dot", "--depth", "2")
    assert out.exit_code == 0, out.output
    assert pathlib.Path("top.dot").read_text(encoding="utf-8") == expected


def test_a_deep_chain_is_drawn_without_copying_its_path_at_every_node(tmp_path, monkeypatch):
    """A chain of 20,000 levels: each node is checked against the answers above it where they
    are; copying them at every node made the pictures of deep books quadratic."""
    data = build_book(Game("ABC", 2, True), "minimax")
    head, tail = section_lines(data)
    levels = 20_000
    tree = '{"guess":"AA","next":{"0A0B":' * levels + '{"guess":"BB","next":{}}' + "}}" * levels
    (tmp_path / "chain.json").write_text(head + tree + tail, encoding="utf-8")
    copied = []

    class Path(list):
        def __getitem__(self, index):
            if isinstance(index, slice):
                copied.append(len(range(*index.indices(len(self)))))
            return super().__getitem__(index)

    class Counted(top._Top):
        def __init__(self, *args):
            super().__init__(*args)
            self.moves = Path()
    monkeypatch.setattr(top, "_Top", Counted)
    book, sizes = top.read_top(tmp_path / "chain.json", (), 3)
    # the root and the leaf are secrets; no AA below the root gives 0A0B to the AA above it
    assert sizes[id(book["tree"])] == Size(2, levels + 1, True)
    assert sum(copied) <= levels
