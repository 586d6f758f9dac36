"""The executor an engine names, for those who choose where a search runs (the registry, the
command line); the search itself never does."""

from __future__ import annotations

from treegen.run.seam import Executor


def executor(engine: str = "local", address: str | None = None, jobs: int = 1) -> Executor:
    """The executor an engine names: ``jobs`` local worker processes (never more than this
    machine's processors), or a Ray cluster (``address``; without one, a Ray instance of ``jobs``
    processors started here)."""
    if engine == "ray":
        from treegen.run.ray import Ray
        return Ray(address, jobs)
    from treegen.run.local import Local, usable_cores
    return Local(min(jobs, usable_cores()))
