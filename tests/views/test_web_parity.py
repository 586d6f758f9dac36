"""The site's JavaScript computes what treegen computes, in Node: scores of every rule (Wordle words
with repeated letters among them), hard mode's two rules, the seeded secret and the adversary of
`treegen challenge`, the live heuristic's choice, and the count of secrets at a book's root."""

import json
import random
import subprocess
from importlib import resources

import pytest

from tests.helpers.choices import python_choice
from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.book.format import hard_allows
from treegen.player import Player, score
from treegen.rules.game import Game
from treegen.sessions.challenge import Codemaker

pytestmark = requires_binary("node")

WEB = resources.files("treegen.views").joinpath("web")
WORDLE_BOOK = "books/wordle-optimal-all.json"

SCRIPT = """
const web = process.argv[2];
const t = Object.assign({}, require(web + "/player.js"), require(web + "/live.js"),
                        require(web + "/codemaker.js"));
const input = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const games = input.games, out = {};
out.scores = input.scores.map(([g, guess, secret]) => {
  const m = t.model(games[g]);
  return [t.score(guess, secret, games[g].rule || "pegs"),
          m.keys[m.fb(m.index.get(guess), m.index.get(secret))]];
});
out.hard = input.hard.map(([g, asked, key, guess]) => t.hardAllows(t.model(games[g]), asked, key, guess));
out.seeds = input.seeds.map(([g, seed]) => new t.Codemaker(games[g], {seed}).reveal());
out.adversary = input.adversary.map(([g, guesses]) => {
  const maker = new t.Codemaker(games[g], {adversarial: true});
  return [guesses.map(x => maker.answer(x)), maker.remaining(), maker.reveal()];
});
out.choices = input.choices.map(([g, moves, name, pool]) => {
  const m = t.model(games[g]);
  const choice = t.choose(m, t.consistent(m, moves), moves, {name, pool});
  return [m.codes[choice.guess], choice.scope];
});
out.root = new t.Player(input.book).remaining();
process.stdout.write(JSON.stringify(out));
"""


def test_javascript_computes_what_treegen_computes(tmp_path):
    rng = random.Random(2024)
    wordle_book = books.load(WORDLE_BOOK)
    games = {"mm": Game.preset("mastermind"), "bc": Game.preset("bulls-and-cows"),
             "black": Game("ABCDE", 4, True, rule="black"), "wordle": Game.from_dict(wordle_book["game"]),
             "hints": Game.from_dict({**wordle_book["game"], "hard": "hints"}),
             "strict": Game("123456", 4, True, "mastermind", hard=True),
             "jotto": Game("ABCDEF", 4, True, rule="jotto"), "jotto-words": Game.preset("jotto"),
             "jotto-strict": Game("ABCDE", 4, True, rule="jotto", hard=True)}
    words = games["wordle"].code_strings
    doubled = [w for w in words if len(set(w)) < len(w)]  # letters that repeat: the hard case

    def codes(name):
        return games[name].code_strings

    scores = [[name, rng.choice(codes(name)), rng.choice(codes(name)[:games[name].size])]
              for name in ("mm", "bc", "black", "wordle", "jotto", "jotto-words") for _ in range(300)]
    # Jotto: a word against its anagrams shares every letter and is not the secret
    by_letters: dict[str, list[str]] = {}
    for word in words:
        by_letters.setdefault("".join(sorted(word)), []).append(word)
    anagrams = [group for group in by_letters.values() if len(group) > 1]
    scores += [["jotto-words", *rng.sample(rng.choice(anagrams), 2)] for _ in range(100)]
    scores += [["jotto-words", word, word] for word in rng.sample(words, 20)]
    scores += [["wordle", rng.choice(doubled), rng.choice(doubled)] for _ in range(200)]
    scores += [["wordle", rng.choice(doubled), rng.choice(words[:games["wordle"].size])]
               for _ in range(200)]
    hard = []
    for name, count in (("hints", 400), ("strict", 300), ("jotto-strict", 300)):
        for _ in range(count):
            asked, secret, guess = (rng.choice(codes(name)) for _ in range(3))
            if name == "hints" and rng.random() < 0.5:
                guess = rng.choice(doubled)
            hard.append([name, asked, score(asked, secret, games[name].rule), guess])
    seeds = [[name, seed] for name in ("mm", "wordle", "bc", "jotto")
             for seed in (0, 1, 7, 2**32 - 1, 10**12)]
    adversary = [[name, [rng.choice(codes(name)) for _ in range(n)]]
                 for name in ("mm", "bc", "wordle", "black", "jotto", "jotto-words") for n in (1, 3, 5)]
    plays = [("mm", "3456", ["1122"], "minimax", "all"), ("mm", "2315", ["1234"], "entropy", "all"),
             ("bc", "4075", ["0123"], "expected", "consistent"), ("black", "ABCD", ["AABB"], "parts", "all"),
             ("strict", "2146", ["1122"], "minimax", "all"), ("wordle", "focus", ["salet"], "entropy", "all"),
             ("wordle", "pinky", ["salet", "courd"], "minimax", "all"),
             ("hints", "cheer", ["salet"], "expected", "all"),
             ("hints", "cheer", ["salet", "there"], "minimax", "all"),
             ("jotto", "CAFE", ["ABCD"], "entropy", "all"),
             ("jotto", "FEED", ["AABB", "CDEF"], "minimax", "all"),
             ("jotto-strict", "EDCB", ["ABCD"], "expected", "all")]
    choices = [[name, [(g, score(g, secret, games[name].rule)) for g in guesses], heuristic, pool]
               for name, secret, guesses, heuristic, pool in plays]
    data = {"games": {name: game.to_dict() for name, game in games.items()}, "scores": scores,
            "hard": hard, "seeds": seeds, "adversary": adversary, "choices": choices,
            "book": wordle_book}
    (tmp_path / "input.json").write_text(json.dumps(data))
    (tmp_path / "parity.js").write_text(SCRIPT)
    done = subprocess.run(["node", str(tmp_path / "parity.js"), str(WEB), str(tmp_path / "input.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)

    for (name, guess, secret), (text, indexed) in zip(scores, js["scores"]):
        expected = score(guess, secret, games[name].rule)
        assert text == indexed == expected, (name, guess, secret)
    for (name, asked, key, guess), allows in zip(hard, js["hard"]):
        rules = {**games[name].to_dict_rules(), "hard": games[name].to_dict().get("hard", False)}
        assert allows == hard_allows(rules, asked, key, guess), (name, asked, key, guess)
    assert sum(js["hard"]) > 20 and not all(js["hard"])  # both outcomes were tried
    for (name, seed), secret in zip(seeds, js["seeds"]):
        assert secret == Codemaker(games[name], seed=seed).reveal(), (name, seed)
    for (name, guesses), (answers, left, shown) in zip(adversary, js["adversary"]):
        maker = Codemaker(games[name], adversarial=True)
        assert answers == [maker.answer(g) for g in guesses], (name, guesses)
        assert (left, shown) == (maker.remaining(), maker.reveal())
    for (name, moves, heuristic, pool), (guess, scope) in zip(choices, js["choices"]):
        assert scope in ("whole", "few"), (name, moves)  # the whole look-ahead, as treegen's
        assert guess == python_choice(games[name], moves, heuristic, pool)[0], (name, moves, heuristic)
    # the root of a Wordle book is no answer: 2,315 secrets are possible there, not 2,316
    assert js["root"] == Player(wordle_book).remaining() == 2315


@pytest.mark.parametrize("typed", ["CRANE", "Crane", " crane "])
def test_guesses_in_any_case_are_the_game_s_codes(typed, tmp_path):
    script = ("const t = Object.assign({}, require(process.argv[1] + '/player.js'), "
              "require(process.argv[1] + '/live.js'));"
              "const m = t.model({name: 'w', symbols: 'aceilnrst', length: 5, repetition: false, "
              "rule: 'wordle', answers: ['crane', 'slate'], guesses: ['crane', 'slate', 'trace']});"
              "const c = t.normalize(m, process.argv[2]);"
              "process.stdout.write(JSON.stringify([c, t.codeProblem(m, c, process.argv[2])]));")
    done = subprocess.run(["node", "-e", script, str(WEB), typed], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["crane", None]


SPOKEN_GAMES = [{"name": "mastermind", "symbols": "123456", "length": 4, "repetition": True},
                {"name": "bulls-and-cows", "symbols": "0123456789", "length": 4, "repetition": False},
                {"name": "custom", "symbols": "ABC", "length": 3, "repetition": True, "rule": "black"},
                {"name": "custom", "symbols": "ABC", "length": 3, "repetition": True, "rule": "wordle"},
                {"name": "custom", "symbols": "ABC", "length": 3, "repetition": True, "rule": "jotto"}]
SPOKEN = ["2B", "B2", "1b", "BWW", "2B1W", "1A2B", "12", "-", "none", "None", "0", "", " ", "nothing",
          "x", "3W", "BBBB", "4A0B", "..Y", "GG.", "3", "win", "2", "BB", "5B", "zero"]


def test_javascript_speaks_each_game_s_notation_as_treegen_does(tmp_path):
    """Each game's notation, the same in both: what a spelling reads as in that game (``2B``:
    black pegs in Mastermind, refused in Bulls and Cows), and every answer as it is shown."""
    from treegen.player import PlayerError, rule_of
    script = ("const t = require(process.argv[1] + '/player.js');"
              "const input = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));"
              "const out = input.games.map(g => { const r = t.ruleOf(g);"
              " return {notation: r.notation, pegs: r.blackAndWhite, how: r.how, short: r.short,"
              " shown: t.answerKeys(g).map(k => r.format(k)),"
              " read: input.spellings.map(s => { try { return r.parse(s, g.length); }"
              " catch (e) { return e.name; } }) }; });"
              "process.stdout.write(JSON.stringify(out));")
    (tmp_path / "input.json").write_text(json.dumps({"games": SPOKEN_GAMES, "spellings": SPOKEN}))
    done = subprocess.run(["node", "-e", script, str(WEB), str(tmp_path / "input.json")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    for game, js in zip(SPOKEN_GAMES, json.loads(done.stdout)):
        rule = rule_of(game)
        read = []
        for text in SPOKEN:
            try:
                read.append(rule.parse(text, game["length"]))
            except PlayerError as exc:
                read.append(type(exc).__name__)
        assert js == {"notation": rule.notation, "pegs": rule.black_and_white, "how": rule.how,
                      "short": rule.short, "read": read,
                      "shown": [rule.format(k) for k in rule.keys(game["length"])]}, game["name"]
    assert json.loads(done.stdout)[0]["shown"][:3] == ["none", "W", "WW"]
