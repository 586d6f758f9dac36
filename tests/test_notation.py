"""One notation: feedback and move paths read and written the same way by every command, and the
standalone player's copy of the grammar agrees with it on every spelling."""

import itertools
import re

import pytest

from treegen import book as books
from treegen import notation, player
from treegen.errors import CodeError, StrategyError
from treegen.rules.game import Game


def spellings(a, b):
    yield from (f"{a}A{b}B", f"{a}a{b}b", f" {a} A {b} B ", f"{a},{b}", f"{a} {b}", f"{a}-{b}",
                f"{a};{b}", f"{a}/{b}", f"{a} , {b}", f"{a}{b}", f"({a}, {b})", f"{a}A{b}", (a, b), [a, b],
                f"{a}B{b}W", f"B{a} W{b}", "B" * a + "W" * b)


ODD = ["", " ", "x", "1A", "AB", "1A2B3", "1.0A2B", "١A٢B", "1A2B\n\n", "12345", "1--2", None, 3,
       (1,), (1, 2, 3), (True, 1), "9" * 12 + "A0B", "1" * 5000, "-1A0B", "1A-1B"]


def verdict(parse, text, length):
    """What a parser makes of a spelling: the feedback, or the kind of refusal."""
    try:
        return tuple(parse(text, length))
    except (player.MalformedAnswer, notation.MalformedFeedback):
        return "malformed"
    except (player.ImpossibleAnswer, notation.ImpossibleFeedback):
        return "impossible"


@pytest.mark.parametrize("length", [1, 2, 3, 4, 6, 12])
def test_the_player_and_notation_agree_on_every_spelling(length):
    texts = [t for a, b in itertools.product(range(-1, 14), repeat=2) for t in spellings(a, b)] + ODD
    for text in texts:
        assert verdict(notation.parse_feedback, text, length) == \
            verdict(player.parse_feedback, text, length), text


def test_black_and_white_pegs_are_read_as_pegs():
    # Mastermind players answer with black pegs (in place) and white ones (elsewhere)
    for text, fb in [("BWW", (1, 2)), ("b w w", (1, 2)), ("1B2W", (1, 2)), ("B1 W2", (1, 2)),
                     ("2B0W", (2, 0)), ("W", (0, 1)), ("BBBB", (4, 0))]:
        assert notation.parse_feedback(text, 4) == fb
        assert player.parse_answer(text, {"length": 4}) == "{}A{}B".format(*fb)
    for text in ["BB1W", "BWX", "3B1W"]:
        with pytest.raises(CodeError):
            notation.parse_feedback(text, 4)


def test_a_count_of_b_alone_is_refused_as_ambiguous():
    """``2B`` is two cows in aAbB and two black pegs in Mastermind's pegs: read as either it
    would silently turn 0A2B into 2A0B, so it is refused with both spellings that work."""
    for text in ["2B", "4b", "B2", " 1 b "]:
        with pytest.raises(notation.MalformedFeedback, match=r"ambiguous.*0A[0-9]B"):
            notation.parse_feedback(text, 4)


def test_black_pegs_alone_are_read_as_letters_too():
    game = {"length": 4, "rule": "black"}
    for text, key in [("BB", "2A"), (" b ", "1A"), ("BBBB", "4A"), ("2", "2A"), ("3a", "3A")]:
        assert player.parse_answer(text, game) == key
    with pytest.raises(player.ImpossibleAnswer):
        player.parse_answer("BBBBB", game)
    for text in ["BW", "B B", "2B", "A"]:
        with pytest.raises(player.MalformedAnswer):
            player.parse_answer(text, game)


def test_format_and_parse_round_trip():
    for length in range(1, 9):
        keys = notation.feedback_keys(length)
        assert len(keys) == len(set(keys)) == (length + 1) * (length + 2) // 2 - 1
        for key in keys:
            fb = notation.parse_key(key)
            assert notation.format_feedback(fb) == key
            assert notation.parse_feedback(key, length) == fb
            assert notation.possible(fb, length)
        assert f"{length}A0B" not in notation.feedback_keys(length, solved=False)
    assert not notation.possible((3, 1), 4) and not notation.possible((2, 3), 4)


def test_move_paths_round_trip():
    moves = notation.parse_moves("1122=1A0B, 1344=2,0,3456=0 4")
    assert moves == [("1122", (1, 0)), ("1344", (2, 0)), ("3456", (0, 4))]
    assert notation.format_moves(moves) == "1122=1A0B,1344=2A0B,3456=0A4B"
    assert notation.parse_moves(notation.format_moves(moves)) == moves
    with pytest.raises(CodeError, match="answer '5A0B' is impossible"):
        notation.parse_moves("1122=5A0B", 4)
    with pytest.raises(CodeError, match="write each move as GUESS=FEEDBACK"):
        notation.parse_moves("1122")


@pytest.mark.parametrize("spelling", ["1A0B", "1,0", "1 0", "10", "1-0", "1a0b", "1;0"])
def test_every_command_reads_the_players_spellings(run, tmp_path, mastermind_minimax, spelling):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    render = run("render", "mm.json", "--format", "dot", "-o", "x.dot", "--from", f"1122={spelling}")
    assert render.exit_code == 0, render.output
    partitions = run("partitions", "-g", "mastermind", "--after", f"1122={spelling}")
    assert partitions.exit_code == 0, partitions.output
    play = run("play", "mm.json", input=f"{spelling}\nquit\n")
    assert "2. 1344" in play.output, play.output  # the book's answer to 1122=1A0B


def test_render_from_with_comma_feedback(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("render", "mm.json", "--format", "dot", "-o", "x.dot", "--from", "1122=1,0,1344=0,0")
    assert result.exit_code == 0, result.output
    assert "from 1122=1A0B,1344=0A0B" in result.output


NONE = ["-", "none", "0", "", " None ", "nothing"]


@pytest.mark.parametrize("game, key", [
    ({"name": "mastermind", "length": 4}, "0A0B"), ({"name": "bulls-and-cows", "length": 4}, "0A0B"),
    ({"name": "custom", "length": 3, "rule": "black"}, "0A"),
    ({"name": "custom", "length": 5, "rule": "jotto"}, "0"),
    ({"name": "custom", "length": 5, "rule": "wordle"}, ".....")])
def test_nothing_in_common_is_read_in_every_spelling(game, key):
    for text in NONE:
        assert player.parse_answer(text, game) == key, text


def test_a_count_of_b_alone_is_black_pegs_where_the_game_speaks_pegs():
    """Mastermind's players speak pegs, so ``2B`` is two black pegs there; in aAbB games it is
    refused, naming both readings."""
    mastermind, bulls = {"name": "mastermind", "length": 4}, {"name": "bulls-and-cows", "length": 4}
    for text, key in [("2B", "2A0B"), ("b3", "3A0B"), ("1B", "1A0B"), ("BWW", "1A2B"), ("1A2B", "1A2B")]:
        assert player.parse_answer(text, mastermind) == key, text
    with pytest.raises(player.MalformedAnswer, match=r"'2B' is ambiguous: write 0A2B .* or 2A0B"):
        player.parse_answer("2B", bulls)
    assert player.parse_answer("BWW", bulls) == "1A2B"  # letters are never ambiguous


def test_errors_name_the_spellings_that_work():
    for game, spelled in [({"name": "bulls-and-cows", "length": 4},
                           "write 1A2B, 12, '1 2', BWW, 2B1W, or - for none"),
                          ({"name": "mastermind", "length": 4},
                           "write BWW, 2B1W, 1A2B, 12, '1 2', or - for none"),
                          ({"name": "custom", "length": 4, "rule": "black"},
                           "write 2A, 2 or BB, or - for none"),
                          ({"name": "custom", "length": 5, "rule": "wordle"},
                           "write 5 tiles of G (green), Y (yellow) and . (grey), e.g. GY..Y, "
                           "or none for every tile grey")]:
        with pytest.raises(player.MalformedAnswer, match=re.escape(f"cannot read answer 'x': {spelled}")):
            player.parse_answer("x", game)


@pytest.mark.parametrize("name, notation, shown", [
    ("mastermind", "black-white", {"1A2B": "BWW", "0A0B": "none", "4A0B": "BBBB", "0A3B": "WWW"}),
    ("bulls-and-cows", "aAbB", {"1A2B": "1A2B", "0A0B": "0A0B"}),
    ("muertos-y-heridos", "aAbB", {"1A2B": "1A2B"}),
    ("wordle", "tiles", {"GY..Y": "GY..Y"}),
    ("jotto", "count", {"3": "3", "win": "win"})])
def test_each_game_speaks_its_notation_and_keeps_its_rule_s_keys(name, notation, shown):
    game = Game.preset(name)
    spoken = game.notation
    assert spoken.notation == notation and spoken.name == game.rule
    assert {key: spoken.format(key) for key in shown} == shown
    rule = game.feedback_rule
    assert spoken.keys(game.length) == rule.keys(game.length)  # books keyed as ever
    assert spoken.solved(game.length) == rule.solved(game.length)
    codes = game.code_strings[:50]
    assert [spoken.score(a, b) for a in codes[:5] for b in codes] == \
        [rule.score(a, b) for a in codes[:5] for b in codes]
    for key in spoken.keys(game.length):  # what it writes, it reads back
        assert spoken.parse(spoken.format(key), game.length) == key


def test_a_custom_game_speaks_its_rule_s_own_notation():
    for game in [Game("123456", 5, True), Game.make("mastermind", length=5), Game("ABC", 3, True)]:
        assert game.notation is game.feedback_rule
    assert player.rule_of({"name": "mastermind", "rule": "black"}) is player.RULES["black"]


@pytest.mark.parametrize("typed, name", [("Wordle", "wordle"), ("MASTERMIND", "mastermind"),
                                         (" Moo ", "bulls-and-cows"), ("Jotto", "jotto")])
def test_preset_names_are_read_in_any_case(typed, name):
    assert Game.preset(typed).name == name


def test_strategy_names_are_read_in_any_case():
    from treegen.registry import make_strategy, searches
    assert make_strategy("Minimax").name == "minimax" and make_strategy("ENTROPY").name == "entropy"
    assert searches("Optimal") and not searches("Parts")
    with pytest.raises(StrategyError, match="unknown strategy 'Nope'"):
        make_strategy("Nope")
