"""Every function of the Python front, driven with wrong types and values one argument at a time:
each call answers (lists taken where a sequence is natural) or raises one TreegenError, never
another exception."""

from __future__ import annotations

import inspect
import math

import pytest

import treegen
from treegen import Game, SearchOptions, TreegenError

SMALL = Game("ABC", 2, True)
#: Wrong values every argument is tried with, in turn.
WRONG = [None, 3.5, -1, 0, 10 ** 30, "", "x" * 300, "\x1b[2J", [], ["A"], {}, object(), b"AB", True,
         math.nan, ("ABC",), [("AB", "1A0B")]]


@pytest.fixture(scope="module")
def book():
    return treegen.build(SMALL, "minimax")


def calls(book):
    """(name, function, the arguments of a call that works) of every callable of the front."""
    return [
        ("build", treegen.build, [SMALL, "minimax"], {"pool": "all", "first": "AB"}),
        ("build_file", treegen.build_file, ["book.json", SMALL, "minimax"],
         {"pool": "all", "first": "AB"}),
        ("load", treegen.load, ["missing.json"], {}),
        ("loads", treegen.loads, [book.dumps()], {}),
        ("verify", lambda b, limit=10: treegen.verify(b, limit=limit), [book.data], {"limit": 10}),
        ("partitions", treegen.partitions, [SMALL, [("AB", "1A0B")]], {}),
        ("score", treegen.score, ["AB", "BA"], {}),
        ("parse_feedback", treegen.parse_feedback, ["1A2B"], {}),
        ("format_feedback", treegen.format_feedback, [(1, 2)], {}),
        ("parse_moves", treegen.parse_moves, ["AB=1A0B"], {}),
        ("format_moves", treegen.format_moves, [[("AB", "1A0B")]], {}),
        ("make_strategy", treegen.make_strategy, ["minimax"], {"pool": "all"}),
        ("compare", treegen.compare, [[book]], {}),
        ("Game", Game, ["ABC", 2, True], {"rule": "pegs", "hard": False}),
        ("Game.preset", Game.preset, ["mastermind"], {}),
        ("Game.of_words", Game.of_words, [["cigar", "rebut"]], {}),
        ("Game.from_dict", Game.from_dict, [SMALL.to_dict()], {}),
        ("SearchOptions", SearchOptions, [], {"max_depth": 3, "jobs": 1, "memory": 1 << 20}),
        ("Book.dot", book.dot, [], {"depth": 2, "start": ()}),
        ("Book.c_header", book.c_header, [], {"prefix": "tg"}),
        ("Book.moves", book.moves, ["AB"], {}),
        ("Book.player", book.player, [], {}),
        ("Codemaker", treegen.Codemaker, [SMALL], {"secret": "AB", "max_guesses": 5}),
        ("load_preset", treegen.load_preset, ["mastermind"], {"hard": False}),
        ("advise", treegen.advise, [SMALL, "AB=1A0B"],
         {"strategy": "minimax", "pool": "all", "seed": 1, "book": book, "exact_below": 10,
          "max_depth": 4}),
    ]


def test_every_callable_of_the_front_is_covered(book):
    covered = {name.split(".")[0] for name, *_ in calls(book)}
    callables = {name for name in treegen.__all__ if inspect.isfunction(getattr(treegen, name))}
    callables |= {"Game", "SearchOptions", "Codemaker"}
    skipped = {"solve_classes", "site", "check_certificate"}  # write files or need a search: below
    assert callables - skipped <= covered | {"Book"}, callables - skipped - covered


def test_every_argument_wrong_in_turn_is_an_answer_or_a_treegen_error(book, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    failures = []
    for name, function, args, kwargs in calls(book):
        places = [*range(len(args)), *kwargs]
        for place in places:
            for wrong in WRONG:
                given_args, given_kwargs = list(args), dict(kwargs)
                if isinstance(place, int):
                    given_args[place] = wrong
                else:
                    given_kwargs[place] = wrong
                try:
                    function(*given_args, **given_kwargs)
                except TreegenError:
                    pass
                except Exception as exc:  # the point of the test: any other exception
                    failures.append(f"{name} with {place}={wrong!r:.40}: {type(exc).__name__}: "
                                    f"{str(exc)[:80]}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("wrong", [None, 3.5, [], object(), b"x"])
def test_the_writers_refuse_wrong_paths_in_one_error(tmp_path, monkeypatch, wrong):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TreegenError):
        treegen.solve_classes(SMALL, "AB", wrong)
    with pytest.raises(TreegenError):
        treegen.site([treegen.build(SMALL, "minimax")], wrong)
    with pytest.raises(TreegenError):
        treegen.check_certificate(wrong)


@pytest.mark.parametrize("call", [
    lambda: Game("abc", 2, True, answers=("ab",)),  # answers without guesses: another game
    lambda: Game.of_words("crane"),  # five one-letter words
    lambda: Game.of_words(None),
    lambda: Game.preset(["wordle"]),
    lambda: Game.from_dict([]),
    lambda: treegen.partitions(Game.preset("mastermind"), 5),
    lambda: treegen.partitions(Game.preset("mastermind"), [("1122",)]),
    lambda: treegen.verify(treegen.build(SMALL, "minimax").data, limit="x"),
    lambda: treegen.build(SMALL, "minimax").c_header(prefix=None),
    lambda: treegen.build(SMALL, "minimax").dot(depth="2"),
    lambda: treegen.solve_classes(Game.preset("mastermind"), "1122", None),
    lambda: Game("abc", 2, True, hard=None),
    lambda: Game("abc", 2, True, hard=[]),
])
def test_the_misuses_found_by_the_audit_are_treegen_errors(call):
    with pytest.raises(TreegenError):
        call()


def test_lists_are_taken_where_a_sequence_is_natural():
    listed = Game("abc", 2, True, answers=["ab", "ba"], guesses=["ab", "ba", "aa"])
    assert listed == Game("abc", 2, True, answers=("ab", "ba"), guesses=("ab", "ba", "aa"))
    assert treegen.build(listed, "minimax").stats["secrets"] == 2
