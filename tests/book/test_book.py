import copy
import json
import os
from importlib import resources

import jsonschema
import pytest

from treegen import book as books
from treegen.api import build_book
from treegen.errors import BookError, WriteError
from treegen.rules.game import Game


@pytest.fixture(scope="module")
def schema():
    return json.loads(resources.files("treegen.book").joinpath("schema.json").read_text())


@pytest.mark.parametrize("game, strategy", [
    ("mastermind", "minimax"), ("mastermind", "random"), (Game("ABCD", 3, True), "entropy"),
    (Game("ABCD", 3, True, rule="black"), "parts"),
    (Game.of_words(["cigar", "rebut", "sissy"], ["cigar", "rebut", "sissy", "salet"]), "optimal")])
def test_books_validate_against_the_shipped_schema(schema, game, strategy):
    book = json.loads(books.dumps(build_book(game, strategy)))
    jsonschema.validate(book, schema)


def test_schema_rejects_a_node_with_extra_keys(schema, mastermind_minimax):
    broken = copy.deepcopy(mastermind_minimax)
    broken["tree"]["next"]["0A0B"]["comment"] = "x"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    assert "exactly" in books.check(broken)


def test_the_solved_feedback_never_appears_as_a_key(mastermind_minimax):
    stack = [mastermind_minimax["tree"]]
    while stack:
        node = stack.pop()
        assert "4A0B" not in node["next"]
        stack.extend(node["next"].values())


def test_save_and_load_round_trip(tmp_path, mastermind_minimax):
    path = tmp_path / "b.json"
    books.save(mastermind_minimax, path)
    assert books.load(path) == mastermind_minimax
    text = path.read_text()
    assert text == books.dumps(mastermind_minimax)
    assert list(json.loads(text)) == ["format", "version", "game", "strategy", "stats", "tree"]


def test_save_is_atomic_and_leaves_no_temporary_files(tmp_path, mastermind_minimax, monkeypatch):
    path = tmp_path / "b.json"
    path.write_text("previous")

    def failing_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(WriteError, match=r"cannot write .*No space left"):
        books.save(mastermind_minimax, path)
    assert path.read_text() == "previous"
    assert os.listdir(tmp_path) == ["b.json"]


def good_book():
    return build_book(Game("ABC", 2, True), "minimax")


def mutate(change):
    data = good_book()
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize("text, message", [
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "not a treegen book"),
    ('{"format": "other"}', "not a treegen book"),
    (mutate(lambda b: b.update(version=2)), "version 2 is newer than this treegen reads"),
    (mutate(lambda b: b.update(version="1")), "unsupported book format version '1'"),
    (mutate(lambda b: b.pop("stats")), "missing section 'stats'"),
    (mutate(lambda b: b["game"].update(length=0)), "game: length must be between 1 and 20"),
    (mutate(lambda b: b["strategy"].update(pool="any")), "strategy.pool"),
    (mutate(lambda b: b["stats"].update(total=-1)), "stats.total"),
    (mutate(lambda b: b["tree"].update(guess="ZZ")), "tree root: guess 'ZZ' is not a code"),
    (mutate(lambda b: b["tree"]["next"].update({"9A9B": {"guess": "AA", "next": {}}})),
     "'9A9B' is not a possible"),
    (mutate(lambda b: b["tree"]["next"].update({"x": {"guess": "AA", "next": {}}})), "'x' is not a feedback"),
    (mutate(lambda b: b["tree"]["next"].update({"0A1B": []})), "after AA=0A1B: a node must be an object"),
    ("[" * 100000 + "]" * 100000, "book"),
])
def test_corrupt_or_foreign_books_give_one_line_errors(tmp_path, text, message):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(BookError, match=message) as info:
        books.load(path)
    assert "\n" not in str(info.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(BookError, match=r"cannot read .*missing\.json"):
        books.load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BookError, match="not UTF-8"):
        books.load(tmp_path / "bin.json")


def test_default_file_names():
    book = build_book("mastermind", "random", seed=4)
    assert books.file_name(book) == "mastermind-random-seed4-consistent.json"
    book = build_book(Game("ABC", 2, False), "minimax", first="BA")
    assert books.file_name(book, forced_first=True) == "custom-ABC-2-norep-minimax-all-firstBA.json"
