"""The status of a long exact search: what the status line shows, measured honestly."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from treegen.search.bounds import INFEASIBLE


@dataclass
class Progress:
    """Where a long search is: root guesses tried, classes of the current one solved, the best
    total found and the proven lower bound (the gap closes as the search goes), time and memory."""

    guess_rank: int
    guesses: int
    guess: str
    classes_done: int
    classes: int
    best: int | None
    lower: int
    elapsed: float
    peak_bytes: int
    #: A bounded search counts the large sets it has searched instead of classes.
    large_sets: int | None = None
    #: What the guesses followed are: the first guesses, or the guesses at the top of a class.
    label: str = "first guess"
    #: The guesses are tried side by side: ``guess_rank + 1`` of them are done, and ``guess``
    #: is the one with the best total so far.
    side_by_side: bool = False

    def __str__(self) -> str:
        best = "none yet" if self.best is None else str(self.best)
        if self.side_by_side:
            by = f" ({self.guess})" if self.guess else ""
            return (f"{_clock(self.elapsed)} {self.label}: {self.guess_rank + 1}/{self.guesses} "
                    f"tried side by side; best total {best}{by}, lower bound {self.lower}; "
                    f"peak memory {self.peak_bytes / 2 ** 20:.0f} MiB")
        done = (f"{self.classes_done}/{self.classes} classes solved" if self.large_sets is None
                else f"{self.large_sets} large sets searched")
        return (f"{_clock(self.elapsed)} {self.label} {self.guess_rank + 1}/{self.guesses} "
                f"({self.guess}): {done}; best total {best}, lower bound {self.lower}; "
                f"peak memory {self.peak_bytes / 2 ** 20:.0f} MiB")


class StatusLine:
    """The status line of one search: the guesses of the set it follows, tried one at a time or
    side by side, or a bounded search's root guesses. Silent without a ``status`` callback (a
    worker's search), so the loops that report need not ask."""

    def __init__(self, status: Callable[[Progress], None] | None, codes: Sequence[str]) -> None:
        self.status, self.codes = status, codes
        self.started = time.monotonic()

    def guess(self, level: int, rank: int, count: int, guess: int, classes: int, best: int
              ) -> Callable[[int, int], None] | None:
        """What reports, as its classes are solved (how many, and the lower bound they show),
        the ``rank``-th of ``count`` guesses of a set ``level`` guesses into the game."""
        status = self.status
        if status is None:
            return None
        code, label, started = self.codes[guess], _label(level, "first guess", "guess"), self.started

        def show(solved: int, lower: int) -> None:
            status(Progress(rank, count, code, solved, classes, _found(best), min(best, lower),
                            time.monotonic() - started, peak_memory(), label=label))
        return show

    def side_by_side(self, level: int, tried: int, count: int, guess: int, best: int,
                     lower: int) -> None:
        """``tried`` of a set's ``count`` guesses done side by side, the best total so far that
        of ``guess`` (-1: none yet)."""
        if self.status is not None:
            self.status(Progress(tried - 1, count, self.codes[guess] if guess >= 0 else "", 0, 0,
                                 _found(best), lower, time.monotonic() - self.started,
                                 peak_memory(), label=_label(level, "first guesses", "guesses"),
                                 side_by_side=True))

    def bounded(self, rank: int, count: int, guess: int, lower: int, best: int, nodes: int
                ) -> None:
        """A bounded search at its ``rank``-th root guess, ``nodes`` large sets searched."""
        if self.status is not None:
            self.status(Progress(rank, count, self.codes[guess], 0, 0,
                                 best if best < INFEASIBLE else None, min(lower, best),
                                 time.monotonic() - self.started, peak_memory(), nodes))


def _found(best: int) -> int | None:
    """A best total to show: none while it is still the budget's stand-in."""
    return best if best < INFEASIBLE // 2 else None


def _label(level: int, first: str, deeper: str) -> str:
    return first if level == 0 else deeper


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"


def peak_memory() -> int:
    """Peak resident memory of this process and its finished children, in bytes."""
    import resource
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is bytes on macOS, KiB elsewhere
    return max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) * scale
