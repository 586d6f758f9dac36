"""Grafting a record's proven classes onto a book: the tree improves class by class, its totals
are counted again, and a record of another opening or game is refused in one line."""

import json

import pytest

from treegen import book as books
from treegen.api import build_book, solve_classes
from treegen.book.graft import GraftError, graft, graft_records
from treegen.book.replay import verify
from treegen.search.records import load_record, record_text


@pytest.fixture(scope="module")
def record_1122(tmp_path_factory):
    path = tmp_path_factory.mktemp("graft") / "r.json"
    solve_classes("mastermind", "1122", path)
    return path


def test_every_proven_class_is_swapped_in(record_1122):
    knuth = build_book("mastermind", "minimax")  # opens with 1122: 5801
    record = load_record(record_1122)
    better = graft(knuth, record)
    assert verify(better) == []
    assert better["stats"]["total"] == record["total"] == 5702
    assert better["strategy"]["grafted"] == {
        "first": "1122", "classes": sorted(e["feedback"] for e in record["classes"])}
    assert better["strategy"]["name"] == "minimax" and "optimal" not in better["strategy"]
    for entry in record["classes"]:
        assert better["tree"]["next"][entry["feedback"]] == entry["tree"]
    assert books.dumps(graft(knuth, record)) == books.dumps(better)  # a pure function


def test_a_partial_record_improves_only_its_classes(record_1122, tmp_path):
    knuth = build_book("mastermind", "minimax")
    text = json.loads(record_1122.read_text())
    largest = max(text["classes"], key=lambda e: e["secrets"])
    for key in ("cost", "tree", "seconds"):
        del largest[key]
    (tmp_path / "partial.json").write_text(record_text(text))
    partial = graft(knuth, load_record(tmp_path / "partial.json"))
    assert verify(partial) == []
    assert 5702 < partial["stats"]["total"] < 5801
    assert partial["tree"]["next"][largest["feedback"]] == knuth["tree"]["next"][largest["feedback"]]
    assert largest["feedback"] not in partial["strategy"]["grafted"]["classes"]


def test_a_bounded_book_becomes_optimal_when_its_bound_is_reached(record_1122):
    bounded = build_book("mastermind", "optimal", first="1122", width=1, exact_below=100)
    record = load_record(record_1122)
    grafted = graft(bounded, record)
    assert grafted["stats"]["total"] == 5702
    lower = grafted["strategy"]["lower_bound"]
    assert grafted["strategy"]["optimal"] is (lower == 5702)


@pytest.fixture(scope="module")
def every_opening(tmp_path_factory):
    """Records of Mastermind's five first guesses up to symmetry, every class solved."""
    folder = tmp_path_factory.mktemp("openings")
    for first in ("1111", "1112", "1122", "1123", "1234"):
        solve_classes("mastermind", first, folder / f"{first}.json")
    return {first: load_record(folder / f"{first}.json")
            for first in ("1111", "1112", "1122", "1123", "1234")}


def test_records_of_every_first_guess_make_the_book_prove_itself_optimal(every_opening):
    bounded = build_book("mastermind", "optimal", first="1123", width=1, exact_below=100)
    alone = graft_records(bounded, [every_opening["1123"]])
    assert alone["stats"]["total"] == 5625 and verify(alone) == []
    # the other first guesses count only their two-step floors: below the optimum, not a proof
    assert alone["strategy"]["lower_bound"] < 5625 and alone["strategy"]["optimal"] is False
    proven = graft_records(bounded, list(every_opening.values()))
    assert proven["strategy"]["lower_bound"] == 5625 and proven["strategy"]["optimal"] is True
    assert verify(proven) == [] and proven["tree"] == alone["tree"]
    # the bound is the least over first guesses: without 1122's record, its floor decides
    without = graft_records(bounded, [r for first, r in every_opening.items() if first != "1122"])
    assert without["strategy"]["lower_bound"] < 5625


def test_records_that_do_not_fit_the_book_are_refused(every_opening, record_1122):
    bounded = build_book("mastermind", "optimal", first="1123", width=1, exact_below=100)
    with pytest.raises(GraftError, match="give exactly one record of 1123"):
        graft_records(bounded, [every_opening["1122"]])
    with pytest.raises(GraftError, match="give exactly one record of 1123"):
        graft_records(bounded, [every_opening["1123"], every_opening["1123"]])
    other = dict(every_opening["1234"], game={**every_opening["1234"]["game"], "name": "custom"})
    with pytest.raises(GraftError, match="not of the book's game"):
        graft_records(bounded, [every_opening["1123"], other])


def test_a_record_of_another_opening_or_game_is_refused(record_1122):
    record = load_record(record_1122)
    with pytest.raises(GraftError, match="opens with 1123"):
        graft(build_book("mastermind", "optimal"), record)
    other = build_book("mastermind", "optimal", first="1122", max_depth=5)
    with pytest.raises(GraftError, match="depth limit"):
        graft(other, record)


def test_the_command_writes_the_grafted_book_and_never_over_its_inputs(run, tmp_path, record_1122):
    books.save(build_book("mastermind", "minimax"), tmp_path / "knuth.json")
    result = run("graft", tmp_path / "knuth.json", record_1122, "-o", tmp_path / "best.json")
    assert result.exit_code == 0, result.output
    assert "total 5702" in result.output and "12 classes of 1122 proven optimal and grafted in" \
        in result.output
    before = (tmp_path / "knuth.json").read_bytes()
    refused = run("graft", tmp_path / "knuth.json", record_1122, "-o", record_1122)
    assert refused.exit_code == 1 and "never writes over a file it reads" in refused.output
    refused = run("graft", tmp_path / "knuth.json", record_1122, "-o", tmp_path / "knuth.json")
    assert refused.exit_code == 1 and "never writes over a file it reads" in refused.output
    assert (tmp_path / "knuth.json").read_bytes() == before


def test_the_command_takes_the_records_of_other_first_guesses(run, tmp_path, every_opening):
    books.save(build_book("mastermind", "optimal", first="1123", width=1, exact_below=100),
               tmp_path / "bounded.json")
    paths = []
    for first, record in every_opening.items():
        paths.append(tmp_path / f"{first}.json")
        paths[-1].write_text(record_text(record))
    result = run("graft", tmp_path / "bounded.json", *paths, "-o", tmp_path / "best.json")
    assert result.exit_code == 0, result.output
    assert "lower bound 5625, proven optimal" in result.output
    wrong = run("graft", tmp_path / "bounded.json", paths[0], "-o", tmp_path / "other.json")
    assert wrong.exit_code == 1 and "give exactly one record of 1123" in wrong.output
    assert not (tmp_path / "other.json").exists()
