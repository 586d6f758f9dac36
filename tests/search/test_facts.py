"""Facts: a class's certificate search stopped part way keeps what it settled as certificates of
their own, and a piece on another machine goes on from them without searching them again."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers.facts import fact_steps, none_searched_again
from treegen.certificate import check, read_header
from treegen.errors import RecordError
from treegen.search.records import load_record

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels

#: 1680 codes: a few seconds of search, class after class.
GAME = ["--symbols", "12345678", "--length", "4", "--no-repetition", "--first", "1234", "-j", "1"]
#: Every class settled is kept as a fact, so that a small game has some.
EVERY = {**os.environ, "TREEGEN_FACT_WORDS": "0"}
#: The same, with this checkout's treegen in the processes started (not one installed elsewhere).
MINE = {**EVERY, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))}


def run(*args, cwd, env):
    return subprocess.run([sys.executable, "-m", "treegen", "classes", *args, "-o", "r.json"],
                          cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def costs(path):
    return {e["feedback"]: e.get("cost") for e in json.loads(path.read_text())["classes"]}


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A piece stopped while it certifies a class, after its 30th fact."""
    here = tmp_path_factory.mktemp("here")
    cut = run(*GAME, cwd=here, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:30:TERM"})
    assert cut.returncode == 130, cut.stderr
    return here


def carried(here, there):
    """The record and its certificates, without the checkpoint: what a commit carries."""
    there.mkdir(exist_ok=True)
    shutil.copy(here / "r.json", there / "r.json")
    shutil.copytree(here / "r.certificates", there / "r.certificates")
    return there


def test_a_stopped_certificate_search_keeps_its_facts_in_the_record(stopped):
    here = stopped
    record = json.loads((here / "r.json").read_text())
    open_class = [e for e in record["classes"] if "facts" in e]
    assert len(open_class) == 1 and "certificate" not in open_class[0]
    for fact in open_class[0]["facts"]:
        proven = check(str(here / fact["certificate"]["file"]))
        assert proven.history == [[record["first"], open_class[0]["feedback"]], fact["step"]]
        assert proven.bound >= fact["bound"] and proven.first is None


def test_a_piece_killed_outright_keeps_the_time_its_class_was_searched(tmp_path):
    """A piece that ends with no stop to handle (a machine that goes away) has written, with its
    last fact, the seconds its open class was searched: the campaign's time in all counts them."""
    killed = run(*GAME, cwd=tmp_path, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:30:KILL"})
    assert killed.returncode == -9, killed.stderr
    record = json.loads((tmp_path / "r.json").read_text())
    open_class = [e for e in record["classes"] if "facts" in e and "cost" not in e]
    assert len(open_class) == 1 and open_class[0]["seconds"] >= 0  # written, not absent


def test_another_machine_goes_on_from_the_facts_and_searches_none_again(stopped, tmp_path):
    elsewhere = carried(stopped, tmp_path / "elsewhere")
    before = next(e for e in json.loads((elsewhere / "r.json").read_text())["classes"]
                  if "facts" in e)
    again = run(*GAME, cwd=elsewhere, env={**EVERY, "TREEGEN_STATE": str(tmp_path / "state")})
    assert again.returncode == 0, again.stderr
    whole = run(*GAME, cwd=tmp_path, env=os.environ)
    assert whole.returncode == 0, whole.stderr
    assert costs(elsewhere / "r.json") == costs(tmp_path / "r.json")
    record = load_record(elsewhere / "r.json")  # every certificate checked, premises too
    assert record["total"] == load_record(tmp_path / "r.json")["total"]
    after = next(e for e in record["classes"] if e["feedback"] == before["feedback"])
    # every fact was taken up, not searched again (a fact searched again would be kept anew
    # and then dropped, as one the certificate proves inside); those the proof needs are its
    # premises, those a class's level filling already bounds are not
    none_searched_again(before["facts"], after["facts"])
    header, _ = read_header((elsewhere / after["certificate"]["file"]).read_bytes())
    named = {p["sha256"] for p in header["premises"]}
    assert named and named <= {f["certificate"]["sha256"] for f in before["facts"]}
    assert not any("facts" in e for e in record["classes"] if e is not after)


def test_a_piece_stopped_inside_a_class_of_a_class_goes_on_from_the_facts_below_it(tmp_path):
    """A class too large for one compiled call is searched level by level, and its own classes
    are kept as facts too: a piece stopped inside it leaves them, and the next, on another
    machine, takes them up, the class above them standing as a fact of its own whose certificate
    names them. The same costs as a piece never stopped, every certificate checked."""
    here = tmp_path / "here"
    here.mkdir()
    cut = run(*GAME, cwd=here, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:70:TERM"})
    assert cut.returncode == 130, cut.stderr
    before = next(e for e in json.loads((here / "r.json").read_text())["classes"]
                  if "facts" in e and "cost" not in e)
    deeper = [f for f in before["facts"] if "after" in f]
    assert deeper
    for fact in deeper:  # in a folder of the class's folder, named after the fact just above
        parts = fact["certificate"]["file"].split("/")
        assert parts[:2] == ["r.certificates", before["feedback"]] and len(parts) == 4
        proven = check(str(here / fact["certificate"]["file"]))
        assert proven.history[1:] == [*fact["after"], fact["step"]]
    elsewhere = carried(here, tmp_path / "elsewhere")
    again = run(*GAME, cwd=elsewhere, env={**EVERY, "TREEGEN_STATE": str(tmp_path / "state")})
    assert again.returncode == 0, again.stderr
    whole = tmp_path / "whole"
    whole.mkdir()
    assert run(*GAME, cwd=whole, env=os.environ).returncode == 0
    assert costs(elsewhere / "r.json") == costs(whole / "r.json")
    record = load_record(elsewhere / "r.json")  # every certificate checked, premises too
    assert record["certified"] == len(record["classes"])
    after = next(e for e in record["classes"] if e["feedback"] == before["feedback"])
    none_searched_again(before["facts"], after["facts"])
    standing = [f for f in after["facts"]
                if any(fact_steps(d)[:len(fact_steps(f))] == fact_steps(f) and d is not f
                       for d in after["facts"])]
    assert standing  # a class above facts taken up: its certificate names them
    file = standing[0]["certificate"]["file"]
    header, _ = read_header((elsewhere / file).read_bytes())
    assert header["premises"]
    for premise in header["premises"]:  # each in the folder named after it
        assert premise["file"].split("/")[0] == file.split("/")[-1].removesuffix(".cert")
        assert premise["history"][:-1] == [[record["first"], before["feedback"]],
                                           *map(list, fact_steps(standing[0]))]


def test_the_facts_below_a_fact_stay_with_it_over_three_pieces(tmp_path):
    """A class that took up facts below it is a fact whose certificate names them: once a later
    piece takes that class up in turn (here, one killed as its class was found and proven, then
    one that makes the tree from its guess), the facts below it stay, and every certificate,
    premises and theirs, still checks."""
    cut = run(*GAME, cwd=tmp_path, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:70:TERM"})
    assert cut.returncode == 130, cut.stderr
    state = {"TREEGEN_STATE": str(tmp_path / "state")}
    killed = run(*GAME, cwd=tmp_path, env={**EVERY, **state,
                                           "TREEGEN_TEST_FAULT": "proven:1:KILL"})
    assert killed.returncode == -9, killed.stderr
    entry = next(e for e in json.loads((tmp_path / "r.json").read_text())["classes"]
                 if "guess" in e)
    assert any("after" in f for f in entry["facts"])
    done = run(*GAME, cwd=tmp_path, env={**EVERY, **state})
    assert done.returncode == 0, done.stderr
    record = load_record(tmp_path / "r.json")  # every certificate checked, premises too
    assert record["certified"] == len(record["classes"])
    after = next(e for e in record["classes"] if e["feedback"] == entry["feedback"])
    assert any("after" in f for f in after["facts"])  # named by the facts above them
    shas = {f["certificate"]["sha256"] for f in entry["facts"]}
    assert {f["certificate"]["sha256"] for f in after["facts"]} <= shas  # nothing searched


def test_a_class_found_and_proven_is_kept_before_its_tree_is_made(tmp_path):
    """Making the tree of a class whose classes facts settled means searching them again (a fact
    carries no tree), which may take long: the class's optimum, its guess and its certificate are
    written first. A piece killed then leaves the class proven; the next makes its tree from the
    guess alone, without a search (one would keep a fact here, and be killed by it), and finds
    the optimum of a piece never stopped."""
    cut = run(*GAME, cwd=tmp_path, env={**os.environ, "TREEGEN_TEST_FAULT": "proven:13:KILL"})
    assert cut.returncode == -9, cut.stderr
    entry = json.loads((tmp_path / "r.json").read_text())["classes"][-1]
    assert "cost" not in entry and "tree" not in entry and entry["guess"]
    assert check(str(tmp_path / entry["certificate"]["file"])).bound == entry["at_least"]
    again = run(*GAME, cwd=tmp_path, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:1:KILL",
                                           "TREEGEN_STATE": str(tmp_path / "state")})
    assert again.returncode == 0, again.stderr
    whole = tmp_path / "whole"
    whole.mkdir()
    assert run(*GAME, cwd=whole, env=os.environ).returncode == 0
    assert costs(tmp_path / "r.json") == costs(whole / "r.json")
    record = load_record(tmp_path / "r.json")
    done = next(e for e in record["classes"] if e["feedback"] == entry["feedback"])
    assert done["cost"] == entry["at_least"] and "guess" not in done and "at_least" not in done
    assert done["tree"]["guess"] == entry["guess"] and record["certified"] == len(record["classes"])


def test_a_fact_that_claims_too_much_is_not_believed(stopped, tmp_path):
    """A forged fact leads the search astray at worst: the certificate that uses it fails its
    check, in one line, and the class is not counted as proven."""
    forged = carried(stopped, tmp_path / "forged")
    data = json.loads((forged / "r.json").read_text())
    entry = next(e for e in data["classes"] if "facts" in e)
    entry["facts"][0]["bound"] += 1000
    (forged / "r.json").write_text(json.dumps(data))
    out = run(*GAME, cwd=forged, env={**EVERY, "TREEGEN_STATE": str(tmp_path / "state")})
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "premise" in out.stderr


def verify(here, env):
    return subprocess.run([sys.executable, "-m", "treegen", "verify", "r.json"], cwd=here,
                          capture_output=True, text=True, timeout=600, env=env)


def test_verify_checks_the_facts_of_a_class_still_searched_and_remembers_each(
        stopped, tmp_path, monkeypatch):
    """`treegen verify RECORD`, on a campaign's other core, checks the facts of a class whose
    search goes on, each remembered as it passes: the class's certificate, once the search proves
    it, names them as premises, and its check takes them as passed."""
    here = carried(stopped, tmp_path / "here")
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    from treegen.files.checked import remembered
    entry = next(e for e in json.loads((here / "r.json").read_text())["classes"] if "facts" in e)
    files = {os.path.realpath(here / f["certificate"]["file"]) for f in entry["facts"]}
    assert not any(remembered(f) for f in files)
    out = verify(here, {**EVERY, "TREEGEN_STATE": str(tmp_path / "state")})
    assert out.returncode == 0, out.stderr
    count = len(files)
    assert f"{entry['feedback']}: {count} of {count} facts checked" in out.stdout
    said = {os.path.realpath(line.removeprefix("checked ").rsplit(" (", 1)[0])
            for line in out.stderr.splitlines()}
    assert files <= said
    assert all(remembered(f) for f in files)


def test_verify_refuses_a_fact_its_certificate_does_not_prove(stopped, tmp_path):
    """A fact that says more than its certificate proves is named, in one line, by the check of
    the class's facts; the search would otherwise take it up."""
    here = carried(stopped, tmp_path / "here")
    data = json.loads((here / "r.json").read_text())
    entry = next(e for e in data["classes"] if "facts" in e)
    fact = entry["facts"][-1]
    fact["bound"] += 1
    (here / "r.json").write_text(json.dumps(data))
    out = verify(here, {**EVERY, "TREEGEN_STATE": str(tmp_path / "state")})
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) >= 1, out.stderr
    last = out.stderr.strip().splitlines()[-1]
    assert f"the fact after {fact['step'][0]} → {fact['step'][1]}" in last
    assert "proves another claim" in last and "Traceback" not in out.stderr


@pytest.mark.parametrize("change, message", [
    (lambda f: f.update(step=["1234", "9A9B"]), "not of a step below the class"),
    (lambda f: f.update(bound=0), "its bound is not a number of guesses"),
    (lambda f: f.update(bound=True), "its bound is not a number of guesses"),
    (lambda f: f.update(exact="yes"), "its bound is not a number of guesses"),
    (lambda f: f["certificate"].update(file="../../etc/passwd"), "not named by a file"),
    (lambda f: f["certificate"].update(file="r.certificates/elsewhere.cert"),
     "where its steps put it"),
    (lambda f: f.update(after=[["1234", "9A9B"]]), "not of a step below the class"),
    (lambda f: f.update(after=[]), "not of a step below the class"),
    (lambda f: f.update(after=[["1234", "0A0B"]] * 5), "not of a step below the class"),
    (lambda f: f.update(after=[["1234", "0A0B"]]), "where its steps put it"),
    (lambda f: f.update(after=[["1234", {}]]), "not of a step below the class"),
    (lambda f: f.update(step=[["1234"], "0A1B"]), "not of a step below the class"),
])
def test_a_record_s_facts_are_checked_on_reading(stopped, tmp_path, change, message):
    data = json.loads((stopped / "r.json").read_text())
    entry = next(e for e in data["classes"] if "facts" in e)
    change(entry["facts"][0])
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(RecordError, match=message):
        load_record(tmp_path / "r.json")


@pytest.mark.parametrize("guess", ["12345", ["1234"], None])
def test_a_class_s_recorded_guess_is_a_code_with_its_certificate(stopped, tmp_path, guess):
    data = json.loads((stopped / "r.json").read_text())
    entry = next(e for e in data["classes"] if "facts" in e)
    entry.update(at_least=entry["floor"] + 1, seconds=1.0, guess=guess or "1234")
    if guess is None:  # a code, but no certificate of the optimum it was found with
        entry.pop("certificate", None)
    else:
        entry["certificate"] = entry["facts"][0]["certificate"]
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(RecordError, match="guess"):
        load_record(tmp_path / "r.json")


def test_a_record_names_each_fact_once(stopped, tmp_path):
    data = json.loads((stopped / "r.json").read_text())
    entry = next(e for e in data["classes"] if "facts" in e)
    entry["facts"].append(entry["facts"][0])
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(RecordError, match="once"):
        load_record(tmp_path / "r.json")


def test_classes_proven_side_by_side_are_those_of_one_job(tmp_path):
    """With two workers the open classes are searched and proven side by side, one per worker:
    the same record and the same certificates, byte for byte, as with one job."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert run(*GAME, cwd=one, env=os.environ).returncode == 0
    out = run(*GAME, "-j", "2", cwd=two, env=os.environ)
    assert out.returncode == 0, out.stderr
    def timeless(where):
        return [{k: v for k, v in e.items() if k != "seconds"}
                for e in json.loads((where / "r.json").read_text())["classes"]]
    assert timeless(one) == timeless(two)
    for cert in (one / "r.certificates").iterdir():
        assert cert.read_bytes() == (two / "r.certificates" / cert.name).read_bytes()


def test_the_workers_facts_are_kept_here_and_taken_up_again(tmp_path):
    """The facts each worker keeps come back to this process, which writes them into the record as
    they come: a stop leaves them, and the next run, with workers again, takes them up."""
    cut = run(*GAME, "-j", "2", cwd=tmp_path, env={**EVERY, "TREEGEN_TEST_FAULT": "fact:40:TERM"})
    assert cut.returncode == 130, cut.stderr
    kept = {e["feedback"]: e["facts"] for e in json.loads((tmp_path / "r.json").read_text())["classes"]
            if "facts" in e}
    assert sum(map(len, kept.values())) >= 1
    again = run(*GAME, "-j", "2", cwd=tmp_path, env=EVERY)
    assert again.returncode == 0, again.stderr
    record = load_record(tmp_path / "r.json")
    assert record["total"] is not None and record["certified"] == len(record["classes"])
    done = {e["feedback"]: e for e in record["classes"]}
    for feedback, facts in kept.items():
        none_searched_again(facts, done[feedback].get("facts", []))


def test_a_certificate_past_its_split_names_the_facts_its_search_kept(tmp_path):
    """A class's certificate that would pass TREEGEN_SPLIT_BYTES names the facts its own search
    kept as premises instead of holding their proofs, largest first, and they stay beside it: it
    is smaller, so is each fact's, the record is the same, every certificate checks (its premises
    too), and workers split as one job does, byte for byte. (A fact of this small game is not much
    larger than a premise's line in the header, so here the certificate cannot get under the
    limit: naming stops where it no longer saves bytes.)"""
    whole, one, two = (tmp_path / name for name in ("whole", "one", "two"))
    for where in (whole, one, two):
        where.mkdir()
    assert run(*GAME, cwd=whole, env=EVERY).returncode == 0
    largest = max(whole.glob("r.certificates/*.cert"), key=lambda p: p.stat().st_size)
    limit = largest.stat().st_size // 2
    split = {**EVERY, "TREEGEN_SPLIT_BYTES": str(limit)}
    out = run(*GAME, cwd=one, env=split)
    assert out.returncode == 0, out.stderr
    assert costs(one / "r.json") == costs(whole / "r.json")
    record = load_record(one / "r.json")  # every certificate checked, premises too
    assert record["certified"] == len(record["classes"])
    entry = next(e for e in record["classes"] if e["certificate"]["file"].endswith(largest.name))
    header, _ = read_header((one / entry["certificate"]["file"]).read_bytes())
    named = {p["sha256"] for p in header["premises"]}
    assert named == {f["certificate"]["sha256"] for f in entry["facts"]} and named
    assert entry["certificate"]["bytes"] < largest.stat().st_size
    assert all(f["certificate"]["bytes"] < largest.stat().st_size for f in entry["facts"])
    small = [e for e in record["classes"] if e["certificate"]["bytes"] <= limit // 2]
    assert small and not any("facts" in e for e in small)  # under the limit: nothing named
    out = run(*GAME, "-j", "2", cwd=two, env=split)
    assert out.returncode == 0, out.stderr
    for cert in (one / "r.certificates").rglob("*.cert"):
        assert cert.read_bytes() == (two / cert.relative_to(one)).read_bytes()


@pytest.mark.parametrize("variable", ["TREEGEN_FACT_WORDS", "TREEGEN_SPLIT_BYTES"])
@pytest.mark.parametrize("value", ["-1", "many", "1e6", "9" * 16])
def test_a_bad_fact_size_is_one_line(tmp_path, variable, value):
    out = run(*GAME, cwd=tmp_path, env={**os.environ, variable: value})
    assert out.returncode == 1 and variable in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_book_certificate_past_its_split_names_its_classes_certificates(tmp_path):
    """A book's certificate (``treegen certify``) that would pass TREEGEN_SPLIT_BYTES names the
    classes below its first guesses that its search settled as premises, in the folder named after
    it: smaller, with no file in that folder it does not name, and it proves the book optimal. One
    under the limit is the whole certificate, with no folder; one whose premise is gone is refused."""
    def treegen(*args, env=EVERY):
        return subprocess.run([sys.executable, "-m", "treegen", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600, env=env)
    assert treegen("build", "-g", "mastermind", "-s", "optimal", "-o", "m.json").returncode == 0
    assert treegen("certify", "m.json", "-o", "whole.cert").returncode == 0
    whole = (tmp_path / "whole.cert").read_bytes()
    loose = {**EVERY, "TREEGEN_SPLIT_BYTES": str(len(whole))}
    assert treegen("certify", "m.json", "-o", "same.cert", env=loose).returncode == 0
    assert (tmp_path / "same.cert").read_bytes() == whole and not (tmp_path / "same").exists()
    split = {**EVERY, "TREEGEN_SPLIT_BYTES": str(len(whole) // 2)}
    assert treegen("certify", "m.json", "-o", "s.cert", env=split).returncode == 0
    data = (tmp_path / "s.cert").read_bytes()
    header, _ = read_header(data)
    named = sorted(p["file"] for p in header["premises"])
    assert len(data) < len(whole) and named
    assert named == sorted(f"s/{p.name}" for p in (tmp_path / "s").iterdir())
    assert all((tmp_path / file).stat().st_size < len(whole) for file in named)
    out = treegen("verify", "m.json", "--certificate", "s.cert")
    assert out.returncode == 0 and out.stdout.rstrip().endswith("optimal"), out.stdout + out.stderr
    (tmp_path / named[0]).unlink()
    out = treegen("verify", "m.json", "--certificate", "s.cert")
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and named[0].split("/")[1] in out.stderr


def test_a_book_certificate_written_again_keeps_its_folder_whole(tmp_path, monkeypatch):
    """Writing a split certificate again leaves only the premises the new one names; a search
    that fails leaves the certificate there and its premises as they were; a folder holding
    anything else is not touched, and the certificate is written whole."""
    from treegen.errors import CertificateError
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_FACT_WORDS", "0")
    game, target = Game.preset("mastermind"), tmp_path / "s.cert"
    whole = write_certificate(Claim(game, 5625), tmp_path / "whole.cert")
    write_certificate(Claim(game, 5625), target, split=whole // 2)
    first = {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()}
    write_certificate(Claim(game, 5625), target, split=whole // 3)
    header, _ = read_header(target.read_bytes())
    assert sorted(p["file"] for p in header["premises"]) == \
        sorted(f"s/{p.name}" for p in (tmp_path / "s").iterdir())
    assert check(str(target)).bound == 5625
    kept = {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()}
    data = target.read_bytes()
    with pytest.raises(CertificateError):  # 5625 guesses do: no proof of 5626
        write_certificate(Claim(game, 5626), target, split=whole // 3)
    assert target.read_bytes() == data and \
        {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()} == kept
    assert sorted(os.listdir(tmp_path)) == ["s", "s.cert", "whole.cert"]
    (tmp_path / "s" / "notes.txt").write_text("mine")
    assert write_certificate(Claim(game, 5625), target, split=whole // 3) == whole
    assert (tmp_path / "s" / "notes.txt").read_text() == "mine" and first


def test_a_premise_past_the_split_names_the_classes_below_it_in_turn(tmp_path, monkeypatch):
    """A class a split certificate names that would pass the split itself names its own largest
    classes as premises, in the folder named after it, and so on down: every file of the folder
    is one some certificate names, none is named twice, and the certificate proves the optimum."""
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_FACT_WORDS", "0")
    game, target = Game.make(symbols="12345678", length=4, repetition=False), tmp_path / "s.cert"
    whole = write_certificate(Claim(game, 7817), tmp_path / "whole.cert")
    write_certificate(Claim(game, 7817), target, split=whole * 3 // 8)
    named, todo = [], [target]
    while todo:
        cert = todo.pop()
        header, _ = read_header(cert.read_bytes())
        for premise in header.get("premises", []):
            path = cert.parent / premise["file"]
            assert premise["file"].split("/")[0] == cert.name.removesuffix(".cert")
            named.append(path)
            todo.append(path)
    files = sorted(p for p in (tmp_path / "s").rglob("*.cert"))
    assert sorted(named) == files and len(set(named)) == len(named)
    assert any(len(p.relative_to(tmp_path).parts) > 2 for p in files)  # a premise's own premise
    assert check(str(target)).bound == 7817


def test_a_class_settled_again_replaces_its_fact(stopped, tmp_path):
    """A class searched anew (within a larger budget) and settled again replaces its fact in the
    record and its file, rather than naming the class twice (which no record may)."""
    from treegen.rules.game import Game
    from treegen.search.classes import _keep_fact
    from treegen.search.facts import Fact
    here = carried(stopped, tmp_path / "here")
    data = json.loads((here / "r.json").read_text())
    game = Game.from_dict(data["game"])
    entry = next(e for e in data["classes"] if "facts" in e)
    before = len(entry["facts"])
    step = (game.index(data["first"]), game.feedback_texts.index(entry["feedback"]))
    below = (game.index("5678"), game.feedback_texts.index("0A1B"))
    for bound, exact in ((30, False), (34, True)):
        _keep_fact(game, data, entry, str(here / "r.json"), Fact((step, below), bound, exact),
                   f"certificate {bound}".encode())
    mine = [f for f in entry["facts"] if f["step"] == ["5678", "0A1B"] and "after" not in f]
    assert [(f["bound"], f["exact"]) for f in mine] == [(34, True)]
    assert len(entry["facts"]) == before + 1
    assert (here / mine[0]["certificate"]["file"]).read_bytes() == b"certificate 34"
    written = json.loads((here / "r.json").read_text())
    assert written["classes"] == data["classes"]


def _as_never_stopped(tmp_path, there, entry):
    """The last class of the record in ``there``, checked to be what a piece never stopped
    makes: the cost the proof found and the same tree."""
    whole = tmp_path / "whole"
    whole.mkdir()
    assert run(*GAME, cwd=whole, env=MINE).returncode == 0
    done, fresh = (json.loads((folder / "r.json").read_text())["classes"][-1]
                   for folder in (there, whole))
    assert done["cost"] == fresh["cost"] == entry["at_least"] and done["tree"] == fresh["tree"]
    return done


def _proven_and_stopped(folder):
    """A piece killed once the last class is proven, its tree not made: that class's entry and
    its exact facts just below its guess (two at least: else nothing is kept part of)."""
    cut = run(*GAME, cwd=folder, env={**MINE, "TREEGEN_TEST_FAULT": "proven:13:KILL"})
    assert cut.returncode == -9, cut.stderr
    entry = json.loads((folder / "r.json").read_text())["classes"][-1]
    below = [f for f in entry["facts"]
             if f["exact"] and "after" not in f and f["step"][0] == entry["guess"]]
    assert len(below) >= 2
    return entry, below


def test_the_trees_made_below_a_proven_class_are_kept_and_never_searched_again(tmp_path):
    """Making a proven class's tree searches again each class below its guess that a fact
    settled: each tree so made is kept in its fact at once, so a piece stopped part way (here,
    killed after the first) leaves them to the next, which, on a fresh state folder and without
    the checkpoint, makes only the others and ends with the tree of a piece never stopped."""
    entry, below = _proven_and_stopped(tmp_path)
    made = run(*GAME, cwd=tmp_path, env={**MINE, "TREEGEN_TEST_FAULT": "subtree:1:KILL"})
    assert made.returncode == -9, made.stderr
    kept = [f for f in json.loads((tmp_path / "r.json").read_text())["classes"][-1]["facts"]
            if "tree" in f]
    assert len(kept) == 1 and kept[0]["step"] in [f["step"] for f in below]
    load_record(tmp_path / "r.json")  # a kept tree is checked on reading, and passes
    there = carried(tmp_path, tmp_path / "there")
    # one subtree more than are left would kill it: only the others are made
    again = run(*GAME, cwd=there, env={**MINE, "TREEGEN_STATE": str(tmp_path / "fresh"),
                                       "TREEGEN_TEST_FAULT": f"subtree:{len(below)}:KILL"})
    assert again.returncode == 0, again.stderr
    done = _as_never_stopped(tmp_path, there, entry)
    assert not any("tree" in f for f in done.get("facts", []))  # the class's tree holds them


def test_a_class_proven_again_from_its_facts_takes_the_trees_they_keep(tmp_path):
    """A record whose class's proof was not carried (its facts were: a commit of what another
    machine found before its check passed) is proven again from those facts; the trees kept in
    them are taken as they are, and each tree then made is kept at once, as when the proof is
    carried."""
    entry, below = _proven_and_stopped(tmp_path)
    assert run(*GAME, cwd=tmp_path, env={**MINE, "TREEGEN_TEST_FAULT": "subtree:1:KILL"}
               ).returncode == -9

    def unproven(folder):  # the class's proof dropped, its facts (one tree kept) left
        data = json.loads((folder / "r.json").read_text())
        for key in ("at_least", "guess", "certificate"):
            data["classes"][-1].pop(key)
        (folder / "r.json").write_text(json.dumps(data))
        return [f["step"] for f in data["classes"][-1]["facts"] if "tree" in f]

    there = carried(tmp_path, tmp_path / "there")
    assert len(unproven(there)) == 1
    fresh = {**MINE, "TREEGEN_STATE": str(tmp_path / "fresh")}
    made = run(*GAME, cwd=there, env={**fresh, "TREEGEN_TEST_FAULT": "subtree:1:KILL"})
    assert made.returncode == -9, made.stderr  # proven again, and a tree made and kept
    assert len(unproven(there)) == 2
    # as many subtrees as are left but one more would kill it: the kept ones are not made again
    again = run(*GAME, cwd=there, env={**fresh, "TREEGEN_TEST_FAULT":
                                       f"subtree:{len(below) - 1}:KILL"})
    assert again.returncode == 0, again.stderr
    _as_never_stopped(tmp_path, there, entry)


def test_a_kept_tree_that_does_not_solve_its_class_at_its_cost_is_refused(tmp_path):
    """A tree kept in a fact is checked on reading like a class's: one that leaves a secret
    unsolved, or costs other than its fact, makes the record unusable, in one line."""
    cut = run(*GAME, cwd=tmp_path, env={**MINE, "TREEGEN_TEST_FAULT": "proven:13:KILL"})
    assert cut.returncode == -9, cut.stderr
    made = run(*GAME, cwd=tmp_path, env={**MINE, "TREEGEN_TEST_FAULT": "subtree:1:KILL"})
    assert made.returncode == -9, made.stderr
    text = (tmp_path / "r.json").read_text()
    data = json.loads(text)
    fact = next(f for f in data["classes"][-1]["facts"] if "tree" in f)
    fact["bound"] += 1
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(RecordError, match="its tree: it needs"):
        load_record(tmp_path / "r.json")
    fact["bound"] -= 1
    fact["tree"]["next"] = dict(list(fact["tree"]["next"].items())[1:])  # a branch dropped
    (tmp_path / "r.json").write_text(json.dumps(data))
    with pytest.raises(RecordError, match="its tree"):
        load_record(tmp_path / "r.json")
