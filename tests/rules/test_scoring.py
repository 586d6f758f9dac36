import json
import os
from importlib.resources import files

import numpy as np
import pytest

from treegen.book.format import feedback
from treegen.errors import GameError
from treegen.player import RULES
from treegen.rules.game import Game
from treegen.rules.scoring import partition_counts, score_table


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
                                  Game.preset("mastermind"), Game("AB", 9, True)], ids=str)
def test_table_matches_the_plain_scorer_on_every_pair(game):
    table = score_table(game)
    codes = game.code_strings
    expected = [[game.feedbacks.index(feedback(g, s)) for s in codes] for g in codes]
    assert table.tolist() == expected


@pytest.mark.parametrize("game, layout", [
    (Game("ABCD", 3, True), 3), (Game("ABCDE", 3, False), 1), (Game("AB", 5, True), 5),
    (Game.preset("mastermind"), 4), (Game.preset("bulls-and-cows"), 1),
    (Game("ABCDE", 3, True, rule="black"), 0),
    (Game("AB", 9, True), None),  # nine positions: more bytes than a word
    (Game("ABCDEFGHIJKLMNOPQ", 4, True), None),  # 17 symbols held up to 4 times: 68 bits
    (Game("ABCD", 3, True, rule="jotto"), None),  # answers that are not the triangle of (a, b)
], ids=str)
def test_which_tables_are_made_from_two_words_a_code(game, layout):
    # every rule's tables are checked pair by pair (above and below): this says which path each took
    from treegen.rules.scoring import word_layout
    assert word_layout(game) == layout


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
    counts = partition_counts(table, guesses, cands, len(game.feedbacks), symmetric_scores=True)
    for row, g in zip(counts, guesses):
        direct = np.bincount(table[g, cands], minlength=len(game.feedbacks))
        assert row.tolist() == direct.tolist()
    assert np.array_equal(partition_counts(table, None, cands, len(game.feedbacks),
                                          symmetric_scores=True)[guesses], counts)


def test_partition_counts_of_a_square_table_that_is_not_symmetric():
    # guesses are the answers, but tiles score one way: the classes are counted by columns
    game = Game.of_words(["abbey", "babes", "ebbed", "yabby"])
    table = score_table(game)
    assert table.shape == (4, 4) and not np.array_equal(table, table.T)
    cands = np.arange(4)
    counts = partition_counts(table, None, cands, len(game.feedback_texts),
                              symmetric_scores=game.symmetric_scores)
    for g in range(4):
        assert counts[g].tolist() == np.bincount(table[g], minlength=len(game.feedback_texts)).tolist()


@pytest.mark.parametrize("words", [False, True])
def test_partition_counts_over_many_blocks_of_guesses_match_a_direct_count(words):
    rng = np.random.default_rng(3)
    if words:  # tiles: the table is read by the guesses' rows
        letters = np.array(list("abcdefgh"))
        game = Game.of_words(sorted({"".join(rng.choice(letters, 5)) for _ in range(700)}))
    else:
        game = Game("ABCDEF", 4, True)
    table, nfb = score_table(game), len(game.feedback_texts)
    cands = np.sort(rng.choice(game.size, 150, replace=False))
    counts = partition_counts(table, None, cands, nfb, symmetric_scores=game.symmetric_scores)
    assert len(counts) > 2 * 256  # several blocks of the kernel's guesses
    for g in range(len(counts)):
        answers = table[cands, g] if game.symmetric_scores else table[g, cands]
        assert counts[g].tolist() == np.bincount(answers, minlength=nfb).tolist()


def test_partition_counts_refuse_a_table_that_is_not_the_game_s():
    game = Game("ABCD", 3, True)
    table, nfb = score_table(game).copy(), len(game.feedbacks)
    cands = np.arange(10)
    with pytest.raises(GameError, match="outside the score table"):
        partition_counts(table, np.array([game.size]), cands, nfb, symmetric_scores=True)
    with pytest.raises(GameError, match="outside the score table"):
        partition_counts(table, None, np.array([-1]), nfb, symmetric_scores=True)
    table[3, 2] = nfb  # an answer the game does not have
    with pytest.raises(GameError, match="past the game's"):
        partition_counts(table, None, cands, nfb, symmetric_scores=True)
    with pytest.raises(GameError, match="2-d array of uint8"):
        partition_counts(table.astype(np.int64), None, cands, nfb, symmetric_scores=True)


def test_the_bits_of_a_word_are_counted_as_python_counts_them():
    from numba import njit

    from treegen.rules.score_kernels import ones

    @njit
    def counted(words):
        out = np.empty(len(words), dtype=np.uint64)
        for i in range(len(words)):
            out[i] = ones(words[i])
        return out

    words = np.random.default_rng(5).integers(0, 2**63, size=2000, dtype=np.uint64) * 2 + 1
    words[:3] = (0, 2**64 - 1, 2**63)
    assert counted(words).tolist() == [bin(int(w)).count("1") for w in words]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of its own, caching tables of 10 codes and more."""
    from treegen.rules import scoring, table_cache
    monkeypatch.setenv("TREEGEN_CACHE", str(tmp_path))
    monkeypatch.setattr(table_cache, "CACHE_FROM", 10)
    scoring.score_table.cache_clear()
    yield tmp_path
    scoring.score_table.cache_clear()


#: A rule whose tables are cached: Jotto's answers are not the triangle of pegs, so its tables are
#: not made from two words a code (which are never cached).
CACHED = "jotto"


def fresh_table(game):
    from treegen.rules import scoring
    scoring.score_table.cache_clear()
    return scoring.score_table(game)


def test_large_tables_are_cached_and_read_back(cache):
    from treegen.rules import scoring
    game = Game("ABCDE", 3, True, rule=CACHED)
    expected = scoring.compute_table(game)
    assert np.array_equal(fresh_table(game), expected)
    (cached,) = cache.glob("table-*.table")
    before = cached.stat().st_mtime_ns
    os.utime(cached, ns=(before - 10 ** 9, before - 10 ** 9))
    assert np.array_equal(fresh_table(game), expected)
    assert cached.stat().st_mtime_ns > before - 10 ** 9  # read from the cache: marked as used


def damage_flip(data):
    body = bytearray(data)
    body[-7] = (body[-7] + 1) % 5  # another valid feedback index: only the checksum can tell
    return bytes(body)


def _resigned_with_sha256(data, edit):
    """The cache file with its table edited and its digest recomputed as anyone could."""
    import hashlib
    import json

    from treegen.rules import table_cache
    head_end = data.index(b"\n", len(table_cache.MAGIC)) + 1
    fields = json.loads(data[len(table_cache.MAGIC):head_end])
    table = edit(bytearray(data[head_end:]))
    fields["hmac"] = hashlib.sha256(table).hexdigest()
    return table_cache.MAGIC + json.dumps(fields, sort_keys=True).encode() + b"\n" + bytes(table)


def _solved_everywhere(table):
    """Every entry all-correct: a search would find no guess that splits anything."""
    return bytearray([4] * len(table))


def _swapped_rows(table):
    n = int(len(table) ** 0.5)
    return table[n:2 * n] + table[:n] + table[2 * n:]


@pytest.mark.parametrize("damage", [
    lambda data: b"", lambda data: b"garbage", lambda data: data[:-1], lambda data: data + b"x",
    damage_flip, lambda data: data[:-1] + b"\xff",
    lambda data: data.replace(b'"length": 3', b'"length": 4'),
    # edited and re-hashed as anyone could: only the key tells
    lambda data: _resigned_with_sha256(data, _solved_everywhere),
    lambda data: _resigned_with_sha256(data, _swapped_rows),
])
def test_a_damaged_or_edited_cache_file_is_recomputed_and_replaced(cache, damage):
    from treegen.rules import scoring
    game = Game("ABCDE", 3, True, rule=CACHED)
    expected = scoring.compute_table(game)
    fresh_table(game)
    (cached,) = cache.glob("table-*.table")
    good = cached.read_bytes()
    cached.write_bytes(damage(good))
    assert np.array_equal(fresh_table(game), expected)
    assert cached.read_bytes() == good  # replaced by the recomputed table
    assert [p.name for p in cache.iterdir()] == [cached.name]  # no temporary file left


def test_the_cache_never_deletes_files_it_did_not_write(cache, monkeypatch):
    """The cache may be pointed at a folder of the user's: only its own tables are evicted."""
    theirs = {"table-results.npy": b"\x93NUMPY user data", "table-0123456789abcdef.table": b"mine",
              "table-notes.table": b"notes", "other.txt": b"x"}
    for name, data in theirs.items():
        (cache / name).write_bytes(data)
    from treegen.rules import table_cache
    small, large = Game("ABCDE", 3, True, rule=CACHED), Game("ABCDEF", 3, True, rule=CACHED)
    monkeypatch.setenv("TREEGEN_CACHE_MAX", str(large.size ** 2 + 4096 + 100))  # room for one
    for game in (small, large):
        fresh_table(game)
    assert not os.path.exists(table_cache.cache_path(small))  # evicted: the eviction ran
    assert os.path.exists(table_cache.cache_path(large))
    for name, data in theirs.items():
        assert (cache / name).read_bytes() == data, name


def test_a_pipe_or_folder_at_the_cache_path_does_not_hang_or_fail(cache):
    from treegen.rules import scoring, table_cache
    game = Game("ABCDE", 3, True, rule=CACHED)
    path = table_cache.cache_path(game)
    os.mkfifo(path)
    assert np.array_equal(fresh_table(game), scoring.compute_table(game))
    assert os.path.isfile(path)  # the pipe was replaced by a good file
    os.unlink(path)
    os.mkdir(path)
    assert np.array_equal(fresh_table(game), scoring.compute_table(game))


def test_the_cache_folder_stays_under_its_cap(cache, monkeypatch):
    from treegen.rules import table_cache
    games = [Game(symbols, 3, True, rule=CACHED) for symbols in ("ABCDE", "ABCDEF", "ABCDEFG")]
    sizes = [g.size ** 2 for g in games]
    monkeypatch.setenv("TREEGEN_CACHE_MAX", str(sizes[1] + sizes[2] + 2 * 4096))
    for game in games:
        fresh_table(game)
        os.utime(table_cache.cache_path(game), (1e9 + game.size, 1e9 + game.size))
    names = {p.name for p in cache.iterdir()}
    assert names == {os.path.basename(table_cache.cache_path(g)) for g in games[1:]}
    monkeypatch.setenv("TREEGEN_CACHE_MAX", "100")  # smaller than any table: nothing is kept
    os.unlink(table_cache.cache_path(games[1]))
    fresh_table(games[1])
    assert not os.path.exists(table_cache.cache_path(games[1]))


def test_an_interrupted_cache_write_leaves_no_temporary_file(cache, monkeypatch):
    from treegen.files import atomic as files
    from treegen.rules import scoring
    game = Game("ABCDE", 3, True, rule=CACHED)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    scoring.score_table.cache_clear()
    with pytest.raises(KeyboardInterrupt):
        scoring.score_table(game)
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("game", [Game("ABCDE", 3, True), Game("ABCDEF", 3, False),
                                  Game("ABCDE", 3, True, rule="black")], ids=str)
def test_a_table_made_from_two_words_a_code_is_never_cached(cache, game):
    from treegen.rules import scoring
    assert scoring.word_layout(game) is not None
    assert np.array_equal(fresh_table(game), scoring.compute_table(game))
    assert list(cache.iterdir()) == []


def test_the_cache_can_be_turned_off(cache, monkeypatch):
    from treegen.rules import table_cache
    monkeypatch.setenv("TREEGEN_CACHE", "")
    game = Game("ABCDE", 3, True, rule=CACHED)
    assert table_cache.cache_path(game) is None
    fresh_table(game)
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("name", list(RULES))
def test_every_rule_of_the_table_scores_whole_tables_as_its_answers_say(name):
    # a rule is one entry of treegen.player.RULES and a scorer of tables: both read the same
    rule = RULES[name]
    game = Game("abc", 3, True, rule=name)
    table = score_table(game)
    codes = game.code_strings
    keys = game.feedback_texts
    for g in range(game.size):
        for s in range(game.size):
            assert keys[table[g, s]] == rule.score(codes[g], codes[s])
    assert set(rule.keys(3)) == {keys[i] for i in np.unique(table)} | {rule.solved(3)}
    for key in rule.keys(3):
        assert rule.parse(key, 3) == key
    assert game.symmetric_scores == bool(np.array_equal(table, table.T))


def test_the_book_schema_names_the_rules_of_the_table():
    schema = json.loads(files("treegen.book").joinpath("schema.json").read_text())
    assert schema["properties"]["game"]["properties"]["rule"]["enum"] == list(RULES)


@pytest.mark.parametrize("letters", [15, 16, 20])
def test_long_words_of_many_letters_score_under_pegs(letters):
    """Words of 16 letters and more over the alphabet: a position's feature column passes 255,
    which overflowed the codes' small integers; every pair agrees with the plain scorer."""
    rng = np.random.default_rng(letters)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    words = sorted({"".join(rng.choice(list(alphabet), letters)) for _ in range(40)})
    game = Game(alphabet, letters, True, rule="pegs", answers=tuple(words), guesses=tuple(words))
    table = score_table(game)
    texts = game.feedback_texts
    for i, guess in enumerate(words):
        for j, secret in enumerate(words):
            assert texts[table[i, j]] == "{}A{}B".format(*feedback(guess, secret))
