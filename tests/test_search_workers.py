"""How the exact search hands classes out: each budget from what is known when it is handed out,
never more tasks out than workers."""

import numpy as np

from treegen.optimal import _Tally
from treegen.search_workers import workers


def test_each_class_gets_the_budget_its_solved_siblings_leave():
    a, b, c = ((0, 1),), ((0, 2),), ((0, 3),)
    classes = [(np.arange(5), a, 10, -1), (np.arange(3), b, 5, -1), (np.arange(2), c, 3, -1)]
    tally = _Tally(10, classes)
    tasks = tally.tasks(40, lambda sub: True)
    assert next(tasks)[2] == 40 - 1 - (10 + 5 + 3)  # the floors of the others
    tally.close(a, 20)  # ten above its floor: the rest have ten less
    assert next(tasks)[2] == 40 - 1 - (10 + 20 + 3)
    tally.close(b, 7)  # 10 + 20 + 7 + floor 3 = 40: the guess cannot beat 40
    assert list(tasks) == []
    assert tally.lower() == 40 and tally.solved == 2


def test_only_the_chosen_classes_become_tasks():
    classes = [(np.arange(n), ((0, n),), 2 * n, -1) for n in (9, 4, 1)]
    tasks = _Tally(14, classes).tasks(100, lambda sub: len(sub) > 3)
    assert [len(task[0]) for task in tasks] == [9, 4]


class _Echo:
    """A stand-in search: a class costs its size."""

    saver = None

    def solve_class(self, task):
        return len(task[0]), None


def _drawn(log, count):
    for n in range(1, count + 1):
        log.append(n)
        yield np.arange(n), (), 100, -1


def test_one_job_draws_each_task_after_the_previous_result():
    log = []
    with workers(_Echo(), 1) as run:
        results = run(_drawn(log, 4))
        assert log == []
        assert next(results) == (1, None) and log == [1]
        assert next(results) == (2, None) and log == [1, 2]


def test_workers_hold_no_more_tasks_than_there_are_of_them():
    log = []
    with workers(_Echo(), 2) as run:
        results = run(_drawn(log, 5))
        assert log == [1, 2]  # handed out at once, one per worker
        first = next(results)
        assert len(log) == 2  # the next one is drawn only once this result has been used
        rest = list(results)
    assert sorted([first[0]] + [cost for cost, _ in rest]) == [1, 2, 3, 4, 5]
