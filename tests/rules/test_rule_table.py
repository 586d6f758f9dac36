"""Every rule of feedback in the player's table (``treegen.player.RULES``) is scored alike by every
runtime that plays or proves a game: the Python player, the score table, the compiled scorer over
the codes, the site's JavaScript (its table of rules and the live scorer), the C header's answer
call and the certificate checker. A rule one of them lacks fails here, naming that runtime."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.ci import requires_binary
from treegen.api import build_book
from treegen.book.replay import game_codes
from treegen.player import HARD_MODES, RULES, Player
from treegen.rules.game import Game
from treegen.views.c_header import header_text

WEB = resources.files("treegen.views").joinpath("web")
STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"]
PAIRS = 400
#: The shapes of the small games every rule is tried on: a code of one symbol too.
SHAPES = [("ABCD", 3, True), ("ABCDE", 1, True), ("ABCDEF", 4, False)]

NODE = """
const t = Object.assign({}, require(process.argv[2] + "/player.js"), require(process.argv[2] + "/live.js"));
const input = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const rule = t.RULES && t.RULES[input.rule];
if (!rule) {
  process.stdout.write(JSON.stringify({missing: true}));
} else {
  const out = {data: {example: rule.example, how: rule.how, short: rule.short, also: rule.also,
                      tiles: rule.tiles, kernel: rule.kernel}, lengths: {}, games: []};
  for (let n = 1; n <= 5; n++) {
    out.lengths[n] = [rule.indexed(n), t.ruleKeys(rule, n), rule.solved(n)];
  }
  for (const [game, pairs] of input.games) {
    const m = t.model(game);
    out.games.push(pairs.map(([g, s]) => [rule.score(g, s), t.score(g, s, input.rule),
                                          m.keys[m.fb(m.index.get(g), m.index.get(s))]]));
  }
  process.stdout.write(JSON.stringify(out));
}
"""

#: The C header's answer call of each rule, from the answer's canonical text ``key``: the test's
#: own reading of each rule's call (``c/answer_RULE.h.in``).
C_CALLS = {
    "pegs": 'sscanf(key, "%dA%dB", &a, &b) == 2 ? tg_answer(&game, a, b) : -9',
    "black": 'sscanf(key, "%dA", &a) == 1 ? tg_answer(&game, a) : -9',
    "wordle": "tg_answer(&game, key)",
    "jotto": 'strcmp(key, "win") == 0 ? tg_answer(&game, TG_WIN) : tg_answer(&game, atoi(key))',
}

#: Reads "s" (start again, silently) and "k KEY" (answer KEY), printing after each answer the
#: code returned and the guess then ("-" once solved).
C_DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "book.h"

int main(void)
{
    char line[256], key[64], text[TG_TEXT_SIZE];
    int a = 0, b = 0, code;
    tg_game game;
    tg_start(&game);
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "k %63s", key) == 1) {
            code = CALL;
            printf("%d %s\n", code, tg_guess(&game, text) ? text : "-");
        } else {
            tg_start(&game);
        }
    }
    (void)a;
    (void)b;
    return 0;
}
"""


def games_of(name: str) -> list[Game]:
    rule = RULES[name]
    return [Game(symbols, length, repetition, rule=name) for symbols, length, repetition in SHAPES
            if length <= rule.most_length]


def random_pairs(game: Game, rng: random.Random) -> list[tuple[str, str]]:
    """Random (guess, secret) pairs, a guess against itself and its anagrams among them."""
    codes = game.code_strings
    pairs = [(rng.choice(codes), rng.choice(codes)) for _ in range(PAIRS)]
    for code in rng.sample(codes, min(len(codes), 20)):
        pairs.append((code, code))
        shuffled = "".join(rng.sample(code, len(code)))
        if shuffled in game.code_strings:
            pairs.append((code, shuffled))
    return pairs


@contextmanager
def runtime(where: str, name: str) -> Iterator[None]:
    """A failure naming the runtime that cannot score the rule, whatever it raises."""
    try:
        yield
    except Exception as exc:
        pytest.fail(f"{where} lacks rule {name!r}: {type(exc).__name__}: {exc}")


def python_scores(name: str, pairs: list[tuple[str, str]]) -> list[str]:
    with runtime("the Python player (Rule.score)", name):
        return [RULES[name].score(g, s) for g, s in pairs]


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_table_scorer_and_the_code_scorer_score_as_the_rule(name):
    from treegen.rules.scoring import CodeScorer, score_table
    rng = random.Random(name)
    for game in games_of(name):
        pairs = random_pairs(game, rng)
        expected = python_scores(name, pairs)
        guesses = np.array([game.index(g) for g, _ in pairs])
        secrets = np.array([game.index(s) for _, s in pairs])
        with runtime("the score table (treegen.rules.scoring.score_table)", name):
            table = score_table(game)
        texts = game.feedback_texts
        assert [texts[i] for i in table[guesses, secrets]] == expected, \
            f"the score table scores rule {name!r} otherwise on {game.slug}"
        with runtime("the compiled code scorer (treegen.rules.scoring.CodeScorer)", name):
            block = CodeScorer(game).block(guesses, secrets)
        assert [texts[i] for i in np.diagonal(block)] == expected, \
            f"the compiled code scorer scores rule {name!r} otherwise on {game.slug}"


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_certificate_checker_scores_as_the_rule(name):
    from treegen.certificate.rules import Rules
    rng = random.Random(name)
    for game in games_of(name):
        pairs = random_pairs(game, rng)
        expected = python_scores(name, pairs)
        with runtime("the certificate checker (treegen.certificate.rules)", name):
            checker = Rules(dict(game.to_dict()))
        for table in (checker.table, None):  # its whole table, and scored from the codes
            checker.table = table
            guesses = np.array([checker.number(g) for g, _ in pairs])
            secrets = np.array([checker.number(s) for _, s in pairs])
            got = [checker.answers[i] for i in checker.pairs(guesses, secrets).tolist()]
            assert got == expected, f"the certificate checker scores rule {name!r} otherwise"
        assert checker.answers == game.feedback_texts, \
            f"the certificate checker numbers rule {name!r}'s answers otherwise"


@requires_binary("node")
@pytest.mark.parametrize("name", sorted(RULES))
def test_the_javascript_table_holds_the_rule_and_scores_as_it(name, tmp_path):
    rule, rng = RULES[name], random.Random(name)
    games = [(game, random_pairs(game, rng)) for game in games_of(name)]
    data = {"rule": name, "games": [[dict(game.to_dict()), pairs] for game, pairs in games]}
    (tmp_path / "input.json").write_text(json.dumps(data))
    (tmp_path / "rules.js").write_text(NODE)
    done = subprocess.run(["node", str(tmp_path / "rules.js"), str(WEB), str(tmp_path / "input.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"the JavaScript table (player.js RULES) fails on rule {name!r}: " \
        + done.stderr[-2000:]
    js = json.loads(done.stdout)
    assert not js.get("missing"), f"the JavaScript table (player.js RULES) lacks rule {name!r}"
    assert js["data"] == {"example": rule.example, "how": rule.how, "short": rule.short,
                          "also": rule.also, "tiles": rule.tiles, "kernel": rule.kernel}, \
        f"the JavaScript table describes rule {name!r} otherwise"
    for n in range(1, min(5, rule.most_length) + 1):
        assert js["lengths"][str(n)] == [rule.indexed(n), rule.keys(n), rule.solved(n)], \
            f"the JavaScript table orders rule {name!r}'s answers otherwise at length {n}"
    for (game, pairs), scored in zip(games, js["games"]):
        expected = python_scores(name, pairs)
        for where, got in zip(("the JavaScript table's score", "the JavaScript score()",
                               "the JavaScript live scorer (live.js)"), zip(*scored)):
            assert list(got) == expected, f"{where} scores rule {name!r} otherwise on {game.slug}"


@requires_binary("cc")
@pytest.mark.parametrize("name", sorted(RULES))
def test_the_c_header_answers_every_secret_s_answers_as_the_python_player(name, tmp_path):
    """The header's answer call, given the rule's answer of each guess to random secrets, follows
    the branches the Python player follows, to the same win."""
    rng = random.Random(name)
    for game in games_of(name):
        book = build_book(game, "minimax")
        with runtime("the C header (treegen/views/c/answer_RULE.h.in)", name):
            header = header_text(book)
        if name not in C_CALLS:
            pytest.fail(f"the C header answers rule {name!r}, but this test knows no call of it "
                        "(C_CALLS)")
        program = compile_driver(tmp_path, header, C_CALLS[name])
        player, commands, expected = Player(book), [], []
        secrets = game_codes(book["game"])
        for secret in rng.sample(secrets, min(len(secrets), 60)):
            player.reset()
            commands.append("s")
            while not player.solved:
                key = player.rule.score(player.guess, secret)
                player.answer(key)
                commands.append(f"k {key}")
                expected.append(f"{0 if player.guess else 1} {player.guess or '-'}")
        done = subprocess.run([str(program)], input="".join(f"{c}\n" for c in commands),
                              capture_output=True, text=True, timeout=60, check=True)
        assert done.stdout.splitlines() == expected, \
            f"the C header answers rule {name!r} otherwise on {game.slug}"


def compile_driver(folder: Path, header: str, call: str) -> Path:
    (folder / "book.h").write_text(header, encoding="utf-8")
    (folder / "driver.c").write_text(C_DRIVER.replace("CALL", call), encoding="utf-8")
    program = folder / "driver"
    done = subprocess.run(["cc", *STRICT, "-o", str(program), str(folder / "driver.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"the C header of a game of this rule does not compile: {done.stderr}"
    return program


@requires_binary("node")
def test_the_javascript_hard_modes_are_treegen_s(tmp_path):
    """The JavaScript's table of hard modes says what each asks, and how a guess breaks it, as
    treegen.player.HARD_MODES does (the code-maker page's refusals are treegen challenge's)."""
    script = ("const t = require(process.argv[1] + '/player.js');"
              "process.stdout.write(JSON.stringify(Object.values(t.HARD_MODES).map(m => "
              "[m.name, m.written, m.describe, m.breaks, m.kernel])));")
    done = subprocess.run(["node", "-e", script, str(WEB)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[m.name, m.written, m.describe, m.breaks, m.kernel]
                                       for m in HARD_MODES.values()]
