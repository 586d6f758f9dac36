"""`treegen play`: terminal sessions end to end, automatic play of a secret, and the diagnosis of a
contradictory history, all checked against the plain scorer."""

import copy
import json
import re

import pytest

from treegen import book as books
from treegen.api import build_book
from treegen.book.replay import game_codes
from treegen.player import Player
from treegen.registry import BUILTIN
from treegen.rules.game import Game
from treegen.sessions.play import autoplay, diagnose, explain

PROMPT = re.compile(r"^(\d+)\. (\S+)  your answer: (.*)$", re.M)


def key(guess, secret):
    return "%dA%dB" % books.feedback(guess, secret)


def pegs(answer):
    """A canonical key (1A2B) as Mastermind's black and white pegs (BWW), counted here."""
    black, white = (int(n) for n in re.match(r"(\d+)A(\d+)B$", answer).groups())
    return "B" * black + "W" * white or "none"


def path_of(book, secret):
    """The (guess, feedback) moves the book makes against ``secret``, found by walking the tree."""
    node, moves = book["tree"], []
    while True:
        fb = key(node["guess"], secret)
        moves.append((node["guess"], fb))
        if node["guess"] == secret:
            return moves
        node = node["next"][fb]


def fitting(codes, history):
    return [c for c in codes if all(key(g, c) == fb for g, fb in history)]


@pytest.fixture
def mm_file(tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    return "mm.json"


def _node_with_a_missing_branch(book):
    """An inner node below the root where some feedback valid for the game has no branch, its path."""
    texts = [t for t in Game.from_dict(book["game"]).feedback_texts if t not in ("4A0B", "3A1B")]
    stack = [(book["tree"], ())]
    while stack:
        node, path = stack.pop()
        missing = [t for t in texts if t not in node["next"]]
        if path and node["next"] and missing:
            return node, path, missing
        stack.extend((child, (*path, (node["guess"], fb))) for fb, child in node["next"].items())
    raise AssertionError("no such node")


def test_session_with_undo_bad_answers_remaining_and_quit(run, mm_file, mastermind_minimax):
    node, path, missing = _node_with_a_missing_branch(mastermind_minimax)
    lines = ["hello", "3A1B", *[fb for _, fb in path], "?", missing[0], "undo", path[-1][1], "quit"]
    result = run("play", mm_file, input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "cannot read answer 'hello'" in out
    assert "answer '3A1B' is impossible: with 3 in place the last symbol cannot be elsewhere" in out
    codes = game_codes(mastermind_minimax["game"])
    assert f"   {len(fitting(codes, path))} secrets are still possible:" in out
    assert f"answer {pegs(missing[0])} to {node['guess']} is impossible at this point" in out
    assert re.search(r"probably wrong|check this answer|more than one answer", out)
    prompts = PROMPT.findall(out)
    guesses = [g for g, _ in path] + [node["guess"]]
    # prompts: the first guess for the two refused answers, the path, the node for ?, the
    # impossible answer and undo, the previous guess again, the node for quit
    expected = [guesses[0]] * 2 + guesses + [node["guess"]] * 2 + [guesses[-2], node["guess"]]
    assert [g for _, g, _ in prompts] == expected
    assert [n for n, _, _ in prompts][-3:] == [str(len(path) + 1), str(len(path)), str(len(path) + 1)]
    assert out.rstrip().endswith(
        f"bye: {len(fitting(codes, path))} secrets were still possible")


def test_session_solves_with_any_spelling(run, mm_file, mastermind_minimax):
    moves = path_of(mastermind_minimax, "6543")
    spellings = [lambda fb: fb, lambda fb: fb[0] + fb[2], lambda fb: f"{fb[0]} {fb[2]}",
                 lambda fb: f"{fb[0]},{fb[2]}", lambda fb: fb.lower()]
    answers = [spellings[i % len(spellings)](fb) for i, (_, fb) in enumerate(moves)]
    result = run("play", mm_file, input="\n".join(["help", "", *answers]) + "\n")
    assert result.exit_code == 0, result.output
    assert [g for _, g, _ in PROMPT.findall(result.output)] == \
        [moves[0][0]] * 3 + [g for g, _ in moves[1:]]
    assert "restart" in result.output and "undo" in result.output  # the help
    assert result.output.rstrip().endswith(f"solved in {len(moves)} guesses: your secret is 6543")


def test_end_of_input_quits(run, mm_file):
    result = run("play", mm_file, input="0A0B\n")
    assert result.exit_code == 0
    assert "bye: 256 secrets were still possible" in result.output


def test_secret_transcript_and_json(run, mm_file, mastermind_minimax):
    codes = game_codes(mastermind_minimax["game"])
    for secret in ("1111", "3456", "6543"):
        moves = path_of(mastermind_minimax, secret)
        result = run("play", mm_file, "--secret", secret)
        assert result.exit_code == 0, result.output
        rows = re.findall(r"^\d+\. (\S+)  (\S+)\s+(\d+) possible$", result.output, re.M)
        assert [(g, fb) for g, fb, _ in rows] == [(g, pegs(fb)) for g, fb in moves]  # Mastermind's
        assert [int(n) for _, _, n in rows] == [len(fitting(codes, moves[:i])) for i in range(len(moves))]
        assert f"solved in {len(moves)} guess" in result.output
        data = json.loads(run("play", mm_file, "--secret", secret, "--json").output)
        assert data["secret"] == secret and data["guesses"] == len(moves)
        assert [(m["guess"], m["feedback"]) for m in data["moves"]] == moves


@pytest.mark.parametrize("game", [Game("ABCD", 3, True), Game("ABCDE", 3, False),
                                  Game("A", 1, True)])
@pytest.mark.parametrize("strategy", sorted(set(BUILTIN) - {"optimal"}))
def test_every_built_book_plays_every_secret(game, strategy):
    book = build_book(game, strategy)
    player = Player(book)
    depths = [len(autoplay(player, secret)) for secret in game_codes(book["game"])]
    assert sum(depths) == book["stats"]["total"] and max(depths) == book["stats"]["max"]


def test_play_a_book_written_by_build(run):
    built = run("build", "--symbols", "ABCD", "--length", "3", "--strategy", "entropy", "-o", "b.json")
    assert built.exit_code == 0, built.output
    result = run("play", "b.json", "--secret", "DCA")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().splitlines()[-2].split()[1:3] == ["DCA", "3A0B"]


def _brute_suspect(codes, history):
    """The earliest answer whose removal lets a secret fit, and what those secrets would answer."""
    for j, (guess, _) in enumerate(history):
        rest = fitting(codes, history[:j] + history[j + 1:])
        if rest:
            return j, sorted({key(guess, c) for c in rest})
    return None, []


def test_diagnose_points_at_the_earliest_answer_that_can_be_changed(mastermind_minimax):
    codes = game_codes(mastermind_minimax["game"])
    texts = [t for t in Game.preset("mastermind").feedback_texts if t not in ("4A0B", "3A1B")]
    checked = 0
    for secret in ("3456", "6543", "2211", "5552"):
        moves = path_of(mastermind_minimax, secret)[:-1]
        for wrong in range(len(moves)):
            for fb in texts:
                history = list(moves)
                history[wrong] = (moves[wrong][0], fb)
                if fb == moves[wrong][1] or fitting(codes, history):
                    continue
                result = diagnose(mastermind_minimax["game"], history)
                index, options = _brute_suspect(codes, history)
                assert (result.fits, result.suspect, result.options) == ([], index, options)
                assert result.suspect <= wrong
                if result.suspect == wrong:
                    assert moves[wrong][1] in result.options
                checked += 1
    assert checked > 20


def test_diagnose_words():
    game = {"name": "mastermind", "symbols": "123456", "length": 4, "repetition": True}
    fine = [("1122", "1A0B")]
    assert diagnose(game, fine).fits == fitting(game_codes(game), fine)
    assert "does not cover secret" in explain(diagnose(game, fine), fine)
    hopeless = [("1111", "4A0B"), ("2222", "4A0B"), ("3333", "4A0B")]
    result = diagnose(game, hopeless)
    assert result.suspect is None and "more than one answer" in explain(result, hopeless)
    last = [("1111", "0A0B"), ("2222", "0A0B"), ("3456", "1A0B"), ("3456", "4A0B")]
    assert diagnose(game, last).suspect == 2
    assert "answer 1A0B to guess 3 (3456) is probably wrong" in explain(diagnose(game, last), last)
    only_last = [("1111", "1A0B"), ("1111", "1A0B"), ("1111", "2A0B")]
    assert explain(diagnose(game, only_last), only_last) == \
        "check this answer: 1A0B would fit your earlier answers"


def test_incomplete_book(run, mastermind_minimax):
    book = copy.deepcopy(mastermind_minimax)
    del book["tree"]["next"]["0A0B"]  # still well-formed, but 256 secrets are missing
    books.save(book, "partial.json")
    result = run("play", "partial.json", "--secret", "3456")
    assert result.exit_code == 1
    assert result.output.strip() == \
        "Error: the book has no branch for secret 3456: 1122 scores 0A0B after no answers"
    session = run("play", "partial.json", input="0A0B\nquit\n")
    assert session.exit_code == 0
    assert "the book does not cover secret 3333, which gives all these answers" in session.output


@pytest.mark.parametrize("args, code, message", [
    (["missing.json"], 1, "Error: cannot read missing.json"),
    (["notjson.json"], 1, "Error: notjson.json is not valid JSON"),
    (["other.json"], 1, "not a treegen book"),
    (["mm.json", "--secret", "12"], 1, "Error: code '12' has 2 symbols; mastermind codes have 4"),
    (["mm.json", "--secret", "1237"], 1, "uses '7', which is not one of the symbols 123456"),
    (["mm.json", "--json"], 2, "--json needs --secret"),
])
def test_bad_input(run, mm_file, args, code, message):
    with open("notjson.json", "w") as fh:
        fh.write('{"format": "treegen-book", ')
    with open("other.json", "w") as fh:
        fh.write('{"hello": 1}')
    result = run("play", *args)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name, write", [("mastermind", pegs), ("MASTERMIND", pegs),
                                         ("bulls-and-cows", str), ("Muertos-y-Heridos", str)])
def test_the_installed_book_plays_a_secret_in_the_game_s_notation(run, name, write):
    """``play --game`` with no book plays the installed one; Mastermind's answers are black and
    white pegs, Bulls and Cows' and Muertos y Heridos' aAbB; the game's name in any case."""
    secret = "3456"
    result = run("play", "--game", name, "--secret", secret)
    assert result.exit_code == 0, result.output
    rows = re.findall(r"^\d+\. (\S+)  (\S+)\s+(\d+) possible$", result.output, re.M)
    assert rows and rows[-1][0] == secret
    assert [answer for _, answer, _ in rows] == [write(key(guess, secret)) for guess, _, _ in rows]


def test_mastermind_players_are_told_to_answer_in_pegs_and_are_read_so(run, mm_file,
                                                                       mastermind_minimax):
    """The session says how to answer in pegs; ``2B`` is two black pegs, ``-`` none at all."""
    first = mastermind_minimax["tree"]["guess"]
    result = run("play", mm_file, input="x\n")
    assert ("Answer each guess with black and white pegs: B for each right colour in place, W for "
            "each right colour elsewhere (BBW, 2B1W; - or none for no pegs).") in result.output
    assert "write BWW, 2B1W, 1A2B, 12, '1 2', or - for none" in result.output
    for typed, answer in [("2B", "2A0B"), ("-", "0A0B"), ("none", "0A0B"), ("0", "0A0B"),
                          ("b w", "1A1B")]:
        result = run("play", mm_file, input=f"{typed}\nquit\n")
        after = mastermind_minimax["tree"]["next"].get(answer)
        prompts = [g for _, g, _ in PROMPT.findall(result.output)]
        assert prompts == [first, after["guess"]] if after else prompts == [first], typed


def test_bulls_and_cows_players_answer_in_a_and_b(run, tmp_path, bulls_simple):
    """Bulls and Cows speaks aAbB: told so, shown so, and a count of B alone is refused naming
    both readings."""
    books.save(bulls_simple, tmp_path / "bc.json")
    result = run("play", "bc.json", input="2B\n-\nquit\n")
    assert "Answer each guess with aAbB" in result.output
    assert "answer '2B' is ambiguous: write 0A2B for 2 symbols elsewhere, or 2A0B for 2 in place" \
        in result.output
    after = bulls_simple["tree"]["next"]["0A0B"]["guess"]
    assert [g for _, g, _ in PROMPT.findall(result.output)][-1] == after  # "-": nothing in common
    shown = run("play", "bc.json", "--secret", "3456").output
    assert re.search(r"^1\. \S+  [0-4]A[0-4]B ", shown, re.M)
