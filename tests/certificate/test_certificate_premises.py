"""Certificates that rest on others: a game's certificate whose premises are the certificates of
its records' classes, checked premise by premise, deepest first, each remembered as it passes, so
that a long check stopped goes on from the premises it has done; any premise damaged, swapped,
missing or named outside the folder is refused."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from treegen.api import build_book, solve_classes
from treegen.certificate import CertificateRefused as CheckError
from treegen.certificate import check, read_certificate
from treegen.errors import CertificateError
from treegen.files.checked import check_certificate, whole_checked_seconds
from treegen.proofs import compose
from treegen.search.records import load_record


@pytest.fixture(scope="module")
def composed(tmp_path_factory) -> Path:
    """Mastermind's bound over every first guess, from the record of 1123 (its classes' certificates
    the premises) and the floors of the other openings: ``game.cert`` beside ``r.json``."""
    folder = tmp_path_factory.mktemp("premises")
    solve_classes("mastermind", "1123", folder / "r.json")
    book = build_book("mastermind", "optimal")
    compose(book, [load_record(folder / "r.json")], folder / "game.cert")
    return folder


def premises_of(folder: Path) -> list[Path]:
    return sorted((folder / "r.certificates").glob("*.cert"))


@pytest.fixture
def fresh_memory(tmp_path, monkeypatch):
    """A memory of checked certificates of this test alone."""
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))


def test_a_certificate_resting_on_premises_proves_their_bound(composed, fresh_memory):
    proven = check_certificate(composed / "game.cert", remember=False)
    header, _ = read_certificate((composed / "game.cert").read_bytes())
    assert proven.bound == header["claim"]["bound"] and proven.history == []
    assert header["sizes"]["claims"] == 1 and len(header["premises"]) == len(premises_of(composed))
    assert all(p["file"].startswith("r.certificates/") for p in header["premises"])
    assert len(premises_of(composed)) > 5


def test_a_certificate_s_whole_check_time_counts_its_premises(composed, monkeypatch):
    """What a reader's check of a certificate from nothing takes, as timed here: its own check
    and every premise's, each once; unknown while any of them was not timed."""
    import treegen.files.checked as memory
    target, premises = composed / "game.cert", premises_of(composed)
    timed = {str(target): 1000.0, **{str(p): float(k + 1) for k, p in enumerate(premises)}}
    monkeypatch.setattr(memory, "checked_seconds", lambda path: timed[os.fspath(path)])
    assert whole_checked_seconds(target) == 1000 + len(premises) * (len(premises) + 1) / 2
    timed[str(premises[-1])] = None
    assert whole_checked_seconds(target) is None


def test_a_check_stopped_goes_on_from_the_premises_it_has_done(composed, fresh_memory):
    everyone = len(premises_of(composed))
    done: list[str] = []

    def stop_after_three(path: str, seconds: float) -> None:
        done.append(path)
        if len(done) == 3:
            raise KeyboardInterrupt

    target = composed / "game.cert"
    with pytest.raises(KeyboardInterrupt):
        check_certificate(target, told=stop_after_three)
    rest: list[str] = []
    proven = check_certificate(target, told=lambda path, s: rest.append(path))
    assert proven.bound == read_certificate(target.read_bytes())[0]["claim"]["bound"]
    assert rest[-1] == str(target)  # the certificate itself last
    assert len(rest) == everyone - 3 + 1 and not set(rest) & set(done)
    again: list[str] = []
    check_certificate(target, told=lambda path, s: again.append(path))
    assert again == [str(target)]  # remembered: nothing is checked again


def test_a_premise_stopped_part_way_goes_on_from_its_claims_that_passed(composed, tmp_path):
    """A premise's check keeps the claims that passed as it goes, like the certificate's own: a
    check stopped inside a premise (at the 40th claim checked in all) goes on from them, checks
    only the rest of it, then forgets them; a premise of hours, in a campaign stopped with each
    session, would otherwise never pass."""
    import subprocess
    import sys

    import treegen
    import treegen.files.checked as memory
    state = tmp_path / "state"
    target = composed / "game.cert"
    here = str(Path(treegen.__file__).parent.parent)  # this checkout, wherever the test runs
    stopped = subprocess.run(
        [sys.executable, "-c", "import sys; from treegen.files.checked import check_certificate; "
         "check_certificate(sys.argv[1])", str(target)], capture_output=True, text=True,
        cwd=here, env={**os.environ, "TREEGEN_STATE": str(state),
                       "TREEGEN_TEST_FAULT": "claim:40:INT"})
    assert stopped.returncode != 0 and "KeyboardInterrupt" in stopped.stderr
    os.environ["TREEGEN_STATE"] = str(state)
    try:
        digests = {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in premises_of(composed)}
        begun = {d: memory._recall_progress(d) for d in digests}
        part = [d for d, done in begun.items() if done]
        assert len(part) == 1  # the premise stopped in: the 40th claim checked was its k-th
        k = len(begun[part[0]])
        assert begun[part[0]] == set(range(k))
        checked: dict[str, list[int]] = {}
        real = memory.certificate.check

        def counting(data, folder, known, done=(), passed=None, memory=None):
            mine = checked.setdefault(hashlib.sha256(data).hexdigest(), [])

            def told(claim):
                mine.append(claim)
                passed(claim)
            return real(data, folder, known, done, told if passed else None, memory)

        memory.certificate.check = counting
        try:
            assert check_certificate(target).bound == \
                read_certificate(target.read_bytes())[0]["claim"]["bound"]
        finally:
            memory.certificate.check = real
        claims = read_certificate(digests[part[0]].read_bytes())[0]["sizes"]["claims"]
        assert 0 < k < claims and sorted(checked[part[0]]) == list(range(k, claims))
        assert all(memory._recall_progress(d) == set() for d in digests)  # passed: forgotten
    finally:
        del os.environ["TREEGEN_STATE"]


def test_a_premise_another_check_passed_meanwhile_is_not_checked_again(composed, fresh_memory):
    """Two checks of one certificate's premises here (say one from each end) meet in the middle:
    a premise the other passed since this one began is taken from the memory, not checked
    again."""
    import treegen.files.checked as memory
    from treegen import settings
    paths = [str(p) for p in premises_of(composed)]
    checking = memory._check_all(paths, {}, 1, settings.available_memory(), True)
    first = next(checking)
    assert first[0] == paths[0] and first[3] > 0
    check_certificate(paths[-1])  # the other check, from the other end
    counted: list[str] = []
    real = memory.certificate.check

    def counting(data, *args, **kwargs):
        counted.append(hashlib.sha256(data).hexdigest())
        return real(data, *args, **kwargs)

    memory.certificate.check = counting
    try:
        rest = list(checking)
    finally:
        memory.certificate.check = real
    assert [r[0] for r in rest] == paths[1:]
    last = rest[-1]
    assert last[3] == 0.0 and last[1] not in counted  # taken as passed
    assert len(set(counted)) == len(paths) - 2  # every other premise checked, once


def test_two_checks_side_by_side_keep_each_other_s_verdicts(composed, fresh_memory):
    """Each check writes what it passed into the memory as it is on disk, so a check that loaded
    the memory before another's verdicts came does not drop them when it writes its own."""
    import treegen.files.checked as memory
    first, second = premises_of(composed)[:2]
    began = memory._recall()  # a long check loads the memory, then the other check goes on
    check_certificate(first)
    mine = dict(began)
    mine[hashlib.sha256(second.read_bytes()).hexdigest()] = check_certificate(second,
                                                                              remember=False)
    memory._remember(mine)  # the long check keeps its own verdict
    assert memory.remembered(first) and memory.remembered(second)


def test_premises_are_checked_in_parallel_processes_alike(composed, fresh_memory):
    told: list[str] = []
    proven = check_certificate(composed / "game.cert", jobs=2, told=lambda p, s: told.append(p))
    alone = check_certificate(composed / "game.cert", remember=False)
    assert proven == alone and len(told) == len(premises_of(composed)) + 1


#: The gate of :func:`_refused_after_the_other_passed`: set once the premise checked beside the
#: damaged one has passed (made before the check's processes are forked, so they share it).
_GATE: dict[str, object] = {}


def _refused_after_the_other_passed(path, known, budget, remember):
    """The check of one premise, the damaged one held until the other has passed and been kept,
    so that the refusal comes while nothing else is in flight, whatever the load."""
    if path == _GATE["damaged"]:
        assert _GATE["passed"].wait(120)
    try:
        return _GATE["real"](path, known, budget, remember)
    finally:
        if path == _GATE["other"]:
            _GATE["passed"].set()


_refused_after_the_other_passed.__module__ = __name__


@pytest.mark.skipif(not os.environ.get("CI") and len(os.sched_getaffinity(0)) < 2,
                    reason="two premises side by side need two processors")
def test_a_premise_passed_beside_one_refused_is_kept(composed, tmp_path, fresh_memory,
                                                     monkeypatch):
    """Premises checked side by side are each kept in the memory by the process that checked
    them, as it passes: a check refused at another premise (or stopped) before it hears of one
    does not lose it, and the next check does not check it again."""
    import multiprocessing

    import treegen.files.checked as memory
    target = copy(composed, tmp_path)
    first, second = memory._levels(str(target))[0][:2]  # the first two handed to the processes
    Path(first).write_bytes(Path(first).read_bytes()[:-10])
    _GATE.update(damaged=first, other=second, real=memory._check_one,
                 passed=multiprocessing.get_context("fork").Event())
    monkeypatch.setattr(memory, "_check_one", _refused_after_the_other_passed)
    with pytest.raises(CertificateError, match=Path(first).name):
        check_certificate(target, jobs=2)
    assert _GATE["passed"].is_set()  # the premises were checked through the gate
    assert memory.remembered(second) and not memory.remembered(first)


def copy(composed: Path, tmp_path: Path) -> Path:
    shutil.copy(composed / "game.cert", tmp_path / "game.cert")
    shutil.copytree(composed / "r.certificates", tmp_path / "r.certificates")
    return tmp_path / "game.cert"


def test_a_missing_or_damaged_premise_is_refused(composed, tmp_path, fresh_memory):
    target = copy(composed, tmp_path)
    victim = premises_of(tmp_path)[3]
    data = victim.read_bytes()
    victim.write_bytes(data[:-10])
    with pytest.raises(CertificateError, match=victim.name):
        check_certificate(target)
    victim.unlink()
    told: list[str] = []
    with pytest.raises(CertificateError, match=rf"{victim.name} is missing \(1 of"):
        check_certificate(target, told=lambda path, seconds: told.append(path))
    assert told == [], "a missing premise is said before any other is checked"


def test_a_premise_swapped_for_another_class_s_is_refused(composed, tmp_path, fresh_memory):
    target = copy(composed, tmp_path)
    header, _ = read_certificate(target.read_bytes())
    one, two = premises_of(tmp_path)[:2]
    one_bytes, two_bytes = one.read_bytes(), two.read_bytes()
    one.write_bytes(two_bytes)
    two.write_bytes(one_bytes)
    with pytest.raises(CertificateError, match="SHA-256"):
        check_certificate(target)
    # a header edited to match: the piece proves another class than the one it stands for
    digests = {p["file"]: p["sha256"] for p in header["premises"]}
    text = target.read_bytes()
    first, second = (digests[f"r.certificates/{p.name}"].encode() for p in (one, two))
    swapped = text.replace(first, b"X" * 64).replace(second, first).replace(b"X" * 64, second)
    target.write_bytes(swapped)
    with pytest.raises(CertificateError, match="another claim"):
        check_certificate(target)


def test_a_premise_named_outside_the_folder_is_refused(composed, tmp_path, fresh_memory):
    target = copy(composed, tmp_path)
    magic, header, body = target.read_bytes().split(b"\n", 2)
    data = json.loads(header)
    data["premises"][0]["file"] = "../" + data["premises"][0]["file"]
    target.write_bytes(magic + b"\n" + json.dumps(data).encode() + b"\n" + body)
    with pytest.raises(CertificateError, match="not a file in the certificate's folder"):
        check_certificate(target)
    assert check(str(composed / "game.cert")).bound > 0  # the honest one still passes
    assert os.path.exists(composed / "r.certificates")


def test_a_long_check_stopped_goes_on_from_the_claims_that_passed(tmp_path, monkeypatch):
    """Stopped after its 200th claim, a check keeps those that passed; the next check of the same
    file checks only the others, then forgets them."""
    import subprocess
    import sys

    import treegen.files.checked as memory
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    book = build_book("mastermind", "optimal")
    (tmp_path / "m.json").write_text(json.dumps(book))
    target = tmp_path / "m.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    claims = read_certificate(target.read_bytes())[0]["sizes"]["claims"]
    stopped = subprocess.run([sys.executable, "-m", "treegen", "verify", str(tmp_path / "m.json"),
                              "--certificate", str(target)], capture_output=True, text=True,
                             env={**os.environ, "TREEGEN_TEST_FAULT": "claim:200:INT"})
    assert stopped.returncode != 0 and "Traceback" not in stopped.stderr
    import hashlib
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    assert memory._recall_progress(digest) == set(range(200))
    checked: list[int] = []
    real = memory.certificate.check

    def counting(data, folder, known, done=(), passed=None, memory=None):
        def told(claim):
            checked.append(claim)
            passed(claim)
        return real(data, folder, known, done, told if passed else None, memory)

    monkeypatch.setattr(memory.certificate, "check", counting)
    assert check_certificate(target).bound == 5625
    assert sorted(checked) == list(range(200, claims))
    assert memory._recall_progress(digest) == set()  # passed: nothing to go on from


def test_a_check_in_pieces_is_timed_over_every_piece(tmp_path, monkeypatch):
    """The seconds a certificate's check took here add up over the pieces of a check stopped and
    taken up again, and stay once it passed: a campaign's class, checked over several runs, is
    listed in the library with that time, not checked again to time it."""
    import subprocess
    import sys

    import treegen.files.checked as memory
    from treegen.library import certificates
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    target = tmp_path / "m.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    assert memory.checked_seconds(target) is None
    book = tmp_path / "m.json"
    book.write_text(json.dumps(build_book("mastermind", "optimal")))
    stopped = subprocess.run([sys.executable, "-m", "treegen", "verify", str(book),
                              "--certificate", str(target)], capture_output=True, text=True,
                             env={**os.environ, "TREEGEN_TEST_FAULT": "claim:200:INT"})
    assert stopped.returncode != 0 and "Traceback" not in stopped.stderr
    assert memory.checked_seconds(target) is None  # a piece is not the time of a check
    first = memory._seconds(memory._read_signed(memory._SECONDS), memory.sha256_of(str(target)))
    assert first is not None
    assert check_certificate(target).bound == 5625
    whole = memory.checked_seconds(target)
    assert whole is not None and whole >= first
    assert certificates._checked_in(str(target), {"cost": 5625}) == whole


def test_the_claims_of_one_certificate_are_shared_among_processes(tmp_path, monkeypatch):
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    target = tmp_path / "m.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    alone = check_certificate(target, remember=False)
    assert check_certificate(target, remember=False, jobs=2) == alone
    # a flaw found by either process is the check's
    magic, header, body = target.read_bytes().split(b"\n", 2)
    data = json.loads(header)
    data["claim"]["bound"] = 5626
    raised = tmp_path / "raised.cert"
    raised.write_bytes(magic + b"\n" + json.dumps(data).encode() + b"\n" + body)
    with pytest.raises(CertificateError, match="not its statement"):
        check_certificate(raised, remember=False, jobs=2)
    # a claim deep in the file raised by one: the process whose share it is finds it
    from treegen.search.certificate_file import encode
    header, arrays = read_certificate(target.read_bytes())
    arrays = {name: values.copy() for name, values in arrays.items()}
    deep = int(np.flatnonzero(arrays["count"] > 0)[-1])
    arrays["bound"][deep] += 50
    (tmp_path / "deep.cert").write_bytes(encode(Game.preset("mastermind"), header["claim"], arrays))
    with pytest.raises(CertificateError, match=f"claim {deep} "):
        check_certificate(tmp_path / "deep.cert", remember=False, jobs=2)


def test_the_library_s_certification_stopped_goes_on_without_writing_again(tmp_path):
    """books certify, stopped in its check: the certificate written stays (``writing`` in the
    manifest) and the next run checks on from the claims that passed, then lists it."""
    import subprocess
    import sys

    from treegen import book as books
    from treegen.library import certificates
    lib = tmp_path / "lib"
    lib.mkdir()
    books.save(build_book("mastermind", "optimal"), lib / "mastermind-optimal-all.json")
    env = {**os.environ, "TREEGEN_STATE": str(tmp_path / "state")}
    command = [sys.executable, "-m", "treegen", "books", "certify", str(lib), "--only",
               "mastermind-optimal-all"]
    stopped = subprocess.run(command, capture_output=True, text=True,
                             env={**env, "TREEGEN_TEST_FAULT": "claim:100:INT"})
    assert stopped.returncode != 0 and "Traceback" not in stopped.stderr
    manifest = certificates.manifest(str(lib))
    written = manifest["writing"]["mastermind-optimal-all"]
    assert manifest["books"] == {} and written["check_seconds"] >= 0
    cert = (lib / "mastermind-optimal-all.cert").read_bytes()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    manifest = certificates.manifest(str(lib))
    item = manifest["books"]["mastermind-optimal-all"]
    assert (lib / "mastermind-optimal-all.cert").read_bytes() == cert  # not written again
    assert item["bound"] == 5625 and item["write_seconds"] == written["write_seconds"]
    assert manifest["writing"] == {}


def test_an_edited_memory_of_checked_certificates_is_not_trusted(tmp_path, monkeypatch):
    from treegen import settings
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    target = tmp_path / "m.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    check_certificate(target)
    memory = Path(settings.state_dir()) / "checked-certificates.json"
    data = json.loads(memory.read_text())
    remembered = next(iter(next(iter(data["checkers"].values()))["memory"].values()))
    assert remembered["bound"] == 5625
    remembered["bound"] = 6000  # a bound raised by hand: the signature no longer matches
    memory.write_text(json.dumps(data))
    assert check_certificate(target).bound == 5625  # checked again, not taken from the memory


def test_a_check_by_another_checker_keeps_this_one_s_memory(tmp_path, monkeypatch):
    """Another treegen's checker (an older checkout, run by mistake) trusts none of this one's
    verdicts and remembers its own beside them: they are still there for this one after it."""
    from treegen.files import checked, signing
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    target, other = tmp_path / "m.cert", tmp_path / "three.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    write_certificate(Claim(Game(symbols="123", length=2, repetition=True), 19), other)
    check_certificate(target)
    this = checked._LOADED
    monkeypatch.setattr(checked, "_LOADED", "another checker")
    assert not checked.remembered(target)
    check_certificate(other)
    assert checked.remembered(other)
    monkeypatch.setattr(checked, "_LOADED", this)
    assert checked.remembered(target) and not checked.remembered(other)
    # a memory written before several were kept, one checker's alone, is still read
    file = tmp_path / "state" / "checked-certificates.json"
    mine = json.loads(file.read_text())["checkers"][this]["memory"]
    file.write_text(json.dumps({"checker": this, "memory": mine, "signature": signing.sign(
        [this.encode(), checked._canonical(mine).encode()])}))
    assert checked.remembered(target)
    for n in range(6):  # the writer's memory is kept, and those of the last few before it
        monkeypatch.setattr(checked, "_LOADED", f"checker {n}")
        check_certificate(other)
    assert list(json.loads(file.read_text())["checkers"]) == [f"checker {n}" for n in range(2, 6)]


def test_a_checker_whose_files_change_while_it_runs_signs_with_the_checker_it_loaded(tmp_path):
    """A check that runs on while its files are replaced (a checkout, an upgrade) remembers its
    verdicts as those of the checker it loaded: a checker loaded afterwards, from the new files,
    trusts none of them."""
    import shutil
    import subprocess
    import sys

    import treegen
    from treegen.rules.game import Game
    from treegen.search.certify import Claim, write_certificate
    copy = tmp_path / "copy"
    shutil.copytree(Path(treegen.__file__).parent, copy / "treegen",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "_native.json"))
    target = tmp_path / "m.cert"
    write_certificate(Claim(Game.preset("mastermind"), 5625), target)
    env = {**os.environ, "TREEGEN_STATE": str(tmp_path / "state"), "PYTHONPATH": str(copy),
           "PYTHONDONTWRITEBYTECODE": "1"}
    floors = copy / "treegen" / "certificate" / "floors.py"
    edit = (f"import sys; from pathlib import Path; from treegen.files import checked; "
            f"p = Path({str(floors)!r}); p.write_text(p.read_text() + '# edited' + chr(10)); "
            f"checked.check_certificate(sys.argv[1]); "
            f"print(checked.remembered(sys.argv[1]), checked._checker() == checked._fingerprint())")
    ran = subprocess.run([sys.executable, "-c", edit, str(target)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["True", "False"]  # its own verdict; the files are another's
    again = "import sys; from treegen.files import checked; print(checked.remembered(sys.argv[1]))"
    ran = subprocess.run([sys.executable, "-c", again, str(target)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0 and ran.stdout.strip() == "False", ran.stderr


def test_the_library_proves_a_depth_limited_book_by_the_certificate_without_the_limit(tmp_path,
                                                                                        monkeypatch):
    """Mastermind's optimum is reached within 6 guesses: its certificate proves the depth-6 book
    too, and none is written for it; within 5 guesses the optimum is 5626, which needs its own."""
    from treegen import book as books
    from treegen.library import certificates
    from treegen.library.catalogue import Entry
    from treegen.rules.game import Game
    from treegen.search.options import SearchOptions
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    lib = tmp_path / "lib"
    lib.mkdir()
    game = Game.preset("mastermind")
    chosen = [Entry(game, "optimal", "all", max_depth=depth) for depth in (None, 6, 5)]
    for entry in chosen:
        book = build_book(game, "optimal", search=SearchOptions(max_depth=entry.max_depth, jobs=1))
        books.save(book, lib / entry.book_file)
    certificates.certify_library(str(lib), chosen)
    items = certificates.manifest(str(lib))["books"]
    whole, six, five = (items[entry.name] for entry in chosen)
    assert six["file"] == whole["file"] == "mastermind-optimal-all.cert" and six["bound"] == 5625
    assert six["book_sha256"] != whole["book_sha256"]
    assert not (lib / "mastermind-optimal-depth6-all.cert").exists()
    assert five["file"] == "mastermind-optimal-depth5-all.cert" and five["bound"] == 5626
    assert sorted(os.listdir(lib)) == sorted(
        [*(entry.book_file for entry in chosen), "mastermind-optimal-all.cert",
         "mastermind-optimal-depth5-all.cert", certificates.MANIFEST, certificates.IGNORED])


def test_a_class_certified_where_it_was_written_is_not_certified_again(tmp_path, fresh_memory):
    """A record's class certificate kept out of the repository: named in ``elsewhere`` (the
    library's manifest), the class stays certified and nothing is written; not named, its
    certificate is written again (the same file: certified again the way it was certified)."""
    from treegen.search.classes import certify_record
    solve_classes("mastermind", "1123", tmp_path / "r.json", certificates=False)
    certify_record(tmp_path / "r.json")
    largest = max(premises_of(tmp_path), key=lambda path: path.stat().st_size)
    data = largest.read_bytes()
    largest.unlink()
    entry = next(e for e in load_record(tmp_path / "r.json")["classes"]
                 if e.get("certificate", {}).get("file", "").endswith("/" + largest.name))
    assert not entry.get("certified")  # absent and not named: an upper bound only
    named = {entry["certificate"]["sha256"]: entry["cost"]}
    record = certify_record(tmp_path / "r.json", elsewhere=named)
    again = next(e for e in record["classes"] if e["feedback"] == entry["feedback"])
    assert again["certified"] and not again["checked_here"] and not largest.exists()
    assert record["certified"] == sum("certificate" in e for e in record["classes"])
    record = certify_record(tmp_path / "r.json")
    assert largest.read_bytes() == data  # written again, the same file


def test_a_class_certificate_taken_up_after_its_check_is_timed_by_a_check(tmp_path, fresh_memory,
                                                                          monkeypatch):
    """A record committed without naming a class's certificate (its check's time unknown) takes
    the file up again; its verdict is remembered here, so the check that names it takes no time,
    and says nothing of what a check takes: the class is told with neither time, and the library
    lists what a check of it does take, measured by checking it."""
    import treegen.files.checked as memory
    from treegen.library import certificates
    from treegen.search.classes import certify_record
    from treegen.search.records import record_text
    path = tmp_path / "r.json"
    solve_classes("mastermind", "1123", path)
    record = load_record(path)
    entry = max((e for e in record["classes"] if "certificate" in e), key=lambda e: e["cost"])
    cert = tmp_path / entry["certificate"]["file"]
    assert memory.remembered(cert)
    del entry["certificate"]
    path.write_text(record_text(record))
    told = []
    certify_record(path, told=told.append)
    assert [(e["feedback"], e["seconds"], e["check_seconds"]) for e in told] == \
        [(entry["feedback"], None, None)]
    memory._forget_seconds(memory.sha256_of(str(cert)))  # timed nowhere: listing must check it
    claims = []
    monkeypatch.setattr("treegen.faults.reached", lambda event: claims.append(event))
    seconds = certificates._checked_in(str(cert), entry)
    assert "claim" in claims and seconds is not None and seconds == memory.checked_seconds(cert)


# -- a premise looked at again before a remembered verdict is used ------------------------------

def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()


def _dangling(path: Path) -> None:
    path.symlink_to(path.parent / "gone.cert")


def _device(path: Path) -> None:
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize("replace", [_fifo, _folder, _dangling, _device],
                         ids=["fifo", "folder", "dangling-link", "dev-zero"])
def test_a_premise_replaced_after_a_check_that_passed_is_refused(composed, tmp_path, fresh_memory,
                                                                 replace):
    """The memory of checked certificates knows bytes, not files: a certificate that passed is
    taken from it only once each premise is found again, the same regular file in its folder."""
    target = copy(composed, tmp_path)
    assert check_certificate(target).bound > 0  # remembered
    victim = premises_of(tmp_path)[2]
    victim.unlink()
    replace(victim)
    with pytest.raises(CertificateError, match=victim.name) as info:
        check_certificate(target)
    assert "\n" not in str(info.value)


def test_a_remembered_certificate_whose_premise_changed_is_refused_by_the_checker(composed):
    """The checker's own memory (``checked``) as well: a premise edited after its verdict."""
    checked: dict = {}
    data = (composed / "game.cert").read_bytes()
    assert check(data, str(composed), checked).bound > 0
    folder = composed.parent / (composed.name + "-edited")
    shutil.copytree(composed, folder)
    victim = premises_of(folder)[0]
    victim.write_bytes(victim.read_bytes() + b"x")
    with pytest.raises(CheckError, match="SHA-256 differs"):
        check(data, str(folder), checked)
    assert check(data, str(composed), checked).bound > 0


def test_a_premise_linked_inside_the_folder_counts_and_outside_is_refused(composed, tmp_path,
                                                                          fresh_memory):
    """A premise is a file of the certificate's folder: a link to a copy inside it stands for the
    file, a link to the very same bytes outside it is refused, remembered verdict or not."""
    folder = tmp_path / "cert"
    folder.mkdir()
    target = copy(composed, folder)
    victim = premises_of(folder)[1]
    kept = folder / "kept.bin"
    victim.rename(kept)
    victim.symlink_to(kept)
    assert check_certificate(target).bound > 0
    outside = tmp_path / "outside.bin"
    shutil.copy(kept, outside)
    victim.unlink()
    victim.symlink_to(outside)
    for remember in (True, False):
        with pytest.raises(CertificateError, match="leads out of the certificate's folder"):
            check_certificate(target, remember=remember)


def test_the_library_writes_again_a_certificate_whose_premise_was_written_again(composed,
                                                                                 tmp_path):
    """The library keeps a certificate that is the very file its manifest lists only while the
    premises beside it are those it names: one class's certificate written again makes the
    game's stale; one kept out of the folder says nothing either way."""
    from treegen.library.certificates import _digest, _whole
    target = copy(composed, tmp_path)
    item = {"file": target.name, "sha256": _digest(str(target))}
    assert _whole(str(tmp_path), item)
    one, two = premises_of(tmp_path)[:2]
    one.unlink()  # kept out of the repository
    assert _whole(str(tmp_path), item)
    two.write_bytes(two.read_bytes() + b"\n")  # written again: not the file the game's names
    assert not _whole(str(tmp_path), item)
    assert not _whole(str(tmp_path), {**item, "sha256": "0" * 64})


def test_a_memory_is_changed_by_one_process_at_a_time(fresh_memory):
    """Processes checking side by side keep each other's news: while one changes a memory of the
    state folder, another waits, then changes what the first wrote."""
    import fcntl
    import multiprocessing
    import time

    import treegen.files.checked as memory
    from treegen import settings
    context = multiprocessing.get_context("fork")
    heard = context.Queue()

    def try_lock(path: str) -> None:
        fd = os.open(path, os.O_RDWR)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            heard.put("free")
        except OSError:  # EAGAIN or EACCES, as the system says it
            heard.put("held")

    def look(path: str) -> str:
        process = context.Process(target=try_lock, args=(path,))
        process.start()
        process.join()
        return heard.get()

    def add_seconds() -> None:
        changing.wait()
        memory._add_seconds("b" * 64, time.monotonic() - 5)

    lock = os.path.join(settings.state_dir(), memory._SECONDS + ".lock")
    changing = context.Event()
    other = context.Process(target=add_seconds)
    try:
        other.start()
        with memory._changing(memory._SECONDS) as seconds:
            assert look(lock) == "held"
            changing.set()  # the other process waits for this change to be written
            seconds["a" * 64] = 1.0
        other.join()
        assert other.exitcode == 0 and look(lock) == "free"
    finally:
        if other.is_alive():
            other.kill()
            other.join()
    kept = memory._read_signed(memory._SECONDS)
    assert kept["a" * 64] == 1.0 and kept["b" * 64] >= 5
