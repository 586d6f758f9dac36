import numpy as np
import pytest

from treegen.book import feedback
from treegen.game import Game
from treegen.scoring import partition_counts, score_table


def table_feedback(game, guess, secret):
    return game.feedbacks[score_table(game)[game.index(guess), game.index(secret)]]


@pytest.mark.parametrize("guess, secret, expected", [
    ("1122", "1234", (1, 1)),   # repeats: common symbols by minimum count, minus a
    ("1234", "1122", (1, 1)),
    ("1111", "1112", (3, 0)),
    ("1122", "2211", (0, 4)),
    ("6543", "3456", (0, 4)),
])
def test_mastermind_scoring_with_repeats(guess, secret, expected):
    assert table_feedback(Game.preset("mastermind"), guess, secret) == expected


def test_the_chinese_documents_example():
    assert table_feedback(Game.preset("bulls-and-cows"), "8756", "7956") == (2, 1)


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False), Game("AB", 5, True),
                                  Game.preset("mastermind")], ids=str)
def test_table_matches_the_plain_scorer_on_every_pair(game):
    table = score_table(game)
    codes = game.code_strings
    expected = [[game.feedbacks.index(feedback(g, s)) for s in codes] for g in codes]
    assert table.tolist() == expected


@pytest.mark.parametrize("name", ["bulls-and-cows", "muertos-y-heridos"])
def test_table_matches_the_plain_scorer_on_a_sample(name):
    game = Game.preset(name)
    table = score_table(game)
    rng = np.random.default_rng(7)
    for g, s in rng.integers(0, game.size, size=(3000, 2)):
        assert game.feedbacks[table[g, s]] == feedback(game.code_strings[g], game.code_strings[s])
    assert np.array_equal(table, table.T)


def test_partition_counts_match_a_direct_count():
    game = Game("ABCD", 3, True)
    table = score_table(game)
    cands = np.array([0, 5, 9, 17, 40, 63])
    guesses = np.array([1, 2, 30])
    counts = partition_counts(table, guesses, cands, len(game.feedbacks))
    for row, g in zip(counts, guesses):
        direct = np.bincount(table[g, cands], minlength=len(game.feedbacks))
        assert row.tolist() == direct.tolist()
    assert np.array_equal(partition_counts(table, None, cands, len(game.feedbacks))[guesses], counts)


def test_large_tables_are_cached_and_bad_cache_files_are_recomputed(tmp_path, monkeypatch):
    from treegen import scoring
    monkeypatch.setenv("TREEGEN_CACHE", str(tmp_path))
    monkeypatch.setattr(scoring, "CACHE_FROM", 10)
    game = Game("ABCDE", 3, True)
    fresh = scoring.compute_table(game)
    scoring.score_table.cache_clear()
    assert np.array_equal(scoring.score_table(game), fresh)
    (cached,) = tmp_path.glob("table-*.npy")
    assert np.array_equal(np.load(cached), fresh)
    for damage in (b"garbage", np.zeros(3, dtype=np.uint8).tobytes()):
        cached.write_bytes(damage)
        scoring.score_table.cache_clear()
        assert np.array_equal(scoring.score_table(game), fresh)
    monkeypatch.setenv("TREEGEN_CACHE", "")
    scoring.score_table.cache_clear()
    assert scoring._cache_path(game) is None
    assert np.array_equal(scoring.score_table(game), fresh)
    scoring.score_table.cache_clear()
