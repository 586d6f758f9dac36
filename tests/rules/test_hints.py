"""Wordle's own hard mode ("hints": greens stay in place, every green or yellow letter is used
again): the rule counted three ways (the standard-library player, the array form, the compiled
search's), the search against the reference solver, the books and the command line, and the
published optimum of Wordle under it."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import numpy as np
import pytest

from tests.helpers.reference_solver import Reference, keeps_hints, tiles
from tests.search.test_reference_solver import rhymes
from treegen.api import build_book
from treegen.book.format import hard_allows
from treegen.book.replay import verify
from treegen.errors import GameError
from treegen.rules.game import Game
from treegen.rules.hard_mode import allowed_guesses, keeping
from treegen.rules.scoring import guess_table
from treegen.search.bounds import INFEASIBLE
from treegen.search.exact import Search
from treegen.search.kernels import fitting, split
from treegen.search.options import SearchOptions

pytestmark = pytest.mark.kernels  # CI runs them on numba's JIT kernels too


def words(seed: int, count: int, letters: str, length: int = 5) -> list[str]:
    """Random words over few letters: most repeat one, which is where the rule counts."""
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < count:
        out.add("".join(rng.choice(letters) for _ in range(length)))
    return sorted(out)


def hints_game(seed: int = 1, answers: int = 60, guesses: int = 150, letters: str = "abcdef",
               length: int = 5) -> Game:
    every = words(seed, guesses, letters, length)
    return replace(Game.of_words(every[::max(1, guesses // answers)], every), hard="hints")


def test_the_rule_reads_the_same_in_the_player_the_arrays_and_by_hand():
    game = hints_game()
    names, rng = game.code_strings, random.Random(3)
    for _ in range(40):
        guess, secret = rng.randrange(game.guess_count), rng.randrange(game.size)
        answer = tiles(names[guess], names[secret])
        keeps = keeping(game, guess, game.feedback_texts.index(answer))
        row = guess_table(game)[guess]
        by_player = [hard_allows({"hard": "hints"}, names[guess], answer, other) for other in names]
        assert [bool(keeps[f]) for f in row] == by_player
        assert by_player == [keeps_hints(names[guess], answer, other) for other in names]


def test_hints_count_each_letter_as_often_as_it_was_marked():
    hints = {"hard": "hints"}
    assert hard_allows(hints, "speed", "..YY.", "ester")  # two e's marked, two used
    assert not hard_allows(hints, "speed", "..YY.", "tares")  # one e only
    assert not hard_allows(hints, "salet", "G....", "tales")  # the green s moved
    assert hard_allows(hints, "salet", ".Y...", "crane")  # a yellow may stay where it was
    assert hard_allows(hints, "salet", ".....", "salet")  # greys ask nothing
    assert not hard_allows({"hard": True, "rule": "wordle"}, "salet", ".Y...", "crane")


def test_allowed_guesses_narrow_as_answers_come():
    game = hints_game(2)
    names, rng = game.code_strings, random.Random(5)
    for _ in range(15):
        secret, history = names[rng.randrange(game.size)], []
        for _ in range(rng.randint(1, 3)):
            guess = rng.randrange(game.guess_count)
            history.append((guess, game.feedback_texts.index(tiles(names[guess], secret))))
        fits = [i for i, other in enumerate(names)
                if all(keeps_hints(names[g], game.feedback_texts[f], other) for g, f in history)]
        assert allowed_guesses(game, tuple(history)).tolist() == fits
        strict = allowed_guesses(replace(game, hard="strict"), tuple(history))
        assert set(strict.tolist()) <= set(fits)  # looser than the strict rule


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_the_compiled_search_hands_each_class_the_guesses_the_rule_allows(seed):
    """The slices the compiled search carries down (:func:`fitting`) are exactly the allowed
    guesses of each answer, ascending, whatever the guesses allowed before."""
    game = hints_game(seed)
    search = Search(game)
    cands = np.arange(game.size, dtype=np.int64)
    rng, kinds = random.Random(seed), set()
    for guess in rng.sample(range(game.guess_count), 25):
        before = np.array(sorted(rng.sample(range(game.guess_count), 100)), dtype=np.int64)
        _, _, classes = split(search.context, guess, cands)
        fits, start = fitting(search.context, guess, before, classes)
        for f in classes:
            keeps = keeping(game, guess, int(f))
            expected = before[keeps[search.context.table[guess, before]]]
            assert fits[start[f]:start[f + 1]].tolist() == expected.tolist()
            groups = len(set(search.context.table[guess, expected].tolist()))
            kinds.add("one group" if groups == 1 else
                      "large union" if 8 * len(expected) > len(before) else "small union")
    assert kinds == {"one group", "large union", "small union"}  # each way of gathering them


def rule_games() -> list[Game]:
    """Answers that differ in their first letter alone (bat, cat, ...): where hard mode costs
    something, and each rule a different amount; and words over three letters."""
    return [replace(rhymes(seed), hard="hints") for seed in (1, 9, 18)] + \
        [hints_game(7, 30, 80, "abc", 4)]


def reference_cases():
    out = [pytest.param(game, list(range(game.size)), (), None, id=f"{game.slug}-whole")
           for game in rule_games()[:2]]  # where the rules differ (see below)
    for game in rule_games():
        rng = random.Random(game.size)
        names = game.code_strings
        for i in range(6):
            secret = names[rng.randrange(game.size)]
            guess = rng.randrange(game.guess_count)
            answer = game.feedback_texts.index(tiles(names[guess], secret))
            cands = [c for c in range(game.size) if tiles(names[guess], names[c]) == tiles(
                names[guess], secret)]
            if len(cands) > 1:
                out.append(pytest.param(game, cands, ((guess, answer),), 3 if i % 2 else None,
                                        id=f"{game.slug}-{game.size}-{i}"))
    return out


@pytest.mark.parametrize("game, cands, history, depth", reference_cases())
def test_the_compiled_search_agrees_with_the_reference_solver(game, cands, history, depth):
    names = game.code_strings
    solver = Reference(game.symbols, game.length, game.repetition, "wordle",
                       list(names[:game.size]), list(names), hard="hints")
    allowed = solver.allowed_after([(names[g], game.feedback_texts[f]) for g, f in history])
    cost, _ = Search(game, depth).best(np.array(cands, dtype=np.int64), history,
                                       -1 if depth is None else depth)
    expected = solver.cost(solver.bits([names[c] for c in cands]), depth, allowed=allowed)
    assert (cost if cost < INFEASIBLE else float("inf")) == expected


def test_the_rule_lies_between_the_free_game_and_the_strict_one():
    """On whole games: never cheaper than the free game nor dearer than the strict rule, and on
    some strictly between (else the comparisons above could not tell the rules apart)."""
    between = 0
    for game in rule_games():
        free, strict = (build_book(replace(game, hard=h), "optimal")["stats"]["total"]
                        for h in ("", "strict"))
        hints = build_book(game, "optimal")
        assert verify(hints) == [] and free <= hints["stats"]["total"] <= strict
        between += free < hints["stats"]["total"] < strict
    assert between > 0


def test_a_guess_that_drops_a_hint_fails_verify():
    book = build_book(rhymes(1), "optimal")  # cheaper than the rule allows
    broken = [p for p in verify(book | {"game": book["game"] | {"hard": "hints"}})
              if p.startswith("hard mode:")]
    assert broken and "does not keep the hints of" in broken[0]
    assert verify(build_book(replace(rhymes(1), hard="hints"), "entropy")) == []


def test_hints_from_the_command_line_and_where_they_do_not_apply(run, tmp_path):
    game = hints_game(5)
    (tmp_path / "a.txt").write_text("\n".join(game.code_strings[:game.size]) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(game.code_strings) + "\n")
    lists = ("--answers", tmp_path / "a.txt", "--guesses", tmp_path / "g.txt")
    result = run("build", *lists, "--hints", "-s", "optimal", "-o", tmp_path / "h.json")
    assert result.exit_code == 0 and "hard mode (hints)" in result.output
    book = json.loads((tmp_path / "h.json").read_text())
    assert book["game"]["hard"] == "hints" and run("verify", tmp_path / "h.json").exit_code == 0
    both = run("build", *lists, "--hints", "--hard", "-o", tmp_path / "x.json")
    assert both.exit_code == 2 and "two hard modes" in both.output
    pegs = run("build", "--game", "mastermind", "--hints", "-o", tmp_path / "y.json")
    assert pegs.exit_code != 0 and "needs rule wordle" in pegs.output
    assert "Traceback" not in pegs.output + both.output
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "y.json").exists()


def test_the_game_value_names_the_rule_and_reads_back():
    game = hints_game()
    assert game.to_dict()["hard"] == "hints" and Game.from_dict(game.to_dict()) == game
    assert replace(game, hard=True).hard == "strict"  # hard=True is the strict rule, as books write
    assert replace(game, hard="strict").to_dict()["hard"] is True
    assert game.slug.endswith("-hints") and "hard mode (hints)" in game.title
    with pytest.raises(GameError, match="needs rule wordle"):
        replace(Game.preset("mastermind"), hard="hints")
    with pytest.raises(GameError, match="hard must be"):
        replace(game, hard="easy")


def test_wordle_under_its_own_hard_mode_after_salet_is_the_published_optimum():
    """Selby's figure for Wordle's hard mode (alex1770/wordle: SALET, 8,122 within six guesses,
    original lists); without the limit the same search proves 8,116."""
    wordle = replace(Game.preset("wordle"), hard="hints")
    book = build_book(wordle, "optimal", first="salet", search=SearchOptions(jobs=1, max_depth=6))
    assert book["stats"]["total"] == 8122 and book["stats"]["max"] == 6 and verify(book) == []
    # what it proves is about the trees opening with SALET, not the game
    assert book["strategy"]["after"] == {"first": "salet", "optimal": True, "lower_bound": 8122}
    assert book["strategy"]["optimal"] is False


def test_challenge_holds_a_person_to_the_hints_and_nothing_more():
    from treegen.errors import CodeError
    from treegen.sessions.challenge import Codemaker
    game = hints_game(4)
    names = game.code_strings
    maker = Codemaker(game, secret=names[0])
    guess = next(w for w in names if tiles(w, names[0]).count(".") < 5 and w != names[0])
    answer = maker.answer(guess)
    breaks = next(w for w in names if not keeps_hints(guess, answer, w))
    keeps = next(w for w in names if keeps_hints(guess, answer, w) and tiles(guess, w) != answer)
    with pytest.raises(CodeError, match=f"hard mode: {breaks} does not keep the hints of guess 1"):
        maker.answer(breaks)
    assert len(maker.moves) == 1
    maker.answer(keeps)  # not a possible secret, but it keeps every hint: a move
    assert len(maker.moves) == 2
