import math
from collections import Counter

import numpy as np
import pytest

from treegen.api import build_book
from treegen.book.format import dumps, feedback
from treegen.rules.game import Game
from treegen.rules.scoring import score_table
from treegen.rules.symmetry import equivalent_guesses, representatives


def names(game, indices):
    return [game.code_strings[i] for i in indices]


def test_first_guesses_to_evaluate():
    assert names(Game.preset("mastermind"), representatives(Game.preset("mastermind"))) == \
        ["1111", "1112", "1122", "1123", "1234"]
    assert names(Game.preset("bulls-and-cows"), representatives(Game.preset("bulls-and-cows"))) == ["0123"]
    assert names(Game.preset("muertos-y-heridos"), representatives(Game.preset("muertos-y-heridos"))) == \
        ["0000", "0001", "0011", "0012", "0123"]


@pytest.mark.parametrize("game, moves", [
    (Game.preset("mastermind"), [("1122", (1, 0))]),
    (Game.preset("mastermind"), [("1123", (0, 2)), ("3456", (1, 1))]),
    (Game.preset("bulls-and-cows"), [("0123", (0, 2))]),
    (Game("ABCDE", 4, True), [("AABC", (1, 1))]),
], ids=["mm-1", "mm-2", "bc-1", "custom"])
def test_equivalent_guesses_split_the_candidates_identically(game, moves):
    table = score_table(game)
    history = tuple((game.index(g), game.feedbacks.index(fb)) for g, fb in moves)
    codes = game.code_strings
    cands = [c for c in codes if all(feedback(g, c) == fb for g, fb in moves)]
    classes = equivalent_guesses(game, history)
    assert sorted(np.concatenate(classes).tolist()) == list(range(game.size))
    cand_idx = np.array([game.index(c) for c in cands])
    for members in classes:
        assert members[0] == members.min()
        shapes = {tuple(np.bincount(table[g, cand_idx], minlength=len(game.feedbacks))) for g in members}
        assert len(shapes) == 1, f"class of {codes[members[0]]} splits differently"
        assert len({codes[g] in cands for g in members}) == 1


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False), Game("ABCDEF", 4, False),
                                  Game("ABCDE", 4, True), Game.preset("mastermind")], ids=str)
@pytest.mark.parametrize("name", ["minimax", "expected", "entropy", "parts"])
@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_heuristic_books_are_identical_with_and_without_reduction(game, name, pool):
    assert dumps(build_book(game, name, pool=pool)) == \
        dumps(build_book(game, name, pool=pool, symmetry=False))


def test_start_classes_of_muertos_y_heridos_have_the_expected_sizes():
    game = Game.preset("muertos-y-heridos")
    sizes = Counter()
    for members in equivalent_guesses(game):
        sizes[game.code_strings[members[0]]] = len(members)
    # ABCD, AABC (6 placements of the pair), AABB (3), AAAB (4), AAAA
    assert sizes == {"0123": 5040, "0012": 4320, "0011": 270, "0001": 360, "0000": 10}


def test_games_with_many_positions_use_a_bounded_share_of_their_symmetries():
    """12 positions have 479 million permutations: enumerating them grew without end. A bounded
    subset is used instead, and the books are still those of a full scan."""
    import resource

    from treegen.api import build_book
    from treegen.rules import symmetry
    game = Game("AB", 12, True)
    maps = symmetry.position_maps(game, ())
    assert 1 < len(maps) <= symmetry.WORK // game.size
    assert maps[0][0] == tuple(range(12))  # the identity first
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    small = Game("AB", 9, True)
    assert build_book(small, "minimax") == build_book(small, "minimax", symmetry=False)
    reps = representatives(game)
    assert reps[0] == 0 and len(reps) < game.size
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown < 500 * 1024, f"{grown} KiB"  # ru_maxrss is in KiB here


def test_the_classes_kept_for_recent_histories_stay_within_their_bound(monkeypatch):
    """A build asks for the classes of every history along its walk; those kept are the last few
    and within a byte budget, and a history no symmetry fixes keeps nothing but its mark."""
    from treegen.rules import symmetry
    game = Game("123456", 5, True)
    monkeypatch.setattr(symmetry, "CLASSES_BYTES", 20 * game.size * 4)  # room for 20 of them
    symmetry._kept.clear()
    rng = np.random.default_rng(2)
    for guesses in rng.integers(0, game.size, (60, 2)):
        history = tuple((int(g), 0) for g in guesses)
        reps = representatives(game, history)
        assert reps[0] == 0 and np.all(np.diff(reps) > 0)
    kept = list(symmetry._kept.values())
    assert len(kept) >= symmetry.CLASSES_KEPT
    held = sum(v.nbytes for v in kept if v is not None)
    assert held <= symmetry.CLASSES_BYTES and sum(v is not None for v in kept) >= 8
    assert any(v is None for v in kept)  # two guesses: often no symmetry left
    trivial = next(k for k, v in symmetry._kept.items() if v is None)
    assert np.array_equal(representatives(game, tuple((g, 0) for g in trivial[1])),
                          np.arange(game.size))


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False),
                                  Game.preset("mastermind"), Game.preset("bulls-and-cows"),
                                  Game.preset("muertos-y-heridos"), Game("1234567", 5, True)],
                         ids=str)
def test_the_first_classes_are_those_of_every_symmetry(game, monkeypatch):
    """Before any guess the classes come from the codes' counts; they are those every position
    map and renaming of symbols give, where the maps can all be listed."""
    from treegen.rules import symmetry
    maps = symmetry.position_maps(game, ())
    assert len(maps) == math.factorial(game.length)  # all of them: the classes are exact
    codes = game.code_strings
    expected = np.arange(game.size)
    for index, code in enumerate(codes):  # the least code with the same counts, largest first
        counts = sorted(Counter(code).values(), reverse=True)
        first = "".join(game.symbols[i] * n for i, n in enumerate(counts))
        expected[index] = game.index(first) if game.repetition else 0
    monkeypatch.setattr(symmetry, "position_maps", lambda *a: pytest.fail("maps were listed"))
    symmetry._kept.clear()
    assert np.array_equal(symmetry._class_of(game, ()), expected)


def _least_images_by_numpy(game, guesses):
    """The classes as numpy finds them, map by map: the reference of the compiled kernel."""
    from treegen.rules.symmetry import position_maps
    codes = game.codes.astype(np.int64)
    free = np.ones(len(game.symbols), dtype=bool)
    for g in guesses:
        free[game.codes[g]] = False
    targets = np.flatnonzero(free)
    best = None
    for perm, sigma in position_maps(game, guesses):
        image = np.where(sigma[codes[:, list(perm)]] >= 0, sigma[codes[:, list(perm)]],
                         codes[:, list(perm)])
        renamed = image.copy()
        for row in range(len(image)):  # free symbols, in order of first appearance
            order = {}
            for p, symbol in enumerate(image[row]):
                if free[symbol]:
                    if symbol not in order:
                        order[symbol] = targets[len(order)]
                    renamed[row, p] = order[symbol]
        ranks = game.rank(renamed)
        best = ranks if best is None else np.minimum(best, ranks)
    return best


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False),
                                  Game.preset("mastermind"), Game("ABCDEF", 4, False),
                                  Game("ABCDE", 4, True)], ids=str)
@pytest.mark.kernels
def test_the_compiled_classes_are_those_of_every_map(game):
    from treegen.rules import symmetry
    rng = np.random.default_rng(7)
    for count in (1, 2, 2, 3):
        guesses = tuple(sorted({int(g) for g in rng.integers(0, game.size, count)}))
        symmetry._kept.clear()
        found = symmetry._class_of(game, guesses)
        expected = _least_images_by_numpy(game, guesses)
        assert np.array_equal(np.arange(game.size) if found is None else found, expected)
