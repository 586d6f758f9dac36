"""One error family: every exception class of treegen in errors.py, each name meaning one thing; a
crash of the certificate checker told as a crash, never as a verdict on the file; a user
strategy's own exception kept as the cause of the one line treegen says."""

from __future__ import annotations

import ast
import builtins
import os
import re
import signal
from pathlib import Path

import pytest

import treegen.settings
from treegen.certificate import claims
from treegen.errors import CertificateError, CheckerCrash, StrategyError
from treegen.files import checked
from treegen.files.checked import check_certificate
from treegen.rules.game import Game
from treegen.strategies.user import load_user

PACKAGE = Path(__file__).resolve().parent.parent / "treegen"
#: The exceptions allowed outside errors.py: the player's family (player.py imports nothing) and
#: the certificate checker's own (the checker imports nothing of treegen).
OUTSIDE = {("player.py", "TreegenError"), ("player.py", "PlayerError"),
           ("player.py", "MalformedAnswer"), ("player.py", "ImpossibleAnswer"),
           ("player.py", "NoSuchBranch"), ("certificate/file.py", "CertificateRefused")}


def exception_classes() -> list[tuple[str, str]]:
    """(module file, class name) of every class of the package deriving from an exception or a
    warning: a built-in one, one named like one (imported from elsewhere), or one of the
    package's own, followed to a fixed point."""
    found: list[tuple[str, str, list[str]]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).rpartition(".")[2] for b in node.bases]
                found.append((path.relative_to(PACKAGE).as_posix(), node.name, bases))
    exceptions = {name for name in dir(builtins)
                  if isinstance(getattr(builtins, name), type)
                  and issubclass(getattr(builtins, name), BaseException)}
    named_like = re.compile(r".*(Error|Exception|Warning)$")
    ours: list[tuple[str, str]] = []
    while True:
        more = [(where, name) for where, name, bases in found if (where, name) not in ours
                and any(b in exceptions or named_like.match(b) for b in bases)]
        if not more:
            return ours
        ours += more
        exceptions |= {name for _, name in more}


def test_every_exception_class_of_treegen_is_defined_in_errors_py():
    classes = exception_classes()
    assert ("search/checkpoint.py", "CheckpointWarning") not in classes  # the walk finds them
    assert ("errors.py", "CheckpointWarning") in classes and ("errors.py", "Layout") in classes
    assert [c for c in classes if c[0] != "errors.py" and c not in OUTSIDE] == []


def test_no_two_exception_classes_share_a_name():
    names = [name for _, name in exception_classes()]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_the_family_is_drawn_in_the_docstring_of_errors_py():
    import treegen.errors
    doc = treegen.errors.__doc__ or ""
    drawn = set(re.findall(r"^ {4,}(\w+)", doc, re.M))
    assert {name for _, name in exception_classes()} - {"CertificateRefused"} <= drawn


# A crash of the checker is the checker's, not the file's.

@pytest.fixture
def small_certificate(tmp_path, monkeypatch) -> Path:
    """A certificate of a game of 125 codes with several claims, in a memory of this test alone,
    checked as if on two cores."""
    from treegen.search.certify import Claim, write_certificate
    monkeypatch.setenv("TREEGEN_STATE", str(tmp_path / "state"))
    monkeypatch.setattr(treegen.settings, "usable_cores", lambda: 2)
    target = tmp_path / "small.cert"
    write_certificate(Claim(Game("12345", 3, True), 450), target)
    return target


def crash_the_checker(monkeypatch, how: str) -> None:
    """Make the checker itself fail on every claim, as a defect would: an exception, or the
    process checking killed (in a worker only: the test's own process is kept)."""
    here = os.getpid()

    def failing(self, *args, **kwargs):
        if how == "kill" and os.getpid() != here:
            os.kill(os.getpid(), signal.SIGKILL)
        raise RuntimeError("the checker's own defect")

    monkeypatch.setattr(claims.Checker, "_claim", failing)


@pytest.fixture
def watchdog():
    """A check that waits forever for a dead process fails instead of hanging the run."""
    def expired(signum, frame):
        raise AssertionError("the check waited for a process that had died")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(600)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def assert_a_crash(info: pytest.ExceptionInfo[BaseException], paths: list[Path], said: str,
                   what: str = "crashed") -> None:
    """A one-line CheckerCrash (no verdict on the file) naming the file, what happened and why."""
    message = str(info.value)
    assert isinstance(info.value, CheckerCrash) and not isinstance(info.value, CertificateError)
    assert any(message.startswith(f"{path}: ") for path in paths), message
    assert what in message and said in message and "not judged" in message, message
    assert "proves nothing" not in message and "\n" not in message


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_checker_that_raises_is_a_crash_naming_the_exception_and_where(
        small_certificate, monkeypatch, jobs):
    crash_the_checker(monkeypatch, "raise")
    with pytest.raises(Exception) as info:
        check_certificate(small_certificate, remember=False, jobs=jobs)
    assert_a_crash(info, [small_certificate], "RuntimeError: the checker's own defect")
    assert re.search(r" in \w+ \(certificate/claims\.py:\d+\)", str(info.value))


def test_a_premise_checker_that_raises_in_its_process_is_a_crash(small_certificate, monkeypatch):
    other = small_certificate.with_name("other.cert")
    other.write_bytes(small_certificate.read_bytes())
    crash_the_checker(monkeypatch, "raise")
    with pytest.raises(Exception) as info:
        list(checked._check_all([str(small_certificate), str(other)], {}, 2, 1 << 30, False))
    assert_a_crash(info, [small_certificate, other], "RuntimeError: the checker's own defect")
    assert re.search(r" in \w+ \(certificate/claims\.py:\d+\)", str(info.value))


def test_a_checking_process_killed_is_a_crash_not_a_wait(small_certificate, monkeypatch,
                                                         watchdog):
    crash_the_checker(monkeypatch, "kill")
    with pytest.raises(Exception) as info:
        check_certificate(small_certificate, remember=False, jobs=2)
    assert_a_crash(info, [small_certificate], f"killed by signal {int(signal.SIGKILL)}", "died")


def test_a_premise_s_process_killed_is_a_crash(small_certificate, monkeypatch, watchdog):
    other = small_certificate.with_name("other.cert")
    other.write_bytes(small_certificate.read_bytes())
    crash_the_checker(monkeypatch, "kill")
    with pytest.raises(Exception) as info:
        list(checked._check_all([str(small_certificate), str(other)], {}, 2, 1 << 30, False))
    assert isinstance(info.value, CheckerCrash) and not isinstance(info.value, CertificateError)
    assert "a process of the certificate checker died" in str(info.value)
    assert "not judged" in str(info.value) and "proves nothing" not in str(info.value)


def test_a_refusal_is_still_the_file_s_verdict(small_certificate, monkeypatch):
    data = small_certificate.read_bytes()
    small_certificate.write_bytes(data[:-10])
    for jobs in (1, 2):
        with pytest.raises(CertificateError, match=re.escape(str(small_certificate))):
            check_certificate(small_certificate, remember=False, jobs=jobs)


# A user strategy's own exception is the cause of treegen's one line.

def test_a_user_strategy_s_exception_is_the_cause(plugin):
    from treegen.api import build_book
    module = plugin("class Oops(Exception):\n    pass\n"
                    "def s(state):\n    raise Oops('the strategy broke')\n")
    with pytest.raises(StrategyError, match="failed at the start of the game") as info:
        build_book(Game("ABCD", 3, True), f"{module}:s")
    cause = info.value.__cause__
    assert type(cause).__name__ == "Oops" and str(cause) == "the strategy broke"
    assert cause.__traceback__ is not None


@pytest.mark.parametrize("source, name, said", [
    ("raise LookupError('no table')\n", "s", "cannot import module"),
    ("class S:\n    def __init__(self):\n        raise LookupError('no table')\n", "S",
     "cannot create strategy"),
])
def test_a_user_strategy_that_cannot_load_keeps_its_exception(plugin, source, name, said):
    module = plugin(source)
    with pytest.raises(StrategyError, match=said) as info:
        load_user(f"{module}:{name}")
    assert isinstance(info.value.__cause__, LookupError)
    assert str(info.value.__cause__) == "no table"


def test_the_command_line_still_says_one_line(plugin, run):
    module = plugin("def s(state):\n    raise RuntimeError('boom')\n")
    result = run("build", "--symbols", "ABCD", "--length", "3", "-s", f"{module}:s")
    assert result.exit_code != 0
    assert "failed at the start of the game: RuntimeError: boom" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def _wait_for_sigterm(ready):
    ready.set()
    signal.pause()  # until the signal ends this process


def test_a_process_forked_from_a_command_ends_quietly_on_sigterm():
    """A pool being stopped may signal a worker it has only just forked, before the worker sets
    its own handlers: the command's handler, inherited, ends it quietly (exit 128 + 15) instead
    of raising KeyboardInterrupt there, which printed a traceback."""
    import multiprocessing

    from treegen.errors import forget_interrupts, interrupt
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        forget_interrupts()
        context = multiprocessing.get_context("fork")
        ready = context.Event()
        child = context.Process(target=_wait_for_sigterm, args=(ready,))
        child.start()
        try:
            assert ready.wait(60)
            os.kill(child.pid, signal.SIGTERM)
            child.join(60)
            assert child.exitcode == 128 + signal.SIGTERM
        finally:
            if child.is_alive():
                child.kill()
                child.join()
    finally:
        signal.signal(signal.SIGTERM, previous)
