"""Input as people type it, and what a player expects at the end of a game: words in any case,
black and white pegs, `?` listing what is still possible, Wordle's six guesses."""

import os

import pytest

import treegen
from treegen.errors import CodeError
from treegen.player import Player, score
from treegen.rules.game import Game
from treegen.sessions.challenge import Codemaker

BOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "books")
WORDLE = os.path.join(BOOKS, "wordle-entropy-all.json")
MASTERMIND = os.path.join(BOOKS, "mastermind-minimax-all.json")


def test_words_are_read_in_any_case():
    game = Game.preset("wordle")
    assert game.index("CRANE") == game.index("crane") == game.index("CrAnE")
    assert game.validate_code(" Cigar ") == "cigar"
    custom = Game("aAbB", 2, True)  # both cases are symbols: nothing is folded
    assert custom.index("aA") != custom.index("aa")
    with pytest.raises(CodeError, match="'C'"):
        Game("ab", 2, True).index("CA")


def test_play_and_challenge_take_upper_case_words(run):
    out = run("play", WORDLE, "--secret", "CIGAR").output
    assert "solved in" in out and "cigar" in out
    out = run("challenge", "--game", "wordle", "--secret", "CIGAR",
              input="CRANE\nCIGAR\n").output
    assert f"   {score('crane', 'cigar', 'wordle')}" in out
    assert "solved in 2 guesses: the secret is cigar" in out


def test_a_guess_that_is_no_answer_is_named_as_such(run):
    result = run("play", WORDLE, "--secret", "aahed")
    assert result.exit_code == 1
    assert "aahed is one of the guesses wordle allows, but not one of its 2,315 answers" in \
        result.output
    with pytest.raises(CodeError, match="not one of its 2,315 answers"):
        treegen.load(WORDLE).moves("aahed")


def test_book_moves_score_by_the_book_s_rule():
    moves = treegen.load(WORDLE).moves("CIGAR")
    assert moves[-1] == ("cigar", "GGGGG")
    assert all(score(g, "cigar", "wordle") == a for g, a in moves)
    assert treegen.load(MASTERMIND).moves("3632")[-1] == ("3632", "4A0B")


@pytest.mark.parametrize("answer", ["BW", "1B1W", "B1 W1", "bw", "1b 1w"])
def test_black_and_white_pegs_wherever_a_peg_answer_is_read(answer, run):
    player = Player(treegen.load(MASTERMIND).data)
    assert player.parse(answer) == "1A1B"
    assert treegen.advise("mastermind", f"1122={answer}").moves == (("1122", "1A1B"),)
    out = run("partitions", "--game", "mastermind", "--after", f"1122={answer}").output
    assert "1122=BW" in out  # shown back in the game's own notation


def test_question_mark_lists_what_is_still_possible(run):
    out = run("play", MASTERMIND, input="1A0B\n?\n? all\nquit\n").output
    possible = treegen.advise("mastermind", "1122=1A0B").candidates
    assert f"   {len(possible)} secrets are still possible:" in out
    assert "... and 196 more (type '? all' to see every one)" in out
    assert possible[-1] in out.split()  # listed by '? all'
    out = run("challenge", "--game", "mastermind", "--secret", "3632",
              input="3631\n?\nquit\n").output
    left = [c for c in treegen.advise("mastermind", "3631=3A0B").candidates]
    assert f"   {len(left)} secrets fit my answers:" in out
    assert " ".join(left[:5]) in out


def test_one_secret_fits():
    maker = Codemaker("mastermind", secret="3632")
    for guess in ("1122", "1344", "3526", "1462"):
        maker.answer(guess)
    assert maker.remaining() == 1
    assert repr(maker).endswith("1 secret fits>")


def test_challenge_ends_at_wordle_s_sixth_guess_and_shows_the_secret(run):
    guesses = ["fjord", "gucks", "nymph", "vibex", "waltz", "pling", "crane", "slate"]
    out = run("challenge", "--game", "wordle", "--secret", "cigar",
              input="\n".join(guesses) + "\n").output
    assert "You have 6 guesses." in out
    assert "guess 7" not in out
    assert out.rstrip().endswith("out of guesses (6): the secret was cigar")
    maker = Codemaker("wordle", secret="cigar")
    assert maker.max_guesses == 6 and Codemaker("mastermind").max_guesses is None
    for guess in guesses[:6]:
        maker.answer(guess)
    assert maker.done and not maker.solved
    with pytest.raises(CodeError, match="game is over"):
        maker.answer("cigar")


def test_max_guesses_applies_to_any_game(run):
    out = run("challenge", "--game", "mastermind", "--secret", "3632", "--max-guesses", "2",
              input="1122\n1344\n3632\n").output
    assert out.rstrip().endswith("out of guesses (2): the secret was 3632")
    assert "0A0B" not in out.split("out of guesses")[1]
    bad = run("challenge", "--game", "mastermind", "--max-guesses", "0")
    assert bad.exit_code == 2


def test_a_codemaker_takes_a_preset_s_name():
    assert Codemaker("wordle", seed=3).game.name == "wordle"
    assert Codemaker("wordle", seed=3).reveal() == Codemaker(Game.preset("wordle"), seed=3).reveal()
