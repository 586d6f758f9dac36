"""What a notebook shows while a book is built: one line, rewritten in place, so that a build of
minutes is never silent. Outside a notebook nothing is shown unless asked for."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


def in_notebook() -> bool:
    """Whether this runs in a Jupyter kernel (IPython's terminal shell is not one)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    get = getattr(shell, "get_ipython", None)
    kernel = get() if callable(get) else None
    return kernel is not None and type(kernel).__name__ == "ZMQInteractiveShell"


class ProgressLine:
    """Secrets solved out of all, and the search's status line when it has one, on one line that
    is redrawn at most ten times a second (and always at the end)."""

    def __init__(self, secrets: int, out: TextIO | None = None) -> None:
        self.secrets, self.done, self.status = secrets, 0, ""
        self.out = out if out is not None else sys.stdout
        self.shown = 0.0

    def add(self, solved: int) -> None:
        self.done += solved
        self._show(final=self.done >= self.secrets)

    def search(self, status: Any) -> None:
        self.status = str(status)
        self._show(final=False)

    def _show(self, final: bool) -> None:
        now = time.monotonic()
        if not final and now - self.shown < 0.1:
            return
        self.shown = now
        line = f"{self.done}/{self.secrets} secrets solved"
        if self.status and not final:
            line += f"; search: {self.status}"
        self.out.write("\r" + line.ljust(100)[:160] + ("\n" if final else ""))
        self.out.flush()
