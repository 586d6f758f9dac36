"""The partition table (fig. 4 of the Muertos y Heridos document), checked against plain recounts."""

import json
import random
from collections import Counter

import pytest

from treegen.book.format import feedback
from treegen.book.replay import game_codes
from treegen.errors import CodeError
from treegen.rules.game import Game
from treegen.sessions.partitions import describe, parse_history, partition_table, pattern


def key(guess, secret):
    return "%dA%dB" % feedback(guess, secret)


def plain_counts(guess, secrets, texts):
    counts = Counter(key(guess, s) for s in secrets)
    assert set(counts) <= set(texts)
    return {t: counts.get(t, 0) for t in texts}


def check_rows(game, rows, secrets):
    """Each row's counts are the plain partition of ``secrets`` by its first guess and by others."""
    index = {code: i for i, code in enumerate(game.code_strings)}
    seen = []
    for row in rows:
        texts = list(row["counts"])
        assert row["counts"] == plain_counts(row["guess"], secrets, texts)
        assert row["largest"] == max(row["counts"].values())
        seen.append(index[row["guess"]])
    assert seen == sorted(seen)


@pytest.fixture(scope="module")
def muertos():
    return Game.preset("muertos-y-heridos")


def test_muertos_y_heridos_at_the_start_is_fig_4(muertos):
    rows = partition_table(muertos)
    codes = game_codes(muertos.to_dict())
    check_rows(muertos, rows, codes)
    by_like = {row["pattern"]: row for row in rows}
    assert list(by_like) == ["AAAA", "AAAB", "AABB", "AABC", "ABCD"]
    # class sizes: codes counted by their multiset of repeats, independently of any symmetry code
    shapes = Counter(tuple(sorted(Counter(c).values())) for c in codes)
    assert {like: by_like[like]["guesses"] for like in by_like} == {
        "AAAA": shapes[(4,)], "AAAB": shapes[(1, 3)], "AABB": shapes[(2, 2)],
        "AABC": shapes[(1, 1, 2)], "ABCD": shapes[(1, 1, 1, 1)]}
    # the figures the document quotes
    assert by_like["ABCD"]["largest"] == 3048 and by_like["ABCD"]["counts"]["0A1B"] == 3048
    assert by_like["AAAA"]["counts"]["0A0B"] == 6561 == by_like["AAAA"]["largest"]
    assert min(row["largest"] for row in rows) == 3048
    assert "3A1B" not in rows[0]["counts"]  # never a possible answer
    # equivalent guesses really split the secrets the same way
    rng = random.Random(5)
    for like, row in by_like.items():
        members = [c for c in codes if pattern(c) == like]
        for code in rng.sample(members, 2):
            assert plain_counts(code, codes, list(row["counts"])) == row["counts"]


@pytest.mark.parametrize("after", ["1122=1,0", "1122=1A0B,1345=0A2B", "1234=0A0B"])
def test_after_some_moves(after):
    game = Game.preset("mastermind")
    history = parse_history(game, after)
    codes = game_codes(game.to_dict())
    moves = [(game.code_strings[g], game.feedback_texts[f]) for g, f in history]
    secrets = [c for c in codes if all(key(g, c) == fb for g, fb in moves)]
    rows = partition_table(game, history)
    check_rows(game, rows, secrets)
    assert sum(rows[0]["counts"].values()) == len(secrets)
    assert sum(row["guesses"] for row in rows) == len(codes)


def test_parse_history():
    game = Game.preset("bulls-and-cows")
    assert parse_history(game, " 0123=1,2 , 4567=0A1B ") == (
        (game.index("0123"), game.feedbacks.index((1, 2))),
        (game.index("4567"), game.feedbacks.index((0, 1))))
    assert describe(game, parse_history(game, "0123=1 2")) == "after 0123=1A2B"


@pytest.mark.parametrize("text, words", [
    ("", "empty history"),
    ("0123", "write each move as GUESS=FEEDBACK"),
    ("=1A0B", "write each move as GUESS=FEEDBACK"),
    ("0123=", "write each move as GUESS=FEEDBACK"),
    ("0123=9A9B", "impossible"),
    ("0123=xx", "cannot read answer"),
    ("012=1A0B", "has 3 symbols"),
    ("0113=1A0B", "repeats a symbol"),
])
def test_bad_history(text, words):
    with pytest.raises(CodeError, match=words):
        parse_history(Game.preset("bulls-and-cows"), text)


def test_contradictory_history_has_no_table():
    game = Game.preset("bulls-and-cows")
    with pytest.raises(CodeError,
                       match="no secret of bulls-and-cows gives all the answers 0123=4A0B,4567=1A0B"):
        partition_table(game, parse_history(game, "0123=4A0B,4567=1A0B"))


def test_cli_table_and_json(run):
    result = run("partitions", "--game", "mastermind")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("mastermind at the start: 1296 secrets, 5 classes")
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert list(rows) == ["1111", "1112", "1122", "1123", "1234"]
    game = Game.preset("mastermind")
    codes = game_codes(game.to_dict())
    for guess, cells in rows.items():
        counts = Counter(key(guess, c) for c in codes)
        largest = max(counts.values())
        assert cells[-1] == str(largest)
        starred = [cell for cell in cells if cell.endswith("*")]
        assert starred and all(cell == f"{largest}*" for cell in starred)
    data = json.loads(run("partitions", "--game", "mastermind", "--after", "1122=1A1B", "--json").output)
    assert data["after"] == ["1122=1A1B"]
    assert data["secrets"] == sum(1 for c in codes if key("1122", c) == "1A1B")
    assert data["classes"] == partition_table(game, parse_history(game, "1122=1A1B"))


def test_cli_custom_game(run):
    result = run("partitions", "--symbols", "ABC", "--length", "2", "--no-repetition")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[2].split()[:3] == ["AB", "AB", "6"]


@pytest.mark.parametrize("args, message", [
    (["--after", "0123"], "Error: cannot read move '0123': write each move as GUESS=FEEDBACK"),
    (["--after", "0123=5A0B"], "Error: answer '5A0B' is impossible"),
    (["--after", "0123=4A0B,4567=1A0B"], "Error: no secret of bulls-and-cows gives"),
    (["--game", "chess"], "Error: unknown game 'chess'"),
])
def test_cli_bad_input(run, args, message):
    result = run("partitions", *args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_the_table_speaks_the_game_s_notation(run):
    """Mastermind's columns and moves are black and white pegs, Bulls and Cows' aAbB; the JSON
    keeps the books' keys."""
    from treegen.sessions.partitions import format_partitions
    for name, after, heads in [("mastermind", "1122=W", ["none", "W", "WW", "B", "BW", "BBBB"]),
                               ("bulls-and-cows", "0123=0A1B", ["0A0B", "0A1B", "1A0B", "4A0B"])]:
        game = Game.preset(name)
        history = parse_history(game, after)
        text = format_partitions(game, history, partition_table(game, history))
        head, columns = text.splitlines()[:2]
        assert f"after {after}:" in head if name != "mastermind" else "after 1122=W:" in head
        assert [h for h in heads if h in columns.split()] == heads
        keys = json.loads(run("partitions", "--game", name, "--after", after, "--json").output)
        assert "0A1B" in keys["classes"][0]["counts"]
