"""The exact search on a real Ray cluster: a head and a second worker node started with `ray start`
on this machine, one processor each. Books built through ``--address`` are byte-identical to the
``--jobs 1`` books, also when the second node dies mid-search. The cluster is stopped afterwards,
whatever happens."""

import contextlib
import functools
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from tests.helpers.ci import IN_CI
from tests.helpers.facts import none_searched_again
from treegen import book as books
from treegen.api import build_book
from treegen.rules.game import Game
from treegen.search.options import SearchOptions

BOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "books")
RAY = shutil.which("ray")

pytestmark = pytest.mark.skipif(RAY is None and not IN_CI,
                                reason="Ray is not installed (pip install '.[ray]')")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes():
    """pid -> (parent pid, process group, command line) of every process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                command = fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        table[int(name)] = (int(fields[1]), int(fields[2]), command)
    return table


def _kill(pids):
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class Cluster:
    """A head and worker nodes, each a `ray start --block` in a process group of its own; its worker
    processes are children of the node's raylet."""

    def __init__(self, root):
        self.root = str(root)
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        token = os.path.join(self.root, "token")
        with open(token, "w") as fh:
            fh.write(secrets.token_hex(32))
        self.env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": token}
        self.env.pop("RAY_ADDRESS", None)
        self.nodes = []

    def start(self, *args, env=None):
        with open(os.path.join(self.root, f"node{len(self.nodes)}.log"), "w") as log:
            node = subprocess.Popen([RAY, "start", "--block", "--num-cpus", "1",
                                     "--disable-usage-stats", "--object-store-memory",
                                     str(100 * 2**20), *args],
                                    env={**self.env, **(env or {})}, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        self.nodes.append(node)
        return node

    def alive_nodes(self):
        status = subprocess.run([RAY, "status", "--address", self.address], env=self.env,
                                capture_output=True, text=True, timeout=60)
        active = status.stdout.partition("Active:")[2].partition("Pending:")[0]
        return active.count("node_")

    def wait_for(self, count, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.alive_nodes() == count:
                return
            time.sleep(1)
        raise TimeoutError(f"the Ray cluster did not reach {count} nodes in {timeout} s")

    def members(self, node):
        """A node's processes: its process group and their children (the workers)."""
        table = _processes()
        group = {pid for pid, (_, pgid, _) in table.items() if pgid == node.pid}
        return group | {pid for pid, (ppid, _, _) in table.items() if ppid in group}

    def kill(self, node):
        _kill(self.members(node))
        node.wait(timeout=30)

    def stop(self):
        for node in reversed(self.nodes):
            if node.poll() is None:
                node.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        for node in self.nodes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                node.wait(timeout=30)
        for node in self.nodes:
            _kill(self.members(node))
        # anything left of this cluster names its folder on its command line
        _kill(pid for pid, (_, _, command) in _processes().items() if self.root in command)

    def classes(self, *args, output, env=None):
        return subprocess.Popen([sys.executable, "-m", "treegen", "classes", *args, "--engine",
                                 "ray", "--address", self.address, "-o", str(output)],
                                env={**self.env, **(env or {})}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def build(self, *args, output, env=None, strategy="optimal"):
        return subprocess.Popen([sys.executable, "-m", "treegen", "build", *args,
                                 "--strategy", strategy, "--engine", "ray",
                                 "--address", self.address, "-o", str(output)],
                                env={**self.env, **(env or {})}, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def cluster():
    # a short folder of its own, not pytest's (deeper with each worker of a parallel run): Ray's
    # socket paths must fit in 107 bytes
    root = tempfile.mkdtemp(prefix="treegen-ray-")
    made = Cluster(root)
    try:
        made.start("--head", "--port", str(made.port), "--include-dashboard=false",
                   "--ray-client-server-port", str(_free_port()), "--temp-dir",
                   os.path.join(str(root), "r"))
        made.wait_for(1)
        made.start("--address", made.address)
        made.wait_for(2)
        yield made
    finally:
        made.stop()
        shutil.rmtree(root, ignore_errors=True)


def _finish(process, timeout=600):
    try:
        output, _ = process.communicate(timeout=timeout)
    finally:
        process.kill()
    assert process.returncode == 0, output
    return output


def _read(path):
    with open(path, "rb") as fh:
        return fh.read()


def test_mastermind_on_the_cluster_is_the_jobs_1_book(cluster, tmp_path):
    out = tmp_path / "mastermind.json"
    output = _finish(cluster.build("--game", "mastermind", output=out))
    assert "total 5625" in output
    alone = books.dumps(build_book("mastermind", "optimal", search=SearchOptions(jobs=1)))
    assert _read(out).decode("utf-8") == alone
    assert _read(os.path.join(BOOKS, "mastermind-optimal-all.json")).decode("utf-8") == alone
    assert not os.path.exists(f"{out}.checkpoint")


def test_a_bounded_search_on_the_cluster_is_the_jobs_1_book(cluster, tmp_path):
    out = tmp_path / "bounded.json"
    output = _finish(cluster.build("--game", "mastermind", "--width", "2", "--exact-below", "150",
                                   output=out))
    assert "above the optimum" in output
    alone = build_book("mastermind", "optimal", search=SearchOptions(jobs=1, width=2, exact_below=150))
    assert _read(out).decode("utf-8") == books.dumps(alone)


@pytest.mark.parametrize("game", [Game("ABCDE", 4, True), Game("ABCDEF", 3, False)], ids=str)
def test_a_custom_game_on_the_cluster_is_the_jobs_1_book(cluster, tmp_path, game):
    # the second has a class of 36 of its 120 codes: its guesses run side by side on the cluster
    out = tmp_path / "custom.json"
    repetition = "--repetition" if game.repetition else "--no-repetition"
    _finish(cluster.build("--symbols", "".join(game.symbols), "--length", str(game.length),
                          repetition, output=out))
    alone = build_book(game, "optimal", search=SearchOptions(jobs=1))
    assert _read(out).decode("utf-8") == books.dumps(alone)


def test_a_heuristic_book_built_by_the_cluster_s_workers_is_the_jobs_1_book(cluster, tmp_path):
    """Muertos y Heridos (10,000 secrets) is large enough for its first guess's classes to go to
    the cluster, a subtree per task: the book is the one built here alone."""
    out = tmp_path / "myh.json"
    output = _finish(cluster.build("--game", "muertos-y-heridos", output=out, strategy="minimax"))
    assert "total 58103" in output
    assert _read(out).decode("utf-8") == books.dumps(build_book("muertos-y-heridos", "minimax"))


def test_the_classes_of_an_opening_on_the_cluster_are_the_local_ones(cluster, tmp_path):
    """treegen classes runs on the cluster unchanged, its classes proven side by side, one per
    worker: the record holds the same costs and trees, and the certificates are the same files."""
    from treegen.api import solve_classes
    out = tmp_path / "record.json"
    game = ["--symbols", "12345678", "--length", "4", "--no-repetition", "--first", "1234"]
    output = _finish(cluster.classes(*game, output=out))
    assert "classes solved; optimum after 1234" in output
    local = solve_classes(Game("12345678", 4, False), "1234", tmp_path / "local.json")
    remote = json.loads(out.read_text())
    assert [(e["feedback"], e["cost"], e["tree"]) for e in remote["classes"]] == \
        [(e["feedback"], e["cost"], e["tree"]) for e in local["classes"]]
    for entry in remote["classes"]:
        name = entry["certificate"]["file"]
        assert _read(tmp_path / name) == _read(tmp_path / name.replace("record", "local"))


def test_the_facts_of_the_cluster_s_workers_come_back_to_the_record(cluster, tmp_path):
    """The workers' facts are written into the record on the driver's machine as they come: a
    driver stopped part way leaves them, and the next run on the cluster takes them up."""
    out = tmp_path / "record.json"
    game = ["--symbols", "12345678", "--length", "4", "--no-repetition", "--first", "1234"]
    every = {"TREEGEN_FACT_WORDS": "0"}
    cut = cluster.classes(*game, output=out, env={**every, "TREEGEN_TEST_FAULT": "fact:20:INT"})
    output, _ = cut.communicate(timeout=600)
    assert cut.returncode == 130, output
    facts = {e["feedback"]: e["facts"] for e in json.loads(out.read_text())["classes"]
             if "facts" in e}
    assert sum(map(len, facts.values())) >= 20
    _finish(cluster.classes(*game, output=out, env=every))
    done = {e["feedback"]: e for e in json.loads(out.read_text())["classes"]}
    assert all("certificate" in e for e in done.values())
    for feedback, kept in facts.items():  # taken up, not searched again (see test_facts.py)
        none_searched_again(kept, done[feedback].get("facts", []))


#: 3,024 codes: a search of many classes on the cluster.
DIGITS = ["--symbols", "123456789", "--length", "4", "--no-repetition"]


@functools.cache
def digits_alone():
    """The --jobs 1 book of DIGITS, as text."""
    return books.dumps(build_book(Game("123456789", 4, False), "optimal", search=SearchOptions(jobs=1)))


def test_a_killed_driver_resumes_on_the_cluster_to_the_same_book(cluster, tmp_path):
    """The driver kills itself (SIGKILL) once it has written its third checkpoint."""
    out = tmp_path / "digits.json"
    kept = f"{out}.checkpoint"
    build = cluster.build(*DIGITS, output=out, env={"TREEGEN_CHECKPOINT_SECONDS": "0",
                                                    "TREEGEN_TEST_FAULT": "checkpoint:3:KILL"})
    try:
        output = build.communicate(timeout=600)[0]
    finally:
        build.kill()
    assert build.returncode == -signal.SIGKILL, output
    assert os.path.exists(kept) and not out.exists()
    _finish(cluster.build(*DIGITS, "--resume", output=out))
    assert _read(out).decode("utf-8") == digits_alone()
    assert not os.path.exists(kept)


def test_a_worker_that_dies_mid_search_loses_nothing(cluster, tmp_path):
    """A third node joins whose first task kills its worker's process group with SIGKILL as it
    starts: Ray runs the task again and the book is still that of --jobs 1. With three
    processors and a task for each, the third node is given a task."""
    fired = tmp_path / "fired"
    third = cluster.start("--address", cluster.address,
                          env={"TREEGEN_TEST_FAULT": f"task:1:KILL:group:once={fired}"})
    cluster.wait_for(3)
    out = tmp_path / "digits.json"
    output = _finish(cluster.build(*DIGITS, output=out))
    assert fired.exists(), "the third node never ran a class"
    assert third.poll() is None  # the node lives on: only its worker died
    assert _read(out).decode("utf-8") == digits_alone()
    assert "total 14914" in output


def _marked(mark):
    """The live processes whose environment carries ``mark`` (zombies are gone already)."""
    found = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{name}/environ", "rb") as fh:
                if mark in fh.read():
                    found.add(int(name))
        except OSError:
            continue
    return found


def test_a_killed_driver_leaves_no_process_of_its_local_instance(tmp_path):
    """A build that started Ray on this machine is killed (SIGKILL) at its first result: every
    process of that instance (servers, agents, workers; found by a mark in their environment)
    is gone soon after, where Ray's agents alone would hold on for about a minute."""
    mark = secrets.token_hex(8)
    env = {**os.environ, "TREEGEN_TEST_MARK": mark, "TREEGEN_TEST_FAULT": "result:1:KILL"}
    env.pop("RAY_ADDRESS", None)
    build = subprocess.Popen([sys.executable, "-m", "treegen", "build", "--game", "mastermind",
                              "--strategy", "optimal", "--engine", "ray", "-j", "2",
                              "-o", str(tmp_path / "b.json")], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output = build.communicate(timeout=300)[0]
        assert build.returncode == -signal.SIGKILL, output
        deadline = time.monotonic() + 20  # well inside the minute the agents would live
        while _marked(mark.encode()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _marked(mark.encode()), "processes of the killed build's Ray outlived it"
    finally:
        build.kill()
        _kill(_marked(mark.encode()))
