"""The executor a search's options name, for those who choose where a search runs (the registry,
the front door); the search itself never does, so this is not a method of
:class:`treegen.search.options.SearchOptions`: the search's layer may not import the executors."""

from __future__ import annotations

from treegen.run.seam import Executor
from treegen.search.options import SearchOptions


def executor(options: SearchOptions) -> Executor:
    """Where the options say the search runs: ``jobs`` local worker processes (never more than
    this machine's processors), or a Ray cluster (``address``; without one, a Ray instance of
    ``jobs`` processors started here)."""
    if options.engine == "ray":
        from treegen.run.ray import Ray
        return Ray(options.address, options.jobs)
    from treegen.run.local import Local, usable_cores
    return Local(min(options.jobs, usable_cores()))
