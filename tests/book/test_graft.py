"""Grafting a record's solved classes onto a book: the tree improves class by class, its totals
are counted again, the bounds it claims are what the records' certificates prove, and a record
of another opening or game is refused in one line."""

import copy
import json
from pathlib import Path

import pytest

from treegen import book as books
from treegen.api import build_book, solve_classes
from treegen.book.graft import graft
from treegen.book.replay import verify
from treegen.errors import GraftError, RecordError
from treegen.proofs import graft_records
from treegen.search.options import SearchOptions
from treegen.search.records import load_record, record_text

#: The bounded search the tests build with: one guess tried, sets under 100 solved exactly.
WIDTH_1 = SearchOptions(width=1, exact_below=100)


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
    every = sorted(e["feedback"] for e in record["classes"])
    assert better["strategy"]["grafted"] == {"first": "1122", "classes": every, "certified": every}
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


def test_a_bounded_book_held_to_its_first_guess_becomes_optimal_after_it(record_1122):
    bounded = build_book("mastermind", "optimal", first="1122", search=WIDTH_1)
    assert bounded["strategy"]["optimal"] is False and "lower_bound" not in bounded["strategy"]
    record = load_record(record_1122)
    grafted = graft_records(bounded, [record])
    assert grafted["stats"]["total"] == 5702
    assert grafted["strategy"]["after"] == {"first": "1122", "optimal": True, "lower_bound": 5702}
    # the game's bound: the other first guesses' two-step floors, far below 5702
    assert grafted["strategy"]["lower_bound"] < 5625 and grafted["strategy"]["optimal"] is False


@pytest.fixture(scope="module")
def every_opening(tmp_path_factory):
    """Records of Mastermind's five first guesses up to symmetry, every class solved."""
    folder = tmp_path_factory.mktemp("openings")
    for first in ("1111", "1112", "1122", "1123", "1234"):
        solve_classes("mastermind", first, folder / f"{first}.json")
    return {first: load_record(folder / f"{first}.json")
            for first in ("1111", "1112", "1122", "1123", "1234")}


def test_records_of_every_first_guess_make_the_book_prove_itself_optimal(every_opening):
    bounded = build_book("mastermind", "optimal", first="1123", search=WIDTH_1)
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
    bounded = build_book("mastermind", "optimal", first="1123", search=WIDTH_1)
    with pytest.raises(GraftError, match="give exactly one record of 1123"):
        graft_records(bounded, [every_opening["1122"]])
    with pytest.raises(GraftError, match="give exactly one record of 1123"):
        graft_records(bounded, [every_opening["1123"], every_opening["1123"]])
    other = dict(every_opening["1234"], game={**every_opening["1234"]["game"], "name": "custom"})
    with pytest.raises(GraftError, match="another game than the book"):
        graft_records(bounded, [every_opening["1123"], other])


def test_a_record_of_another_opening_or_game_is_refused(record_1122):
    record = load_record(record_1122)
    with pytest.raises(GraftError, match="opens with 1123"):
        graft(build_book("mastermind", "optimal"), record)
    other = build_book("mastermind", "optimal", first="1122", search=SearchOptions(max_depth=5))
    with pytest.raises(GraftError, match="depth limit"):
        graft(other, record)


def test_the_command_writes_the_grafted_book_and_never_over_its_inputs(run, tmp_path, record_1122):
    books.save(build_book("mastermind", "minimax"), tmp_path / "knuth.json")
    result = run("graft", tmp_path / "knuth.json", record_1122, "-o", tmp_path / "best.json")
    assert result.exit_code == 0, result.output
    assert "total 5702" in result.output and \
        "12 classes of 1122 solved exactly and grafted in, 12 certified" in result.output
    before = (tmp_path / "knuth.json").read_bytes()
    refused = run("graft", tmp_path / "knuth.json", record_1122, "-o", record_1122)
    assert refused.exit_code == 1 and "never writes over a file it reads" in refused.output
    refused = run("graft", tmp_path / "knuth.json", record_1122, "-o", tmp_path / "knuth.json")
    assert refused.exit_code == 1 and "never writes over a file it reads" in refused.output
    assert (tmp_path / "knuth.json").read_bytes() == before


def test_the_command_takes_the_records_of_other_first_guesses(run, tmp_path, every_opening):
    books.save(build_book("mastermind", "optimal", first="1123", search=WIDTH_1),
               tmp_path / "bounded.json")
    paths = [Path(record["folder"]) / f"{first}.json" for first, record in every_opening.items()]
    result = run("graft", tmp_path / "bounded.json", *paths, "-o", tmp_path / "best.json")
    assert result.exit_code == 0, result.output
    assert "lower bound 5625 (the book's word): optimal" in result.output
    wrong = run("graft", tmp_path / "bounded.json", paths[0], "-o", tmp_path / "other.json")
    assert wrong.exit_code == 1 and "give exactly one record of 1123" in wrong.output
    assert not (tmp_path / "other.json").exists()


# -- what an edited record, or a bound held to a first guess, can no longer claim --------------------

def test_a_forced_first_guess_bounds_its_opening_not_the_game(every_opening, tmp_path):
    """The audit's first repro: a search held to 1122 proves the optimum after 1122 (5702), which
    says nothing of the game (5625, after 1123): grafting every opening's record says so."""
    held = build_book("mastermind", "optimal", first="1122", search=SearchOptions(width=3, exact_below=300))
    strategy = held["strategy"]
    assert strategy["optimal"] is False and "lower_bound" not in strategy
    assert strategy["after"] == {"first": "1122", "optimal": True, "lower_bound": 5702}
    assert "optimal after 1122 (the book's word): 5702" in books.summary(held)
    assert "lower bound" not in books.summary(held).replace("lower bound after", "")
    grafted = graft_records(held, list(every_opening.values()))
    assert grafted["strategy"]["lower_bound"] == 5625 and grafted["strategy"]["optimal"] is False
    assert "lower bound 5625 (the book's word): at most 77 above the optimum" in books.summary(grafted)
    loose = build_book("mastermind", "optimal", first="1122", search=SearchOptions(width=1, exact_below=2))
    assert "lower bound after 1122 (the book's word): 5694, at most 45 above the optimum after 1122" in \
        books.summary(loose)
    grafted = graft_records(loose, list(every_opening.values()))
    assert grafted["strategy"]["lower_bound"] == 5625 and grafted["stats"]["total"] == 5702


def test_a_book_s_own_claims_never_raise_what_its_graft_proves(every_opening):
    """The third audit: a book edited to say "optimal" (its lower bound too) does not make its
    graft proven optimal: a graft claims what the records' certificates prove, and nothing the
    book only says."""
    held = build_book("mastermind", "optimal", first="1122", search=SearchOptions(width=3, exact_below=300))
    forged = copy.deepcopy(held)
    forged["strategy"].update(optimal=True, lower_bound=5702)
    grafted = graft_records(forged, list(every_opening.values()))
    assert grafted["strategy"]["lower_bound"] == 5625 and grafted["strategy"]["optimal"] is False
    assert "(the book's word): optimal" not in books.summary(grafted)
    alone = graft_records(forged, [every_opening["1122"]])  # the other openings: their floors
    assert alone["strategy"]["lower_bound"] < 5625 and alone["strategy"]["optimal"] is False


def test_each_claim_of_a_grafted_book_needs_its_own_certificate(every_opening, tmp_path):
    """A graft of a book held to 1122 claims 5625 for the game (the records' certificate) and
    5702 after 1122 (the held search's certificate): each certificate proves one, both pass."""
    from treegen.proofs import book_claims, certify, check_certificate, compose, judge
    held = build_book("mastermind", "optimal", first="1122", search=SearchOptions(width=3, exact_below=300))
    records = list(every_opening.values())
    grafted = graft_records(held, records)
    assert book_claims(grafted) == [(5625, None), (5702, "1122")]
    game_path = Path(every_opening["1122"]["folder"]) / "game.cert"
    assert compose(held, records, game_path)[0] == 5625
    certify(held, tmp_path / "after.cert")
    game, after = check_certificate(str(game_path)), check_certificate(str(tmp_path / "after.cert"))
    assert judge(grafted, [game])[1] == [
        "the book claims 5702 for the trees opening with 1122; the certificate proves 5625"]
    assert judge(grafted, [after])[1] == [
        "the book claims 5625 for the game; no certificate given proves it"]
    lines, problems = judge(grafted, [game, after])
    assert problems == [] and len(lines) == 2 and "optimal after 1122" in lines[1]


def test_an_edited_record_proves_nothing_it_cannot_certify(tmp_path):
    """The audit's second repro: a class turned into a hand-written bound no longer counts, so the
    records of every opening cannot make a book held to 1122 (5702) optimal; a certificate of
    another class named for a class is refused."""
    paths = {}
    for first in ("1111", "1112", "1122", "1123", "1234"):
        paths[first] = tmp_path / f"{first}.json"
        solve_classes("mastermind", first, paths[first])
    text = json.loads(paths["1123"].read_text())
    largest = max(text["classes"], key=lambda e: e["secrets"])
    for key in ("cost", "tree", "certificate"):
        largest.pop(key)
    largest.update(at_least=10_000, seconds=0)  # by hand: it would rule 1123 out
    paths["1123"].write_text(record_text(text))
    edited = load_record(paths["1123"])
    assert edited["certified"] == len(edited["classes"]) - 1 and edited["total"] is None
    assert edited["lower_bound"] == 5625 - 975 + largest["floor"]  # its floor, not 10,000
    held = build_book("mastermind", "optimal", first="1122")
    grafted = graft_records(held, [load_record(p) for p in paths.values()])
    assert grafted["stats"]["total"] == 5702 and grafted["strategy"]["optimal"] is False
    assert grafted["strategy"]["lower_bound"] < 5625
    text = json.loads(paths["1234"].read_text())
    one, other = text["classes"][-1], text["classes"][-2]
    one["certificate"] = other["certificate"]  # a real certificate, of another class
    paths["1234"].write_text(record_text(text))
    with pytest.raises(RecordError, match="certificate proves another claim"):
        load_record(paths["1234"])


def test_a_certificate_checked_where_it_was_written_is_named_so(record_1122, tmp_path, monkeypatch):
    """A class's certificate the caller names as checked elsewhere (a long one, as the library's
    manifest lists) counts without a check here, and says so; but only as that very file: one
    that differs from the record's digest is checked, and a damaged one refused."""
    import shutil

    from treegen.files import checked
    folder = tmp_path / "copy"
    shutil.copytree(record_1122.parent, folder)
    path = folder / record_1122.name
    entry = max(json.loads(path.read_text())["classes"], key=lambda e: e["secrets"])
    named = {entry["certificate"]["sha256"]: entry["cost"]}
    seen = []
    original = checked.check_certificate
    monkeypatch.setattr(checked, "check_certificate",
                        lambda where, *a, **k: seen.append(str(where)) or original(where, *a, **k))
    record = load_record(path, elsewhere=named)
    got = next(e for e in record["classes"] if e["feedback"] == entry["feedback"])
    assert got["certified"] and got["checked_here"] is False
    assert seen and not any(s.endswith(entry["certificate"]["file"]) for s in seen)
    assert all(e["checked_here"] for e in record["classes"] if e is not got and "certificate" in e)
    cert = folder / entry["certificate"]["file"]
    cert.write_bytes(cert.read_bytes()[:-9])  # damaged: no longer the file the record names
    with pytest.raises(RecordError, match=entry["feedback"]):
        load_record(path, elsewhere=named)


def test_a_record_of_another_rule_is_not_counted_for_the_game(every_opening, tmp_path):
    """The audit's third repro: a hard-mode record of 1123 is not one of Mastermind's."""
    from treegen.errors import TreegenError
    path = tmp_path / "hard1123.json"
    from dataclasses import replace

    from treegen.api import solve_classes as solve
    from treegen.rules.game import Game
    solve(replace(Game.preset("mastermind"), hard="strict"), "1123", path)
    bounded = build_book("mastermind", "optimal", first="1123", search=WIDTH_1)
    with pytest.raises(TreegenError, match="another game"):
        graft_records(bounded, [every_opening["1123"], load_record(path)])
