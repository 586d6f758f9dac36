"""The runtime player: plays books exactly, refuses bad answers without changing state, stands alone."""

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import treegen.player as player_module
from treegen import book as books
from treegen.book.replay import game_codes
from treegen.errors import CodeError
from treegen.player import ImpossibleAnswer, MalformedAnswer, NoSuchBranch, Player, PlayerError
from treegen.rules.game import Game

README = Path(__file__).resolve().parents[1] / "README.md"


def key(guess, secret):
    return "%dA%dB" % books.feedback(guess, secret)


def state(player):
    return player.guess, player.history, player.remaining(), player.solved


@pytest.mark.parametrize("fixture", ["mastermind_minimax", "bulls_simple"])
def test_every_secret_plays_to_the_books_totals(fixture, request):
    book = request.getfixturevalue(fixture)
    player = Player(book)
    depths = []
    visits = Counter()  # history -> secrets that pass through it, counted by actually playing them
    reported = {}  # history -> player.remaining() there
    for secret in game_codes(book["game"]):
        player.reset()
        moves = []
        while not player.solved:
            where = tuple(player.history)
            visits[where] += 1
            reported[where] = player.remaining()
            guess = player.guess
            answer = key(guess, secret)
            moves.append((guess, answer))
            following = player.answer(answer)
            assert following == player.guess
        assert player.guess is None and player.remaining() == 1
        assert player.history == moves and moves[-1][0] == secret
        depths.append(len(moves))
    assert sum(depths) == book["stats"]["total"]
    assert max(depths) == book["stats"]["max"]
    assert reported == dict(visits)


def test_answer_spellings_agree_with_the_game_parser(mastermind_minimax):
    player = Player(mastermind_minimax)
    game = Game.from_dict(mastermind_minimax["game"])
    texts = ["1A2B", "1a2b", " 1 A 2 B ", "12", "1 2", "1,2", "1;2", "1/2", "1-2", "0A0B", "04", "4A0B",
             "40", "3A1B", "31", "2A3B", "5A0B", "50", "123", "1A", "A1B2", "", "  ", "x", "1.2",
             "-1A0B", "1,-1", "0 0", "2  2"]
    for text in texts:
        try:
            expected = "%dA%dB" % game.parse_feedback(text)
        except CodeError:
            expected = None
        try:
            got = player.parse(text)
        except PlayerError:
            got = None
        assert got == expected, text
    assert player.parse((1, 2)) == "1A2B"


@pytest.mark.parametrize("text, error, words", [
    ("xyz", MalformedAnswer, "cannot read"),
    ("1A2", MalformedAnswer, "cannot read"),
    (None, MalformedAnswer, "cannot read"),
    ("3A1B", ImpossibleAnswer, "last symbol"),
    ("2A3B", ImpossibleAnswer, "exceeds the 4 positions"),
    ("5A0B", ImpossibleAnswer, "exceeds"),
    ("-1A0B", ImpossibleAnswer, "negative"),
])
def test_refused_answers_leave_the_state_alone(mastermind_minimax, text, error, words):
    player = Player(mastermind_minimax)
    player.answer(key(player.guess, "3456"))
    before = state(player)
    with pytest.raises(error, match=words) as caught:
        player.answer(text)
    assert isinstance(caught.value, PlayerError) and isinstance(caught.value, ValueError)
    assert state(player) == before


def test_answer_with_no_branch_is_impossible_at_this_point(mastermind_minimax):
    texts = Game.preset("mastermind").feedback_texts
    node, path = next((node, path) for node, path in _inner_nodes(mastermind_minimax["tree"])
                      if path and len(node["next"]) < len(texts) - 2)
    missing = [fb for fb in texts if fb not in node["next"] and fb not in ("4A0B", "3A1B")]
    player = Player(mastermind_minimax)
    for _, fb in path:
        player.answer(fb)
    before = state(player)
    spoken = player.rule.format  # Mastermind's answers are said as black and white pegs
    moves = ", ".join(f"{g}={spoken(fb)}" for g, fb in path)
    with pytest.raises(NoSuchBranch, match=f"impossible at this point.*after {moves}$"):
        player.answer(missing[0])
    assert state(player) == before


def _inner_nodes(tree):
    stack = [(tree, ())]
    while stack:
        node, path = stack.pop()
        if node["next"]:
            yield node, path
        for fb, child in node["next"].items():
            stack.append((child, (*path, (node["guess"], fb))))


def test_all_correct_ends_the_game_only_where_the_guess_can_be_the_secret(mastermind_minimax):
    found = {True: None, False: None}
    for node, path in _inner_nodes(mastermind_minimax["tree"]):
        possible = all(key(g, node["guess"]) == fb for g, fb in path)
        found[possible] = found[possible] or (node, path)
    assert found[True] and found[False]
    for possible, (node, path) in found.items():
        player = Player(mastermind_minimax)
        for _, fb in path:
            player.answer(fb)
        assert player.guess == node["guess"]
        before = state(player)
        if possible:
            assert player.answer("4A0B") is None and player.solved and player.guess is None
            assert player.history[-1] == (node["guess"], "4A0B")
            with pytest.raises(PlayerError, match="already solved"):
                player.answer("0A0B")
            assert player.undo() == node["guess"]
            assert state(player) == before
        else:
            with pytest.raises(NoSuchBranch, match=f"{node['guess']} cannot be the secret"):
                player.answer("4A0B")
            assert state(player) == before


def test_remaining_counts_the_secrets_still_possible(mastermind_minimax):
    codes = game_codes(mastermind_minimax["game"])
    player = Player(mastermind_minimax)
    assert player.remaining() == len(codes)
    secret = "6543"
    while not player.solved:
        fits = [c for c in codes if all(key(g, c) == fb for g, fb in player.history)]
        assert player.remaining() == len(fits)
        player.answer(key(player.guess, secret))


@pytest.mark.parametrize("symbols", ["123456", "DCBA", "\U0001F34E\U0001F34C\u00e9a"])
def test_possible_lists_the_secrets_still_possible_in_the_game_s_order(symbols):
    """Symbols in the text's order or not (``DCBA``, and ``é`` before a code point beyond the
    Basic Multilingual Plane): the game's order is its symbols' order."""
    from treegen.api import build_book
    book = build_book(Game(symbols, 3, True), "minimax")
    codes = game_codes(book["game"])
    player = Player(book)
    for secret in (codes[-1], codes[len(codes) // 3]):
        player.reset()
        while not player.solved:
            fits = [c for c in codes if all(key(g, c) == fb for g, fb in player.history)]
            assert player.possible() == fits and player.remaining() == len(fits)
            player.answer(key(player.guess, secret))
        assert player.possible() == [secret] and player.remaining() == 1


def test_undo_and_reset(bulls_simple):
    player = Player(bulls_simple)
    with pytest.raises(PlayerError, match="nothing to undo"):
        player.undo()
    start = state(player)
    player.answer(key(player.guess, "9876"))
    middle = state(player)
    player.answer(key(player.guess, "9876"))
    assert player.undo() == middle[0] and state(player) == middle
    assert player.undo() == start[0] and state(player) == start
    while not player.solved:
        player.answer(key(player.guess, "9876"))
    assert player.reset() == start[0] and state(player) == start


def test_from_file_and_bad_books(tmp_path, mastermind_minimax):
    path = tmp_path / "book.json"
    books.save(mastermind_minimax, path)
    assert Player.from_file(path).remaining() == 1296
    with pytest.raises(PlayerError, match="cannot read"):
        Player.from_file(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(PlayerError, match="is not valid JSON"):
        Player.from_file(tmp_path / "bad.json")
    game = mastermind_minimax["game"]
    whole = {k: v for k, v in mastermind_minimax.items() if k != "tree"}
    for bad, words in [({}, "not a treegen book"),
                       ({**whole, "game": {**game, "length": 0}, "tree": {}}, "length must be between"),
                       ({**whole, "tree": []}, "a node must be an object"),
                       ({**whole, "tree": {"guess": "12", "next": {}}}, "'12' is not a code"),
                       ({**whole, "tree": {"guess": "1122", "next": {"zz": {}}}}, "not a feedback"),
                       ({**whole, "tree": {"guess": "1122", "next": {"4A0B": {}}}},
                        "not a possible feedback")]:
        with pytest.raises(PlayerError, match=words):
            Player(bad)


def test_importing_the_player_imports_no_third_party_module():
    code = ("import sys, treegen.player; "
            "print(sorted({'numpy', 'click', 'networkx', 'graphviz'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_player_copied_alone_plays_with_the_standard_library_only(tmp_path, mastermind_minimax):
    shutil.copy(player_module.__file__, tmp_path / "player.py")
    books.save(mastermind_minimax, tmp_path / "book.json")
    (tmp_path / "game.py").write_text(
        "from player import Player, NoSuchBranch\n"
        "p = Player.from_file('book.json')\n"
        "secret = '6543'\n"
        "while not p.solved:\n"
        "    a = sum(x == y for x, y in zip(p.guess, secret))\n"
        "    c = sum(min(p.guess.count(s), secret.count(s)) for s in set(p.guess))\n"
        "    p.answer(f'{a}{c - a}')\n"
        "print(len(p.history), p.history[-1][0])\n")
    # -E: ignore PYTHON* variables; -s, -S: no site-packages, so nothing but the standard library
    out = subprocess.run([sys.executable, "-E", "-s", "-S", "game.py"], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    depth = 0
    node = mastermind_minimax["tree"]
    while True:
        depth += 1
        if node["guess"] == "6543":
            break
        node = node["next"][key(node["guess"], "6543")]
    assert out.stdout.split() == [str(depth), "6543"]


def test_readme_embed_example_runs_as_written(tmp_path, mastermind_minimax):
    text = README.read_text(encoding="utf-8")
    section = text.split("## Embedding a book", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    name = re.search(r'Player\.from_file\("([^"]+)"\)', code).group(1)
    books.save(mastermind_minimax, tmp_path / name)
    (tmp_path / "example.py").write_text(code)
    out = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert re.search(r"solved in \d+ guesses", out.stdout)


def test_loading_a_book_does_not_recurse():
    """A degenerate chain deeper than the recursion limit still loads (the walk is iterative)."""
    game = {"name": "custom", "symbols": "01", "length": 2, "repetition": True}
    leaf = {"guess": "11", "next": {}}
    node = leaf
    for _ in range(sys.getrecursionlimit() + 100):
        node = {"guess": "00", "next": {"0A0B": node}}
    player = Player(books.make_book(game, {"name": "chain", "pool": "all", "first": "00"}, node,
                                    [2, 2]))
    assert player.remaining() == 2 and player.guess == "00"  # the root guess and the leaf
