"""The compiler: play every secret with a strategy at once and keep the games as one tree.

All secrets start in one state; a guess splits them by feedback into child states, each explored once.
So the strategy is asked exactly once per distinct game state (guess history), however many secrets
pass through it, and the merged tree is consistent by construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from treegen.data import History, Node
from treegen.errors import StrategyError
from treegen.rules.game import Game
from treegen.rules.scorer import Scorer, scorer_for
from treegen.strategies.base import State, Strategy, chosen

#: How many early states a strategy that is not known to be pure is asked again, to catch randomness.
RECHECKED_STATES = 8


def compile_tree(game: Game, strategy: Strategy, first: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 below: tuple[np.ndarray, History] | None = None,
                 scorer: Scorer | None = None) -> tuple[Node, np.ndarray]:
    """The strategy's decision tree and, per secret (enumeration order), the guesses it needs;
    with ``below`` (the candidates and history of a state), only the subtree of that state, the
    guesses counted from it (0 for the secrets outside it). ``scorer``: how guesses are scored
    (by default the table where it fits and pays, see :func:`treegen.rules.scorer.scorer_for`)."""
    scorer = scorer_for(game) if scorer is None else scorer
    names = game.code_strings
    texts = game.feedback_texts
    solved = game.solved_index
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
        state = State(game, scorer, cands, history, seed)
        if first_index is not None and len(history) == base:
            guess = first_index
        else:
            guess = chosen(strategy, state)
            if not strategy.pure and len(asked) < RECHECKED_STATES:
                asked.append((state, guess))
        classes = _split(scorer, guess, cands)
        if len(classes) == 1 and classes[0][0] != solved:
            raise StrategyError(
                f"strategy {strategy.name} would never finish: {names[guess]} {state.describe()} "
                f"does not split the {len(cands)} possible secrets")
        node["guess"] = names[guess]
        node["next"] = branches = {}
        level = len(history) - base + 1
        children = []
        for feedback, members in classes:
            if feedback == solved:
                depths[guess] = level
                if progress:
                    progress(1)
                continue
            child: dict[str, Any] = {}
            branches[texts[feedback]] = child
            children.append((child, members, (*history, (guess, feedback))))
        stack.extend(reversed(children))
    _ask_again(strategy, game, scorer, asked, seed)
    if below is None:
        strategy.finished(int(depths.sum()))
    return cast(Node, root), depths


def _split(scorer: Scorer, guess: int, cands: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """A guess's classes of ``cands``: (feedback, its candidates in their order), by feedback."""
    row = scorer.block(np.array([guess]), cands)[0]
    order = np.argsort(row, kind="stable")
    ordered = row[order]
    starts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist()]
    return [(int(ordered[lo]), cands[order[lo:hi]])
            for lo, hi in zip(starts, [*starts[1:], len(order)])]


def _ask_again(strategy: Strategy, game: Game, scorer: Scorer,
               asked: list[tuple[State, int]], seed: int) -> None:
    """Ask a strategy again at states it was asked before: a different guess means its book
    would depend on the order it was asked in, so it is refused."""
    names = game.code_strings
    for state, guess in asked:
        again = chosen(strategy, State(game, scorer, state.candidates, state.history, seed))
        if again != guess:
            raise StrategyError(
                f"strategy {strategy.name} is not deterministic: {state.describe()} it guessed "
                f"{names[guess]} and then {names[again]}; derive random choices from state.rng")
