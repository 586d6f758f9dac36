"""How the exact search hands classes out, and the local executor behind the seam: each budget from
what is known when it is handed out, never more tasks out than workers, tasks of a cancelled guess
skipped or stopped."""

import os
import signal
import time

import numpy as np
import pytest

from treegen.run.local import Pool
from treegen.run.seam import ClassTask, GuessTask, Inline, Result
from treegen.search.bounds import INFEASIBLE
from treegen.search.tally import Tally, hand_out_order


def test_each_class_gets_the_budget_its_solved_siblings_leave():
    a, b, c = ((0, 1),), ((0, 2),), ((0, 3),)
    classes = [(np.arange(5), a, 10, -1), (np.arange(3), b, 5, -1), (np.arange(2), c, 3, -1)]
    tally = Tally(10, classes)
    tasks = tally.tasks(40)
    assert next(tasks).budget == 40 - 1 - (10 + 5 + 3)  # the floors of the others
    tally.close(a, 20)  # ten above its floor: the rest have ten less
    assert next(tasks).budget == 40 - 1 - (10 + 20 + 3)
    tally.close(b, 7)  # 10 + 20 + 7 + floor 3 = 40: the guess cannot beat 40
    assert list(tasks) == []
    assert tally.lower() == 40 and tally.solved == 2


class _Echo:
    """A stand-in solver: a class costs its size."""

    def run_class(self, task, cancelled=None):
        return Result(task.history, len(task.cands), None)

    def worker(self):
        return self


class _Endless:
    """A stand-in solver that says it has started, then runs until its guess is cancelled (after
    a safety net of two minutes it returns its size, which the test refuses)."""

    def __init__(self):
        import multiprocessing
        self.started = multiprocessing.get_context("fork").Semaphore(0)

    def run_class(self, task, cancelled=None):
        self.started.release()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if cancelled is not None and cancelled():
                return Result(task.history, -1, None)
            time.sleep(0.01)
        return Result(task.history, len(task.cands), None)

    def worker(self):
        return self


class _Guesser:
    """A stand-in solver whose guess totals what it is allowed to, as it sees it when it starts;
    -1 when its set's search was cancelled."""

    def run_guess(self, task, cancelled, most):
        if cancelled():
            return Result(task.history, -1, None)
        return Result(task.history, most(), {task.history: task.guess})

    def worker(self):
        return self


def _drawn(log, count):
    for n in range(1, count + 1):
        log.append(n)
        yield ClassTask(np.arange(n), ((0, n),), 100, -1)


def test_one_job_draws_each_task_after_the_previous_result():
    log = []
    with Inline().farm(_Echo()) as farm:
        results = farm.run(_drawn(log, 4), farm.token())
        assert log == []
        assert next(results).cost == 1 and log == [1]
        assert next(results).cost == 2 and log == [1, 2]


def test_workers_hold_no_more_tasks_than_there_are_of_them():
    log = []
    with Pool(_Echo(), 2) as farm:
        results = farm.run(_drawn(log, 5), farm.token())
        assert log == [1, 2]  # handed out at once, one per worker
        first = next(results)
        assert len(log) == 2  # the next one is drawn only once this result has been used
        rest = list(results)
    assert sorted([first.cost] + [r.cost for r in rest]) == [1, 2, 3, 4, 5]
    assert {r.history for r in [first, *rest]} == {((0, n),) for n in range(1, 6)}


def test_workers_skip_the_waiting_tasks_of_a_cancelled_guess():
    with Pool(_Echo(), 2) as farm:
        given_up, other = farm.token(), farm.token()
        given_up.cancel()
        assert [r.cost for r in farm.run(_drawn([], 3), given_up)] == [-1] * 3
        assert sorted(r.cost for r in farm.run(_drawn([], 3), other)) == [1, 2, 3]
        assert not other.cancelled() and given_up.cancelled()


def test_workers_stop_the_running_tasks_of_a_cancelled_guess():
    endless = _Endless()
    with Pool(endless, 2) as farm:
        token = farm.token()
        results = farm.run(_drawn([], 2), token)
        for _ in range(2):
            assert endless.started.acquire(timeout=120)  # both tasks are running now
        token.cancel()
        assert [r.cost for r in results] == [-1] * 2  # cancelled, not run to the end


def test_searches_here_run_in_threads_beside_the_workers_and_pass_on_errors():
    def fails():
        raise ValueError("from a thread")

    with Pool(_Echo(), 2) as farm:
        jobs = [lambda: Result((), 7, {(): 1}), ClassTask(np.arange(4), ((0, 4),), 100, -1)]
        assert sorted(r.cost for r in farm.run(jobs, farm.token())) == [4, 7]
        with pytest.raises(ValueError, match="from a thread"):
            list(farm.run([fails], farm.token()))


def test_classes_go_out_largest_first_only_while_there_is_nothing_to_prune_against():
    classes = [(np.arange(n), ((0, n),), n, -1) for n in (2, 5, 40, 90)]  # smallest first
    sizes = lambda order: [len(c[0]) for c in order]  # noqa: E731
    assert sizes(hand_out_order(classes, 50, INFEASIBLE, 2)) == [90, 40, 5, 2]  # no total yet
    assert sizes(hand_out_order(classes, 50, 1000, 2)) == [90, 2, 5, 40]  # the one searched here first
    assert sizes(hand_out_order(classes, 1000, INFEASIBLE, 1)) == [2, 5, 40, 90]  # sequential


def test_a_class_task_cancelled_midway_returns_nothing_and_keeps_its_caches_sound():
    from treegen.rules.game import Game
    from treegen.search.bounds import UNLIMITED
    from treegen.search.exact import Search
    from treegen.search.tasks import Tasks

    game = Game.preset("mastermind")
    search = Search(game)
    # the largest class of 1122 (code 7): searched above the compiled kernel, which ticks
    ordered, start, classes = search.split(7, np.arange(game.size))
    sub = max((ordered[start[f]:start[f + 1]] for f in classes), key=len)
    task = ClassTask(sub, ((7, 0),), INFEASIBLE - 1, UNLIMITED)
    asked = []
    assert Tasks(search).run_class(task, lambda: asked.append(1) or len(asked) > 3).cost == -1
    assert len(asked) == 4 and search.cancelled is None
    result = Tasks(search).run_class(task)
    assert result.cost == Search(game).cost(*task) and result.plan is not None


def test_workers_killed_while_idle_do_not_hang_the_stop(tmp_path):
    """An idle worker waits for a task holding the lock of the pool's task queue, and stopping the
    pool takes that lock: a worker that died holding it would hang the build for ever. Here the
    workers are killed once one of them holds it, so the lock is certainly held by the dead (a
    SIGTERM to the whole process group, as `timeout` sends, is tested end to end in test_optimal:
    it can also be lost by a worker, which this test's own wait would then hang on)."""
    script = tmp_path / "idle.py"
    script.write_text(
        "import multiprocessing, os, signal, time\n"
        "import numpy as np\n"
        "from treegen.run.local import Pool\n"
        "from treegen.run.seam import ClassTask, Result\n"
        "class Echo:\n"
        "    def run_class(self, task, cancelled=None):\n"
        "        return Result(task.history, 0, None)\n"
        "    def worker(self):\n"
        "        return self\n"
        "try:\n"
        "    with Pool(Echo(), 2) as farm:\n"
        "        tasks = [ClassTask(np.arange(2), (), 9, -1)] * 4\n"
        "        assert len(list(farm.run(tasks, farm.token()))) == 4  # done: both go idle\n"
        "        lock, writing = farm.pool._inqueue._rlock, farm.pool._outqueue._wlock\n"
        "        while True:  # until an idle worker holds the lock, and the last result's\n"
        "            if lock.acquire(False):  # writer has let go of the result queue's\n"
        "                lock.release()\n"
        "            elif writing.acquire(False):\n"
        "                writing.release()\n"
        "                break\n"
        "            time.sleep(0.001)\n"
        "        children = multiprocessing.active_children()\n"
        "        for child in children:\n"
        "            os.kill(child.pid, signal.SIGKILL)\n"
        "        for child in children:\n"
        "            child.join()  # dead, one of them holding the task queue's lock\n"
        "        assert not lock.acquire(False)\n"
        "        raise KeyboardInterrupt  # as Ctrl-C, or SIGTERM as the CLI turns it\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n")
    returncode, stdout, stderr = _script(script)
    assert returncode == 0 and stdout.strip() == "stopped", stderr


def test_a_worker_that_lost_its_sigterm_does_not_hang_the_stop(tmp_path):
    """Terminating a pool's workers is a SIGTERM, which a worker's handler can lose (one landing
    just before the worker blocks on the lock of the task queue is never acted on), and the stop
    would wait for it for ever. Here the workers ignore the signal outright: they are killed a
    moment later, and the stop goes on."""
    script = tmp_path / "deaf.py"
    script.write_text(
        "import os, signal, time\n"
        "import numpy as np\n"
        "from treegen.run import local\n"
        "from treegen.run.seam import ClassTask, Result\n"
        "class Deaf:\n"
        "    def run_class(self, task, cancelled=None):\n"
        "        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as if its SIGTERM were lost\n"
        "        with open('started', 'w') as f:\n"
        "            f.write(str(os.getpid()))\n"
        "        time.sleep(3600)\n"
        "    def worker(self):\n"
        "        return self\n"
        "local._GRACE = 0.5\n"
        "try:\n"
        "    with local.Pool(Deaf(), 2) as farm:\n"
        "        results = farm.run([ClassTask(np.arange(2), (), 9, -1)], farm.token())\n"
        "        while not os.path.exists('started'):\n"
        "            time.sleep(0.01)  # the task has begun: it will not end by itself\n"
        "        deaf = int(open('started').read())\n"
        "        workers = {p.pid: p for p in farm.pool._pool}\n"
        "        raise KeyboardInterrupt\n"
        "except KeyboardInterrupt:\n"
        "    print(workers[deaf].exitcode)\n")
    returncode, stdout, stderr = _script(script)
    assert returncode == 0 and stdout.strip() == str(-signal.SIGKILL), stderr


def _deaf() -> None:
    """A worker whose SIGTERM is lost: it ignores the signal and waits for good."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        signal.pause()


def test_a_worker_killed_writing_its_result_stops_the_search_and_does_not_hang_it(tmp_path):
    """A worker killed mid-task (by the kernel when memory runs out, say) never hands back its
    result: the search hears of it instead of waiting for ever. Killed as it wrote its result, it
    also holds the lock of the result queue, which stopping the pool takes."""
    script = tmp_path / "dying.py"
    script.write_text(
        "import os, signal, sys\n"
        "import numpy as np\n"
        "from treegen.errors import WorkerLost\n"
        "from treegen.run.local import Pool\n"
        "from treegen.run.seam import ClassTask\n"
        "class Dying:\n"
        "    def run_class(self, task, cancelled=None):\n"
        "        frame = sys._getframe()\n"
        "        while frame.f_code.co_name != 'worker':  # the pool's loop, holding its queues\n"
        "            frame = frame.f_back\n"
        "        frame.f_locals['outqueue']._wlock.acquire()  # writing its result\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    def worker(self):\n"
        "        return self\n"
        "try:\n"
        "    with Pool(Dying(), 2) as farm:\n"
        "        list(farm.run([ClassTask(np.arange(2), (), 9, -1)], farm.token()))\n"
        "except WorkerLost as lost:\n"
        "    print(lost)\n")
    returncode, stdout, stderr = _script(script)
    assert returncode == 0 and "was killed by SIGKILL" in stdout, stderr


def test_a_stop_without_the_task_queues_lock_does_not_wait_on_its_reading():
    """Stopping a pool empties its task queue, which takes the queue's lock. When a worker holds
    it, a live worker may take the message the stop has just polled, and reading would wait for
    ever: here the pipe holds half a message, which reading waits on in just that way."""
    import multiprocessing
    import struct
    import threading

    from treegen.run.local import _Pool
    inqueue = multiprocessing.get_context("fork").SimpleQueue()
    writer = inqueue._writer.fileno()
    os.write(writer, struct.pack("!i", 8))  # a header whose 8 bytes are still to come
    assert inqueue._rlock.acquire(False)  # held by a worker
    writing = threading.Event()
    handler = threading.Thread(target=writing.wait)  # the thread writing the stop's sentinels
    handler.start()
    stop = threading.Thread(target=_Pool._help_stuff_finish, args=(inqueue, handler, 2))
    try:
        stop.start()
        stop.join(60)
        assert not stop.is_alive()
    finally:
        os.write(writer, bytes(8))  # the rest: the reading left to its own thread ends too
        writing.set()
        handler.join()
        inqueue._rlock.release()


def test_a_worker_started_in_place_of_one_that_died_is_killed_with_the_others():
    """A SIGTERM to the whole process group ends a worker, and the pool's thread starts another in
    its place as the stop begins: that one never had the signal and, its SIGTERM from the stop
    lost, would wait on. The kill that follows a stop reads the pool's list of workers once that
    thread has ended, so it is killed like the workers the stop began with."""
    import multiprocessing
    import threading

    from treegen.run.local import _kill_after
    workers: list = []
    started = threading.Event()
    replacement = multiprocessing.get_context("fork").Process(target=_deaf)

    def replace():  # the pool's thread, stopping: it starts one last worker, then ends
        started.wait()
        replacement.start()
        workers.append(replacement)

    handler = threading.Thread(target=replace)
    handler.start()
    killer = threading.Thread(target=_kill_after, args=(workers, handler, 0.0))
    killer.start()  # as the stop begins, before the replacement exists
    started.set()
    try:
        killer.join(timeout=60)
        replacement.join(timeout=60)
        assert replacement.exitcode == -signal.SIGKILL
    finally:
        if replacement.is_alive():
            replacement.kill()
            replacement.join()


def _script(script):
    """Run a script in a session of its own, in its folder; a hang fails after a minute, and
    whatever it left running is stopped."""
    import os
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=script.parent)
    try:
        stdout, stderr = proc.communicate(timeout=60)
    finally:  # a hang leaves the script and its workers: stop them all
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    return proc.returncode, stdout, stderr


def test_guess_tasks_prune_against_the_best_total_shared_so_far():
    with Pool(_Guesser(), 2) as farm:
        token = farm.token()
        token.share(50, 3)  # the guess ranked 3 totals 50
        tasks = [GuessTask(np.arange(4), (), guess, 5, -1, rank) for guess, rank in ((7, 1), (8, 5))]
        assert sorted((r.cost, r.plan) for r in farm.run(tasks, token)) == [(49, {(): 8}),
                                                                           (50, {(): 7})]
        token.share(40, 0)
        assert [r.cost for r in farm.run(tasks[:1], token)] == [39]  # learnt before it started
        token.cancel()
        assert [r.cost for r in farm.run(tasks, token)] == [-1] * 2
