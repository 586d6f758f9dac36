"""The compiler: play every secret with a strategy at once and keep the games as one tree.

All secrets start in one state; a guess splits them by feedback into child states, each explored once.
So the strategy is asked exactly once per distinct game state (guess history), however many secrets
pass through it, and the merged tree is consistent by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from treegen.book.format import make_book
from treegen.data import BookData, History, Node, StrategyData
from treegen.errors import GameError, StrategyError
from treegen.player import brief
from treegen.registry import make_strategy
from treegen.rules.game import Game
from treegen.rules.scoring import score_table, solved_index
from treegen.strategies.heuristics import State, Strategy

#: How many early states a strategy that is not known to be pure is asked again, to catch randomness.
RECHECKED_STATES = 8


def compile_tree(game: Game, strategy: Strategy, first: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 below: tuple[np.ndarray, History] | None = None) -> tuple[Node, np.ndarray]:
    """The strategy's decision tree and, per secret (enumeration order), the guesses it needs;
    with ``below`` (the candidates and history of a state), only the subtree of that state, the
    guesses counted from it (0 for the secrets outside it)."""
    table = score_table(game)
    names = game.code_strings
    texts = game.feedback_texts
    solved = solved_index(game)
    first_index = game.index(first) if first is not None else None
    depths = np.zeros(game.size, dtype=np.int64)
    cands, history = below if below is not None else (np.arange(game.size), ())
    base = len(history)
    if below is None:
        strategy.start(game, first_index)
    seed = strategy.seed if strategy.seed is not None else 0
    root: dict[str, Any] = {}  # filled in as the walk reaches it: a Node once done
    stack: list[tuple[dict[str, Any], np.ndarray, History]] = [(root, cands, history)]
    asked: list[tuple[State, int]] = []
    while stack:
        node, cands, history = stack.pop()
        if len(cands) == 1 and strategy.first_of_few and (history or first_index is None):
            node["guess"], node["next"] = names[cands[0]], {}  # the one secret left: guess it
            depths[cands[0]] = len(history) - base + 1
            if progress:
                progress(1)
            continue
        state = State(game, table, cands, history, seed)
        if first_index is not None and len(history) == base:
            guess = first_index
        else:
            guess = strategy.choose(state)
            if not strategy.pure and len(asked) < RECHECKED_STATES:
                asked.append((state, guess))
        row = table[guess, cands]
        order = np.argsort(row, kind="stable")
        ordered = row[order]
        starts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist()]
        if len(starts) == 1 and ordered[0] != solved:
            raise StrategyError(
                f"strategy {strategy.name} would never finish: {names[guess]} {state.describe()} "
                f"does not split the {len(cands)} possible secrets")
        node["guess"] = names[guess]
        node["next"] = branches = {}
        level = len(history) - base + 1
        children = []
        for lo, hi in zip(starts, [*starts[1:], len(order)]):
            feedback = int(ordered[lo])
            if feedback == solved:
                depths[guess] = level
                if progress:
                    progress(1)
                continue
            child: dict[str, Any] = {}
            branches[texts[feedback]] = child
            children.append((child, cands[order[lo:hi]], (*history, (guess, feedback))))
        stack.extend(reversed(children))
    for state, guess in asked:
        again = strategy.choose(State(game, table, state.candidates, state.history, seed))
        if again != guess:
            raise StrategyError(
                f"strategy {strategy.name} is not deterministic: {state.describe()} it guessed "
                f"{names[guess]} and then {names[again]}; derive random choices from state.rng")
    if below is None:
        strategy.finished(int(depths.sum()))
    return cast(Node, root), depths


def build_book(game: Game | str = "bulls-and-cows", strategy: str | Strategy = "minimax",
               pool: str | None = None, first: str | None = None, seed: int | None = None,
               symmetry: bool = True, progress: Callable[[int], None] | None = None,
               **options: Any) -> BookData:
    """Compile a strategy for a game into a book (the JSON-ready dict of format v1).

    ``options`` go to the strategy (``max_depth``, ``jobs`` and ``status`` for ``optimal``).
    """
    if isinstance(game, str):
        game = Game.preset(game)
    if not isinstance(game, Game):
        raise GameError(f"game must be a Game or a preset name, not {brief(game)}")
    if isinstance(strategy, str):
        strategy = make_strategy(strategy, pool=pool, seed=seed, symmetry=symmetry, **options)
    elif not isinstance(strategy, Strategy):
        raise StrategyError(f"strategy must be a name or a Strategy, not {brief(strategy)}")
    elif options or pool is not None or seed is not None:
        raise StrategyError("pool, seed and a strategy's options go to the Strategy itself when one "
                            "is given")
    if first is not None:
        first = game.validate_code(first)
    tree, depths = compile_tree(game, strategy, first=first, progress=progress)
    record = cast(StrategyData, {**strategy.params(), "first": tree["guess"]})
    return make_book(game.to_dict(), record, tree, depths.tolist())
