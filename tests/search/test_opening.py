"""``treegen classes``: an opening's classes solved exactly one by one, each recorded as it is
proven; the sum is the optimum after the opening, and an interrupted run continues where it stopped."""

import json
import os
import re
import subprocess
import sys

import pytest

from treegen.api import build_book, solve_classes
from treegen.errors import RecordError
from treegen.rules.game import Game
from treegen.search.first_guesses import first_guesses, game_lower_bound
from treegen.search.options import SearchOptions
from treegen.search.records import load_record, record_text

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels

#: 1680 codes: a few seconds of search, class after class.
GAME = ["--symbols", "12345678", "--length", "4", "--no-repetition", "--first", "1234", "-j", "1"]


def run(*args, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "treegen", "classes", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, **kw)


def costs(record):
    return {e["feedback"]: (e["secrets"], e.get("cost"), e.get("tree")) for e in record["classes"]}


@pytest.mark.parametrize("first", ["1122", "1234"])
def test_the_classes_add_up_to_the_optimum_after_the_opening(tmp_path, first):
    record = solve_classes(Game.preset("mastermind"), first, str(tmp_path / "r.json"))
    exact = build_book("mastermind", "optimal", first=first)["stats"]["total"]
    assert record["total"] == record["lower_bound"] == exact
    assert record["solved"] == len(record["classes"])
    assert all(e["floor"] <= e["cost"] for e in record["classes"])
    assert sum(e["secrets"] for e in record["classes"]) + 1 == 1296  # all but the secret 1122 itself
    # each class's cost proven by its certificate, beside the record, checked
    assert record["certified"] == record["solved"] and all(e["certified"] for e in record["classes"])
    assert all((tmp_path / e["certificate"]["file"]).is_file() for e in record["classes"])
    written = json.loads((tmp_path / "r.json").read_text())  # what is derived on reading is not
    assert written == json.loads(record_text(record)) and "folder" not in written
    assert not any("certified" in e for e in written["classes"])
    assert not (tmp_path / "r.json.checkpoint").exists()
    assert load_record(tmp_path / "r.json") == record  # everything in it checks out


def test_an_interrupted_run_continues_to_the_same_record(tmp_path):
    whole = run(*GAME, "-o", "whole.json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    cut = run(*GAME, "-o", "cut.json", cwd=tmp_path,
              env={**os.environ, "TREEGEN_TEST_FAULT": "class:4:TERM"})
    assert cut.returncode == 130 and "run the command again to continue" in cut.stderr, cut.stderr
    assert cut.stdout.count("cost") == 4
    partial = json.loads((tmp_path / "cut.json").read_text())
    assert partial["solved"] == 4 < len(partial["classes"])
    assert partial["total"] is None and partial["lower_bound"] <= json.loads(
        (tmp_path / "whole.json").read_text())["total"]
    again = run(*GAME, "-o", "cut.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("cost") == len(partial["classes"]) - partial["solved"]
    done = json.loads((tmp_path / "cut.json").read_text())
    assert costs(done) == costs(json.loads((tmp_path / "whole.json").read_text()))
    assert done["total"] == build_book(Game("12345678", 4, False), "optimal",
                                       first="1234")["stats"]["total"]


def test_a_file_that_is_not_a_record_of_this_opening_is_left_alone(tmp_path):
    foreign = tmp_path / "notes.json"
    foreign.write_text("my notes\n")
    out = run("-g", "mastermind", "--first", "1122", "-o", "notes.json", cwd=tmp_path)
    assert out.returncode == 1 and "is not a treegen record of classes" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and foreign.read_text() == "my notes\n"
    solve_classes(Game.preset("mastermind"), "1122", str(tmp_path / "r.json"))
    with pytest.raises(RecordError, match="records another opening"):
        solve_classes(Game.preset("mastermind"), "1234", str(tmp_path / "r.json"))


def test_a_bad_opening_is_one_line(tmp_path):
    out = run("-g", "mastermind", "--first", "1x22", cwd=tmp_path)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_books_class_costs_add_up_to_its_total():
    from treegen.search.records import class_costs
    book = build_book("mastermind", "minimax")
    assert sum(class_costs(book).values()) + 1296 == book["stats"]["total"] == 5801


def test_the_record_as_a_table_brackets_the_optimum_with_a_book(tmp_path):
    from treegen.search.records import class_costs, record_table
    record = solve_classes("mastermind", "1122", tmp_path / "r.json")
    book = build_book("mastermind", "minimax", first="1122")  # Knuth's tree: 5801
    text = record_table(record, book)
    assert "All 12 classes solved and certified: the optimum after 1122 is 5702." in text
    costs = class_costs(book)
    for e in record["classes"]:
        assert f"| {e['feedback']} | {e['secrets']} | {e['cost']} | {e['tree']['guess']} |" in text
        assert e["cost"] <= costs[e["feedback"]]
    last = record["classes"][-1]
    for key in ("cost", "tree", "seconds"):
        del last[key]
    (tmp_path / "r.json").write_text(record_text(record))
    partial = load_record(tmp_path / "r.json")
    exact = 5702 - sum(e["cost"] for e in partial["classes"] if "cost" in e) - 1296
    upper = 5702 - exact + costs[last["feedback"]]  # the book's subtree in its place
    assert partial["solved"] == 11 and partial["total"] is None
    assert partial["lower_bound"] == 5702 - exact + last["floor"]
    assert (f"11 of 12 classes solved, 11 certified: the optimum after 1122 is at least "
            f"{partial['lower_bound']} "
            f"and at most {upper}") in record_table(partial, book)


def test_a_depth_limit_that_makes_the_opening_impossible_is_one_line(tmp_path):
    for depth in ("2", "3"):
        out = run("-g", "mastermind", "--first", "1122", "--max-depth", depth, "-o", "r.json",
                  cwd=tmp_path)
        assert out.returncode == 1 and "impossible" in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """The solved record of Mastermind after 1122, as text."""
    path = tmp_path_factory.mktemp("record") / "r.json"
    solve_classes("mastermind", "1122", path)
    return path.read_text()


def _edited(text, edit):
    record = json.loads(text)
    edit(record)
    return json.dumps(record)


def _cheaper(record):
    entry = max(record["classes"], key=lambda e: e["secrets"])
    entry["cost"] -= 38  # the index once published 5664 for 5702 this way


def _cheaper_tree(record):
    """A class's tree made to stop early: it no longer solves every secret of the class."""
    entry = max(record["classes"], key=lambda e: e["secrets"])
    entry["tree"]["next"] = {}


def _other_tree(record):
    """Two classes' trees swapped: each is a real tree, of the other class."""
    a, b = record["classes"][-2:]
    a["tree"], b["tree"] = b["tree"], a["tree"]


def _claimed_total(record):
    record["total"] = record["lower_bound"] = 5000
    record["solved"] = 12
    for key in ("cost", "tree", "seconds"):
        del record["classes"][-1][key]


@pytest.mark.parametrize("edit, words", [
    (_cheaper, "its tree needs"), (_cheaper_tree, "has no branch"), (_other_tree, "its tree"),
    (lambda r: r["classes"][0].update(cost=-1), "is not a number of guesses"),
    (lambda r: r["classes"][0].update(cost=10 ** 30), "is not a number of guesses"),
    (lambda r: r["classes"][0].update(seconds=float("nan")), "not JSON"),
    (lambda r: r["classes"][0].update(secrets=2), "does not have"),
    (lambda r: r["classes"].pop(), "does not hold the 12 classes"),
    (lambda r: r.update(version=1), "another version"),
    (lambda r: r.update(first="1234"), "damaged|records another opening"),
])
def test_an_edited_record_is_refused_by_every_reader(tmp_path, solved, edit, words):
    text = _edited(solved, edit)  # json.dumps writes NaN, which no strict reader takes
    (tmp_path / "r.json").write_text(text)
    with pytest.raises(RecordError, match=words):
        load_record(tmp_path / "r.json")
    out = run("-g", "mastermind", "--first", "1122", "-o", "r.json", cwd=tmp_path)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert (tmp_path / "r.json").read_text() == text, "a refused record is left as it was"


def test_a_records_own_totals_are_never_believed(tmp_path, solved):
    (tmp_path / "r.json").write_text(_edited(solved, _claimed_total))
    record = load_record(tmp_path / "r.json")
    assert record["solved"] == 11 and record["total"] is None and record["lower_bound"] > 5000


def test_a_record_is_written_the_same_wherever_its_certificates_are(tmp_path, solved):
    (tmp_path / "r.json").write_text(solved)  # its certificates are not here
    record = load_record(tmp_path / "r.json")
    assert record["certified"] == 0 and record["total"] is None  # nothing here proves a cost
    assert record_text(record) == solved  # but the file still says what its certificates claim


def test_special_files_are_not_records(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        with pytest.raises(RecordError, match="cannot read record"):
            load_record(path)
    out = run("-g", "mastermind", "--first", "1122", "-o", "/dev/zero", cwd=tmp_path)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_class_stopped_mid_search_goes_on_from_its_checkpoint_on_another_machine(tmp_path):
    """A campaign's piece stops in the middle of a class; its checkpoint, committed beside the
    record, is taken up on a machine with another key (a fresh state folder): the class goes on
    from it, and the record and its certificates are those of an uninterrupted run. The claim
    rests on the certificate, so the checkpoint needs no signature to be used. (Workers with a
    budget to rule the opening out search each class and then prove it; otherwise each class is
    proven as it is searched, keeping facts instead of a checkpoint: see test_facts.py.)"""
    budget = ("-j", "2", "--rule-out", "99999")
    whole = run(*GAME, "-o", "whole.json", *budget, cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    often = {**os.environ, "TREEGEN_CHECKPOINT_SECONDS": "0"}
    cut = run(*GAME, "-o", "cut.json", *budget, cwd=tmp_path,
              env={**often, "TREEGEN_TEST_FAULT": "checkpoint:3:TERM"})
    assert cut.returncode == 130, cut.stderr
    assert (tmp_path / "cut.json.checkpoint").is_file()
    elsewhere = {**often, "TREEGEN_STATE": str(tmp_path / "another-machine")}
    again = run(*GAME, "-o", "cut.json", *budget, cwd=tmp_path, env=elsewhere)
    assert again.returncode == 0, again.stderr
    done = json.loads((tmp_path / "cut.json").read_text())
    assert costs(done) == costs(json.loads((tmp_path / "whole.json").read_text()))
    for entry in done["classes"]:
        name = entry["certificate"]["file"]
        assert (tmp_path / name).read_bytes() == (tmp_path / name.replace("cut", "whole")).read_bytes()
    # without certificates the search's word would rest on the checkpoint: a foreign one is refused
    cut = run(*GAME, "-o", "plain.json", "--no-certificates", cwd=tmp_path,
              env={**often, "TREEGEN_TEST_FAULT": "checkpoint:3:TERM"})
    refused = run(*GAME, "-o", "plain.json", "--no-certificates", cwd=tmp_path, env=elsewhere)
    assert refused.returncode != 0 and "signature does not match" in refused.stderr


def test_a_piece_of_a_campaign_stops_on_time_and_the_next_continues(tmp_path):
    """--for ends a run after a while (here its time is up once two classes are recorded),
    keeping what it has; run again, the record is the uninterrupted one."""
    piece = run(*GAME, "-o", "r.json", "--for", "1h", cwd=tmp_path,
                env={**os.environ, "TREEGEN_TEST_FAULT": "class:2:ALRM"})
    assert piece.returncode == 0 and "stopped after 1h" in piece.stdout, piece.stderr
    assert json.loads((tmp_path / "r.json").read_text())["solved"] == 2
    whole = run(*GAME, "-o", "whole.json", cwd=tmp_path)
    rest = run(*GAME, "-o", "r.json", cwd=tmp_path)
    assert whole.returncode == rest.returncode == 0, rest.stderr
    assert costs(json.loads((tmp_path / "r.json").read_text())) == \
        costs(json.loads((tmp_path / "whole.json").read_text()))


def test_a_stop_while_a_class_is_certified_keeps_its_cost_and_time(tmp_path):
    """A class's cost and time are recorded before its certificate is written (which can take
    longer than the search): a piece whose time is up then loses the certificate's work only, and
    the next run certifies the class without searching it again (its time stays the same)."""
    piece = run(*GAME, "-o", "r.json", "--for", "1h", cwd=tmp_path,
                env={**os.environ, "TREEGEN_TEST_FAULT": "solved:3:ALRM"})
    assert piece.returncode == 0 and "stopped after 1h" in piece.stdout, piece.stderr
    cut = json.loads((tmp_path / "r.json").read_text())
    solved = [e for e in cut["classes"] if "cost" in e]
    assert len(solved) == 3 and [("certificate" in e) for e in solved] == [True, True, False]
    assert cut["solved"] == 3 and all(e["seconds"] >= 0 for e in solved)
    rest = run(*GAME, "-o", "r.json", cwd=tmp_path)
    assert rest.returncode == 0, rest.stderr
    done = json.loads((tmp_path / "r.json").read_text())
    third = next(e for e in done["classes"] if e["feedback"] == solved[2]["feedback"])
    assert third["seconds"] == solved[2]["seconds"] and "certificate" in third
    assert done["total"] is not None and done["certified"] == len(done["classes"])
    whole = run(*GAME, "-o", "whole.json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert costs(done) == costs(json.loads((tmp_path / "whole.json").read_text()))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_certificate_written_but_not_named_is_taken_up_not_written_again(tmp_path, monkeypatch,
                                                                           jobs):
    """A class's certificate whose record does not name it (a piece stopped before naming it, or
    a record committed without it while it was checked) is taken up and checked, not proven
    again, by one job as by several; a file there that proves another claim is written over by a
    new proof."""
    from treegen.search import certify
    path = tmp_path / "r.json"
    solve_classes("mastermind", "1122", str(path))
    data = json.loads(path.read_text())
    largest = max(data["classes"], key=lambda e: e["secrets"])
    smallest = min(data["classes"], key=lambda e: e["secrets"])
    largest.pop("certificate")
    path.write_text(record_text(data))
    proven = []
    monkeypatch.setattr(certify, "prove", lambda *a, **k: proven.append(a) or b"")
    record = solve_classes("mastermind", "1122", str(path), SearchOptions(jobs=jobs))
    assert not proven and record["certified"] == len(record["classes"])
    # the file of another class's claim in its place: not taken up
    monkeypatch.undo()
    largest_file = tmp_path / next(e for e in record["classes"]
                                   if e["feedback"] == largest["feedback"])["certificate"]["file"]
    other = (tmp_path / smallest["certificate"]["file"]).read_bytes()
    largest_file.write_bytes(other)
    data = json.loads(path.read_text())
    next(e for e in data["classes"] if e["feedback"] == largest["feedback"]).pop("certificate")
    path.write_text(record_text(data))
    record = solve_classes("mastermind", "1122", str(path), SearchOptions(jobs=jobs))
    assert record["certified"] == len(record["classes"]) and largest_file.read_bytes() != other


def test_a_class_stopped_mid_search_keeps_its_time_for_the_next_piece(tmp_path, monkeypatch):
    """A stop in the middle of a class writes the time searched so far into the record; the
    piece that solves it adds its own, so a class's time is its whole search's (here on a clock
    that moves 5 s at each reading)."""
    from types import SimpleNamespace

    from treegen.search import classes
    from treegen.search.exact import Search
    readings = iter(range(0, 10 ** 6, 5))
    monkeypatch.setattr(classes, "time", SimpleNamespace(monotonic=lambda: float(next(readings))))
    real, calls = Search.best_with, []

    def stopped_at_the_third(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)
    game, path = Game.preset("mastermind"), tmp_path / "r.json"
    monkeypatch.setattr(Search, "best_with", stopped_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        solve_classes(game, "1122", str(path), certificates=False)
    third = [e for e in json.loads(path.read_text())["classes"] if "seconds" in e]
    assert [e["seconds"] for e in third] == [5.0, 5.0, 5.0] and "cost" not in third[-1]
    assert load_record(path)["classes"] == json.loads(path.read_text())["classes"]
    record = solve_classes(game, "1122", str(path), certificates=False)
    again = next(e for e in record["classes"] if e["feedback"] == third[-1]["feedback"])
    assert again["seconds"] == 10.0 and "cost" in again  # 5 s before the stop, 5 s after
    assert all(e["seconds"] == 5.0 for e in record["classes"] if e is not again)


def test_a_record_s_time_of_a_class_not_solved_is_checked_on_reading(tmp_path):
    path = tmp_path / "r.json"
    solve_classes(Game.preset("mastermind"), "1122", str(path), certificates=False)
    data = json.loads(path.read_text())
    unsolved = data["classes"][-1]
    for key in ("cost", "tree"):
        unsolved.pop(key)
    for bad in (-1, "an hour", True, 1e13):
        unsolved["seconds"] = bad
        path.write_text(json.dumps(data))
        with pytest.raises(RecordError, match="is not a duration"):
            load_record(path)


@pytest.mark.parametrize("value", ["2 days", "-1h", "0", "h"])
def test_a_bad_duration_is_one_line(tmp_path, value):
    out = run(*GAME, "--for", value, cwd=tmp_path)
    assert out.returncode == 1 and "is not a duration" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_rule_out_stops_as_soon_as_the_opening_cannot_beat_the_total(tmp_path):
    game = Game.preset("mastermind")
    path = tmp_path / "r.json"
    record = solve_classes(game, "1112", path, rule_out=5700)
    assert record["total"] is None and 0 < record["solved"] < len(record["classes"])
    # the deciding class is searched within the most it may cost, and shown to cost more: it is
    # not solved, and its bound is exactly what rules the opening out
    bounded = [e for e in record["classes"] if "at_least" in e]
    assert len(bounded) == 1 and "cost" not in bounded[0] and "tree" not in bounded[0]
    assert record["lower_bound"] == 5700 and bounded[0]["at_least"] > bounded[0]["floor"]
    assert load_record(path)["lower_bound"] == 5700  # read back, checked
    whole = solve_classes(game, "1112", path)  # continued without the limit: the exact optimum
    assert whole["total"] == build_book("mastermind", "optimal", first="1112")["stats"]["total"]
    assert {e["feedback"]: e["cost"] for e in record["classes"] if "cost" in e}.items() <= \
        {e["feedback"]: e["cost"] for e in whole["classes"]}.items()
    deciding = next(e for e in whole["classes"] if e["feedback"] == bounded[0]["feedback"])
    assert deciding["cost"] >= bounded[0]["at_least"] and "at_least" not in deciding


@pytest.mark.parametrize("value", [True, "6000", 1, 10 ** 9, -5])
def test_a_bound_of_a_class_out_of_range_is_refused_on_reading(tmp_path, value):
    path = tmp_path / "r.json"
    solve_classes(Game.preset("mastermind"), "1112", path, rule_out=5700)
    data = json.loads(path.read_text())
    entry = next(e for e in data["classes"] if "at_least" in e)
    entry["at_least"] = value
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=f"class {entry['feedback']}: at_least .* is not between"):
        load_record(path)


def test_rule_out_on_the_command_line_says_what_it_showed(tmp_path):
    done = run("--game", "mastermind", "--first", "1112", "--rule-out", "5700", "-j", "1",
               "-o", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"optimum after 1112 at least (\d+), so it cannot beat 5700\n$", done.stdout)
    bad = run("--game", "mastermind", "--first", "1112", "--rule-out", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "--rule-out" in bad.stderr


def test_the_optimum_is_the_least_over_the_first_guesses_up_to_symmetry(tmp_path):
    game = Game.preset("mastermind")
    alone = first_guesses(game)
    assert [b.first for b in alone] == ["1111", "1112", "1122", "1123", "1234"]
    assert sum(b.equivalent for b in alone) == 1296
    optimum = build_book("mastermind", "optimal")["stats"]["total"]
    assert game_lower_bound(alone) <= optimum
    records = {b.first: solve_classes(game, b.first, tmp_path / f"{b.first}.json") for b in alone}
    solved = first_guesses(game, [load_record(tmp_path / f"{f}.json") for f in records])
    assert all(b.total == b.lower_bound >= a.lower_bound for a, b in zip(alone, solved))
    assert game_lower_bound(solved) == min(b.total for b in solved) == optimum
    # a record of any guess of a class stands for its class
    other = solve_classes(game, "2211", tmp_path / "2211.json")
    assert first_guesses(game, [other])[2].total == records["1122"]["total"]
    # the whole game must be the same: a hard-mode record of 1123 is not one of Mastermind's
    from dataclasses import replace
    hard = solve_classes(replace(game, hard="strict"), "1123", tmp_path / "hard.json")
    with pytest.raises(RecordError, match="another game"):
        first_guesses(game, [hard])
    with pytest.raises(RecordError, match="at most 5 guesses"):
        first_guesses(game, [solve_classes(game, "1123", tmp_path / "d5.json",
                                           search=SearchOptions(max_depth=5))])


def test_a_library_record_continued_on_another_machine_takes_its_long_checks_as_made(
        tmp_path, monkeypatch):
    """A record continued in a folder whose manifest lists its certificates as checked where
    they were written (checks of hours, as a campaign's) goes on without checking them again;
    with no manifest, each is checked before the search goes on."""
    from treegen.files import checked
    path = tmp_path / "r.json"
    solve_classes("mastermind", "1122", path)
    seen = []
    check = checked.check_certificate

    def counted(where, *args, **kwargs):
        seen.append(os.path.basename(where))
        return check(where, *args, **kwargs)

    monkeypatch.setattr(checked, "check_certificate", counted)
    assert solve_classes("mastermind", "1122", path)["total"] == 5702 and len(seen) == 12
    entries = json.loads(path.read_text())["classes"]
    listed = {e["feedback"]: {"file": e["certificate"]["file"], "sha256": e["certificate"]["sha256"],
                              "bytes": e["certificate"]["bytes"], "bound": e["cost"],
                              "check_seconds": 3600.0, "committed": True}
              for e in entries if "certificate" in e}
    (tmp_path / "certificates.json").write_text(json.dumps({"books": {}, "records": {"r": listed}}))
    seen.clear()
    from treegen.cli.main import main
    main(["classes", "-g", "mastermind", "--first", "1122", "-o", str(path)],
         standalone_mode=False)  # the command reads the manifest beside the record
    again = load_record(path, elsewhere={v["sha256"]: v["bound"] for v in listed.values()})
    assert seen == [] and again["total"] == 5702 and again["certified"] == len(listed)


def test_a_campaign_leaving_its_checks_to_another_process_writes_the_same_record(tmp_path,
                                                                                  monkeypatch):
    """``--no-check`` writes the record and certificates a checked run writes, checking none of
    them (the search goes on); ``treegen verify RECORD`` then checks them (on the processes
    ``--jobs`` asks), and refuses a certificate damaged since."""
    from treegen.files import checked
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    here = {**os.environ, "TREEGEN_STATE": str(tmp_path / "here"), "PYTHONPATH": checkout}
    apart = {**os.environ, "TREEGEN_STATE": str(tmp_path / "apart"), "PYTHONPATH": checkout}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    whole = run(*GAME, "-o", "a/r.json", cwd=tmp_path, env=here)
    assert whole.returncode == 0, whole.stderr
    left = run(*GAME, "-o", "b/r.json", "--no-check", cwd=tmp_path, env=apart)
    assert left.returncode == 0, left.stderr
    assert "not checked here" in left.stdout and "treegen verify" in left.stdout

    def timeless(path):  # the record but the seconds each class took
        record = json.loads(path.read_text())
        return {**record, "classes": [{k: v for k, v in e.items() if k != "seconds"}
                                      for e in record["classes"]]}

    assert timeless(tmp_path / "a/r.json") == timeless(tmp_path / "b/r.json")
    certs = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.cert"))
    assert certs and all((tmp_path / "a" / c).read_bytes() == (tmp_path / "b" / c).read_bytes()
                         for c in certs)

    def known(state):
        old = os.environ.get("TREEGEN_STATE")
        os.environ["TREEGEN_STATE"] = str(state)
        try:
            return [checked.remembered(tmp_path / "b" / c) for c in certs]
        finally:
            os.environ.pop("TREEGEN_STATE") if old is None else os.environ.update(TREEGEN_STATE=old)

    assert not any(known(tmp_path / "apart"))  # nothing was checked by the campaign
    shown = subprocess.run([sys.executable, "-m", "treegen", "verify", "b/r.json"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=600, env=apart)
    record = json.loads((tmp_path / "b/r.json").read_text())
    assert shown.returncode == 0, shown.stderr
    assert f"{record['solved']} of {len(record['classes'])} classes solved, " \
           f"{record['solved']} certified" in shown.stdout
    assert shown.stdout.count("[checked](") == record["solved"]
    assert all(f"checked {c}" in shown.stderr.replace(os.sep, "/") for c in
               [str(tmp_path / "b" / c).replace(os.sep, "/") for c in certs])  # told as it goes
    assert all(known(tmp_path / "apart"))  # and remembered for the next piece
    from click.testing import CliRunner

    from treegen.cli.main import main
    asked, check = [], checked.check_certificate
    monkeypatch.setattr(checked, "check_certificate",
                        lambda path, **given: asked.append(given.get("jobs")) or check(path, **given))
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "fresh"))  # checked again, on two processes
    again = CliRunner().invoke(main, ["verify", str(tmp_path / "b/r.json"), "-j", "2"])
    assert again.exit_code == 0, again.output
    assert len(asked) == record["solved"] and set(asked) == {2}
    assert f"{record['solved']} certified" in again.output
    damaged = tmp_path / "b" / certs[-1]
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 1
    damaged.write_bytes(bytes(data))
    refused = subprocess.run([sys.executable, "-m", "treegen", "verify", "b/r.json"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=600, env=apart)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    said = refused.stderr.strip().splitlines()  # what passed, then the one flaw
    assert said[-1].startswith("Error: b/r.json: class ") and \
        all(line.startswith("checked ") for line in said[:-1]), refused.stderr


def test_a_record_is_told_from_a_book_by_its_format_read_from_its_head(tmp_path):
    """``treegen verify`` takes a record or a book: told apart by the ``format`` treegen writes
    first (read from the file's head, not its whole text), or, written elsewhere in a file of
    modest size, by the parsed file; never by reading a pipe."""
    from treegen.search.records import is_record
    record = tmp_path / "r.json"
    solve_classes(Game.preset("mastermind"), "1122", str(record))
    book = tmp_path / "b.json"
    book.write_text(json.dumps(build_book("mastermind", "minimax")))
    data = json.loads(record.read_text())
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps({"version": data.pop("version"), **data}))
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert is_record(str(record)) and is_record(str(moved))
    assert not is_record(str(book)) and not is_record(str(pipe))
    assert not is_record(str(tmp_path / "absent.json"))
