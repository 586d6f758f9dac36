"""What a book may claim and what makes a claim proven: every field typed and bounded by the one
schema, a claim judged by what it covers, and "proven" said of nothing a certificate does not
prove. The property test edits books and certificates at random and checks every verdict printed
against the independent reference solver."""

import copy
import json
import random
import re
from functools import cache

import pytest

from tests.helpers.reference_solver import Reference
from treegen import book as books
from treegen.api import build_book
from treegen.book.schema import ANNOTATIONS, KEYWORDS, book_schema, schema_problem
from treegen.certificate import Proven
from treegen.errors import BookError
from treegen.proofs import certify, judge
from treegen.rules.game import Game
from treegen.search.options import SearchOptions

#: The audit's game: 3 of 1234 with repeats, where ``simple`` totals 250 and the optimum is 206.
SMALL = Game("1234", 3, True)
#: Values a forger tries in a field that should hold a count or a depth.
ODD_VALUES = [True, False, 0.5, "7", [1], {"a": 1}, 10 ** 20, -1, None, 0]


@pytest.fixture(scope="module")
def simple_book():
    return build_book(SMALL, "simple")


@pytest.fixture(scope="module")
def depth_one_certificate(tmp_path_factory, simple_book):
    """An honest certificate of a vacuous claim: no tree of at most one guess finds 64 secrets
    in fewer than 250 guesses (none finds them at all)."""
    claimed = copy.deepcopy(simple_book)
    claimed["strategy"].update(optimal=True, max_depth=1)
    path = tmp_path_factory.mktemp("depth1") / "depth1.cert"
    certify(claimed, path)
    return path


# -- the one schema --------------------------------------------------------------------------------

def test_the_schema_uses_only_the_keywords_its_reader_applies():
    """The standard-library reader knows a subset of JSON Schema; a keyword outside it would be
    published and silently not applied."""
    def walk(schema, where):
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        assert not unknown, f"{where}: {sorted(unknown)}"
        for key in ("properties", "$defs"):
            for name, inner in schema.get(key, {}).items():
                walk(inner, f"{where}/{key}/{name}")
        for key in ("items", "additionalProperties", "propertyNames"):
            if isinstance(schema.get(key), dict):
                walk(schema[key], f"{where}/{key}")
    walk(book_schema(), "#")


def test_the_reader_agrees_with_jsonschema_on_edited_sections(simple_book):
    """The same verdict as the reference implementation of JSON Schema on 600 random edits of
    the game, strategy and stats sections."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(book_schema())
    rng = random.Random(7)
    for _ in range(600):
        book = copy.deepcopy(simple_book)
        book["tree"] = {"guess": book["tree"]["guess"], "next": {}}
        section = rng.choice(["game", "strategy", "stats"])
        _edit(book[section], rng)
        ours = schema_problem(book[section], section) is None
        theirs = not any((e.path and e.path[0] == section) or (not e.path and section in e.message)
                         for e in validator.iter_errors(book))
        assert ours == theirs, (section, book[section], schema_problem(book[section], section))


@pytest.mark.parametrize("value", ODD_VALUES[:-2])
def test_a_field_of_the_wrong_type_is_refused_when_read(simple_book, value):
    book = copy.deepcopy(simple_book)
    book["strategy"].update(optimal=True, max_depth=value)
    with pytest.raises(BookError, match=r"strategy\.max_depth must be"):
        books.loads(json.dumps(book))


# -- the audit's false "optimal" --------------------------------------------------------------------

@pytest.mark.parametrize("value", [True, False, 0.5, "7", [1], 10 ** 20])
def test_a_forged_depth_never_makes_a_book_optimal(run, tmp_path, simple_book, depth_one_certificate,
                                                   value):
    """The audit's first item: a ``simple`` book (250; the optimum is 206) edited to claim
    optimal within a depth of ``True`` passed ``verify --certificate`` with a certificate of that
    vacuous depth-1 claim. Now every reader refuses the field in one line."""
    book = copy.deepcopy(simple_book)
    book["strategy"].update(optimal=True, max_depth=value)
    books_path = "forged.json"
    (tmp_path / books_path).write_text(json.dumps(book))
    for args in (["verify", books_path, "--certificate", str(depth_one_certificate)],
                 ["stats", books_path], ["play", books_path, "--secret", "123"]):
        result = run(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "strategy.max_depth must be" in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_a_depth_limited_certificate_covers_only_a_book_within_that_depth(simple_book):
    """The judge compares the depth a claim covers with the book as played: a certificate of the
    trees of at most d guesses makes optimal only a book whose deepest secret needs at most d,
    even when the book's own field says otherwise."""
    book = copy.deepcopy(simple_book)
    book["strategy"].update(optimal=True, max_depth=1)  # what the book says, not what it needs
    total = book["stats"]["total"]
    proven = Proven(game=dict(book["game"]), history=[], first=None, max_depth=1, bound=total,
                    claims=1, entries=0, treegen="test")
    lines, problems = judge(book, proven)
    assert problems and "this book needs 6" in problems[0], problems
    assert not any("optimal" in line for line in lines)


# -- "proven" only from a certificate ---------------------------------------------------------------

def test_a_book_s_own_lower_bound_is_said_as_its_word(run, tmp_path, simple_book):
    """The audit's second item: a book edited to say ``lower_bound == total`` was called "proven
    optimal" by verify, play and stats. Without a certificate it is the book's word."""
    book = copy.deepcopy(simple_book)
    book["strategy"]["lower_bound"] = book["stats"]["total"]
    (tmp_path / "word.json").write_text(json.dumps(book))
    for args in (["verify", "word.json"], ["stats", "word.json"],
                 ["play", "word.json", "--secret", "123"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert "proven" not in result.output.lower(), (args, result.output)
    assert "lower bound 250 (the book's word): optimal" in run("verify", "word.json").output


# -- the property: no edit makes a claim the certificate does not cover ------------------------------

PROPERTY_GAMES = [Game("1234", 3, True), Game("ABC", 3, True), Game("1234", 2, False),
                  Game("123", 3, True, rule="black")]
VERDICT = re.compile(r"no tree(?: opening with (\S+))?(?: within (\d+) guesses)? needs fewer than "
                     r"(\d+) guesses; this book has (\d+): (optimal|at most)")


@cache
def _reference(game_json: str) -> Reference:
    game = json.loads(game_json)
    return Reference(game["symbols"], game["length"], game["repetition"],
                     game.get("rule", "pegs"))


def _optimum(game: dict, first: str | None, depth: int | None) -> float:
    """The optimum of the game within the scope a verdict names, by the reference solver."""
    ref = _reference(json.dumps(game, sort_keys=True))
    every = (1 << len(ref.codes)) - 1
    if first is None:
        return ref.cost(every, depth)
    classes: dict[object, int] = {}
    for i, secret in enumerate(ref.codes):
        if secret != first:
            answer = ref.scorer(first, secret)
            classes[answer] = classes.get(answer, 0) | 1 << i
    return len(ref.codes) + sum(ref.cost(part, None if depth is None else depth - 1)
                                for part in classes.values())


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """Per game: books (optimal, optimal within one guess fewer than it needs, held to a first
    guess, a heuristic's) and the honest certificates of the three that claim."""
    made = []
    folder = tmp_path_factory.mktemp("honest")
    for n, game in enumerate(PROPERTY_GAMES):
        optimal = build_book(game, "optimal")
        deepest = optimal["stats"]["max"]
        shallow = build_book(game, "optimal", search=SearchOptions(max_depth=deepest - 1)) \
            if _optimum(game.to_dict(), None, deepest - 1) < float("inf") else optimal
        held = build_book(game, "optimal", first=game.code_strings[-1])
        heuristic = build_book(game, "simple")
        certificates = []
        for k, claimed in enumerate((optimal, shallow, held)):
            path = folder / f"{n}-{k}.cert"
            certify(claimed, path)
            certificates.append(path)
        made.append(([optimal, shallow, held, heuristic], certificates))
    return made


FIELDS = {"strategy": ["optimal", "max_depth", "lower_bound", "after", "first", "name", "pool"],
          "stats": ["total", "max", "secrets", "average"],
          "game": ["symbols", "length", "repetition", "rule", "hard", "name"]}


def _value(rng: random.Random, old: object) -> object:
    near = [old + rng.randint(-3, 3)] if type(old) is int else []
    return rng.choice(ODD_VALUES + near + ["", "pegs", "hints", {"first": "111", "optimal": True,
                                                                  "lower_bound": 1}])


def _edit(section: dict, rng: random.Random) -> None:
    key = rng.choice(sorted(set(section) | {"optimal", "max_depth", "lower_bound", "hard"}))
    if rng.random() < 0.15:
        section.pop(key, None)
    else:
        section[key] = _value(rng, section.get(key))


def _edit_certificate(data: bytes, rng: random.Random) -> bytes:
    cut = bytearray(data)
    where = rng.randrange(len(cut))
    choice = rng.random()
    if choice < 0.5:
        cut[where] ^= 1 << rng.randrange(8)
    elif choice < 0.8:  # a digit of the header: a bound, a depth, a count
        digits = [i for i, c in enumerate(cut[:400]) if 48 <= c <= 57]
        if digits:
            cut[rng.choice(digits)] = rng.choice(b"0123456789")
    else:
        del cut[where:]
    return bytes(cut)


def test_no_edit_makes_any_command_claim_what_the_certificate_does_not_cover(run, tmp_path, honest):
    """Random edits of any field of a book or of a certificate (and books paired with another
    book's certificate): whatever ``verify --certificate`` calls optimal, or bounds, is true of
    the book's game by the reference solver, within the scope the verdict names; and ``stats``,
    ``play`` and ``verify`` say "proven" of nothing and never end in a traceback."""
    rng = random.Random(2026)
    said_optimal = 0
    for trial in range(120):
        book_list, certificates = honest[trial % len(honest)]
        book = copy.deepcopy(rng.choice(book_list))
        certificate = rng.choice(certificates)
        data = certificate.read_bytes()
        for _ in range(rng.choice([0, 1, 1, 2])):
            section = rng.choice(sorted(FIELDS))
            _edit(book[section], rng)
        if rng.random() < 0.3:
            data = _edit_certificate(data, rng)
        (tmp_path / "b.json").write_text(json.dumps(book))
        (tmp_path / "c.cert").write_bytes(data)
        verified = run("verify", "b.json", "--certificate", "c.cert")
        assert verified.exit_code in (0, 1) and "Traceback" not in verified.output, \
            verified.output
        for args in (["stats", "b.json"], ["play", "b.json", "--secret",
                                           book_list[0]["tree"]["guess"]]):
            shown = run(*args)
            assert shown.exit_code in (0, 1) and "Traceback" not in shown.output, shown.output
            assert "proven" not in shown.output.lower(), (args, shown.output)
        if verified.exit_code != 0:
            continue
        for first, depth, bound, total, verdict in VERDICT.findall(verified.output):
            depth_limit = int(depth) if depth else None
            truth = _optimum(book["game"], first or None, depth_limit)
            assert int(bound) <= truth, (book["strategy"], verified.output)
            if verdict == "optimal":
                said_optimal += 1
                assert int(total) == truth, (book["strategy"], verified.output)
                assert depth_limit is None or book["stats"]["max"] <= depth_limit
    assert said_optimal > 0  # the honest pairs that survive their edits are still proven
