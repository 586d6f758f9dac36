"""A user's own strategy: a class or function imported by name (``package.module:Name``) that
receives the state and returns the next guess as a code string. Everything it does wrong is a
one-line error naming the state, its own exception kept as the cause for whoever debugs it."""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from treegen.errors import StrategyError
from treegen.strategies.base import State, Strategy, describe

__all__ = ["UserStrategy", "load_user"]

class UserStrategy(Strategy):
    """A user's class or function (by ``package.module:Name``, or the function itself): receives
    the State, returns the next guess as a code string or index (checked by
    :func:`treegen.strategies.base.chosen`)."""

    pure = False
    first_of_few = False

    def __init__(self, spec: str | Callable[[State], object], pool: str | None = None,
                 seed: int | None = None):
        if isinstance(spec, str):
            self.name = spec
            impl = None
        else:
            self.name = getattr(spec, "__qualname__", None) or type(spec).__name__
            impl = spec
        super().__init__(pool, seed, symmetry=False)
        self.impl = impl if impl is not None else load_user(str(spec))

    def params(self) -> dict[str, Any]:
        params = super().params()
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def choose(self, state: State) -> Any:
        return self.impl(state)


UserStrategy.builtin = False  # its answers are the user's


def load_user(spec: str) -> Callable[[State], object]:
    """Import ``package.module:Name``; a class is instantiated once and its ``choose`` used."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise StrategyError(f"user strategy {spec!r} must be written package.module:Name")
    try:
        with _current_folder_importable():
            module = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise StrategyError(f"cannot import module {module_name!r} for strategy {spec}: "
                            f"{describe(exc)}") from exc
    try:
        obj = getattr(module, attr)
    except AttributeError as exc:
        raise StrategyError(f"module {module_name!r} has no attribute {attr!r}") from exc
    if isinstance(obj, type):
        try:
            obj = obj()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise StrategyError(f"cannot create strategy {spec}: {describe(exc)}") from exc
        obj = getattr(obj, "choose", obj)
    if not callable(obj):
        raise StrategyError(f"strategy {spec} is not callable")
    chooser: Callable[[State], object] = obj
    return chooser


@contextlib.contextmanager
def _current_folder_importable() -> Iterator[None]:
    """Modules in the current folder import as they do under ``python -m``: it comes first on the
    path while the strategy is imported."""
    folder = os.getcwd()
    added = folder not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        yield
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)
