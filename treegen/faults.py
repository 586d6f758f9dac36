"""Deterministic interruptions, for tests of what a stop leaves behind.

A test cannot interrupt a search "in the middle" by sleeping: machines differ, and a search that
got faster finishes before the signal. Instead it sets ``TREEGEN_TEST_FAULT`` and the process
signals itself when an event happens for the Nth time::

    TREEGEN_TEST_FAULT=checkpoint:3:KILL          SIGKILL after the third checkpoint written
    TREEGEN_TEST_FAULT=result:2:TERM:group        SIGTERM to the whole process group after the
                                                  second result a worker hands back
    TREEGEN_TEST_FAULT=task:1:KILL:group:once=F   the first task a worker starts kills its
                                                  process group, in the one process that creates F
    TREEGEN_TEST_FAULT=class:2:ALRM               the time of ``--for`` is up once the second
                                                  class of an opening is recorded

Events: ``checkpoint`` (written), ``result`` (a class or guess result taken from a worker),
``task`` (a worker starts a task), ``solved`` (a class of an opening searched, its cost recorded
before its certificate is written), ``proven`` (a class of an opening found and proven, its
certificate written before its tree is made), ``subtree`` (the tree of a class below such a
class's guess made and kept in its fact), ``fact`` (a fact of a certificate's search kept), ``class``
(a class of an opening recorded), ``claim`` (a claim of a certificate passed its check).
Unset, it costs one comparison per event.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass

from treegen.errors import TreegenError

EVENTS = ("checkpoint", "result", "task", "solved", "proven", "subtree", "fact", "class", "claim")
_SIGNALS = {"INT": signal.SIGINT, "TERM": signal.SIGTERM, "KILL": signal.SIGKILL,
            "ALRM": signal.SIGALRM}


@dataclass
class _Fault:
    event: str
    at: int
    signal: int
    group: bool
    once: str | None
    seen: int = 0


def _parse(text: str | None) -> _Fault | None:
    if not text:
        return None
    parts = text.split(":")
    try:
        event, at, name = parts[0], int(parts[1]), parts[2]
    except (IndexError, ValueError):
        event, at, name = "", 0, ""
    options = parts[3:]
    once = next((o[5:] for o in options if o.startswith("once=")), None)
    if event not in EVENTS or at < 1 or name not in _SIGNALS or \
            any(o != "group" and not o.startswith("once=") for o in options):
        raise TreegenError(f"TREEGEN_TEST_FAULT={text[:60]!r} is not EVENT:N:SIGNAL[:group]"
                           f"[:once=FILE] (events: {', '.join(EVENTS)}; signals: {', '.join(_SIGNALS)})")
    return _Fault(event, at, _SIGNALS[name], "group" in options, once)


_FAULT = _parse(os.environ.get("TREEGEN_TEST_FAULT"))


def reached(event: str) -> None:
    """Count an event; signal as ``TREEGEN_TEST_FAULT`` says when its count comes."""
    fault = _FAULT
    if fault is None or fault.event != event:
        return
    fault.seen += 1
    if fault.seen != fault.at:
        return
    if fault.once is not None:
        try:
            os.close(os.open(fault.once, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError:
            return  # another process fired it already
    if fault.group:
        os.killpg(0, fault.signal)
    else:
        os.kill(os.getpid(), fault.signal)
