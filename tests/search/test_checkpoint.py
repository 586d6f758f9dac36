"""Checkpoints of the optimal search: a build killed mid-search resumes to the very same book, and a
checkpoint of another build, a damaged or edited one, or anything that is not a regular file is
refused in one line. Builds are stopped by the fault hook (treegen.faults), never by a timer."""

import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

from treegen.errors import CheckpointError
from treegen.files import signing
from treegen.rules.game import Game
from treegen.search import checkpoint
from treegen.search.bounds import INFEASIBLE
from treegen.search.strategy import Optimal

#: 1680 codes: a search with dozens of checkpoints when they are written at every chance.
GAME = ["--symbols", "12345678", "--length", "4", "--no-repetition"]


def build(folder, *extra, env=None):
    return subprocess.run([sys.executable, "-m", "treegen", "build", *GAME, "-s", "optimal", "-j", "1",
                           "-o", "book.json", *extra], cwd=folder, capture_output=True, text=True,
                          timeout=600, env={**os.environ, **(env or {})})


def faulty(event, signal_name, *options):
    """Checkpoints at every chance, and the process signalled at the given event."""
    return {"TREEGEN_CHECKPOINT_SECONDS": "0",
            "TREEGEN_TEST_FAULT": ":".join([event, signal_name, *options])}


@pytest.mark.parametrize("mode", [[], ["--hard"]], ids=["normal", "hard"])
def test_a_killed_build_resumes_to_a_byte_identical_book(tmp_path, mode):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    assert build(whole, *mode).returncode == 0
    killed = build(cut, *mode, env=faulty("checkpoint:3", "KILL"))
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    kept = cut / "book.json.checkpoint"
    assert kept.exists() and not (cut / "book.json").exists()
    assert [name for name in os.listdir(cut) if name.startswith(".treegen-")] == []
    refused = build(cut, *mode)
    assert refused.returncode != 0 and "add --resume to continue it" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    resumed = build(cut, *mode, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert (cut / "book.json").read_bytes() == (whole / "book.json").read_bytes()
    assert not kept.exists(), "a finished build removes its checkpoint"


def test_resume_without_a_checkpoint_starts_afresh(tmp_path):
    out = subprocess.run([sys.executable, "-m", "treegen", "build", "-g", "mastermind", "-s", "optimal",
                          "--max-depth", "6", "--resume", "-o", "b.json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert os.listdir(tmp_path) == ["b.json"]


def identity(**change):
    game = Game("12345678", 4, False)
    return {**Optimal().identity(game, None), **change}


EMPTY = [(np.zeros(0, np.uint64), np.zeros((0, 3), np.int64))] * 2


def save(path, ident, caches, env=None):
    """Write a checkpoint as a build that has ended would have: from another process, gone now
    (the checkpoint of a running one is refused as such)."""
    data = json.dumps({"path": str(path), "identity": ident,
                       "caches": [[keys.tolist(), values.tolist()] for keys, values in caches]})
    subprocess.run([sys.executable, "-c", SAVE, data], check=True, env={**os.environ, **(env or {})})


SAVE = """
import json, sys
import numpy as np
from treegen.search import checkpoint
d = json.loads(sys.argv[1])
checkpoint.save(d["path"], d["identity"], [(np.array(k, dtype=np.uint64).reshape(-1),
                np.array(v, dtype=np.int64).reshape(-1, 3)) for k, v in d["caches"]])
"""


@pytest.mark.parametrize("change, words", [
    ({"max_depth": 5}, "max_depth 5, not none"),
    ({"treegen": "0.0.1"}, "treegen \"0.0.1\""),
    ({"first": "1234"}, "first \"1234\""),
    ({"game": {"name": "mastermind", "symbols": "123456", "length": 4, "repetition": True}}, "game"),
])
def test_a_checkpoint_of_another_build_is_refused_in_one_line(tmp_path, change, words):
    save(tmp_path / "book.json.checkpoint", identity(**change), EMPTY)
    out = build(tmp_path, "--resume")
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "is of another build" in lines[0] and words in lines[0], out.stderr
    assert not (tmp_path / "book.json").exists()


def _split(data):
    end = data.index(b"\n", len(checkpoint.MAGIC)) + 1
    return data[:end], data[end:]


def _resigned(data, edit):
    """The checkpoint with its header edited by ``edit(header, payload)``, and its payload's
    sha256 recomputed as anyone could: a forgery."""
    import hashlib
    head, payload = _split(data)
    header = json.loads(head[len(checkpoint.MAGIC):])
    payload = edit(header, payload)
    header["hmac"] = hashlib.sha256(payload).hexdigest()
    return checkpoint.MAGIC + json.dumps(header).encode() + b"\n" + payload


def damaged(data):
    """Ways of breaking a good checkpoint's bytes, each with the words of its refusal."""
    head, payload = _split(data)
    flipped = bytearray(data)
    flipped[-5] ^= 0x10
    nested = checkpoint.MAGIC + b"[" * 30_000 + b"]" * 30_000 + b"\n"
    cheaper = bytearray(payload)
    cheaper[16:24] = (3).to_bytes(8, "little", signed=True)  # the first entry's cost, lowered
    return [(bytes(flipped), "signature does not match"), (data[:-8], "wrong length"),
            (data + b"\0" * 32, "wrong length"), (b"garbage\n" + data, "not a treegen checkpoint"),
            (head[:-3] + b"}\n" + payload, "not JSON"),
            (b"", "not a treegen checkpoint"), (nested, "not JSON"),
            (_resigned(data, lambda h, p: bytes(cheaper)), "signature does not match"),
            (head + bytes(cheaper), "signature does not match")]


def good_caches():
    keys = np.array([1, 3, 5], dtype=np.uint64)
    return [(keys, np.array([[0, 40, 7], [1, 50, 8], [2, 60, 9]], np.int64)),
            (keys[:1], np.array([[0, 12, -1]], np.int64))]


def test_a_damaged_or_edited_checkpoint_is_refused_in_one_line(tmp_path):
    path = tmp_path / "book.json.checkpoint"
    save(path, identity(), good_caches())
    good = path.read_bytes()
    assert len(checkpoint.load(str(path), identity(), ("exact", "lower"), 1680)[0][0]) == 3
    for data, words in damaged(good):
        path.write_bytes(data)
        out = build(tmp_path, "--resume")
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 1 and len(lines) == 1 and words in lines[0], (words, out.stderr)
        assert "Traceback" not in out.stderr
        assert path.read_bytes() == data, "a refused checkpoint is left as it was"


@pytest.mark.parametrize("key, row, words", [
    (1, [0, 40, 1680], "an entry of its exact cache"), (1, [0, 40, -3], "an entry of its exact cache"),
    (1, [0, 0, 7], "an entry of its exact cache"), (1, [0, INFEASIBLE, 7], "an entry of its exact cache"),
    (1, [-1, 40, 7], "a set's hash"), (0, [0, 40, 7], "a set's hash"), (2, [0, 40, 7], "a set's hash"),
    (2 ** 63, [0, 40, 7], "a set's hash")])
def test_numbers_out_of_range_never_reach_the_search_even_when_signed(tmp_path, key, row, words):
    """A checkpoint signed with this user's key may still hold numbers the search cannot take
    (a bug, a key copied from elsewhere): every one is bounded on read."""
    path = tmp_path / "book.json.checkpoint"
    keys = np.array([key], dtype=np.uint64)
    save(path, identity(), [(keys, np.array([row], np.int64)), EMPTY[1]])
    out = build(tmp_path, "--resume")
    assert out.returncode == 1 and f"is damaged: {words} is out of range" in out.stderr and \
        len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_checkpoint_signed_with_another_key_is_refused(tmp_path):
    path = tmp_path / "book.json.checkpoint"
    save(path, identity(), good_caches(), env={"TREEGEN_STATE": str(tmp_path / "elsewhere")})
    with pytest.raises(CheckpointError, match="signature does not match"):
        checkpoint.load(str(path), identity(), ("exact", "lower"), 1680)


def test_special_files_in_the_checkpoints_place_are_refused_in_one_line(tmp_path):
    kept = tmp_path / "book.json.checkpoint"
    os.mkfifo(kept)
    for extra in ((), ("--resume",)):
        out = build(tmp_path, *extra)
        assert out.returncode == 1 and "not a regular file" in out.stderr, out.stderr
    kept.unlink()
    kept.mkdir()
    for extra in ((), ("--resume",)):
        out = build(tmp_path, *extra)
        assert out.returncode == 1 and "not a regular file" in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and kept.is_dir()


def test_the_checkpoint_of_a_running_build_is_not_called_interrupted(tmp_path):
    path = tmp_path / "book.json.checkpoint"
    checkpoint.save(str(path), identity(), good_caches())  # written by this process, running
    header = json.loads(_split(path.read_bytes())[0][len(checkpoint.MAGIC):])
    assert header["writer"][0] == os.getpid() and checkpoint.writing(header) is False
    for extra in ((), ("--resume",)):
        out = build(tmp_path, *extra)
        assert out.returncode == 1 and "a build that is still running" in out.stderr, out.stderr
        assert "interrupted" not in out.stderr


def test_a_checkpoint_that_cannot_be_written_does_not_stop_the_search(tmp_path):
    """No signing key can be made: each checkpoint fails, the build warns once and finishes."""
    whole = tmp_path / "whole"
    whole.mkdir()
    assert build(whole).returncode == 0
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (tmp_path / "state").write_text("a file where the state folder would be\n")
    out = build(blocked, env={"TREEGEN_CHECKPOINT_SECONDS": "0",
                              "TREEGEN_STATE": str(tmp_path / "state")})
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("warning: no checkpoint written") == 1, out.stderr
    assert (blocked / "book.json").read_bytes() == (whole / "book.json").read_bytes()


def test_ctrl_c_keeps_the_search_so_far(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "treegen", "build", *GAME, "-s", "optimal", "-j", "1",
                           "-o", "book.json"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env={**os.environ, **faulty("checkpoint:2", "INT")})
    assert proc.returncode == 130, proc.stderr
    assert "continue it with --resume" in proc.stderr and "Traceback" not in proc.stderr
    assert sorted(os.listdir(tmp_path)) == ["book.json.checkpoint"]


def test_a_search_squeezed_into_little_memory_finds_the_same_book(tmp_path):
    """Caches emptied again and again cost time, never the book."""
    roomy = build(tmp_path, "--memory", "1G")
    assert roomy.returncode == 0, roomy.stderr
    expected = (tmp_path / "book.json").read_bytes()
    (tmp_path / "book.json").unlink()
    tight = build(tmp_path, "--memory", "10k")  # about 100 sets: emptied many times over
    assert tight.returncode == 0, tight.stderr
    assert (tmp_path / "book.json").read_bytes() == expected


@pytest.mark.parametrize("value", ["lots", "-1G", "0", "99999999999999999999T"])
def test_a_bad_memory_size_is_one_line(tmp_path, value):
    out = build(tmp_path, "--memory", value)
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr


def test_an_unsafe_signing_key_is_refused_in_one_line(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    key = state / "signing.key"
    key.write_bytes(b"k" * signing.KEY_BYTES)
    key.chmod(0o644)
    out = build(tmp_path, env={"TREEGEN_STATE": str(state), "TREEGEN_CHECKPOINT_SECONDS": "0"})
    # the build itself goes on: only its checkpoints (and cached tables) need the key
    assert out.returncode == 0 and "can be read or written by others" in out.stderr, out.stderr
