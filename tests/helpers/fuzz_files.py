"""Fuzzing the files treegen writes for itself and reads back: checkpoints (resumed by an optimal
build) and records of an opening's classes (continued by ``treegen classes``, read by ``books
index``). Each case runs in a forked process under a time and a memory cap, so a crash (SIGSEGV,
SIGBUS), a hang or a runaway allocation is seen, not suffered.

    python tests/helpers/fuzz_files.py --cases 200 --seed 1     # what the test suite runs
    python benchmarks/fuzz.py files                             # the long run

Mutations: bytes flipped, cut or added; header fields edited; the payload edited and its digest
recomputed as anyone could (a plain sha256); the payload edited and signed with this user's own
key (every number must still be bounded); JSON values of a record replaced by hostile ones, trees
included; special files (a pipe, a folder, a link to /dev/zero) in the file's place.

A case passes when the reader refuses the file with treegen's own one-line error, or accepts it
and then tells the truth: a resumed build gives the very book of an uninterrupted one (never a
wrong book marked optimal), an accepted record's costs are those its trees need and its totals
are summed from them. Prints a JSON summary; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from treegen.api import build_book  # noqa: E402
from treegen.book.format import dumps  # noqa: E402
from treegen.errors import TreegenError  # noqa: E402
from treegen.files import signing  # noqa: E402
from treegen.rules.game import Game  # noqa: E402
from treegen.search import checkpoint  # noqa: E402
from treegen.search.classes import solve_classes  # noqa: E402
from treegen.search.options import SearchOptions  # noqa: E402
from treegen.search.records import load_record, record_text  # noqa: E402

GAME = Game("ABCDE", 3, True)  # 125 codes: a resumed build takes a few hundredths of a second
OPENING = (Game("ABCD", 3, True), "AAB")
HOSTILE = [None, True, 0, -1, 1.5, 2 ** 63, 10 ** 30, "", "x", "\ud800", [], {}, [1, 2],
           {"guess": "AAA", "next": {}}, {"guess": "AAA", "next": {"0A0B": None}}, float("nan")]
MEMORY = 3 << 30


def _identity() -> dict:
    from treegen.search.exact import Optimal
    return Optimal().identity(GAME, None)


def _base_checkpoint(folder: str) -> tuple[bytes, str]:
    """A real checkpoint of GAME's search (written at every chance, so it holds the whole
    search), and the book an uninterrupted build gives."""
    path = os.path.join(folder, "base.checkpoint")
    os.environ["TREEGEN_CHECKPOINT_SECONDS"] = "0"
    book = build_book(GAME, "optimal", search=SearchOptions(checkpoint=path))
    with open(path, "rb") as fh:
        return fh.read(), dumps(book)


def _split(data: bytes) -> tuple[dict, bytes]:
    end = data.index(b"\n", len(checkpoint.MAGIC)) + 1
    return json.loads(data[len(checkpoint.MAGIC):end]), data[end:]


def _join(header: dict, payload: bytes) -> bytes:
    return checkpoint.MAGIC + json.dumps(header).encode() + b"\n" + payload


def _edit_payload(rng: random.Random, payload: bytes) -> bytes:
    """Random int64 words of the payload replaced: in range or not, small or huge."""
    words = np.frombuffer(payload, dtype=np.int64).copy()
    if len(words) == 0:
        return payload
    for _ in range(rng.randint(1, 4)):
        words[rng.randrange(len(words))] = rng.choice(
            [0, -1, 1, 2, 7, 124, 125, 10 ** 6, 2 ** 40, 2 ** 62, -(2 ** 63), rng.getrandbits(63)])
    return words.tobytes()


def mutate_checkpoint(rng: random.Random, data: bytes) -> tuple[str, bytes | str]:
    """(kind, bytes) of a damaged checkpoint, or (kind, "fifo"|"folder"|"zero") for a special file."""
    header, payload = _split(data)
    kind = rng.choice(["flip", "cut", "grow", "header", "resign-sha256", "resign-key", "special"])
    if kind == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return kind, bytes(out)
    if kind == "cut":
        return kind, data[:rng.randrange(len(data))]
    if kind == "grow":
        return kind, data + bytes(rng.randrange(1, 64))
    if kind == "header":
        field = rng.choice(["entries", "version", "of", "writer", "hmac", "format"])
        header[field] = rng.choice(HOSTILE[:-1] + [[10 ** 9, 0], [1, 2, 3], [os.getpid(), 0]])
        return kind, _join(header, payload)
    if kind == "resign-sha256":
        payload = _edit_payload(rng, payload)
        header["hmac"] = hashlib.sha256(payload).hexdigest()
        return kind, _join(header, payload)
    if kind == "resign-key":  # this user's own key: only the bounds stand between it and the search
        payload = _edit_payload(rng, payload)
        header["hmac"] = signing.sign([payload])
        return kind, _join(header, payload)
    return kind, rng.choice(["fifo", "folder", "zero"])


def _place(path: str, content: bytes | str) -> None:
    if content == "fifo":
        os.mkfifo(path)
    elif content == "folder":
        os.mkdir(path)
    elif content == "zero":
        os.symlink("/dev/zero", path)
    else:
        assert isinstance(content, bytes)
        with open(path, "wb") as fh:
            fh.write(content)


def _refused(exc: TreegenError) -> tuple[bool, str | None]:
    return False, None if len(str(exc).splitlines()) == 1 else f"a message of several lines: {exc}"


def checkpoint_case(folder: str, content: bytes | str, expected: str) -> tuple[bool, str | None]:
    """Resume GAME's build from the file: (accepted, a problem in words or None)."""
    path = os.path.join(folder, "case.checkpoint")
    _place(path, content)
    try:
        book = build_book(GAME, "optimal", search=SearchOptions(checkpoint=path, resume=True))
    except TreegenError as exc:
        return _refused(exc)
    if dumps(book) != expected:
        return True, (f"a wrong book marked optimal: total {book['stats']['total']}"
                      if book["strategy"].get("optimal") else "a wrong book")
    return True, None


def _solved_record(folder: str) -> str:
    path = os.path.join(folder, "base-record.json")
    solve_classes(OPENING[0], OPENING[1], path)
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _places(value: object, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _places(item, (*path, i))
    return found


def mutate_record(rng: random.Random, text: str) -> tuple[str, bytes | str]:
    kind = rng.choice(["value", "value", "delete", "flip", "cut", "special"])
    if kind in ("value", "delete"):
        record = json.loads(text)
        path = rng.choice(_places(record)[1:])
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        if kind == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = rng.choice(HOSTILE)
        return kind, json.dumps(record).encode("utf-8", "surrogatepass")
    data = text.encode()
    if kind == "flip":
        out = bytearray(data)
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return kind, bytes(out)
    if kind == "cut":
        return kind, data[:rng.randrange(len(data))]
    return kind, rng.choice(["fifo", "folder", "zero"])


def record_case(folder: str, content: bytes | str, truth: dict) -> tuple[bool, str | None]:
    """Read the record: (accepted, a problem in words or None). ``truth``: each class's optimal
    cost."""
    path = os.path.join(folder, "case.json")
    _place(path, content)
    try:
        record = load_record(path)
    except TreegenError as exc:
        return _refused(exc)
    for entry in record["classes"]:
        if "cost" in entry and entry["cost"] != truth[entry["feedback"]]:
            return True, f"class {entry['feedback']} accepted at cost {entry['cost']}, not its optimum"
    solved = [e for e in record["classes"] if "cost" in e]
    lower = record["secrets"] + sum(e.get("cost", e["floor"]) for e in record["classes"])
    if record["solved"] != len(solved) or record["lower_bound"] != lower:
        return True, "totals not summed from the classes"
    return True, None


def _run(case, seconds: float) -> tuple[str, str | None]:
    """Run ``case()`` in a forked process: ("ok"|"crash"|"hang"|"traceback", detail)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, report, leave without cleanup handlers
        os.close(read)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        try:
            message = json.dumps(["ok", case()])
        except BaseException:
            message = json.dumps(["traceback", traceback.format_exc()[-2000:]])
        os.write(write, message.encode())
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + seconds
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return "hang", None
        time.sleep(0.002)
    with os.fdopen(read, "rb") as fh:
        reply = fh.read()
    if os.WIFSIGNALED(status):
        return "crash", f"signal {os.WTERMSIG(status)}"
    kind, detail = json.loads(reply) if reply else ("crash", "no reply")
    return kind, detail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="cases of each kind of file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-cap", type=float, default=30.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="treegen-fuzz-files-")
    os.environ.setdefault("TREEGEN_STATE", os.path.join(folder, "state"))
    os.environ.setdefault("TREEGEN_CACHE", "")
    report: dict = {"cases": 0, "accepted": 0, "crashes": 0, "hangs": 0, "tracebacks": 0,
                    "wrong": 0, "failures": [], "kinds": {}}
    try:
        data, expected = _base_checkpoint(folder)
        text = _solved_record(folder)
        truth = {e["feedback"]: e["cost"] for e in json.loads(text)["classes"]}
        assert record_text(json.loads(text)) == text
        jobs = [("checkpoint", mutate_checkpoint, data, checkpoint_case, expected),
                ("record", mutate_record, text, record_case, truth)]
        for number in range(args.cases):
            for name, mutate, base, check, truth_of in jobs:
                kind, content = mutate(rng, base)
                case_folder = tempfile.mkdtemp(dir=folder)
                outcome, detail = _run(lambda: check(case_folder, content, truth_of),  # noqa: B023
                                       args.time_cap)
                shutil.rmtree(case_folder, ignore_errors=True)
                report["cases"] += 1
                report["kinds"][f"{name} {kind}"] = report["kinds"].get(f"{name} {kind}", 0) + 1
                if outcome == "ok":
                    accepted, detail = detail
                    report["accepted"] += accepted
                    if detail is None:
                        continue
                bucket = {"crash": "crashes", "hang": "hangs", "traceback": "tracebacks"}.get(
                    outcome, "wrong")
                report[bucket] += 1
                report["failures"].append({"case": number, "file": name, "mutation": kind,
                                           "problem": f"{outcome}: {detail}"})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    report["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(report, indent=1))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
