"""The status of a long exact search: what the status line shows, measured honestly."""

from __future__ import annotations

import sys
from dataclasses import dataclass


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


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}"


def peak_memory() -> int:
    """Peak resident memory of this process and its finished children, in bytes."""
    import resource
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss is bytes on macOS, KiB elsewhere
    return max(resource.getrusage(who).ru_maxrss
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) * scale
