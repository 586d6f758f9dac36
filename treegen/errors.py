"""One exception family, so the CLI can turn every expected failure into a one-line message.

Its base, :class:`TreegenError`, is defined in :mod:`treegen.player`, the one standard-library
file the runtime player is: the player's own errors (``PlayerError`` and the answers it refuses)
are then treegen's too, and a copy of the player in another project keeps the same names. Every
other exception and warning of treegen is defined here, so each name means one thing; the only
other is the certificate checker's ``CertificateRefused`` (:mod:`treegen.certificate` imports
nothing of treegen), which :mod:`treegen.files.checked` turns into a :class:`CertificateError`.

    TreegenError              (player.py) what a user is told in one line
        PlayerError           (player.py) an answer or request the player refuses
            MalformedAnswer       an answer that cannot be read
            ImpossibleAnswer      an answer no secret of a game this size gives
            NoSuchBranch          an answer no secret left gives
        GameError             a game malformed or too large
        CodeError             a code or feedback not valid for the game
            MalformedFeedback     text that is no feedback
            ImpossibleFeedback    a feedback no secret of this length gives
        StrategyError         an unknown strategy, or one that misbehaves
        BookError             a book that cannot be read
        PathError             moves that lead to no node of the book
        RenderError           Graphviz missing or failed
        CertificateError      a certificate that proves nothing, or cannot be written
        CheckerCrash          the checker failed: the file was not judged
        WriteError            a file that cannot be written
        ImpossibleError       no tree within the depth asked
        RecordError           a record that cannot be used
        GraftError            a record that cannot be grafted onto a book
        CheckpointError       a checkpoint that cannot be resumed
        SettingError          an environment variable treegen cannot use
        SigningError          no usable signing key
        EngineError           Ray missing or unreachable
        WorkerLost            a search's worker process died (killed, or crashed)
        SiteError             a site that cannot be written there
        ExportError           an export format treegen does not write
        CHeaderError          a book or prefix the C header cannot take
        LibraryError          a library request that cannot be met
    CheckpointWarning (UserWarning)   a checkpoint not written; the search goes on
    Cancelled (Exception)     internal: a search task given up, never shown
    Layout (Exception)        internal: a book not in treegen's layout, read whole instead
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from types import FrameType

from treegen.player import ImpossibleAnswer, MalformedAnswer, NoSuchBranch, PlayerError, TreegenError

__all__ = [
    "BookError", "CHeaderError", "Cancelled", "CertificateError", "CheckerCrash", "CheckpointError",
    "CheckpointWarning", "CodeError", "EngineError", "ExportError", "GameError", "GraftError",
    "ImpossibleAnswer", "ImpossibleError", "ImpossibleFeedback", "Layout", "LibraryError",
    "MalformedAnswer", "MalformedFeedback", "NoSuchBranch", "PathError", "PlayerError",
    "RecordError", "RenderError", "SettingError", "SigningError", "SiteError", "StrategyError",
    "TreegenError", "WorkerLost", "WriteError", "forget_interrupts", "interrupt", "interrupted",
    "resumable", "signalled", "unknown"]


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


class MalformedFeedback(CodeError):
    """Text that cannot be read as a feedback."""


class ImpossibleFeedback(CodeError):
    """A feedback no secret of a game of this length can give."""


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


class CheckerCrash(TreegenError):
    """The certificate checker failed (an exception inside it, or a process of it killed): a
    defect of treegen or of this machine, never a verdict on the file, which was not judged."""


class WriteError(TreegenError):
    """A file that cannot be written (missing folder, no permission, full disk)."""


class ImpossibleError(TreegenError):
    """No tree solves every secret within the requested number of guesses."""


class RecordError(TreegenError):
    """A record that cannot be used: not a record, damaged, edited, or of another opening."""


class GraftError(TreegenError):
    """A record that cannot be grafted onto a book: another game, opening or depth limit."""


class CheckpointError(TreegenError):
    """A checkpoint that cannot be resumed: another build's, damaged, edited, or unreadable."""


class SettingError(TreegenError):
    """An environment variable with a value treegen cannot use."""


class SigningError(TreegenError):
    """No usable signing key: the state folder cannot be written, or the key file is unsafe."""


class EngineError(TreegenError):
    """Ray is missing, or the cluster cannot be reached."""


class WorkerLost(TreegenError):
    """A worker process of a search died under it: killed (by the kernel when memory runs out, or
    by hand) or crashed. Its task's result will never come, so the search stops, keeping what it
    has for ``--resume``."""


class SiteError(TreegenError):
    """A site that cannot be written where it was asked to go."""


class ExportError(TreegenError):
    """An export format treegen does not write, or a file name that does not tell one."""


class CHeaderError(TreegenError):
    """A book the C header cannot hold, or a prefix that is not a C identifier."""


class LibraryError(TreegenError):
    """A library request that cannot be met: an --only pattern that names no book, a bad folder."""


class CheckpointWarning(UserWarning):
    """A checkpoint could not be written; the search goes on, and the last one written is kept."""


class Cancelled(Exception):
    """The guess a task's search serves was given up: what it found is cached, the rest is moot.
    Not a TreegenError: it never reaches a user."""


class Layout(Exception):
    """A book file is not in the layout treegen writes; it is read whole instead. Not a
    TreegenError: the reader catches it."""


_signalled = False
#: The process whose command installed :func:`interrupt` (see :func:`forget_interrupts`).
_owner: int | None = None


def interrupt(signum: int, frame: FrameType | None) -> None:
    """Handler of SIGINT and SIGTERM in the command: Ctrl-C, remembered. Compiled code can swallow
    the KeyboardInterrupt (numba, unboxing an argument, raises a TypeError in its place), so
    :func:`interrupted` also asks whether a signal came. A process forked from the command has
    it too until it sets its own: there SIGTERM ends it quietly (a pool being stopped signals a
    worker it has only just started, which must not print a traceback)."""
    global _signalled
    if signum == signal.SIGTERM and _owner is not None and os.getpid() != _owner:
        os._exit(128 + signum)
    _signalled = True
    raise KeyboardInterrupt


def signalled() -> bool:
    """Whether Ctrl-C or SIGTERM came. A KeyboardInterrupt raised inside some C code (numpy's,
    among others) is lost, so long work asks this between steps and stops all the same."""
    return _signalled


def forget_interrupts() -> None:
    """A new command starts: no signal has come for it yet (matters when one process runs
    several, as tests do)."""
    global _signalled, _owner
    _signalled = False
    _owner = os.getpid()


def resumable(exc: BaseException | None) -> bool:
    """Whether a search stopped by ``exc`` keeps its work to be taken up again: stopped by Ctrl-C or
    SIGTERM, or by the loss of a worker, which leaves this process sound."""
    return interrupted(exc) or isinstance(exc, WorkerLost)


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
