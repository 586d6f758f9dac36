import itertools

import pytest

from treegen.errors import CodeError, GameError
from treegen.rules.game import Game
from treegen.rules.scoring import CodeScorer, scorer_for


def test_presets_have_the_documented_sizes():
    assert Game.preset("bulls-and-cows").size == 5040
    assert Game.preset("moo") == Game.preset("bulls-and-cows")
    assert Game.preset("mastermind").size == 1296
    assert Game.preset("muertos-y-heridos").size == 10000
    for name in ("bulls-and-cows", "mastermind", "muertos-y-heridos"):
        game = Game.preset(name)
        assert len(game.code_strings) == game.size == len(set(game.code_strings))


def test_codes_are_enumerated_in_lexicographic_order_of_the_symbol_string():
    game = Game("BAC", 2, False)  # order follows the symbol string, not the alphabet
    expected = ["".join(p) for p in itertools.permutations("BAC", 2)]
    assert game.code_strings == expected == ["BA", "BC", "AB", "AC", "CB", "CA"]
    mm = Game.preset("mastermind")
    assert mm.code_strings[:3] == ["1111", "1112", "1113"] and mm.code_strings[-1] == "6666"
    assert Game.preset("bulls-and-cows").code_strings[:2] == ["0123", "0124"]


def test_rank_inverts_enumeration():
    for game in (Game.preset("bulls-and-cows"), Game("ABCD", 3, True)):
        assert game.rank(game.codes).tolist() == list(range(game.size))


MALFORMED = {"123": "has 3 symbols", "1237": "'7', which is not one of the symbols",
             "12 4": "' ', which is not one of the symbols"}


def test_malformed_codes_are_refused_with_the_reason():
    for text, message in MALFORMED.items():
        with pytest.raises(CodeError, match=message):
            Game.preset("mastermind").validate_code(text)


def test_repeated_digit_refused_only_without_repetition():
    with pytest.raises(CodeError, match="repeats a symbol"):
        Game.preset("bulls-and-cows").validate_code("1123")
    assert Game.preset("muertos-y-heridos").validate_code("1123") == "1123"


@pytest.mark.parametrize("text", ["1A2B", "1a2b", "12", "1 2", "1,2", " 1A 2B "])
def test_feedback_forms(text):
    assert Game.preset("bulls-and-cows").parse_feedback(text) == (1, 2)


@pytest.mark.parametrize("text, message", [
    ("3A1B", "impossible"), ("4A1B", "impossible"), ("2A3B", "impossible"), ("xyz", "cannot read"),
    ("1A", "cannot read"),
])
def test_impossible_or_malformed_feedback(text, message):
    with pytest.raises(CodeError, match=message):
        Game.preset("bulls-and-cows").parse_feedback(text)


def test_custom_games_and_naming():
    assert Game.make("mastermind", length=5).name == "custom"
    assert Game.make(None, "123456", 4, True).name == "mastermind"
    assert Game.make(symbols="ABC", length=2, repetition=False).slug == "custom-ABC-2-norep"


@pytest.mark.parametrize("kwargs, message", [
    (dict(symbols="AAB", length=2, repetition=True), "repeat a symbol"),
    (dict(symbols="AB", length=3, repetition=False), "at least 3 symbols"),
    (dict(symbols="AB", length=0, repetition=True), "length must be"),
    (dict(symbols="", length=2, repetition=True), "at least one symbol"),
])
def test_malformed_games(kwargs, message):
    with pytest.raises(GameError, match=message):
        Game(**kwargs)


def test_unknown_preset_lists_known_names():
    with pytest.raises(GameError, match=r"unknown game 'chess'.*mastermind"):
        Game.preset("chess")


def test_too_large_games_are_refused_before_allocating(monkeypatch):
    big = Game("0123456789ABCDEF", 8, False)
    with pytest.raises(GameError, match=r"518,918,400 codes and needs about .* PiB"):
        big.check_fits()
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", str(10 ** 6))
    game = Game.preset("muertos-y-heridos")
    with pytest.raises(GameError, match=r"10,000 codes and needs about [0-9.]+ MiB of memory for its score "
                                        r"table; only 976.6 KiB"):
        game.check_fits()
    assert isinstance(scorer_for(game), CodeScorer)  # its codes fit: scored without a table
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", str(10 ** 5))
    with pytest.raises(GameError, match=r"10,000 codes and needs about [0-9.]+ KiB of memory for its codes"):
        _ = Game.preset("muertos-y-heridos").codes


@pytest.mark.parametrize("game", [Game("1234567", 5, True), Game.of_words(["abc", "abd", "bcd"]),
                                  Game("ABCDEF", 4, True, hard="strict")], ids=str)
def test_a_game_travels_as_its_definition_and_is_made_once_where_it_arrives(game):
    """Work sent to another process carries its game: the codes, their names and the index the
    game keeps are left behind (megabytes in a large game), and every piece of work of one game
    finds the same game there, its names made once."""
    import pickle
    bare = len(pickle.dumps(game))
    game.index(game.code_strings[-1])  # what a game keeps once asked
    sent = pickle.dumps(game)
    assert len(sent) == bare
    first, second = pickle.loads(sent), pickle.loads(pickle.dumps(Game(**{
        "symbols": game.symbols, "length": game.length, "repetition": game.repetition,
        "answers": game.answers, "guesses": game.guesses, "hard": game.hard, "rule": game.rule,
        "name": game.name})))
    assert first == game and first is second
    assert first.code_strings == game.code_strings
