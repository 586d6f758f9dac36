"""Books written as they are built and read node by node: the bytes of a book held whole, the same
verdicts and messages, in memory that grows with the tree's height rather than its size."""

from __future__ import annotations

import json
import pathlib

import pytest

from treegen import book as books
from treegen.api import build_book, build_file
from treegen.book import reader
from treegen.book.format import check_sections, section_lines
from treegen.book.replay import verify, verify_file
from treegen.errors import BookError, StrategyError
from treegen.player import NoSuchBranch, PlayerError, feedback_keys
from treegen.rules.game import Game
from treegen.search.options import SearchOptions
from treegen.sessions.play import autoplay, make_player

LIBRARY = pathlib.Path(__file__).resolve().parents[2] / "books"
WORDS = ["abcde", "abced", "badce", "cabed", "edcba", "deabc", "caebd", "bdeca", "aebdc", "ecdab"]


def first_guess(state):
    return state.candidates[0]


@pytest.mark.parametrize("game, strategy, first", [
    ("mastermind", "minimax", None),
    ("mastermind", "entropy", "1123"),
    ("bulls-and-cows", "parts", None),
    (Game("ABCDE", 3, False), "expected", None),
    (Game.of_words(WORDS[:6], WORDS), "minimax", None),
    (Game.of_words(WORDS, rule="wordle"), "entropy", None),
    ("mastermind", first_guess, None),
    (Game("ABCDE", 4, True, hard=True), "minimax", None),
])
def test_a_book_written_as_it_is_built_has_the_bytes_of_the_book_saved_whole(
        tmp_path, game, strategy, first):
    whole = build_book(game, strategy, first=first)
    path, head = build_file(tmp_path / "book.json", game, strategy, first=first)
    assert path == tmp_path / "book.json"
    assert (tmp_path / "book.json").read_text(encoding="utf-8") == books.dumps(whole)
    assert head["stats"] == whole["stats"] and head["strategy"] == whole["strategy"]
    assert head["tree"] == {"guess": whole["tree"]["guess"], "next": {}}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.json"]  # nothing left beside it
    assert verify_file(path)[1] == [] and books.load_sections(path)["stats"] == whole["stats"]


def test_the_optimal_search_writes_its_book_as_built_too(tmp_path):
    game = Game("ABCD", 3, True)
    whole = build_book(game, "optimal", search=SearchOptions(jobs=1))
    path, _ = build_file(None, game, "optimal", search=SearchOptions(jobs=1))
    assert path == books.file_name(whole)
    assert pathlib.Path(path).read_text(encoding="utf-8") == books.dumps(whole)
    pathlib.Path(path).unlink()


def test_a_build_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "book.json"
    target.write_text("the old book")
    calls = []

    def broken(state):
        calls.append(1)
        if len(calls) > 20:
            raise RuntimeError("the strategy broke")
        return state.candidates[0]
    with pytest.raises(StrategyError, match="the strategy broke"):
        build_file(target, "mastermind", broken)
    assert target.read_text() == "the old book"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.json"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    folder = tmp_path_factory.mktemp("streaming")
    path, _ = build_file(folder / "mastermind.json", "mastermind", "minimax")
    return pathlib.Path(path)


def damaged(path: pathlib.Path, folder: pathlib.Path, change) -> pathlib.Path:
    book = json.loads(path.read_text(encoding="utf-8"))
    change(book)
    out = folder / "damaged.json"
    out.write_text(books.dumps(book), encoding="utf-8")
    return out


def leaf(book):
    return book["tree"]["next"]["0A0B"]["next"]["0A0B"]


CHANGES = {
    "missing branch": lambda b: b["tree"]["next"].pop("0A0B"),
    "stranded secret": lambda b: leaf(b).update(guess="5555"),
    "dead branch": lambda b: leaf(b)["next"].update({"0A0B": {"guess": "1111", "next": {}}}),
    "first guess": lambda b: b["strategy"].update(first="1234"),
    "stats": lambda b: b["stats"].update(total=5802),
    "claims": lambda b: b["strategy"].update(max_depth=4),
    "height": lambda b: b["stats"]["histogram"].update({"9": 0}),
    "not a code": lambda b: leaf(b).update(guess="1237"),
    "not an answer": lambda b: leaf(b)["next"].update({"9A0B": {"guess": "1111", "next": {}}}),
    "not a node": lambda b: leaf(b).update(extra=1),
    "not the game's": lambda b: b["game"].update(length=0),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_book_read_node_by_node_gets_the_verdict_of_the_book_read_whole(
        written, tmp_path, change):
    path = damaged(written, tmp_path, CHANGES[change])
    try:
        whole: list[str] | str = verify(books.load(path))
    except BookError as exc:
        whole = str(exc)
    try:
        streamed: list[str] | str = verify_file(path)[1]
    except BookError as exc:
        streamed = str(exc)
    assert streamed == whole and streamed != []
    try:
        sections: object = books.load_sections(path)["stats"]
    except BookError as exc:
        sections = str(exc)
    assert sections == (whole if isinstance(whole, str) else
                        json.loads(path.read_text(encoding="utf-8"))["stats"])


def test_hard_mode_is_checked_as_the_book_is_read(written, tmp_path):
    assert verify_file(LIBRARY / "mastermind-hard-optimal-all.json")[1] == []
    book = json.loads(written.read_text(encoding="utf-8"))
    book["game"]["hard"] = True  # Knuth's tree plays guesses that ignore what was answered
    (tmp_path / "hard.json").write_text(books.dumps(book), encoding="utf-8")
    problems = verify_file(tmp_path / "hard.json")[1]
    assert len(problems) == 1 and problems[0].startswith("hard mode: ")
    assert problems == verify(book)


def test_a_book_in_another_layout_is_read_whole_with_the_same_result(written, tmp_path):
    book = json.loads(written.read_text(encoding="utf-8"))
    head, tail = section_lines(book)
    tree = json.dumps(_reversed(book["tree"]), separators=(",", ":"))
    for name, text, sections in [("indented", json.dumps(book, indent=2), False),
                                 ("one line", json.dumps(_reversed(book)), False),
                                 ("tree keys reversed", head + tree + tail, True)]:
        (tmp_path / "other.json").write_text(text, encoding="utf-8")
        found = reader.read_sections(tmp_path / "other.json", check_sections)
        assert (found is not None) == sections, name
        assert verify_file(tmp_path / "other.json") == verify_file(written), name
        assert books.load_sections(tmp_path / "other.json") == books.load_sections(written)


def _reversed(value):
    if isinstance(value, dict):
        return {key: _reversed(value[key]) for key in reversed(list(value))}
    return value


def test_a_branch_given_twice_is_refused_as_the_book_read_whole_refuses_it(written, tmp_path):
    text = written.read_text(encoding="utf-8")
    twice = text.replace('"next":{"0A0B":', '"next":{"0A0B":{"guess":"1111","next":{}},"0A0B":', 1)
    (tmp_path / "twice.json").write_text(twice, encoding="utf-8")
    refused = []
    for read in (books.load, books.load_sections, books.open_book, verify_file):
        with pytest.raises(BookError) as exc:
            read(tmp_path / "twice.json")
        refused.append(str(exc.value))
    assert set(refused) == {f"{tmp_path / 'twice.json'} is not a treegen book: duplicate branch "
                            "'0A0B'"}


def test_reading_node_by_node_holds_the_open_nodes_not_the_tree(tmp_path, monkeypatch, traced_peak):
    monkeypatch.setattr(reader, "CHUNK", 1 << 14)
    path, _ = build_file(tmp_path / "bulls.json", "bulls-and-cows", "minimax")
    size = pathlib.Path(path).stat().st_size
    assert size > 150_000
    whole = traced_peak(lambda: books.load(path))
    streamed = traced_peak(lambda: books.load_sections(path))
    assert streamed * 2 < size and streamed * 20 < whole


def test_a_truncated_or_padded_book_is_refused_in_one_line(written, tmp_path):
    text = written.read_text(encoding="utf-8")
    for bad in [text[:len(text) // 2], text + "{}"]:
        (tmp_path / "bad.json").write_text(bad, encoding="utf-8")
        with pytest.raises(BookError, match="is not valid JSON"):
            books.load_sections(tmp_path / "bad.json")
        with pytest.raises(BookError, match="is not valid JSON"):
            verify_file(tmp_path / "bad.json")


def materialised(node):
    return {"guess": node["guess"], "next": {k: materialised(v) for k, v in node["next"].items()}}


@pytest.mark.parametrize("held", [0, 1, 5, reader.HELD])
def test_a_tree_read_from_its_file_as_played_is_the_tree(written, monkeypatch, held):
    monkeypatch.setattr(reader, "HELD", held)
    lazy = books.open_book(written)
    assert isinstance(lazy["tree"], reader.FileNode)
    assert materialised(lazy["tree"]) == books.load(written)["tree"]


def test_a_game_played_from_the_file_is_the_game_played_from_the_book(written, monkeypatch):
    monkeypatch.setattr(reader, "HELD", 3)  # most nodes read from the file
    lazy, whole = make_player(books.open_book(written)), make_player(books.load(written))
    for secret in ["1122", "6543", "3456", "5555", "2131"]:
        assert autoplay(lazy, secret) == autoplay(whole, secret)
    lazy.reset()
    lazy.answer("1A0B")
    whole.reset()
    whole.answer("1A0B")
    assert lazy.possible() == whole.possible() and len(lazy.possible()) > 100
    given = whole.book["tree"]["next"]["1A0B"]["next"]
    impossible = next(key for key in feedback_keys(whole.game)[:-1] if key not in given)
    with pytest.raises(NoSuchBranch):
        lazy.answer(impossible)


def test_a_book_that_changes_while_it_is_played_is_refused_in_one_line(tmp_path):
    path, _ = build_file(tmp_path / "book.json", "mastermind", "minimax")
    lazy = books.open_book(path)
    text = pathlib.Path(path).read_text(encoding="utf-8")
    pathlib.Path(path).write_text(text[:len(text) // 3], encoding="utf-8")
    with pytest.raises(PlayerError, match="changed while it was read"):
        materialised(lazy["tree"])


def test_the_streamed_text_quotes_every_string_as_json_does():
    """Codes and answers are quoted directly where that is what JSON writes; any other string
    (quotes, backslashes, control or non-ASCII characters) as json.dumps writes it."""
    import random

    from treegen.book.writer import _quoted
    rng = random.Random(5)
    alphabet = 'aZ09 .-_"\\/\x00\x1f\x7féπ🟩'
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))
        assert _quoted(text) == json.dumps(text, ensure_ascii=False)
    assert _quoted(None) == "null"


def _random_subtree(rng, depth=0):
    """(guess, children by answer) with distinct answers, a few levels deep."""
    guess = "".join(rng.choice('ab"\\é') for _ in range(3))
    answers = rng.sample(["0A1B", "1A0B", "2A0B", 'x"y', "π"], rng.randrange(4) if depth < 4 else 0)
    return guess, [(answer, _random_subtree(rng, depth + 1)) for answer in answers]


def test_a_subtree_handed_whole_is_written_as_node_by_node():
    """What a compiled walk hands back at once (its nodes, depth first, with their levels) is
    written as the same nodes entered and left one at a time, under any parent, by the writer
    and by the recorder a worker sends back."""
    import io
    import random

    from treegen.book.writer import TreeText
    from treegen.compiler import NodeBuilder, NodeRecorder, replay

    rng = random.Random(8)
    for _ in range(200):
        tops = [_random_subtree(rng) for _ in range(rng.randrange(1, 4))]
        flat = []
        for answer, (guess, below) in zip(["1A1B", "0A0B", "2A2B"], tops):
            nodes = ([], [], [])

            def walk(key, node, level, nodes=nodes):
                nodes[0].append(node[0])
                nodes[1].append(key)
                nodes[2].append(level)
                for child_key, child in node[1]:
                    walk(child_key, child, level + 1)

            walk(None, (guess, below), 7)  # levels as the walk gives them: not from 0
            flat.append((answer, nodes))
        whole, by_node = io.BytesIO(), io.BytesIO()
        sinks = [TreeText(whole), TreeText(by_node)]
        trees, records = [NodeBuilder(), NodeBuilder()], [NodeRecorder(), NodeRecorder()]
        for k, sink in enumerate([*sinks, *trees, *records]):
            sink.enter(None, "root")
            for answer, nodes in flat:
                if k % 2 == 0:
                    sink.subtree(answer, nodes)
                else:
                    replay(sink, answer, nodes)
            sink.leave()
        for sink in sinks:
            sink.close()
        assert whole.getvalue() == by_node.getvalue()
        assert json.loads(whole.getvalue())["next"].keys() == {a for a, _ in flat}
        assert sinks[0].nodes == sinks[1].nodes
        assert trees[0].root == trees[1].root == json.loads(whole.getvalue())
        assert records[0].nodes == records[1].nodes
