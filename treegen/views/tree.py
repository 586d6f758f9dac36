"""Walking a book's tree: sizes of nodes, paths of answers, and the moves that lead to a node.

A node is reached by the answers on its path from the root (``("1A0B", "0A2B")``); its name is the
answers joined (``1A0B-0A2B``, the root is ``root``). Every walk is iterative and shares paths
between nodes, so trees of any depth take time linear in their size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from treegen.book.format import answer_key
from treegen.data import BookData, GameData, Node
from treegen.errors import PathError
from treegen.notation import split_moves
from treegen.player import PlayerError, feedback_keys, parse_answer, solved_key

__all__ = [
    "Size",
    "describe_path",
    "guesses_on_path",
    "locate",
    "measure",
    "node_at",
    "node_count",
    "parse_path",
    "path_key",
]


@dataclass(frozen=True)
class Size:
    """What a node stands for: how many secrets reach it and how many guesses they still need."""

    secrets: int    #: secrets whose game passes through this node
    height: int     #: most guesses still needed from here, this node's guess included
    possible: bool  #: whether this node's guess can itself be the secret (then it may win here)


def measure(tree: Node, game: GameData, start: Sequence[str] = ()) -> dict[int, Size]:
    """Size of every node below ``start``, keyed by ``id(node)``: one iterative walk.

    A node's secrets are its children's plus one when its own guess is still possible there
    (one of the game's secrets that gives the answers on the path from the root); a leaf is one
    solved secret. Paths are linked lists shared by the nodes below them, so the walk is linear
    in the tree's size.
    """
    top = node_at(tree, start)
    history: _History = None
    for g, a in zip(guesses_on_path(tree, start), start):
        history = ((g, a), history)
    secrets = frozenset(game["answers"]) if "answers" in game else None
    sizes: dict[int, Size] = {}
    stack: list[tuple[Node, _History, bool]] = [(top, history, False)]
    while stack:
        node, history, children_done = stack.pop()
        branches = node["next"]
        if not children_done:
            stack.append((node, history, True))
            for key, child in branches.items():
                if child["next"]:
                    stack.append((child, ((node["guess"], key), history), False))
                else:  # most nodes are leaves: one solved secret, nothing to check
                    sizes[id(child)] = _LEAF
            continue
        guess = node["guess"]
        possible = (secrets is None or guess in secrets) and _fits(game, guess, history)
        below = [sizes[id(child)] for child in branches.values()]
        sizes[id(node)] = Size(sum(s.secrets for s in below) + possible,
                               1 + max((s.height for s in below), default=0), possible)
    return sizes


#: The answers on a path, latest first: ((guess, answer), rest), or None at the root.
_History = Optional[tuple[tuple[str, str], "_History"]]  # noqa: UP045 -- run time 3.10


def _fits(game: GameData, code: str, history: _History) -> bool:
    while history is not None:
        (guess, key), history = history
        if answer_key(game, guess, code) != key:
            return False
    return True


_LEAF = Size(1, 1, True)


def path_key(path: Sequence[str]) -> str:
    """A node's name from the answers that lead to it: ``root``, ``0A1B``, ``0A1B-2A0B``."""
    return "-".join(path) or "root"


def node_at(tree: Node, path: Sequence[str]) -> Node:
    """The node the answers ``path`` lead to from the root."""
    node = tree
    for i, answer in enumerate(path):
        if answer not in node["next"]:
            where = "the root" if i == 0 else "after " + ",".join(path[:i])
            raise PathError(f"the book has no answer {answer} to {node['guess']} at {where}")
        node = node["next"][answer]
    return node


def parse_path(text: str, game: GameData) -> list[tuple[str, str]]:
    """``GUESS=FEEDBACK,...`` as (guess, feedback key) pairs, in any spelling the player reads
    for the game's rule (``1122=1,0``, ``salet=gy..y``)."""
    try:
        return [(guess, parse_answer(answer, game)) for guess, answer in split_moves(text)]
    except PlayerError as exc:
        raise PathError(str(exc)) from None


def locate(book: BookData, steps: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The answers of a path of (guess, feedback) moves, checked against the book's guesses."""
    node, path = book["tree"], list[str]()
    solved, keys = solved_key(book["game"]), frozenset(feedback_keys(book["game"]))
    for guess, answer in steps:
        moves = describe_path(book["tree"], path) or "the root"
        if guess != node["guess"]:
            raise PathError(f"no such node: the book guesses {node['guess']}, not {guess}, at "
                            f"{moves}")
        if answer not in keys:
            raise PathError(f"answer {answer} is impossible in {book['game']['name']}")
        if answer == solved:
            raise PathError(f"no such node: {guess}={answer} solves the game at {moves}")
        if answer not in node["next"]:
            known = " ".join(node["next"]) or "none"
            raise PathError(f"no such node: the book never gets {answer} for {guess} at {moves} "
                            f"(answers there: {known})")
        node = node["next"][answer]
        path.append(answer)
    return tuple(path)


def guesses_on_path(tree: Node, path: Sequence[str]) -> list[str]:
    """The guesses the book plays on the way to the node the answers ``path`` lead to."""
    guesses, node = [], tree
    for answer in path:
        guesses.append(node["guess"])
        node = node["next"][answer]
    return guesses


def describe_path(tree: Node, path: Sequence[str]) -> str:
    """``1122=0A1B,3345=1A0B``: the moves that lead to a node, as ``--from`` takes them."""
    return ",".join(f"{g}={a}" for g, a in zip(guesses_on_path(tree, path), path))


def node_count(book: BookData, start: Sequence[str] = ()) -> int:
    """How many nodes the subtree at ``start`` has: the size of a ``--depth all`` picture."""
    count, stack = 0, [node_at(book["tree"], start)]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node["next"].values())
    return count
