"""Independent check of a book: replay every secret of its game through the tree.

Uses the plain scorer of :mod:`treegen.book` and its own enumeration of codes, not the score table
that built the book, so a bug in the array code cannot verify itself.
"""

from __future__ import annotations

import itertools

from treegen.book.format import answer_key, check, hard_allows, make_stats
from treegen.data import BookData, GameData, Node, Stats
from treegen.errors import BookError
from treegen.player import brief
from treegen.rules.game import Game


def game_codes(game: GameData) -> list[str]:
    """Every secret of a book's game, in enumeration order (a listed game's answers, as listed); a
    game whose codes would not fit in this machine's memory is refused first."""
    Game.from_dict(game).check_fits(tables=False)
    if "answers" in game:
        return list(game["answers"])
    symbols, length = game["symbols"], game["length"]
    combos = itertools.product(symbols, repeat=length) if game["repetition"] \
        else itertools.permutations(symbols, length)
    return ["".join(c) for c in combos]


def verify(book: BookData, limit: int = 10) -> list[str]:
    """Problems found (at most ``limit``); an empty list means the book is correct and its stats true,
    and so are its claims (depth limit, lower bound, optimality)."""
    if type(limit) is not int or limit < 1:
        raise BookError(f"limit must be a whole number of at least 1, not {brief(limit)}")
    problem = check(book)
    if problem:
        return [problem]
    tree = book["tree"]
    depths, problems = replay(tree, game_codes(book["game"]), book["game"], limit)
    if problems:
        return problems
    stats = make_stats(depths)
    for key, value in stats.items():
        if book["stats"].get(key) != value:
            problems.append(f"stats.{key} says {book['stats'].get(key)!r} but the tree gives {value!r}")
    return (problems + claims(book, stats) + hard_mode(book))[:limit]


def hard_mode(book: BookData) -> list[str]:
    """In hard mode, the guesses that do not fit every answer on their way (the first of them)."""
    game = book["game"]
    if not game.get("hard"):
        return []
    stack: list[tuple[Node, tuple[tuple[str, str], ...]]] = [(book["tree"], ())]
    while stack:
        node, path = stack.pop()
        guess = node["guess"]
        for asked, key in path:
            if not hard_allows(game, asked, key, guess):
                moves = ",".join(f"{g}={k}" for g, k in path)
                broken = "keep the hints of" if game.get("hard") == "hints" else "give"
                return [f"hard mode: {guess} after {moves} does not {broken} {key} to {asked}"]
        stack.extend((child, (*path, (guess, key))) for key, child in node["next"].items())
    return []


def claims(book: BookData, stats: Stats) -> list[str]:
    """What is wrong with what the strategy section claims of the tree."""
    strategy, tree, problems = book["strategy"], book["tree"], []
    if strategy["first"] != tree["guess"]:
        problems.append(f"strategy.first says {strategy['first']} but the tree starts with "
                        f"{tree['guess']}")
    max_depth = strategy.get("max_depth")
    if type(max_depth) is int and max_depth < stats["max"]:
        problems.append(f"strategy.max_depth says {max_depth}, but the tree needs {stats['max']} "
                        "guesses for some secret")
    after = strategy.get("after")
    scopes = [("strategy", strategy)] + ([("strategy.after", after)] if isinstance(after, dict)
                                         else [])
    for name, claim in scopes:
        lower = claim.get("lower_bound")
        if type(lower) is int and lower > stats["total"]:
            problems.append(f"{name}.lower_bound says {lower}, above the total {stats['total']} "
                            "of the tree itself")
        elif claim.get("optimal") is True and type(lower) is int and lower < stats["total"]:
            problems.append(f"{name}.optimal says true, but its lower bound {lower} is below the "
                            f"total {stats['total']}")
    return problems


def replay(tree: Node, secrets: list[str], game: GameData, limit: int = 10, before: int = 0
           ) -> tuple[list[int], list[str]]:
    """Play each secret through ``tree`` with the plain scorer: the guesses each needs (``before``
    added), and the problems found (at most ``limit``: missing branches, then branches no secret
    reaches)."""
    problems: list[str] = []
    reached = set()
    depths = []
    for secret in secrets:
        node, path = tree, []
        while True:
            reached.add(id(node))
            guess = node["guess"]
            path.append(guess)
            if guess == secret:
                break
            key = answer_key(game, guess, secret)
            child = node["next"].get(key)
            if child is None:
                problems.append(f"secret {secret}: after {' '.join(path)} the tree has no branch {key}")
                break
            node = child
        depths.append(len(path) + before)
        if len(problems) >= limit:
            return depths, problems
    for where in _unreached(tree, reached):
        problems.append(f"branch {where} is reached by no secret")
        if len(problems) >= limit:
            break
    return depths, problems


def _unreached(tree: Node, reached: set[int]) -> list[str]:
    """The paths of branches no secret reached; paths are rebuilt only for those."""
    moves: list[tuple[int, str, str]] = []  # (parent move or -1, guess, answer)
    out, stack = [], [(tree, -1)]
    while stack:
        node, move = stack.pop()
        for key, child in node["next"].items():
            moves.append((move, node["guess"], key))
            if id(child) not in reached:
                out.append(_path(moves, len(moves) - 1))
            else:
                stack.append((child, len(moves) - 1))
    return sorted(out)


def _path(moves: list[tuple[int, str, str]], move: int) -> str:
    steps = []
    while move >= 0:
        move, guess, key = moves[move]
        steps.append(f"{guess}={key}")
    return ",".join(reversed(steps))
