"""Random positions on a book's paths, where `treegen next` is held to the book (the tests and
benchmarks/next_agreement.py)."""

import random


def positions(book: dict, rng: random.Random, count: int, first: int = 0) -> list:
    """``count`` random walks down the tree, each stopped ``first`` to 7 guesses in (or at a
    leaf): (moves so far, the book's guess there)."""
    found = []
    for _ in range(count):
        node, moves, stop = book["tree"], [], rng.randrange(first, 8)
        while node["next"] and len(moves) < stop:
            answer = rng.choice(sorted(node["next"]))
            moves.append((node["guess"], answer))
            node = node["next"][answer]
        found.append((moves, node["guess"]))
    return found
