"""Certificates checked here before: the independent checker (:mod:`treegen.certificate`) with a
memory of its verdicts.

A certificate that passed is remembered, by its SHA-256 and the checker's own, in a file of the
state folder signed with this user's key (:mod:`treegen.files.signing`): reading the records of a
long campaign again checks only what is new, and an edited memory is simply not trusted. A
certificate's premises (a game's certificate resting on its records' class certificates) are
checked one by one, deepest first, each remembered as it passes and its claims as they pass: a
check of hours, stopped, goes on from the premises it has done and the claims of the one it was
in, and premises are checked in parallel processes when asked.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import queue
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from treegen import certificate, faults, settings
from treegen.certificate import Proven
from treegen.errors import CertificateError, CheckerCrash, SigningError, TreegenError, interrupted
from treegen.files import signing
from treegen.files.atomic import write_atomic
from treegen.player import brief

__all__ = ["check_certificate", "checked_seconds", "remembered"]

_MEMORY = "checked-certificates.json"
#: The claims that passed in checks stopped before they ended, by certificate.
_PROGRESS = "certificate-progress.json"
#: The seconds each certificate's own check took here, over every piece of it, by certificate.
_SECONDS = "certificate-seconds.json"
#: The most claims a memory of progress names (beyond any certificate).
_MOST_CLAIMS = 1 << 40
#: The checkers whose memories a file keeps, this one's last: the others are kept as found.
_CHECKERS_KEPT = 4


#: How deep premises of premises are followed ahead of the check (it follows them all).
_MOST_LEVELS = 16
#: Seconds between keeping the memory of premises passed, while a check goes on.
_KEEP_EVERY = 30
#: Seconds between looks at the processes of a shared check, for one that died without a word.
_LOOK_EVERY = 0.5


def check_certificate(path: str | os.PathLike[str], remember: bool = True, jobs: int = 1,
                      told: Callable[[str, float], None] | None = None,
                      again: bool = False) -> Proven:
    """Check a certificate file (and its premises); a one-line CertificateError on any flaw.
    Certificates this checker passed before, here, are not checked again (``remember``; with
    ``again``, the file itself is, its claims that passed in a check stopped before apart); its
    premises are checked first, each on its own (``jobs`` at a time), and its claims shared among
    ``jobs`` processes; ``told`` hears the path and seconds of each file checked, its own last."""
    if not isinstance(path, (str, os.PathLike)):
        raise CertificateError(f"a certificate's path must be a path, not {brief(path)}")
    path = os.fspath(path)
    if not isinstance(path, str):
        raise CertificateError(f"a certificate's path must be text, not {brief(path)}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise CertificateError(f"jobs must be a whole number of processes, 1 or more, not "
                               f"{brief(jobs)}")
    jobs = min(jobs, settings.usable_cores())  # more processes than cores only wait their turn
    budget = settings.available_memory()
    try:  # the file itself first: nothing is started for what is no certificate
        with _judging(path):
            certificate.read_header(certificate.read_file(path, budget), budget)
    except certificate.CertificateRefused as exc:
        raise CertificateError(f"{path}: {exc}") from None
    memory = _recall() if remember else {}
    if again:
        memory.pop(sha256_of(path) or "", None)
    known = dict(memory)
    kept = time.monotonic()
    levels = _levels(path)
    absent = [premise for level in levels for premise in level if not os.path.exists(premise)]
    if absent:  # said at once, not after hours of checking the others
        raise CertificateError(f"{path}: its premise {absent[0]} is missing ({len(absent)} of "
                               f"{sum(map(len, levels))} absent): it proves nothing without them")
    try:
        for level in reversed(levels):
            for premise, digest, proven, seconds in _check_all(level, known, jobs, budget,
                                                               remember):
                known[digest] = proven
                if remember and time.monotonic() - kept > _KEEP_EVERY:
                    _remember(known)
                    kept = time.monotonic()
                if told is not None:
                    told(premise, seconds)
        began = time.monotonic()
        proven, _ = _check_in_parts(path, known, remember, jobs, budget)
        if told is not None:
            told(path, time.monotonic() - began)
    except certificate.CertificateRefused as exc:
        raise CertificateError(f"{path}: {exc}") from None
    finally:
        if remember and len(known) > len(memory):
            _remember(known)  # what passed, also when a premise failed or the check was stopped
    return proven


def _check_in_parts(path: str, known: dict[str, Proven], remember: bool, jobs: int,
                    budget: int) -> tuple[Proven, str]:
    """Check one certificate, its premises known, its claims shared among ``jobs`` processes:
    what it proves, and the SHA-256 of the bytes checked. With ``remember``, the claims that
    passed are kept as the check goes (in a memory signed like the other), and a check stopped
    goes on from them; the memory of a certificate is dropped once it passes. A certificate
    known passes once its premises are found again as they were (the checker looks at them)."""
    with _judging(path):
        data = certificate.read_file(path, budget)
        header, _ = certificate.read_header(data, budget)
    digest = hashlib.sha256(data).hexdigest()
    jobs = min(jobs, header["sizes"]["claims"])  # a process a claim at most
    if digest in known or (not remember and jobs <= 1):
        with _judging(path):
            return certificate.check(data, os.path.dirname(path), known, memory=budget), digest
    done = _recall_progress(digest) if remember else set()
    kept = time.monotonic()
    if remember and not done:  # a check from its first claim: the time of any before is not its
        _forget_seconds(digest)

    def passed(claim: int) -> None:
        nonlocal kept
        done.add(claim)
        faults.reached("claim")
        if time.monotonic() - kept > _KEEP_EVERY:
            _keep_progress(digest, done)
            kept = _add_seconds(digest, kept)

    before = len(done)
    try:
        if jobs > 1:
            proven = _check_shared(path, data, known, frozenset(done), passed, jobs, budget)
            known[digest] = proven
        else:
            with _judging(path):
                proven = certificate.check(data, os.path.dirname(path), known, frozenset(done),
                                           passed, budget)
    except BaseException:
        if remember and len(done) > before:
            _keep_progress(digest, done)
            _add_seconds(digest, kept)
        raise
    if remember:
        _keep_progress(digest, None)
        _add_seconds(digest, kept)
    return proven, digest


def remembered(path: str | os.PathLike[str]) -> bool:
    """Whether this checker passed the certificate at ``path`` before, here: a check of it now
    takes no time, and says nothing of what a check takes."""
    return (sha256_of(os.fspath(path)) or "") in _recall()


def checked_seconds(path: str | os.PathLike[str]) -> float | None:
    """The seconds the check of the certificate at ``path`` (itself, not its premises) took
    here, added up over every piece of a check stopped and taken up again; None where this
    checker has not timed a whole check of it here (a check stopped part way times only its
    pieces so far)."""
    digest = sha256_of(os.fspath(path)) or ""
    if _recall_progress(digest):
        return None
    return _seconds(_read_signed(_SECONDS), digest)


def whole_checked_seconds(path: str | os.PathLike[str]) -> float | None:
    """The seconds the checks of the certificate at ``path`` and of every premise below it took
    here (:func:`checked_seconds` of each): what a check of it from nothing takes, where a
    class's certificate rests on facts that no index lists on their own; None where any of them
    was not timed here."""
    path = os.fspath(path)
    total = 0.0
    for name in [path, *(premise for level in _levels(path) for premise in level)]:
        seconds = checked_seconds(name)
        if seconds is None:
            return None
        total += seconds
    return total


def _seconds(memory: Mapping[str, Any], digest: str) -> float | None:
    seconds = memory.get(digest)
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and \
            0 <= seconds < 1e9:
        return float(seconds)
    return None


def _forget_seconds(digest: str) -> None:
    with _changing(_SECONDS) as memory:
        memory.pop(digest, None)


def _add_seconds(digest: str, since: float) -> float:
    """Add the seconds since ``since`` to those the certificate's check took here; now."""
    now = time.monotonic()
    with _changing(_SECONDS) as memory:
        memory[digest] = round((_seconds(memory, digest) or 0.0) + now - since, 1)
    return now


def _check_shared(path: str, data: bytes, known: dict[str, Proven], done: frozenset[int],
                  passed: Callable[[int], None], jobs: int, budget: int) -> Proven:
    """Check a certificate's claims in ``jobs`` forked processes, claim i in process i mod jobs
    (each follows the others' claims to the sets they name), hearing of each claim that passes.
    Each process may use its share of the memory. A process that dies without a word (killed)
    is the checker's crash: nothing waits for it."""
    context = get_context("fork")
    heard = context.Queue()
    share = max(1, budget // jobs)
    workers = [context.Process(target=_check_share,
                               args=(path, data, known, done, k, jobs, heard, share),
                               daemon=True) for k in range(jobs)]
    for worker in workers:
        worker.start()
    finished: list[Proven] = []
    try:
        while len(finished) < jobs:
            try:
                message = heard.get(timeout=_LOOK_EVERY)
            except queue.Empty:
                dead = [w.exitcode for w in workers if w.exitcode not in (None, 0)]
                if dead:
                    raise CheckerCrash(f"{path}: a process of the certificate checker died "
                                       f"({_exit_text(dead[0])}); the file was not judged") from None
                continue
            if isinstance(message, int):
                passed(message)
            elif isinstance(message, Proven):
                finished.append(message)
            else:  # the file's refusal, the checker's crash, or no memory left
                raise message
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
    return finished[0]


def _check_share(path: str, data: bytes, known: dict[str, Proven], done: frozenset[int],
                 share: int, jobs: int, heard: Any, budget: int) -> None:
    """One process's share of a shared check: its claims, the others followed only. Whatever
    ends it is told to the parent as the exception it raises there."""
    try:
        with _judging(path):
            claims = certificate.read_header(data, budget)[0]["sizes"]["claims"]
            others = frozenset(i for i in range(claims) if i % jobs != share) | done
            heard.put(certificate.check(data, os.path.dirname(path), dict(known), others,
                                        heard.put, budget))
    except (certificate.CertificateRefused, CheckerCrash, MemoryError) as exc:
        heard.put(exc)
    except BaseException as exc:  # Ctrl-C, or an exit inside the check: a crash all the same
        heard.put(_crash(path, exc))


def _recall_progress(digest: str) -> set[int]:
    """The claims of the certificate of this SHA-256 that passed in a check stopped before."""
    ranges = _read_signed(_PROGRESS).get(digest)
    done: set[int] = set()
    if isinstance(ranges, list):
        for pair in ranges:
            if isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair) \
                    and 0 <= pair[0] <= pair[1] < _MOST_CLAIMS:
                done.update(range(pair[0], pair[1] + 1))
    return done


def _keep_progress(digest: str, done: set[int] | None) -> None:
    """Keep the claims that passed (as ranges), or forget the certificate (None)."""
    with _changing(_PROGRESS) as progress:
        if done is None:
            progress.pop(digest, None)
            return
        ranges: list[list[int]] = []
        for claim in sorted(done):
            if ranges and ranges[-1][1] == claim - 1:
                ranges[-1][1] = claim
            else:
                ranges.append([claim, claim])
        progress[digest] = ranges


@contextlib.contextmanager
def _changing(name: str) -> Iterator[dict[str, Any]]:
    """This checker's memory in a file of the state folder, to change: read and written back
    (when changed) with no other process here doing so meanwhile. Processes checking side by
    side each wrote back what they had read, and each lost the other's news: claims passed, the
    seconds a check took."""
    with _locked(name):
        memory = dict(_read_signed(name))
        before = json.dumps(memory, sort_keys=True)
        yield memory
        if json.dumps(memory, sort_keys=True) != before:
            _write_signed(name, memory)


@contextlib.contextmanager
def _locked(name: str) -> Iterator[None]:
    """An exclusive lock on a memory of the state folder (a file beside it), held while the
    body runs; none where the folder will not take one (a memory unlocked only risks news
    lost, as a memory not kept does)."""
    fd = None
    try:
        os.makedirs(settings.state_dir(), mode=0o700, exist_ok=True)
        fd = os.open(os.path.join(settings.state_dir(), name + ".lock"),
                     os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.lockf(fd, fcntl.LOCK_EX)  # the process's own: a child forked meanwhile holds none
    except (OSError, TreegenError):
        if fd is not None:
            os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # and with it the lock


def _read_signed(name: str) -> dict[str, Any]:
    """A memory of the state folder, if this user signed it for this checker; else empty."""
    entry = _memories(name).get(_checker())
    if not isinstance(entry, dict) or not isinstance(entry.get("memory"), dict):
        return {}
    try:
        signed = signing.matches(entry.get("signature"),
                                 [_checker().encode(), _canonical(entry["memory"]).encode()])
    except SigningError:
        return {}
    memory: dict[str, Any] = entry["memory"]
    return memory if signed else {}


def _memories(name: str) -> dict[str, Any]:
    """Every checker's memory in a file of the state folder, by the checker's fingerprint, as
    found (each is judged only by its own checker); a file of one checker's memory, as written
    before several were kept, is that one."""
    try:
        with open(os.path.join(settings.state_dir(), name), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    if isinstance(data.get("checker"), str):  # one checker's memory alone
        return {data["checker"]: {"memory": data.get("memory"),
                                  "signature": data.get("signature")}}
    kept = data.get("checkers")
    return {key: value for key, value in kept.items() if isinstance(key, str)} \
        if isinstance(kept, dict) else {}


def _write_signed(name: str, memory: Mapping[str, Any]) -> None:
    """Keep this checker's memory beside those of the last few others (a check run with another
    treegen, an older one in another checkout, say, must not wipe out hours of this one's)."""
    try:
        others = {key: value for key, value in _memories(name).items() if key != _checker()}
        kept = dict(list(others.items())[-(_CHECKERS_KEPT - 1):]) if _CHECKERS_KEPT > 1 else {}
        kept[_checker()] = {"memory": memory,
                            "signature": signing.sign([_checker().encode(),
                                                       _canonical(memory).encode()])}
        text = json.dumps({"checkers": kept}, sort_keys=False)
        os.makedirs(settings.state_dir(), mode=0o700, exist_ok=True)
        write_atomic(os.path.join(settings.state_dir(), name), text + "\n")
    except (OSError, TreegenError):
        pass  # a memory that cannot be kept only costs checking again


def _levels(path: str) -> list[list[str]]:
    """The premise files a certificate names, level by level (its own premises first), each once;
    a name the checker would refuse is left for it to refuse."""
    levels: list[list[str]] = []
    seen: set[str] = set()
    current = [path]
    while current and len(levels) < _MOST_LEVELS:
        below = []
        for name in current:
            for premise in _premises(name):
                if premise not in seen and len(seen) < certificate.MOST_PREMISES:
                    seen.add(premise)
                    below.append(premise)
        if below:
            levels.append(below)
        current = below
    return levels


def _premises(path: str) -> list[str]:
    """The premises a certificate names, where the checker looks for them (a name it would
    refuse, or one leading out of the certificate's folder, is left for it to refuse)."""
    folder = os.path.dirname(path)
    try:
        header, _ = certificate.read_header(certificate.read_file(path))
    except certificate.CertificateRefused:
        return []
    premises = header.get("premises")
    found = []
    for premise in premises if isinstance(premises, list) else []:
        name = premise.get("file") if isinstance(premise, dict) else None
        try:
            found.append(certificate.premise_path(folder, name))
        except certificate.CertificateRefused:
            continue
    return found


def _check_all(paths: list[str], known: Mapping[str, Proven], jobs: int, budget: int,
               remember: bool) -> Iterator[tuple[str, str, Proven, float]]:
    """Check the certificates not known yet, in this process or ``jobs`` others (each with its
    share of the memory): (path, SHA-256, what it proves, seconds) of each as it passes. With
    ``remember`` each keeps the claims that passed as it goes, as :func:`_check_in_parts` does:
    a premise of hours, stopped, goes on from them (processes checking side by side each keep
    their own certificate's, in the one memory); and one that another check here passed since
    this one began is taken as passed, not checked again. Each is kept in the memory by the
    process that checked it as it passes, and told here as it ends, in any order."""
    todo = []
    for path in paths:
        digest = sha256_of(path)
        if digest is not None and digest not in known:
            todo.append(path)
    if jobs <= 1 or len(todo) <= 1:
        for path in todo:
            yield _check_one(path, dict(known), budget, remember)
        return
    workers = min(jobs, len(todo))
    try:
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            share = max(1, budget // workers)
            futures = [pool.submit(_check_one, path, dict(known), share, remember)
                       for path in todo]
            try:  # each as it ends: a premise of minutes is not told after one of hours
                for future in as_completed(futures):
                    yield future.result()
            except BaseException:
                for future in futures:  # those not begun; those begun end (and are kept)
                    future.cancel()
                raise
    except BrokenProcessPool as exc:
        raise CheckerCrash(f"a process of the certificate checker died ({exc}); the certificates "
                           "it checked were not judged") from exc


def _check_one(path: str, known: dict[str, Proven], budget: int, remember: bool
               ) -> tuple[str, str, Proven, float]:
    began = time.monotonic()
    if remember:  # passed meanwhile by another check here (two may work from either end)
        digest = sha256_of(path) or ""
        passed = _recall().get(digest)
        if passed is not None:
            return path, digest, passed, 0.0
    try:
        proven, digest = _check_in_parts(path, known, remember, 1, budget)
    except certificate.CertificateRefused as exc:
        raise certificate.CertificateRefused(f"its premise {path}: {exc}") from None
    if remember:  # kept here at once: a check stopped before it hears of this loses nothing
        _remember({digest: proven})
    return path, digest, proven, time.monotonic() - began


@contextlib.contextmanager
def _judging(path: str) -> Iterator[None]:
    """Around the checker's work on ``path``: its refusal is the file's verdict; any other
    exception it raises is its own crash (:class:`CheckerCrash`), never a verdict on the file.
    Ctrl-C and a lack of memory pass as they are."""
    try:
        yield
    except (certificate.CertificateRefused, TreegenError, MemoryError):
        raise
    except Exception as exc:
        if interrupted(exc):
            raise
        raise _crash(path, exc) from exc


def _crash(path: str, exc: BaseException) -> CheckerCrash:
    """The checker's crash on ``path``, in one line: the exception and the line of treegen it
    came from (the deepest, else the deepest of all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = [f for f in frames if os.path.abspath(f.filename).startswith(package + os.sep)]
    where = ""
    if ours or frames:
        frame = (ours or frames)[-1]
        name = os.path.relpath(frame.filename, package) if ours else os.path.basename(frame.filename)
        where = f" in {frame.name} ({name}:{frame.lineno})"
    text = " ".join(str(exc).split())[:200]
    said = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return CheckerCrash(f"{path}: the certificate checker crashed ({said}{where}); the file was "
                        "not judged")


def _exit_text(code: int) -> str:
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit code {code}"


def sha256_of(path: str) -> str | None:
    """The SHA-256 of a certificate file, read as the checker reads it (a regular file, its size
    bounded); None when it cannot be read so."""
    try:
        return hashlib.sha256(certificate.read_file(path)).hexdigest()
    except certificate.CertificateRefused:
        return None  # the check names what is wrong with it


def _fingerprint() -> str:
    """A fingerprint of every source file of the checker as they are on disk now."""
    hashed = hashlib.sha256()
    for path in sorted(Path(certificate.__file__).parent.glob("*.py")):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()


#: The checker's own fingerprint, taken as it is loaded: a memory is of this checker's verdicts
#: only, so a process that runs on while its files are replaced (an upgrade, a checkout) must not
#: sign what it found with the fingerprint of the new files.
_LOADED = _fingerprint()


def _checker() -> str:
    return _LOADED


def _recall() -> dict[str, Proven]:
    """The certificates this checker passed before, here, by SHA-256."""
    try:
        return {digest: Proven(**fields) for digest, fields in _read_signed(_MEMORY).items()}
    except (TypeError, AttributeError):
        return {}


def _remember(known: Mapping[str, Proven]) -> None:
    """Add ``known`` to the memory as it is on disk now, not in place of it: two checks here side
    by side (say one from each end of a certificate's premises) each keep the other's verdicts."""
    with _changing(_MEMORY) as memory:
        memory.update((digest, dataclasses.asdict(proven)) for digest, proven in known.items())


def _canonical(entries: object) -> str:
    return json.dumps(entries, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
