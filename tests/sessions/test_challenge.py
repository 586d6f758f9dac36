"""`treegen challenge`: the honest and the adversarial codemaker, checked against the plain scorer."""

import random
import re
from dataclasses import replace

import pytest

from treegen.book.format import feedback
from treegen.book.replay import game_codes
from treegen.errors import CodeError
from treegen.rules.game import Game
from treegen.sessions.challenge import Codemaker


def key(guess, secret):
    return "%dA%dB" % feedback(guess, secret)


def test_seeded_secret_is_reproducible_and_answers_honestly():
    game = Game.preset("mastermind")
    secrets = set()
    for seed in range(8):
        maker = Codemaker(game, seed=seed)
        assert Codemaker(game, seed=seed).reveal() == maker.reveal()
        secrets.add(maker.reveal())
        for guess in ("1122", "3456", "6611"):
            assert maker.answer(guess) == key(guess, maker.reveal())
        codes = [c for c in game_codes(game.to_dict())
                 if all(key(g, c) == fb for g, fb in maker.moves)]
        assert maker.remaining() == len(codes)
    assert len(secrets) > 1
    unseeded = Codemaker(game)
    assert unseeded.seed is not None
    assert Codemaker(game, seed=unseeded.seed).reveal() == unseeded.reveal()


def _check_adversary(game: Game, rng: random.Random):
    """Play a game against the adversary and check every answer against a plain recount."""
    order = game.feedback_texts
    codes = game_codes(game.to_dict())
    maker = Codemaker(game, adversarial=True)
    alive = list(codes)
    while not maker.done:
        # guess any code at first, then a still-possible one, so the game ends
        guess = rng.choice(codes if len(maker.moves) < 2 else alive)
        sizes = {}
        for code in alive:
            fb = key(guess, code)
            sizes[fb] = sizes.get(fb, 0) + 1
        largest = max(sizes.values())
        expected = min((fb for fb, n in sizes.items() if n == largest), key=order.index)
        assert maker.answer(guess) == expected
        alive = [c for c in alive if key(guess, c) == expected]
        assert maker.remaining() == len(alive)
    secret = maker.reveal()
    assert secret == maker.moves[-1][0]
    assert all(key(g, secret) == fb for g, fb in maker.moves)
    return len(maker.moves)


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False),
                                  Game.preset("mastermind")])
def test_adversary_answers_the_largest_class_first_in_feedback_order(game):
    rng = random.Random(3)
    lengths = [_check_adversary(game, rng) for _ in range(4)]
    assert min(lengths) >= 2


def test_adversary_reveals_a_consistent_secret_when_you_give_up():
    game = Game.preset("mastermind")
    maker = Codemaker(game, adversarial=True)
    for guess in ("1122", "3344"):
        maker.answer(guess)
    secret = maker.reveal()
    assert all(key(g, secret) == fb for g, fb in maker.moves)


def test_invalid_guesses_do_not_count():
    maker = Codemaker(Game.preset("bulls-and-cows"), secret="0123")
    for bad, words in [("012", "has 3 symbols"), ("01a3", "not one of the symbols"),
                       ("0113", "repeats a symbol")]:
        with pytest.raises(CodeError, match=words):
            maker.answer(bad)
    assert maker.moves == [] and maker.remaining() == 5040


@pytest.mark.parametrize("kwargs, words", [
    ({"secret": "0123", "seed": 1}, "not both"),
    ({"secret": "0123", "adversarial": True}, "chooses no secret"),
    ({"seed": 1, "adversarial": True}, "chooses no secret"),
    ({"secret": "01234"}, "has 5 symbols"),
])
def test_bad_arguments(kwargs, words):
    with pytest.raises(CodeError, match=words):
        Codemaker(Game.preset("bulls-and-cows"), **kwargs)


def test_cli_session_with_a_chosen_secret(run):
    lines = ["help", "12", "1123", "0124", "?", "", "5678", "1234"]
    result = run("challenge", "--game", "bulls-and-cows", "--secret", "1234",
                 input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "code '12' has 2 symbols; bulls-and-cows codes have 4 (not counted)" in out
    assert "code '1123' repeats a symbol, which bulls-and-cows does not allow (not counted)" in out
    assert f"   {key('0124', '1234')}\n" in out and f"   {key('5678', '1234')}\n" in out
    fits = [c for c in game_codes(Game.preset("bulls-and-cows").to_dict())
            if key("0124", c) == key("0124", "1234")]
    assert f"   {len(fits)} secrets fit my answers" in out
    assert out.rstrip().endswith("solved in 3 guesses: the secret is 1234")
    assert re.findall(r"guess (\d+): ", out)[-1] == "3"


def test_cli_seed_replays_the_same_secret(run):
    first = run("challenge", "--game", "mastermind", "--seed", "7", input="quit\n")
    secret = re.search(r"the secret was (\d{4}) \(seed 7\)", first.output).group(1)
    again = run("challenge", "--game", "mastermind", "--seed", "7", input=secret + "\n")
    assert again.output.rstrip().endswith(f"solved in 1 guess: the secret is {secret} (seed 7)")
    ended = run("challenge", "--game", "mastermind", "--seed", "7", input="")  # end of input
    assert ended.exit_code == 0 and f"the secret was {secret}" in ended.output


def test_cli_adversary_on_muertos_y_heridos(run):
    result = run("challenge", "--game", "muertos-y-heridos", "--adversarial", input="0123\n?\nquit\n")
    assert result.exit_code == 0, result.output
    codes = game_codes(Game.preset("muertos-y-heridos").to_dict())
    sizes = {}
    for code in codes:
        fb = key("0123", code)
        sizes[fb] = sizes.get(fb, 0) + 1
    largest = max(sizes, key=sizes.get)
    assert (largest, sizes[largest]) == ("0A1B", 3048)  # fig. 4 of the source document
    assert "   0A1B\n" in result.output and "   3048 secrets fit my answers" in result.output
    secret = re.search(r"a secret consistent with every answer \(3048 fit\): (\d{4})", result.output)
    assert key("0123", secret.group(1)) == "0A1B"


def test_cli_custom_game(run):
    result = run("challenge", "--symbols", "XYZ", "--length", "2", "--repetition", "--secret", "ZX",
                 input="XX\nXZ\nZX\n")
    assert result.exit_code == 0, result.output
    assert "2 symbols from XYZ, repeats allowed (2 of XYZ with repeats)" in result.output
    answers = re.findall(r"^   (\dA\dB)$", result.output, re.M)
    assert answers == [key(g, "ZX") for g in ("XX", "XZ", "ZX")]
    assert "solved in 3 guesses" in result.output


@pytest.mark.parametrize("args, message", [
    (["--secret", "0123", "--seed", "3"], "Error: give a secret or a seed, not both"),
    (["--adversarial", "--secret", "0123"], "Error: the adversarial codemaker chooses no secret"),
    (["--secret", "0a12"], "Error: code '0a12' uses 'a'"),
    (["--game", "chess"], "Error: unknown game 'chess'"),
    (["--length", "0"], "Error: length must be between 1 and 20"),
])
def test_cli_bad_input(run, args, message):
    result = run("challenge", *args, input="")
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("adversarial", [False, True])
def test_in_hard_mode_a_guess_that_breaks_an_answer_is_explained_and_not_counted(adversarial):
    game = replace(Game.preset("mastermind"), hard=True)
    maker = Codemaker(game, adversarial=adversarial, **({} if adversarial else {"secret": "1234"}))
    first = maker.answer("1122")
    fits = [code for code in game.code_strings if feedback("1122", code) == feedback("1122", maker.reveal())]
    breaks = next(code for code in game.code_strings if code not in fits)
    spoken = game.notation.format(first)  # Mastermind's pegs: BW, not 1A1B
    with pytest.raises(CodeError, match=f"hard mode: {breaks} does not fit guess 1, 1122 = {spoken} "):
        maker.answer(breaks)
    assert len(maker.moves) == 1 and maker.remaining() == len(fits)
    assert maker.answer(fits[-1]) and len(maker.moves) == 2  # one that fits is a move
    free = Codemaker(Game.preset("mastermind"), secret="1234")
    free.answer("1122")
    assert free.answer(breaks) and len(free.moves) == 2  # outside hard mode any code is


def pegs(answer):
    """A canonical key (1A2B) as Mastermind's black and white pegs (BWW), counted here."""
    black, white = (int(n) for n in re.match(r"(\d+)A(\d+)B$", answer).groups())
    return "B" * black + "W" * white or "none"


@pytest.mark.parametrize("name, write", [("mastermind", pegs), ("bulls-and-cows", str),
                                         ("muertos-y-heridos", str)])
def test_each_game_answers_in_its_own_notation(run, name, write):
    """Mastermind's codemaker answers with black and white pegs, Bulls and Cows' with aAbB."""
    game = Game.preset(name)
    secret, guesses = game.code_strings[700], [game.code_strings[0], game.code_strings[321]]
    result = run("challenge", "--game", name, "--secret", secret,
                 input="\n".join([*guesses, secret]) + "\n")
    assert result.exit_code == 0, result.output
    for guess in guesses:
        assert f"   {write(key(guess, secret))}\n" in result.output
    assert f"   {write(f'{game.length}A0B')}\n" in result.output
    told = "black and white pegs" if write is pegs else "aAbB"
    assert f"I answer {'with ' if write is pegs else ''}{told}" in result.output
