"""One exception family, so the CLI can turn every expected failure into a one-line message.

Its base, :class:`TreegenError`, is defined in :mod:`treegen.player`, the one standard-library
file the runtime player is: the player's own errors (``PlayerError`` and the answers it refuses)
are then treegen's too, and a copy of the player in another project keeps the same names.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

from treegen.player import ImpossibleAnswer, MalformedAnswer, NoSuchBranch, PlayerError, TreegenError

__all__ = [
    "BookError", "CertificateError", "CodeError", "GameError", "GraftError", "ImpossibleAnswer",
    "ImpossibleError", "MalformedAnswer", "NoSuchBranch", "PathError", "PlayerError", "RecordError",
    "RenderError", "StrategyError", "TreegenError", "WriteError", "forget_interrupts", "interrupt",
    "interrupted", "signalled", "unknown"]


def unknown(what: str, name: object, known: Sequence[str], more: str = "") -> str:
    """The message for an unknown name: the closest known one when a typo is likely, then the
    whole list (``more`` adds what else is accepted)."""
    import difflib
    starting = [k for k in known if str(name) and k.startswith(str(name))]
    close = starting if len(starting) == 1 else \
        difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {what} {name!r}{hint} (known: {', '.join(known)}{more})"


class GameError(TreegenError):
    """A game that is malformed or too large for this machine's memory."""


class CodeError(TreegenError):
    """A code or a feedback that is not valid for the game."""


class StrategyError(TreegenError):
    """An unknown strategy, or one that misbehaves while a book is compiled."""


class BookError(TreegenError):
    """A book file that cannot be read: not JSON, another format or version, or a broken tree."""


class PathError(TreegenError):
    """A path of moves (``--from GUESS=FEEDBACK,...``) that does not lead to a node of the book."""


class RenderError(TreegenError):
    """Graphviz is missing or failed, or a picture treegen cannot draw."""


class CertificateError(TreegenError):
    """A certificate that proves nothing (damaged, edited, of another game or claim), or one that
    cannot be written (the bound it would prove does not hold)."""


class WriteError(TreegenError):
    """A file that cannot be written (missing folder, no permission, full disk)."""


class ImpossibleError(TreegenError):
    """No tree solves every secret within the requested number of guesses."""


class RecordError(TreegenError):
    """A record that cannot be used: not a record, damaged, edited, or of another opening."""


class GraftError(TreegenError):
    """A record that cannot be grafted onto a book: another game, opening or depth limit."""


_signalled = False


def interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    """Handler of SIGINT and SIGTERM in the command: Ctrl-C, remembered. Compiled code can swallow
    the KeyboardInterrupt (numba, unboxing an argument, raises a TypeError in its place), so
    :func:`interrupted` also asks whether a signal came."""
    global _signalled
    _signalled = True
    raise KeyboardInterrupt


def signalled() -> bool:
    """Whether Ctrl-C or SIGTERM came. A KeyboardInterrupt raised inside some C code (numpy's,
    among others) is lost, so long work asks this between steps and stops all the same."""
    return _signalled


def forget_interrupts() -> None:
    """A new command starts: no signal has come for it yet (matters when one process runs
    several, as tests do)."""
    global _signalled
    _signalled = False


def interrupted(exc: BaseException | None) -> bool:
    """Whether an exception is, or was caused by, Ctrl-C: compiled code (numba) reports a Ctrl-C
    that lands inside it as a chain of SystemErrors, or in its place (see :func:`interrupt`)."""
    if _signalled:
        return True
    for _ in range(100):
        if exc is None:
            return False
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
