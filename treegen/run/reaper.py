"""Stops the local Ray instance a build started when the build dies without stopping it.

A driver killed outright (SIGKILL, the OOM killer) never calls ``ray.shutdown()``. Ray's servers
follow it within a second, but its agents and idle workers do not: they wait for servers that are
gone, holding a few hundred MB for about a minute. The reaper is a small process of its own
session (a Ctrl-C to the build's terminal does not reach it) holding the read end of a pipe whose
write end only the driver has: end of file without the word "done" means the driver died, and the
reaper kills every process of the instance, found as the descendants of its servers (noted while
the driver lives, since a dead parent's children are handed to init).

Standard library only, and Linux's ``/proc``; elsewhere it watches nothing and exits.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys

#: Seconds between two looks at the instance's processes while the driver lives.
LOOK = 0.5
DONE = b"done\n"


def start(pids: list[int]) -> subprocess.Popen[bytes] | None:
    """A reaper for the processes ``pids`` and their descendants; None where it cannot run."""
    if not os.path.isdir("/proc") or not pids:
        return None
    try:
        return subprocess.Popen([sys.executable, "-m", "treegen.run.reaper",
                                 *(str(p) for p in pids)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
    except OSError:
        return None  # no reaper costs only the minute Ray's agents take to notice


def stop(reaper: subprocess.Popen[bytes] | None) -> None:
    """Tell the reaper the driver stopped Ray itself."""
    if reaper is None or reaper.stdin is None:
        return
    try:
        reaper.stdin.write(DONE)
        reaper.stdin.close()
    except OSError:
        pass
    try:
        reaper.wait(timeout=5)
    except subprocess.TimeoutExpired:
        reaper.kill()
        reaper.wait()


def _table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, start time) of every process."""
    table: dict[int, tuple[int, str]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
                table[int(name)] = (int(fields[1]), fields[19])
            except (OSError, IndexError, ValueError):
                continue
    return table


def _look(known: dict[int, str]) -> None:
    """Add the descendants of the known processes (each with its start time, so that a pid used
    again by another process is never taken for one of them)."""
    table = _table()
    for pid in list(known):
        if pid in table and known[pid] == "":
            known[pid] = table[pid][1]
    grew = True
    while grew:
        grew = False
        for pid, (parent, started) in table.items():
            if pid not in known and parent in known and table.get(parent, (0, ""))[1] == known[parent]:
                known[pid] = started
                grew = True


def _kill(known: dict[int, str]) -> None:
    table = _table()
    for pid, started in known.items():
        if pid in table and table[pid][1] == started and pid != os.getpid():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def main(argv: list[str]) -> int:
    known = {int(p): "" for p in argv if p.isdigit()}
    _look(known)
    while True:
        ready, _, _ = select.select([sys.stdin.buffer], [], [], LOOK)
        if ready:
            if os.read(sys.stdin.fileno(), len(DONE)):
                return 0  # the driver stopped Ray itself
            _look(known)
            _kill(known)
            _look(known)  # what the killed ones started meanwhile
            _kill(known)
            return 0
        _look(known)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
