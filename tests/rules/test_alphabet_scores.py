"""Every code over an alphabet, walked in order: the keys of listed guesses, the symbols a guess
needs, and books the same with and without the reduction."""

import numpy as np
import pytest

from treegen.compiler import compile_tree
from treegen.registry import make_strategy
from treegen.rules import scoring
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, TableScorer, scan_alphabet, xlogx
from treegen.rules.symmetry import guess_alphabet, product_codes
from treegen.strategies.heuristics import HEURISTICS, pick

pytestmark = pytest.mark.kernels  # CI runs them on numba's JIT kernels too

GAMES = {
    "pegs 4 x 6": Game("123456", 4, True),
    "pegs 5 x 7": Game("1234567", 5, True),
    "pegs 3 x 8": Game("12345678", 3, True),
    "pegs 1 x 4": Game("1234", 1, True),
    "black pegs 4 x 6": Game("123456", 4, True, rule="black"),
}
KINDS = ("minimax", "expected", "parts", "entropy")


def _alphabet(game, secrets):
    held = np.unique(game.codes[secrets])
    absent = np.setdiff1d(np.arange(len(game.symbols)), held)
    return np.sort(np.concatenate([held, absent[:1]])).astype(np.int64)


@pytest.mark.parametrize("name", GAMES)
def test_the_walk_gives_the_keys_of_the_same_guesses_listed(name):
    """Whole keys (``best_only`` off), guess by guess, against the kernels that score a list of
    guesses, on sets small and large (the large ones shared among threads)."""
    game = GAMES[name]
    codes = CodeScorer(game)
    rng = np.random.default_rng(3)
    for count in (2, 9, 60, 400):
        secrets = np.sort(rng.choice(game.size, min(count, game.size), replace=False))
        alphabet = _alphabet(game, secrets)
        guesses = product_codes(game, alphabet)
        assert np.all(np.diff(guesses) > 0)
        assert np.array_equal(game.codes[guesses].max(axis=0) <= alphabet.max(), [True] * game.length)
        steps = np.diff(xlogx(len(secrets))[:len(secrets) + 1])
        for kind in KINDS:
            walked = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets, steps)
            listed = codes.keys(HEURISTICS[kind](), guesses, secrets)
            if kind == "entropy":  # the same sums, added in another order
                assert np.allclose(walked, listed, rtol=1e-12, atol=1e-9)
            else:
                assert np.array_equal(walked, listed)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_the_walk_scores_the_codes_wanted_and_passes_over_the_others(name, threads):
    """Codes flagged at random (none, a few, a third, all) or a whole prefix's: the walk gives
    each flagged code its key and every other one an infinite key, on one thread and shared."""
    game = GAMES[name]
    codes = CodeScorer(game)
    rng = np.random.default_rng(11)
    secrets = np.sort(rng.choice(game.size, min(400, game.size), replace=False))
    alphabet = _alphabet(game, secrets)
    every = len(alphabet) ** game.length
    steps = np.diff(xlogx(len(secrets))[:len(secrets) + 1])
    first_symbol = np.zeros(every, dtype=bool)
    first_symbol[every // len(alphabet):2 * every // len(alphabet)] = True
    masks = [rng.random(every) < share for share in (0.0, 0.01, 0.3, 1.0)] + [first_symbol]
    for kind in KINDS:
        whole = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets, steps)
        for wanted in masks:
            keys = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets, steps,
                                 wanted=wanted, threads=threads)
            assert np.array_equal(keys[wanted], whole[wanted]), (kind, wanted.sum())
            assert np.isinf(keys[~wanted]).all()
    with pytest.raises(ValueError, match="wanted"):
        scan_alphabet(codes.codes, 1, alphabet, secrets, steps, wanted=np.ones(every - 1, bool))


@pytest.mark.parametrize("name", GAMES)
def test_whole_keys_keep_only_the_codes_better_than_all_before(name):
    """Given a key to beat, minimax, expected and most parts keep (exact) only the codes better
    than it and than every code before them, the first code of the least key among them, and
    give up the others, prefixes whose classes cannot split finely enough included: what
    decides a choice, and no more."""
    game = GAMES[name]
    codes = CodeScorer(game)
    rng = np.random.default_rng(7)
    kept = 0
    for count in (3, 8, 20, 60, 300):
        secrets = np.sort(rng.choice(game.size, min(count, game.size), replace=False))
        alphabet = _alphabet(game, secrets)
        steps = np.diff(xlogx(len(secrets))[:len(secrets) + 1])
        for kind in ("minimax", "expected", "parts"):
            whole = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets, steps)
            for best in (float(whole.max()) + 1, float(np.median(whole)) + 0.5,
                         float(whole.min())):
                keys = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets, steps,
                                     best=best, threads=1)
                records = np.flatnonzero(np.minimum.accumulate(np.r_[best, whole])[:-1] > whole)
                least = scoring.least_key(scoring.KINDS[kind], len(secrets), codes.nfb)
                ended = np.flatnonzero(whole <= least)
                if len(ended):  # the run ends at the first code of the least key any can have
                    records = records[records <= ended[0]]
                assert np.array_equal(np.flatnonzero(np.isfinite(keys)), records), (kind, best)
                assert np.array_equal(keys[records], whole[records])
                kept += len(records)
                # shared among threads, each share keeps its own records: those of the whole walk
                # among them, every key kept exact
                shared = scan_alphabet(codes.codes, scoring.KINDS[kind], alphabet, secrets,
                                       steps, best=best, threads=2)
                exact = np.isfinite(shared)
                assert exact[records].all() and np.array_equal(shared[exact], whole[exact])
    assert kept > 0


def _choice(heuristic, keys, guesses, scorer, secrets):
    tied = heuristic.tied(keys, lambda rows: scorer.counts(guesses[rows], secrets))
    return pick(guesses[tied], secrets)


@pytest.mark.parametrize("name", GAMES)
def test_the_symbols_a_guess_needs_keep_every_choice(name):
    """Secrets of a few symbols only, so that most symbols are held by none: the walk over the
    held symbols and the first other one, dropping guesses once past the best and ending its runs,
    chooses what a scan of every guess chooses, for every heuristic; so does the table."""
    game = GAMES[name]
    codes, table = CodeScorer(game), TableScorer(game)
    rng = np.random.default_rng(5)
    every = np.arange(game.guess_count)
    dropped = 0
    for count, held in ((3, 2), (12, 3), (40, 4), (150, 5)):
        symbols = rng.choice(len(game.symbols), min(held, len(game.symbols)), replace=False)
        inside = np.flatnonzero(np.isin(game.codes, symbols).all(axis=1))
        secrets = np.sort(rng.choice(inside, min(count, len(inside)), replace=False))
        alphabet = guess_alphabet(game, secrets)
        assert np.array_equal(alphabet, _alphabet(game, secrets))
        for kind in KINDS:
            heuristic = HEURISTICS[kind]()
            whole = codes.keys(heuristic, every, secrets)
            wanted = _choice(heuristic, whole, every, codes, secrets)
            for scorer in (codes, table):
                guesses, keys = scorer.alphabet_keys(heuristic, alphabet, secrets, best_only=True)
                assert _choice(heuristic, keys, guesses, scorer, secrets) == wanted, (kind, count)
                exact = np.isfinite(keys)
                assert np.allclose(keys[exact], whole[guesses[exact]], rtol=1e-12, atol=1e-9)
                dropped += int((~exact).sum())
    assert dropped > 0


def test_the_symbols_a_guess_needs_are_those_held_and_one_other():
    game = Game("123456", 4, True)
    secrets = np.array([game.index("1133"), game.index("3131"), game.index("1331")])
    assert "".join(game.symbols[i] for i in guess_alphabet(game, secrets)) == "123"
    every = np.array([game.index(c) for c in ("1234", "5656")])
    assert len(guess_alphabet(game, every)) == 6  # all held: no other needed
    assert guess_alphabet(Game.preset("bulls-and-cows"), np.arange(3)) is None  # no repeats
    assert guess_alphabet(Game.of_words(["abc", "bcd"]), np.arange(2)) is None  # listed words


@pytest.mark.parametrize(("game", "walks_classes"),
                         [(Game("12345", 5, True), True),  # walked so for every heuristic
                          (Game("1234567", 4, True, rule="black"), False)],
                         ids=["pegs 5 x 5", "black pegs 4 x 7"])
@pytest.mark.parametrize("name", ["minimax", "expected", "entropy", "parts"])
def test_books_are_the_same_with_and_without_the_reduction_scored_from_the_codes(
        game, walks_classes, name, monkeypatch):
    """With the reduction, states whose history keeps a few symmetries walk one code of each
    class of equivalent guesses (and pass over the others); the book is the same. The compiled
    walk below is held to small sets, so that Python is asked at more states."""
    monkeypatch.setattr(scoring, "CODES_WALKED_UP_TO", 40)
    flagged = []
    walk = CodeScorer.alphabet_keys

    def spied(self, heuristic, alphabet, secrets, best_only=False, wanted=None):
        if wanted is not None:
            flagged.append(int(np.count_nonzero(wanted)) / len(wanted))
        return walk(self, heuristic, alphabet, secrets, best_only, wanted)

    monkeypatch.setattr(CodeScorer, "alphabet_keys", spied)
    made = [compile_tree(game, make_strategy(name, symmetry=symmetry), scorer=CodeScorer(game))
            for symmetry in (True, False)]
    assert made[0][0] == made[1][0]
    assert np.array_equal(made[0][1], made[1][1])
    assert all(0 < share < 1 for share in flagged)
    assert flagged or not walks_classes
