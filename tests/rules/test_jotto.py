"""Jotto, the rule added as one entry of the table: the answer is the number of letters a guess
shares with the secret, counted with repeats, and only the secret itself wins. Its books are
checked by the reference solver's scorer, written by hand and sharing nothing with treegen's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.reference_solver import jotto as shared_letters
from treegen.api import build_book
from treegen.player import Player, score
from treegen.rules.game import Game
from treegen.sessions.advice import advise

BOOKS = Path(__file__).resolve().parents[2] / "books"


def played_total(tree: dict, secrets: list[str]) -> tuple[int, int]:
    """Every secret played through a tree with the reference's scorer: the guesses in all and
    the most any secret needs."""
    total = most = 0
    for secret in secrets:
        node, depth = tree, 1
        while node["guess"] != secret:
            node = node["next"][shared_letters(node["guess"], secret)]
            depth += 1
        total, most = total + depth, max(most, depth)
    return total, most


def test_the_rule_scores_as_jotto_is_played():
    assert score("crane", "cigar", "jotto") == "3"  # c, a, r
    assert score("cigar", "crane", "jotto") == "3"
    assert score("llama", "hello", "jotto") == "2"  # two l's in each
    assert score("canoe", "ocean", "jotto") == "5"  # an anagram is not the word
    assert score("ocean", "ocean", "jotto") == "win"
    for guess, secret in [("abbey", "babes"), ("geese", "eerie"), ("xylyl", "lolly")]:
        assert score(guess, secret, "jotto") == shared_letters(guess, secret)


@pytest.mark.parametrize("name", ["jotto-minimax-all", "jotto-entropy-all", "jotto-simple-consistent"])
def test_the_library_s_jotto_books_total_as_a_hand_scorer_plays_them(name):
    """Held out: the totals of the library's books replayed by the scorer above."""
    book = json.loads((BOOKS / f"{name}.json").read_text())
    game = Game.from_dict(book["game"])
    total, most = played_total(book["tree"], list(game.code_strings[:game.size]))
    assert (total, most) == (book["stats"]["total"], book["stats"]["max"])


def test_every_strategy_and_the_exact_search_on_a_small_jotto_game():
    """Codes answered with the total of their pegs: each strategy's book plays every secret to
    the end by the hand scorer, and the exact search's total is the least of them."""
    game = Game("1234", 3, True, rule="jotto")
    totals = {}
    for strategy in ("simple", "minimax", "expected", "entropy", "parts", "optimal"):
        book = build_book(game, strategy)
        totals[strategy] = played_total(book["tree"], game.code_strings)[0]
        assert totals[strategy] == book["stats"]["total"], strategy
    assert totals["optimal"] == min(totals.values())


def test_play_and_next_speak_jotto():
    book = build_book(Game("1234", 3, True, rule="jotto"), "minimax")
    player = Player(book)
    while not player.solved:
        player.answer(shared_letters(player.guess, "321"))
    advice = advise("jotto", "stare=2,could=none")
    assert advice.moves == (("stare", "2"), ("could", "0"))
    assert all(shared_letters("stare", word) == "2" and shared_letters("could", word) == "0"
               for word in advice.candidates)


def test_the_command_line_builds_and_plays_the_preset(run):
    listed = run("games").output
    assert "jotto" in listed
    made = run("build", "--answers", str(_words(run)), "--rule", "jotto", "-s", "entropy",
               "-o", "j.json")
    assert made.exit_code == 0, made.output
    assert run("verify", "j.json").exit_code == 0
    played = run("play", "j.json", "--secret", "cigar")
    assert played.exit_code == 0 and "win" in played.output


def _words(run) -> Path:
    path = Path("words.txt")
    path.write_text("\n".join(["cigar", "crane", "rebut", "sissy", "humph", "awake", "blush",
                               "focal", "evade", "naval", "serve", "heath"]) + "\n")
    return path.resolve()
