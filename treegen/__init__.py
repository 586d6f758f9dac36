"""treegen: compile code-breaking strategies into complete decision trees ("strategy books").

The supported Python API is what this package exports (``__all__``)::

    import treegen
    book = treegen.build("mastermind", "minimax")   # any game, any strategy
    book.verify()                                   # [] when every secret is solved as recorded
    book.save("knuth.json"); treegen.load("knuth.json")
    player = book.player()                          # play from it: player.guess, player.answer("1A0B")
    book.moves("3632")                              # the game it plays against one secret
    treegen.score("1122", "3632")                   # "1A0B"
    treegen.compare([book, other]); treegen.site([book], "site"); treegen.partitions("mastermind")
    treegen.advise("wordle", "crane=..Y..").guess   # what to play next in a game in progress
    treegen.load_preset("mastermind")               # the proven optimal book installed with it

Names load on first use, so ``import treegen.player`` (standard library only) stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from treegen.version import __version__

#: Every exported name and the module it comes from.
_EXPORTS = {
    "Book": "api", "build": "api", "build_file": "api", "load": "api", "loads": "api", "score": "api",
    "compare": "api", "partitions": "api", "site": "api",
    "Codemaker": "sessions.challenge", "ImpossibleError": "errors",
    "Game": "rules.game",
    "Strategy": "strategies.base", "State": "strategies.base",
    "BUILTIN": "registry", "make_strategy": "registry", "SearchOptions": "search.options",
    "verify": "book.replay",
    "solve_classes": "api", "load_preset": "presets",
    "advise": "sessions.advice", "Advice": "sessions.advice",
    "Player": "player", "PlayerError": "errors", "MalformedAnswer": "errors",
    "ImpossibleAnswer": "errors", "NoSuchBranch": "errors",
    "format_feedback": "notation", "parse_feedback": "notation", "parse_moves": "notation",
    "format_moves": "notation",
    "BookData": "data", "Node": "data", "Stats": "data", "History": "data",
    "TreegenError": "errors", "GameError": "errors", "CodeError": "errors",
    "StrategyError": "errors", "BookError": "errors", "WriteError": "errors",
    "PathError": "errors", "RenderError": "errors", "CertificateError": "errors",
    "check_certificate": "files.checked", "Proven": "certificate",
}

__all__ = [
    "BUILTIN",
    "Advice",
    "Book",
    "BookData",
    "BookError",
    "CertificateError",
    "CodeError",
    "Codemaker",
    "Game",
    "GameError",
    "History",
    "ImpossibleAnswer",
    "ImpossibleError",
    "MalformedAnswer",
    "NoSuchBranch",
    "Node",
    "PathError",
    "Player",
    "PlayerError",
    "Proven",
    "RenderError",
    "SearchOptions",
    "State",
    "Stats",
    "Strategy",
    "StrategyError",
    "TreegenError",
    "WriteError",
    "__version__",
    "advise",
    "build",
    "build_file",
    "check_certificate",
    "compare",
    "format_feedback",
    "format_moves",
    "load",
    "load_preset",
    "loads",
    "make_strategy",
    "parse_feedback",
    "parse_moves",
    "partitions",
    "score",
    "site",
    "solve_classes",
    "verify",
]

if TYPE_CHECKING:
    from treegen.api import (
        Book,
        build,
        build_file,
        compare,
        load,
        loads,
        partitions,
        score,
        site,
        solve_classes,
    )
    from treegen.book.replay import verify
    from treegen.certificate import Proven
    from treegen.data import BookData, History, Node, Stats
    from treegen.errors import (
        BookError,
        CertificateError,
        CodeError,
        GameError,
        ImpossibleAnswer,
        ImpossibleError,
        MalformedAnswer,
        NoSuchBranch,
        PathError,
        PlayerError,
        RenderError,
        StrategyError,
        TreegenError,
        WriteError,
    )
    from treegen.files.checked import check_certificate
    from treegen.notation import format_feedback, format_moves, parse_feedback, parse_moves
    from treegen.player import Player
    from treegen.presets import load_preset
    from treegen.registry import BUILTIN, make_strategy
    from treegen.rules.game import Game
    from treegen.search.options import SearchOptions
    from treegen.sessions.advice import Advice, advise
    from treegen.sessions.challenge import Codemaker
    from treegen.strategies.base import State, Strategy


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'treegen' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
