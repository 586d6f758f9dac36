"""The compiled bounds of the exact search against plain numpy on the sets the search meets.

The sets are those of real search nodes (the secrets left after a guess or two), since the floors
may scan one guess per class of interchangeable symbols, which only holds for such sets.
"""

import numpy as np
import pytest

from treegen.rules.game import Game
from treegen.search import floors, kernels
from treegen.search.exact import Search

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels

def words(seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return sorted({"".join(rng.choice(list("abcdefg"), 4)) for _ in range(700)})


#: Symmetric games, and listed words scored as Wordle (tables neither square nor symmetric).
GAMES = [Game.preset("mastermind"), Game("0123456789", 3, False), Game("ABCDE", 5, True),
         Game.of_words(words(1)[::3], words(1))]


def class_sizes(search, guesses, cands):
    """[guess, feedback]: how many of ``cands`` each guess puts in each class, by plain counting."""
    nfb = search.context.nfb
    index = search.context.table[np.ix_(guesses, cands)].astype(np.int64)
    index += np.arange(len(guesses))[:, None] * nfb
    return np.bincount(index.ravel(), minlength=len(guesses) * nfb).reshape(-1, nfb)


def one_step(search, sizes, level):
    """|S| + the level-filling bounds of each guess's non-solved classes."""
    total = sizes.sum(axis=1) + level[sizes].sum(axis=1) - level[sizes[:, search.context.solved]]
    return np.minimum(total, 1 << 40)


def made(search, sizes):
    """The non-solved classes each guess makes."""
    return (sizes > 0).sum(axis=1) - (sizes[:, search.context.solved] > 0)


def node_sets(search, rng, count):
    """(secrets, symbols used) of search nodes one to three guesses deep, of every size."""
    everything = np.arange(search.game.size)
    out = []
    while len(out) < count:
        cands, used = everything, np.zeros(len(search.game.symbols), dtype=bool)
        for _ in range(int(rng.integers(1, 4))):
            guess = int(rng.integers(search.game.guess_count))
            row = search.context.table[guess, cands]
            cands = cands[row == row[rng.integers(len(cands))]]
            used[search.context.codes[guess]] = True
            if len(cands) >= 3:
                out.append((cands.astype(np.int64), used.copy()))
    return out


#: Outside hard mode no guesses are listed: every guess is allowed.
EVERY_GUESS = np.empty(0, dtype=np.int64)


@pytest.mark.parametrize("game", GAMES, ids=str)
@pytest.mark.parametrize("max_depth", [None, 5])
def test_set_floor_is_the_best_one_step_bound_of_any_guess(game, max_depth):
    search = Search(game, max_depth)
    rng = np.random.default_rng(7)
    seen = set()
    for cands, used in node_sets(search, rng, 120):
        depth = -1 if max_depth is None else int(rng.integers(1, max_depth))
        sizes = class_sizes(search, np.arange(game.guess_count), cands)
        # the branching of an enclosing set: at least the classes any guess makes of this one
        widest = int(rng.integers(max(made(search, sizes).max(), 1), search.branches + 1))
        row = search.context.lbt[widest, depth] if depth >= 0 else search.context.lbt[widest, 0]
        expected = one_step(search, sizes, row).min()
        floor = floors.set_bound(search.context, cands, depth, widest, EVERY_GUESS, used)
        assert min(floor, 1 << 40) == min(expected, 1 << 40), (len(cands), depth, widest)
        seen.add(len(cands))
    assert min(seen) <= 8 and max(seen) >= 40  # both the small-set and the tallying paths ran
    if search.context.nfb <= 64:  # sets tallied whole and sets looked at as they are tallied
        assert max(seen) >= floors.WHOLE > min(s for s in seen if s >= 40)


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_in_hard_mode_the_set_floor_is_the_best_one_step_bound_of_an_allowed_guess(game):
    search = Search(game)
    rng = np.random.default_rng(11)
    seen = set()
    for cands, used in node_sets(search, rng, 120):
        others = np.setdiff1d(np.arange(game.guess_count), cands)
        allowed = np.union1d(cands, rng.choice(others, min(len(others), int(rng.integers(0, 60))),
                                               replace=False)).astype(np.int64)
        sizes = class_sizes(search, allowed, cands)
        widest = max(int(made(search, class_sizes(search, np.arange(game.guess_count), cands)).max()), 1)
        expected = one_step(search, sizes, search.context.lbt[widest, 0]).min()
        floor = floors.set_bound(search.context, cands, -1, widest, allowed, used)
        assert min(floor, 1 << 40) == min(expected, 1 << 40), len(cands)
        seen.add(len(cands))
    assert min(seen) <= 8 and max(seen) >= 40


def test_a_block_of_guesses_gets_the_same_classes_along_its_run_of_codes_or_guess_by_guess():
    """A block of guesses close together is counted along the whole run of codes it spans, one
    spread out guess by guess: each guess's mask of feedbacks is the one plain counting gives,
    whichever way, for sets of every size modulo the four rows read at a time."""
    game = Game("ABCDE", 5, True)
    search = Search(game)
    by_secret = search.context.by_secret
    rng = np.random.default_rng(17)
    run = np.empty(floors.SPAN, dtype=np.uint64)
    ways = set()
    for size in (1, 2, 3, 4, 5, 7, 64, 301):
        cands = np.sort(rng.choice(game.size, size, replace=False)).astype(np.int64)
        for width in (floors.BLOCK, floors.SPAN, floors.SPAN + 1, 3 * floors.SPAN):
            lo = int(rng.integers(0, game.size - width))
            sub = np.sort(rng.choice(np.arange(lo, lo + width), floors.BLOCK - 3, replace=False))
            sub[0], sub[-1] = lo, lo + width - 1  # the block spans exactly ``width`` codes
            sub = sub.astype(np.int64)
            masks = np.empty(floors.BLOCK, dtype=np.uint64)
            floors._classes_of(by_secret, cands, sub, len(sub), masks, run)
            answers = search.context.table[np.ix_(sub, cands)].astype(np.uint64)
            expected = np.bitwise_or.reduce(np.uint64(1) << answers, axis=1)
            assert np.array_equal(masks[:len(sub)], expected), (size, width)
            ways.add(width <= floors.SPAN)
    assert ways == {True, False}


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_guess_bounds_match_plain_counting(game):
    search = Search(game, 4)
    rng = np.random.default_rng(3)
    for cands, used in node_sets(search, rng, 40):
        depth = int(rng.choice([-1, 2, 3]))
        pool = kernels.free_pool(search.context.codes, used, cands, search.context.pools)
        bounds, possible, widest = floors.guess_bounds(search.context, pool, cands, depth)
        sizes = class_sizes(search, pool, cands)
        assert widest == max(1, made(search, sizes).max())
        row = search.context.lbt[widest, depth] if depth >= 0 else search.context.lbt[widest, 0]
        assert np.array_equal(possible, sizes[:, search.context.solved] > 0)
        assert np.array_equal(bounds, one_step(search, sizes, row))

@pytest.mark.parametrize("game", GAMES, ids=str)
def test_class_floors_refute_a_guess_exactly_when_the_floors_of_its_classes_exceed_the_limit(game):
    """The classes' floors are found in an order of their own and stop once they refute the
    guess: the verdict must be the one every floor gives, and a hopeful guess gets every floor."""
    search = Search(game)
    rng = np.random.default_rng(5)
    verdicts = set()
    for cands, used in node_sets(search, rng, 60):
        guess = int(rng.integers(game.guess_count))
        after = used.copy()
        after[search.context.codes[guess]] = True
        ordered, start, classes = kernels.split(search.context, guess, cands)
        widest = max(int(made(search, class_sizes(search, np.arange(game.guess_count),
                                                 cands)).max()), 1)
        exact = np.array([floors.set_bound(search.context, ordered[start[f]:start[f + 1]], -1,
                                           widest, EVERY_GUESS, after) for f in classes])
        for limit in (int(exact.sum()) - int(rng.integers(1, 4)), int(exact.sum())):
            found, hopeful = floors.class_bounds(search.context, ordered, start, classes, -1,
                                                 widest, limit, guess, EVERY_GUESS, after)
            assert hopeful == (exact.sum() <= limit)
            assert np.all(found <= exact)
            if hopeful:
                assert np.array_equal(found, exact)
            verdicts.add(hopeful)
    assert verdicts == {True, False}


@pytest.mark.parametrize("game", GAMES, ids=str)
@pytest.mark.parametrize("hard", [False, True], ids=["", "hard"])
def test_the_first_hopeful_guess_is_the_first_whose_class_floors_do_not_refute_it(game, hard):
    """The guesses a node passes over in compiled code are those its classes' floors refute, one
    call of class_bounds a guess, and the scan stops where the one-step bounds reach the best."""
    search = Search(game)
    rng = np.random.default_rng(13)
    found_some = stopped = False
    for cands, used in node_sets(search, rng, 30):
        allowed = np.union1d(cands, rng.choice(game.guess_count, 40)).astype(np.int64) \
            if hard else EVERY_GUESS
        pool = allowed if hard else kernels.free_pool(search.context.codes, used, cands,
                                                      search.context.pools)
        bounds, possible, widest = floors.guess_bounds(search.context, pool, cands, -1)
        order = kernels.search_order(bounds, possible, pool, 1 << 40)
        best = int(bounds[order[0]]) + int(rng.integers(0, 4))
        expected = []
        for rank, i in enumerate(order):
            if bounds[i] >= best:
                break
            guess = int(pool[i])
            after = used.copy() if hard else np.asarray(kernels.with_guess(
                used, search.context.codes, guess))
            ordered, start, classes = kernels.split(search.context, guess, cands)
            floors_, hopeful = floors.class_bounds(search.context, ordered, start, classes, -1,
                                                   widest, best - 1 - len(cands), guess,
                                                   allowed, after)
            if hopeful:
                expected.append((rank, classes.tolist(), floors_.tolist()))
        got, rank = [], 0
        while True:
            rank, ordered, start, classes, floors_ = floors.first_hopeful(
                search.context, pool, order, bounds, rank, best, cands, -1, widest, allowed, used)
            if rank >= len(order) or bounds[order[rank]] >= best:
                stopped |= rank < len(order)
                break
            got.append((rank, classes.tolist(), floors_.tolist()))
            rank += 1
        assert got == expected, len(cands)
        found_some |= bool(expected)
    assert found_some and stopped


def test_free_pool_keeps_every_code_when_no_two_symbols_are_interchangeable():
    game = Game.preset("mastermind")
    search = Search(game)
    cands = np.arange(game.size, dtype=np.int64)  # every symbol present
    used = np.zeros(len(game.symbols), dtype=bool)
    used[:5] = True  # one unused symbol: nothing to swap it with
    assert np.array_equal(kernels.free_pool(search.context.codes, used, cands, search.context.pools),
                          np.arange(game.size))
    used[4] = False  # two unused symbols: codes using the second before the first are dropped
    pool = kernels.free_pool(search.context.codes, used, cands, search.context.pools)
    assert 0 < len(pool) < game.size
    assert all(list(code).index(5) > list(code).index(4) for code in search.context.codes[pool]
               if 5 in code and 4 in code)


def test_the_free_pools_kept_are_those_found_anew():
    """A search keeps the last free pools it found (by the symbols used and present); whatever the
    order of the sets asked and however their keys share rows, a pool kept is the pool found anew,
    and a caller changing it changes nothing kept."""
    from treegen.search.pools import NO_MEMO
    game = Game.make(symbols="12345678", length=4, repetition=False)
    search = Search(game)
    codes, memo = search.context.codes, search.context.pools
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(400):
        used = rng.random(len(game.symbols)) < 0.5
        cands = np.sort(rng.choice(game.size, size=int(rng.integers(1, 40)), replace=False))
        before = memo.copy()
        fresh = kernels.free_pool(codes, used, cands, NO_MEMO)
        kept = kernels.free_pool(codes, used, cands, memo)
        hits += int(np.array_equal(memo, before))  # found there: nothing written
        assert np.array_equal(kept, fresh)
        kept[:] = -1  # the caller's own copy
        assert np.array_equal(kernels.free_pool(codes, used, cands, memo), fresh)
    assert hits > 0 and (memo[:, 2] >= 0).all()
