"""Games of listed words and other feedback rules: the score table against plain scorers, answers
written and read in each rule's notation, a user's lists from the command line (and their
mistakes as one-line errors), and Wordle itself as typed."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tests.helpers.reference_solver import black, tiles
from treegen.errors import TreegenError
from treegen.player import ImpossibleAnswer, MalformedAnswer, feedback_keys, parse_answer, score
from treegen.rules.game import Game
from treegen.rules.scoring import score_table
from treegen.search.options import SearchOptions


def random_words(seed: int, count: int, letters: str = "abcde", length: int = 5) -> list[str]:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(letters) for _ in range(length)))
    return sorted(words)


def test_wordle_tiles_count_repeated_letters_as_the_game_does():
    assert score("speed", "abide", "wordle") == "..Y.Y"  # the second e: none left unmatched
    assert score("eerie", "sheep", "wordle") == "YY..."
    assert score("sheep", "eerie", "wordle") == "..YY."
    assert score("level", "eerie", "wordle") == ".G.Y."
    assert score("crane", "crane", "wordle") == "GGGGG"


@pytest.mark.parametrize("rule", ["wordle", "black", "pegs"])
def test_the_table_agrees_with_two_plain_scorers(rule):
    words = random_words(1, 300)
    game = Game.of_words(words[::2], words, rule=rule)
    table = score_table(game)
    assert table.shape == (game.guess_count, game.size)
    texts = game.feedback_texts
    rng = random.Random(2)
    for _ in range(3000):
        g, s = rng.randrange(game.guess_count), rng.randrange(game.size)
        guess, secret = game.code_strings[g], game.code_strings[s]
        assert texts[table[g, s]] == score(guess, secret, rule)
        if rule == "wordle":
            assert texts[table[g, s]] == tiles(guess, secret)
        elif rule == "black":
            assert texts[table[g, s]] == f"{black(guess, secret)}A"


def test_answers_come_first_and_keep_their_number_as_guesses():
    game = Game.of_words(["cigar", "awake"], ["zonal", "awake", "cigar", "abbey"])
    assert game.code_strings == ["cigar", "awake", "zonal", "abbey"]
    assert (game.size, game.guess_count) == (2, 4)
    assert game.index("awake") == 1 and game.index("abbey") == 3
    with pytest.raises(TreegenError, match="is not one of the 4 guesses"):
        game.index("crane")


@pytest.mark.parametrize("rule, length", [("wordle", 5), ("wordle", 3), ("black", 4), ("pegs", 4)])
def test_every_answer_round_trips_through_its_notation(rule, length):
    game = {"name": "custom", "symbols": "abcdef", "length": length, "repetition": True, "rule": rule}
    keys = feedback_keys(game)
    assert len(set(keys)) == len(keys)
    for key in keys:
        assert parse_answer(key, game) == key
        assert parse_answer(key.lower(), game) == key


def test_tiles_are_read_in_every_spelling_and_impossible_ones_refused():
    game = {"name": "custom", "symbols": "abc", "length": 5, "repetition": True, "rule": "wordle"}
    for spelling in ("GY..Y", "gy..y", "gy--y", "21001", "G Y . . Y", "gyx_Y",
                     "\U0001f7e9\U0001f7e8\u2b1b\u2b1c\U0001f7e8"):
        assert parse_answer(spelling, game) == "GY..Y"
    with pytest.raises(ImpossibleAnswer, match="cannot be elsewhere"):
        parse_answer("GGGGY", game)
    for bad in ("GY..", "GYZ.Y", 12):
        with pytest.raises(MalformedAnswer, match="tiles of G"):
            parse_answer(bad, game)
    for nothing in ("", "-", "none"):  # nothing in common: every tile grey
        assert parse_answer(nothing, game) == "....."


@pytest.fixture
def lists(tmp_path):
    words = random_words(3, 120, "abcdefg")
    (tmp_path / "answers.txt").write_text("# answers\n" + "\n".join(words[:50]) + "\n\n")
    (tmp_path / "guesses.txt").write_text("\n".join(reversed(words)) + "\n")
    return tmp_path


def test_a_users_lists_build_verify_and_play(run, lists):
    out = lists / "book.json"
    for strategy in ("entropy", "optimal"):
        result = run("build", "--answers", lists / "answers.txt", "--guesses", lists / "guesses.txt",
                     "--strategy", strategy, "-o", out)
        assert result.exit_code == 0, result.output
        assert "50 secrets" in result.output
        assert run("verify", out).exit_code == 0
        book = json.loads(out.read_text())
        assert book["game"]["rule"] == "wordle" and len(book["game"]["guesses"]) == 120
    secret = book["game"]["answers"][7]
    played = run("play", out, "--secret", secret)
    assert played.exit_code == 0 and "GGGGG" in played.output and secret in played.output


def test_the_optimal_search_beats_or_ties_every_heuristic_on_words(lists):
    from treegen.api import build_book
    from treegen.rules.wordlists import read_words
    game = Game.of_words(read_words(str(lists / "answers.txt"), "answers"),
                         read_words(str(lists / "guesses.txt"), "guesses"))
    best = build_book(game, "optimal")["stats"]["total"]
    for heuristic in ("minimax", "expected", "entropy", "parts"):
        assert best <= build_book(game, heuristic)["stats"]["total"]
    # within the answers only (every guess a possible secret) the optimum cannot be lower
    alone = Game.of_words(game.code_strings[:game.size])
    assert build_book(alone, "optimal")["stats"]["total"] >= best


@pytest.mark.parametrize("answers, guesses, message", [
    ("abcde\nabcde\n", None, "answers A line 2: 'abcde' appears twice (first on line 1)"),
    ("abcde\nabcd\n", None, "answers A line 2: 'abcd' has 4 letters, not 5 as 'abcde' on line 1"),
    ("abcde\nfghij\n", "abcde\nzzzzz\n", "answers A line 2: 'fghij' is not among guesses G"),
    ("abcde\nab3de\n", None, "answers A line 2: 'ab3de' is not a word of letters: '3' (U+0033"),
    ("\n# nothing\n", None, "answers A holds no words"),
    ("abcde\n", "abcde\nfghij\nfghij\n", "guesses G line 3: 'fghij' appears twice (first on line 2)"),
    ("abcde\n", "abcde\nfghijk\n", "guesses G line 2: 'fghijk' has 6 letters, not 5"),
    ("abcd\n", "abcde\n", "guesses G line 1: 'abcde' has 5 letters, the answers 4 (answers A line 1"),
    ("abcdef\n", None, "answers A line 1: 'abcdef' has 6 letters; a game of rule wordle has words of "
                       "at most 5"),
])
def test_bad_lists_are_one_line_errors(run, tmp_path, answers, guesses, message):
    """Each names its list, its file and its line: never "guesses:" for a file of answers."""
    (tmp_path / "a.txt").write_text(answers)
    args = ["build", "--answers", tmp_path / "a.txt"]
    if guesses is not None:
        (tmp_path / "g.txt").write_text(guesses)
        args += ["--guesses", tmp_path / "g.txt"]
    result = run(*args, "-o", tmp_path / "out.json")
    expected = message.replace(" A", f" {tmp_path / 'a.txt'}").replace(" G", f" {tmp_path / 'g.txt'}")
    assert result.exit_code != 0 and f"Error: {expected}" in result.output, result.output
    assert "Traceback" not in result.output and not (tmp_path / "out.json").exists()
    assert len(result.output.strip().splitlines()) == 1


def test_guesses_alone_and_word_lists_with_peg_options_are_refused(run, lists):
    result = run("build", "--guesses", lists / "guesses.txt")
    assert result.exit_code != 0 and "--guesses needs --answers" in result.output
    result = run("build", "--answers", lists / "answers.txt", "--length", "4")
    assert result.exit_code != 0 and "do not apply" in result.output


def test_other_rules_of_peg_games_build_books_that_verify(run, tmp_path):
    for rule in ("black", "wordle"):
        out = tmp_path / f"{rule}.json"
        result = run("build", "--symbols", "1234", "--length", "4", "--repetition", "--rule", rule,
                     "--strategy", "optimal", "-o", out)
        assert result.exit_code == 0, result.output
        assert run("verify", out).exit_code == 0
        assert json.loads(out.read_text())["game"]["rule"] == rule


def test_wordle_as_typed(run, tmp_path):
    """The preset's lists come with the install (see test_wordlists.py)."""
    out = tmp_path / "wordle.json"
    result = run("build", "--game", "wordle", "--strategy", "entropy", "-o", out)
    assert result.exit_code == 0, result.output
    book = json.loads(out.read_text())
    assert (len(book["game"]["answers"]), len(book["game"]["guesses"])) == (2315, 12972)
    assert book["tree"]["guess"] == "soare"  # the well-known entropy opening of these lists
    assert run("verify", out).exit_code == 0
    table = score_table(Game.preset("wordle"))
    assert table.shape == (12972, 2315) and np.all(table < 243)


def test_challenge_answers_a_word_game_with_tiles(run, lists):
    answers = (lists / "answers.txt").read_text().split("\n")[1:]
    guess = answers[0]
    result = run("challenge", "--answers", lists / "answers.txt", "--guesses", lists / "guesses.txt",
                 "--secret", guess, input=f"{guess}\n")
    assert result.exit_code == 0, result.output
    assert "one of the 50 answers" in result.output and "with tiles" in result.output
    assert "GGGGG" in result.output


def test_partitions_read_each_rule_and_refuse_games_without_symmetry(run, lists):
    black = run("partitions", "--game", "mastermind", "--rule", "black", "--after", "1122=2")
    assert black.exit_code == 0 and "1122=2A" in black.output and "4A" in black.output
    words = run("partitions", "--answers", lists / "answers.txt")
    assert words.exit_code != 0 and "has no symmetry" in words.output


@pytest.mark.parametrize("first, published", [("salet", 7920), ("reast", 7923), ("slant", 7951)])
def test_wordle_optimum_after_a_first_guess_is_the_published_one(first, published):
    """Selby's proven optima (alex1770/wordle, normal.top105.proven, original lists); the same
    comparison for the fifteen best first guesses is benchmarks/wordle_openings.py."""
    from treegen.api import build_book
    from treegen.book.replay import verify
    book = build_book(Game.preset("wordle"), "optimal", first=first, search=SearchOptions(jobs=1))
    assert book["stats"]["total"] == published and verify(book) == []
    assert book["strategy"]["after"] == {"first": first, "optimal": True, "lower_bound": published}


def test_a_word_game_counts_both_tables_before_it_allocates():
    """Scores of listed words are not symmetric: the search keeps the table and its transpose."""
    words = random_words(4, 2000, "abcdefgh")
    game = Game.of_words(words, words)
    assert not game.symmetric_scores and game.memory_estimate() >= 2 * 2000 * 2000
    with pytest.raises(TreegenError, match=r"2,000 codes and needs about 7\.8 MiB"):
        game.check_fits(available=6 << 20)  # one table fits, two do not
    game.check_fits(available=9 << 20)


@pytest.mark.parametrize("game", [Game.of_words(random_words(5, 200, "abcdef")[::3],
                                                random_words(5, 200, "abcdef")),
                                  Game.preset("mastermind")], ids=["words", "mastermind"])
def test_hard_mode_allows_exactly_the_guesses_that_fit_every_answer(game):
    from dataclasses import replace

    from treegen.rules.hard_mode import allowed_guesses
    hard = replace(game, hard=True)
    rng = random.Random(6)
    for _ in range(20):
        history, secret = [], game.code_strings[rng.randrange(game.size)]
        for _ in range(rng.randint(1, 3)):
            guess = rng.randrange(game.guess_count)
            answer = score(game.code_strings[guess], secret, game.rule)
            history.append((guess, game.feedback_texts.index(answer)))
        fits = [i for i, word in enumerate(game.code_strings)
                if all(score(game.code_strings[g], word, game.rule) == game.feedback_texts[f]
                       for g, f in history)]
        assert allowed_guesses(hard, tuple(history)).tolist() == fits


@pytest.mark.parametrize("strategy", ["minimax", "entropy", "parts"])
def test_hard_mode_books_keep_to_the_rule_and_verify(strategy, lists):
    from dataclasses import replace

    from treegen.api import build_book
    from treegen.book.replay import verify
    from treegen.rules.wordlists import read_words
    words = Game.of_words(read_words(str(lists / "answers.txt"), "answers"),
                          read_words(str(lists / "guesses.txt"), "guesses"))
    for game in (replace(words, hard=True), replace(Game.preset("mastermind"), hard=True)):
        book = build_book(game, strategy)
        assert book["game"]["hard"] is True and verify(book) == []
    relabelled = build_book(Game.preset("mastermind"), strategy)  # guesses 1344 after 1122=1A0B...
    relabelled["game"]["hard"] = True
    assert any(p.startswith("hard mode:") for p in verify(relabelled))


def test_hard_mode_from_the_command_line_and_its_limits(run, lists, tmp_path, plugin):
    out = tmp_path / "hard.json"
    result = run("build", "--answers", lists / "answers.txt", "--guesses", lists / "guesses.txt",
                 "--hard", "-s", "entropy", "-o", out)
    assert result.exit_code == 0 and "hard mode" in result.output
    assert run("verify", out).exit_code == 0 and json.loads(out.read_text())["game"]["hard"]
    for hard in ("--hard", "--no-hard"):  # the exact search plays it too, and it costs more
        assert run("build", "--answers", lists / "answers.txt", "--guesses", lists / "guesses.txt",
                   hard, "-s", "optimal", "-o", tmp_path / f"optimal{hard}.json").exit_code == 0
    hard_book, free_book = (json.loads((tmp_path / f"optimal{h}.json").read_text())
                            for h in ("--hard", "--no-hard"))
    assert run("verify", tmp_path / "optimal--hard.json").exit_code == 0 and hard_book["game"]["hard"]
    assert hard_book["stats"]["total"] >= free_book["stats"]["total"]
    module = plugin("""
        def stubborn(state):
            return 0 if not state.history else 1  # 1111, then 1112 whatever the answer
    """)
    from dataclasses import replace

    from treegen.api import build_book
    from treegen.errors import StrategyError
    with pytest.raises(StrategyError, match="1112, which hard mode does not allow after 1111="):
        build_book(replace(Game.preset("mastermind"), hard=True), f"{module}:stubborn")
