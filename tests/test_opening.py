"""``treegen classes``: an opening's classes solved exactly one by one, each recorded as it is
proven; the sum is the optimum after the opening, and an interrupted run continues where it stopped."""

import json
import signal
import subprocess
import sys

import pytest

from treegen.compiler import build_book
from treegen.game import Game
from treegen.opening import RecordError, solve_classes

#: 1680 codes: a few seconds of search, class after class.
GAME = ["--symbols", "12345678", "--length", "4", "--no-repetition", "--first", "1234", "-j", "1"]


def run(*args, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "treegen", "classes", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, **kw)


def costs(record):
    return {e["feedback"]: (e["secrets"], e.get("cost"), e.get("guess")) for e in record["classes"]}


@pytest.mark.parametrize("first", ["1122", "1234"])
def test_the_classes_add_up_to_the_optimum_after_the_opening(tmp_path, first):
    record = solve_classes(Game.preset("mastermind"), first, str(tmp_path / "r.json"))
    exact = build_book("mastermind", "optimal", first=first)["stats"]["total"]
    assert record["total"] == record["lower_bound"] == exact
    assert record["solved"] == len(record["classes"])
    assert all(e["floor"] <= e["cost"] for e in record["classes"])
    assert sum(e["secrets"] for e in record["classes"]) + 1 == 1296  # all but the secret 1122 itself
    assert json.loads((tmp_path / "r.json").read_text()) == record
    assert not (tmp_path / "r.json.checkpoint").exists()


def test_an_interrupted_run_continues_to_the_same_record(tmp_path):
    whole = run(*GAME, "-o", "whole.json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    proc = subprocess.Popen([sys.executable, "-m", "treegen", "classes", *GAME, "-o", "cut.json"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(4):
            assert "cost" in proc.stdout.readline()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130 and "run the command again to continue" in err, err
    partial = json.loads((tmp_path / "cut.json").read_text())
    assert 4 <= partial["solved"] < len(partial["classes"])
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
    from treegen.opening import class_costs
    book = build_book("mastermind", "minimax")
    assert sum(class_costs(book).values()) + 1296 == book["stats"]["total"] == 5801


def test_the_record_as_a_table_brackets_the_optimum_with_a_book(tmp_path):
    from treegen.opening import class_costs, record_table
    record = solve_classes("mastermind", "1122", tmp_path / "r.json")
    book = build_book("mastermind", "minimax", first="1122")  # Knuth's tree: 5801
    text = record_table(record, book)
    assert "All 12 classes solved: the optimum after 1122 is 5702." in text
    costs = class_costs(book)
    for e in record["classes"]:
        assert f"| {e['feedback']} | {e['secrets']} | {e['cost']} | {e['guess']} |" in text
        assert e["cost"] <= costs[e["feedback"]]
    last = record["classes"][-1]
    exact = last.pop("cost")
    upper = 5702 - exact + costs[last["feedback"]]  # the book's subtree in its place
    record["solved"], record["total"] = 11, None
    record["lower_bound"] = 5702 - exact + last["floor"]
    assert (f"11 of 12 classes solved: the optimum after 1122 is at least {record['lower_bound']} "
            f"and at most {upper}") in record_table(record, book)
