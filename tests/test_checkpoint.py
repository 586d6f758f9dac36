"""Checkpoints of the optimal search: a build killed mid-search resumes to the very same book, and a
checkpoint of another build, or a damaged one, is refused in one line."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from treegen import checkpoint
from treegen.game import Game
from treegen.optimal import Optimal

#: 1680 codes: about five seconds of search here, long enough to be killed in the middle.
GAME = ["--symbols", "12345678", "--length", "4", "--no-repetition"]


def build(folder, *extra, env=None):
    return subprocess.run([sys.executable, "-m", "treegen", "build", *GAME, "-s", "optimal", "-j", "1",
                           "-o", "book.json", *extra], cwd=folder, capture_output=True, text=True,
                          timeout=600, env=env)


def fast_checkpoints():
    return {**os.environ, "TREEGEN_CHECKPOINT_SECONDS": "0.2"}


def killed_build(folder):
    """Start a build, SIGKILL it once it has written a checkpoint; the checkpoint's path."""
    kept = os.path.join(folder, "book.json.checkpoint")
    proc = subprocess.Popen([sys.executable, "-m", "treegen", "build", *GAME, "-s", "optimal",
                             "-j", "1", "-o", "book.json"], cwd=folder, env=fast_checkpoints(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not os.path.exists(kept) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # a few more checkpoints, so the kill may land in the middle of writing one
    finally:
        proc.kill()
        proc.wait()
    assert os.path.exists(kept), "the build never wrote a checkpoint"
    assert not os.path.exists(os.path.join(folder, "book.json")), "the build finished before the kill"
    return kept


def test_a_killed_build_resumes_to_a_byte_identical_book(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    assert build(whole).returncode == 0
    kept = killed_build(cut)
    assert [name for name in os.listdir(cut) if name.startswith(".treegen-")] == []
    refused = build(cut)
    assert refused.returncode != 0 and "add --resume to continue it" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    resumed = build(cut, "--resume", env=fast_checkpoints())
    assert resumed.returncode == 0, resumed.stderr
    assert (cut / "book.json").read_bytes() == (whole / "book.json").read_bytes()
    assert not os.path.exists(kept), "a finished build removes its checkpoint"


def test_resume_without_a_checkpoint_starts_afresh(tmp_path):
    out = subprocess.run([sys.executable, "-m", "treegen", "build", "-g", "mastermind", "-s", "optimal",
                          "--max-depth", "6", "--resume", "-o", "b.json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert os.listdir(tmp_path) == ["b.json"]


def identity(**change):
    game = Game("12345678", 4, False)
    return {**Optimal().identity(game, None), **change}


@pytest.mark.parametrize("change, words", [
    ({"max_depth": 5}, "max_depth 5, not none"),
    ({"treegen": "0.0.1"}, "treegen \"0.0.1\""),
    ({"first": "1234"}, "first \"1234\""),
    ({"game": {"name": "mastermind", "symbols": "123456", "length": 4, "repetition": True}}, "game"),
])
def test_a_checkpoint_of_another_build_is_refused_in_one_line(tmp_path, change, words):
    checkpoint.save(str(tmp_path / "book.json.checkpoint"), identity(**change),
                    [(np.zeros(0, np.uint64), np.zeros((0, 3), np.int64))] * 2)
    out = build(tmp_path, "--resume")
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "is of another build" in lines[0] and words in lines[0], out.stderr
    assert not (tmp_path / "book.json").exists()


def damaged(data):
    """Ways of breaking a good checkpoint's bytes, each with the words of its refusal."""
    header_end = data.index(b"\n", len(checkpoint.MAGIC)) + 1
    flipped = bytearray(data)
    flipped[-5] ^= 0x10
    return [(bytes(flipped), "checksum does not match"), (data[:-8], "wrong length"),
            (data + b"\0" * 32, "wrong length"), (b"garbage\n" + data, "not a treegen checkpoint"),
            (data[:header_end - 3] + b"}\n" + data[header_end:], "not JSON"),
            (b"", "not a treegen checkpoint")]


def test_a_damaged_checkpoint_is_refused_in_one_line(tmp_path):
    path = tmp_path / "book.json.checkpoint"
    keys = np.arange(1, 4, dtype=np.uint64)
    checkpoint.save(str(path), identity(), [(keys, np.ones((3, 3), np.int64)), (keys[:0], np.zeros((0, 3), np.int64))])
    good = path.read_bytes()
    assert len(checkpoint.load(str(path), identity())[0][0]) == 3
    for data, words in damaged(good):
        path.write_bytes(data)
        out = build(tmp_path, "--resume")
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 1 and len(lines) == 1 and words in lines[0], (words, out.stderr)
        assert path.read_bytes() == data, "a refused checkpoint is left as it was"
    os.mkfifo(path.with_name("fifo.checkpoint"))
    with pytest.raises(checkpoint.CheckpointError, match="not a regular file"):
        checkpoint.load(str(path.with_name("fifo.checkpoint")), identity())


def test_ctrl_c_keeps_the_search_so_far(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "treegen", "build", *GAME, "-s", "optimal", "-j", "1",
                             "-o", "book.json"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=fast_checkpoints(),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300
        while not (tmp_path / "book.json.checkpoint").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "continue it with --resume" in err and "Traceback" not in err
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


@pytest.mark.parametrize("value", ["lots", "-1G", "0"])
def test_a_bad_memory_size_is_one_line(tmp_path, value):
    out = build(tmp_path, "--memory", value)
    lines = out.stderr.strip().splitlines()
    assert out.returncode != 0 and len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
