"""`treegen next` and `treegen.advise`: the next guess of a game in progress, its candidates
checked by a plain filter, its guesses against the books' own and the exact search's."""

import dataclasses
import glob
import json
import os
import random

import pytest

import treegen
from tests.helpers.positions import positions
from treegen.errors import BookError, CodeError, GameError, StrategyError
from treegen.player import score
from treegen.rules.game import Game
from treegen.sessions.advice import BEST_HEURISTIC, advise, exact_from

BOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "books")


def _plain(game, moves):
    """The codes that give every answer, by the standalone player's scorer alone."""
    codes = game.answers if game.answers is not None else game.code_strings
    return [c for c in codes if all(score(g, c, game.rule) == a for g, a in moves)]


def _heuristic_books():
    for path in sorted(glob.glob(os.path.join(BOOKS, "*.json"))):
        with open(path) as fh:
            data = json.load(fh)
        if isinstance(data, dict) and "tree" in data and data["strategy"]["name"] != "optimal" \
                and "grafted" not in data["strategy"]:  # a graft plays its records' trees
            yield path, data


def test_knuths_reply_to_1a0b_is_1344():
    advice = advise("mastermind", "1122=1A0B", strategy="minimax")
    assert advice.guess == "1344" and advice.source == "minimax"
    assert len(advice.candidates) == 256 and max(advice.partition.values()) == 44
    assert sum(advice.partition.values()) == 256


@pytest.mark.parametrize("name, moves", [
    ("mastermind", [("1122", "1A0B"), ("1344", "BW")]),
    ("bulls-and-cows", [("0123", "0A2B"), ("1045", "1,1")]),
    ("muertos-y-heridos", [("0012", "1A1B")]),
    ("wordle", [("CRANE", "..y.."), ("moist", ".G...")]),
])
def test_candidates_are_the_plain_filter_s(name, moves):
    game = Game.preset(name)
    advice = advise(game, moves)
    written = [(g.lower(), game.parse_answer(a)) for g, a in moves]
    assert list(advice.moves) == written
    assert list(advice.candidates) == _plain(game, written)
    assert sum(advice.partition.values()) == len(advice.candidates)


@pytest.mark.parametrize("path, book", list(_heuristic_books()),
                         ids=lambda x: os.path.basename(x) if isinstance(x, str) else "")
def test_the_live_heuristic_is_the_book_s_move_on_its_paths(path, book):
    """Random positions on each heuristic book's paths, past its first guess: the strategy asked
    live agrees (benchmarks/next_agreement.py takes 200 of every book, from the first)."""
    game, strategy = Game.from_dict(book["game"]), book["strategy"]
    count = 30 if game.listed or game.size >= 10_000 else 100
    for moves, guess in positions(book, random.Random(path), count, first=1):
        if game.guess_limit is not None and len(moves) >= game.guess_limit:
            with pytest.raises(CodeError, match="the game is lost"):  # the book plays on
                advise(game, moves, book=book)
            continue
        advice = advise(game, moves, strategy=strategy["name"], pool=strategy["pool"],
                        seed=strategy.get("seed"))
        assert advice.guess == guess, moves
        assert advise(game, moves, book=book).source in ("book",)


@pytest.mark.parametrize("name", ["mastermind-optimal-all", "mastermind-hard-optimal-all",
                                  "custom-12345-4-rep-optimal-all", "wordle-optimal-all",
                                  "custom-123456-3-rep-optimal-all"])
def test_the_exact_optimum_from_here_is_the_optimal_book_s(name):
    """On an optimal book's paths, from positions the default solves exactly: the same guess, and
    the same total as the book's subtree."""
    with open(os.path.join(BOOKS, f"{name}.json")) as fh:
        book = json.load(fh)
    game = Game.from_dict(book["game"])
    checked = 0
    for moves, guess in positions(book, random.Random(name), 1000):
        if checked == 25:
            break
        node = book["tree"]
        for _, a in moves:
            node = node["next"][a]
        secrets = _plain(game, moves)
        if not 1 < len(secrets) <= exact_from(game):
            continue
        advice = advise(game, moves, max_depth=book["strategy"]["max_depth"], installed=False)
        assert advice.source == "optimal" and advice.guess == guess, moves
        assert advice.total == _subtree_total(node, game, moves)
        checked += 1
    assert checked == 25


def _subtree_total(node, game, moves):
    """Guesses the book spends from ``node`` on every secret that reaches it."""
    total = 0
    for secret in _plain(game, moves):
        at, spent = node, 0
        while True:
            spent += 1
            answer = score(at["guess"], secret, game.rule)
            if at["guess"] == secret:
                break
            at = at["next"][answer]
        total += spent
    return total


def test_the_default_heuristic_is_the_one_whose_book_is_best():
    for name, chosen in BEST_HEURISTIC.items():
        totals = {}
        for heuristic in ("minimax", "expected", "entropy", "parts"):
            with open(os.path.join(BOOKS, f"{name}-{heuristic}-all.json")) as fh:
                totals[heuristic] = json.load(fh)["stats"]["total"]
        assert min(totals, key=totals.get) == chosen, totals


def test_book_moves_then_live_when_the_moves_leave_its_path():
    path = os.path.join(BOOKS, "wordle-entropy-all.json")
    on = advise(book=path, moves="soare=..Y..")
    assert on.source == "book"
    off = advise(book=path, moves="crane=..Y..", exact_below=50)
    assert off.source == BEST_HEURISTIC["wordle"] and "left the book" in off.note
    assert treegen.advise(book=treegen.load(path)).guess == "soare"


def test_hard_mode_and_the_guess_limit():
    hard = dataclasses.replace(Game.preset("wordle"), hard="strict")
    with pytest.raises(CodeError, match="hard mode: guess 2"):
        advise(hard, "crane=..Y..,moist=.G...")
    advice = advise(hard, "crane=..Y..", strategy="entropy")
    assert score("crane", advice.guess, "wordle") == "..Y.."  # a guess hard mode allows
    played = [(w, score(w, "cigar", "wordle"))
              for w in ("crane", "moist", "lobby", "fjord", "vibex", "waltz")]
    assert len(advise("wordle", played[:5]).candidates) >= 1
    with pytest.raises(CodeError, match="the game is lost: wordle allows 6 guesses"):
        advise("wordle", played)


def test_past_the_last_guess_the_game_is_lost_and_says_its_secret():
    """Six Wordle guesses that leave one word: no seventh guess is offered, the game is lost and
    the word it was is named; the API and the command agree."""
    played = [(w, score(w, "jazzy", "wordle"))
              for w in ("crane", "moist", "lobby", "fjord", "vibex", "gulch")]
    left = advise("wordle", played[:5]).candidates
    assert advise("wordle", played[:5]).source != "lost" and len(left) >= 1
    with pytest.raises(CodeError, match=r"the game is lost.*\(the secret was jazzy\)"):
        advise("wordle", played)


@pytest.mark.parametrize("call, error, words", [
    (lambda: advise("mastermind", "1122=4A0B"), CodeError, "game is over"),
    (lambda: advise("mastermind", "1122=3A1B"), CodeError, "impossible"),
    (lambda: advise("mastermind", "1122=0A0B,3456=0A0B"), CodeError, "mistyped"),
    (lambda: advise("mastermind", [("1122",)]), CodeError, "pairs"),
    (lambda: advise("mastermind", strategy="nope"), StrategyError, "nope"),
    (lambda: advise(), GameError, "a game or a book"),
    (lambda: advise(3), GameError, "preset"),
    (lambda: advise("bulls-and-cows", book=os.path.join(BOOKS, "mastermind-minimax-all.json")),
     GameError, "another game"),
    (lambda: advise("mastermind", "1122=1A0B", book=BOOKS), BookError, "not a regular file"),
])
def test_misuse_is_one_treegen_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_cli_next(run):
    out = run("next", "--game", "mastermind", "--after", "1122=1A0B", "-s", "minimax").output
    assert "next guess: 1344" in out and "256 secrets still possible" in out
    assert "... and 196 more" in out
    every = run("next", "--game", "mastermind", "--after", "1122=1A0B", "-s", "minimax", "--all")
    last = advise("mastermind", "1122=1A0B").candidates[-1]
    assert "more (--all" not in every.output and last in every.output.split()
    data = json.loads(run("next", "--game", "wordle", "--after", "CRANE=..Y..,moist=.G...",
                          "--json").output)
    assert data["guess"] == "loyal" and data["source"] == "optimal" and data["total"] == 5
    assert data["candidates"] == ["loyal", "polka", "vodka"]
    book = os.path.join(BOOKS, "wordle-optimal-all.json")
    assert "the book's move" in run("next", "--book", book, "--after", "salet=..Y..").output
    bad = run("next", "--game", "mastermind", "--after", "1122=9A")
    assert bad.exit_code == 1 and "Error:" in bad.output and "Traceback" not in bad.output


def _pegs(answer):
    """A canonical key (1A2B) as Mastermind's black and white pegs (BWW), counted here."""
    black, white = answer.removesuffix("B").split("A")
    return "B" * int(black) + "W" * int(white) or "none"


@pytest.mark.parametrize("name, after, write", [
    ("mastermind", "1122=BW", _pegs), ("mastermind", "1122=1A1B", _pegs),
    ("bulls-and-cows", "0123=1A1B", str)])
def test_next_shows_answers_in_the_game_s_notation(run, name, after, write):
    """Mastermind's advice speaks black and white pegs (moves and the partition table), Bulls and
    Cows' aAbB, whichever spelling the moves were typed in; --json keeps the books' keys."""
    from treegen.sessions.advice import format_advice
    game = Game.preset(name)
    advice = advise(game, after)
    assert advice.moves[0][1] == "1A1B"  # canonical, as books key it
    text = format_advice(game, advice)
    assert f"after {after.split('=')[0]}={write('1A1B')}:" in text
    table = text.split(" splits them ")[1].split("still possible:")[0].splitlines()[1:]
    rows = [line.split()[:2] for line in table]
    assert rows and rows == [[write(key), str(size)] for key, size in advice.partition.items()]
    shown = run("next", "--game", name.upper(), "--after", after, "--strategy", "Minimax",
                "--no-book")
    assert shown.exit_code == 0, shown.output
    assert f"={write('1A1B')}:" in shown.output
    data = json.loads(run("next", "--game", name, "--after", after, "--json").output)
    assert data["moves"][0][1] == "1A1B" and all(key.endswith("B") for key in data["partition"])
