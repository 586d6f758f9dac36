"""Certificates: the exact search's proof of a lower bound, checked by a checker of its own.

Honest certificates of every kind of game pass; every way of damaging one (a bound raised, an
entry or a symmetry taken away, another game's header, a cut file) is refused; and against the
reference solver, a certificate of the true optimum exists and passes, while one of a bound above
it can neither be written nor made by hand."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import numpy as np
import pytest

from tests.helpers.reference_solver import INFINITE, SCORERS
from tests.search.test_reference_solver import GAMES, HARD_GAMES, positions, reference, word_game
from treegen import book as books
from treegen.api import build_book
from treegen.certificate import INFINITE as NO_TREE
from treegen.certificate import CertificateRefused, check, read_certificate
from treegen.errors import CertificateError as WriteRefused
from treegen.rules.game import Game
from treegen.search.certificate_file import encode
from treegen.search.certify import Claim, prove

#: Run again on numba's JIT kernels in CI (see .ci/run).
pytestmark = pytest.mark.kernels

MASTERMIND = Game.preset("mastermind")


@pytest.fixture(scope="module")
def mastermind() -> bytes:
    return prove(Claim(MASTERMIND, 5625))


def test_mastermind_s_optimum_is_certified_and_checked(mastermind):
    proven = check(mastermind)
    assert (proven.bound, proven.history, proven.first, proven.max_depth) == (5625, [], None, None)
    assert proven.game == dict(MASTERMIND.to_dict()) and proven.claims > 100


def test_a_bound_above_the_optimum_has_no_certificate():
    with pytest.raises(WriteRefused, match="a tree of total 5625 exists"):
        prove(Claim(MASTERMIND, 5626))


def test_openings_depth_limits_and_hard_mode_are_certified():
    after = check(prove(Claim(MASTERMIND, 5702, first=MASTERMIND.index("1122"))))
    assert after.first == "1122" and after.bound == 5702
    assert check(prove(Claim(MASTERMIND, 5626, max_depth=5))).max_depth == 5
    with pytest.raises(WriteRefused):
        prove(Claim(MASTERMIND, 5627, max_depth=5))
    hard = replace(MASTERMIND, hard="strict")
    assert check(prove(Claim(hard, 5660))).game["hard"] is True
    cls = ((MASTERMIND.index("1123"), MASTERMIND.feedback_texts.index("1A0B")),)
    assert check(prove(Claim(MASTERMIND, 618, cls))).history == [["1123", "1A0B"]]


# -- damaged and forged certificates ---------------------------------------------------------------

def forged(data: bytes, change) -> bytes:
    """``data`` with its arrays and claim changed by ``change(arrays, claim, header)``, written
    again with a consistent checksum: what a forger who knows the format can make."""
    header, arrays = read_certificate(data)
    arrays = {k: v.copy() for k, v in arrays.items()}
    claim = dict(header["claim"])
    change(arrays, claim, header)
    return encode(Game.from_dict(header["game"]), claim, arrays, header.get("premises"))


def _raise_root(a, c, h):
    c["bound"] += 1
    a["bound"][0] += 1


def _raise_inner(a, c, h):
    inner = np.flatnonzero(a["count"][1:] > 0)[3] + 1
    a["bound"][inner] += 1


def _drop_entry(a, c, h):
    a["count"][0] -= 1
    for key in ("guess", "feedback", "child"):
        a[key] = np.delete(a[key], 0)


def _no_symmetry(a, c, h):
    a["set"][0] = -1


def _moving_symmetry(a, c, h):
    a["positions"][:4] = [1, 0, 2, 3]  # a position swap that does not fix the history
    a["symbols"][:6] = [1, 0, 2, 3, 4, 5]
    a["set"][1:] = 0  # named by every claim


def _other_child(a, c, h):
    first = int(np.flatnonzero(a["child"] > 0)[0])
    a["child"][first] = a["child"][first] + 1


def _unordered(a, c, h):
    a["guess"][:2] = a["guess"][:2][::-1]
    a["feedback"][:2] = a["feedback"][:2][::-1]


def _solved_class(a, c, h):
    a["feedback"][0] = MASTERMIND.solved_index  # 4A0B: the class a guess finds at once


def _deeper(a, c, h):
    a["depth"][1:] = 5


def _other_game(a, c, h):
    h["game"] = dict(h["game"], repetition=False)  # 360 codes, not 1296: another game


def _later_opening(a, c, h):
    c["history"] = [["1123", "0A0B"]]


def _unused_claim(a, c, h):
    for key, value in (("bound", 1), ("depth", -1), ("count", 0), ("set", -1)):
        a[key] = np.append(a[key], value)


FORGERIES = [_raise_root, _raise_inner, _drop_entry, _no_symmetry, _moving_symmetry, _other_child,
             _unordered, _solved_class, _deeper, _other_game, _later_opening, _unused_claim]


@pytest.mark.parametrize("change", FORGERIES, ids=lambda f: f.__name__.strip("_"))
def test_a_forged_certificate_is_refused(mastermind, change):
    with pytest.raises(CertificateRefused):
        check(forged(mastermind, change))


def test_a_damaged_or_foreign_file_is_refused(mastermind):
    for data in (mastermind[:-10], mastermind[:100], b"", b"{}",
                 mastermind.replace(b'"bound":5625', b'"bound":5624'),
                 mastermind[:-1] + bytes([mastermind[-1] ^ 1]), b"treegen-certificate 1\n{]\n"):
        with pytest.raises(CertificateRefused):
            check(data)


def test_a_pipe_named_as_a_certificate_is_refused_without_waiting(tmp_path):
    """Opening a named pipe to read waits for a writer: the checker must refuse it at once. (A
    writer opened after a while would free a checker that waits, which then fails otherwise.)"""
    import os
    import threading

    from treegen.proofs import check_certificate
    pipe = tmp_path / "pipe.cert"
    os.mkfifo(pipe)

    def free() -> None:
        try:
            os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
    rescue = threading.Timer(30, free)
    rescue.start()
    try:
        with pytest.raises(WriteRefused, match="is not a regular file"):
            check_certificate(str(pipe))
    finally:
        rescue.cancel()


def test_every_size_in_the_header_is_bounded_before_anything_is_read(mastermind):
    header, _, body = mastermind.partition(b"\n")[2].partition(b"\n")
    fields = json.loads(header)
    for key, value in (("claims", 2 ** 40), ("entries", -1), ("symmetries", "many")):
        wrong = dict(fields, sizes=dict(fields["sizes"], **{key: value}))
        with pytest.raises(CertificateRefused):
            check(b"treegen-certificate 1\n" + json.dumps(wrong).encode() + b"\n" + body)


# -- the reference solver: a certificate of the optimum, none of one more ---------------------------

#: Jotto's counts, on codes (symmetric under every permutation of positions and symbols) and in
#: hard mode's strict rule.
JOTTO_GAMES = [(Game("ABCD", 3, True, rule="jotto"), 40),
               (replace(Game("ABCDE", 3, True, rule="jotto"), hard=True), 40)]


def reference_cases():
    rng = random.Random(20261125)
    out = []
    for game, most in [*GAMES[:6], *HARD_GAMES[::3], *JOTTO_GAMES]:
        for i, (cands, history) in enumerate(positions(game, rng, most, 3)):
            depth = 4 if i % 2 else None
            out.append(pytest.param(game, cands, history, depth, id=f"{game.slug}-{i}-{depth}"))
    return out


@pytest.mark.parametrize("game, cands, history, depth", reference_cases())
def test_the_reference_optimum_is_certified_and_one_more_is_not(game, cands, history, depth):
    solver = reference(game)
    secrets = solver.bits([game.code_strings[c] for c in cands])
    kwargs = {}
    if game.hard:
        names = game.code_strings
        kwargs["allowed"] = solver.allowed_after([(names[g], solver.scorer(names[g], names[cands[0]]))
                                                  for g, _ in history])
    optimum = solver.cost(secrets, depth, **kwargs)
    limit = None if depth is None else depth + len(history)
    # no tree within the limit: the certificate proves as much (an infinite bound)
    target = NO_TREE if optimum == INFINITE else int(optimum)
    data = prove(Claim(game, target, history, None, limit))
    assert check(data).bound == target
    if target < NO_TREE:
        with pytest.raises(WriteRefused):
            prove(Claim(game, target + 1, history, None, limit))
        with pytest.raises(CertificateRefused):
            check(forged(data, _raise_root))


def test_a_jotto_book_s_optimum_is_certified_and_one_more_is_refused(tmp_path):
    """The certificate treegen writes for an optimal Jotto book (its symmetries of positions and
    symbols among its claims) passes the checker; no certificate of one more can be written, and
    one forged to say so is refused."""
    from treegen.proofs import certify
    game = Game("1234", 3, True, rule="jotto")
    book = build_book(game, "optimal")
    certify(book, tmp_path / "jotto.cert")
    data = (tmp_path / "jotto.cert").read_bytes()
    proven = check(data)
    assert proven.bound == book["stats"]["total"] and proven.game["rule"] == "jotto"
    _, arrays = read_certificate(data)
    moved = arrays["positions"].reshape(-1, 3) != np.arange(3)
    assert moved.any()  # symmetries that move positions keep Jotto's answers, and were used
    with pytest.raises(WriteRefused):
        prove(Claim(game, proven.bound + 1))
    with pytest.raises(CertificateRefused):
        check(forged(data, _raise_root))


# -- books and the command line --------------------------------------------------------------------

def test_verify_says_what_a_certificate_proves_of_a_book(run, tmp_path):
    result = run("build", "--game", "mastermind", "-s", "optimal", "-j", "1", "--certificate",
                 "m.cert", "-o", "m.json")
    assert result.exit_code == 0, result.output
    result = run("verify", "m.json", "--certificate", "m.cert")
    assert result.exit_code == 0
    assert "mastermind: no tree needs fewer than 5625 guesses; this book has 5625: optimal" \
        in result.output
    books.save(build_book("mastermind", "minimax"), tmp_path / "knuth.json")
    result = run("verify", "knuth.json", "--certificate", "m.cert")
    assert result.exit_code == 0 and "this book has 5801: at most 176 above the optimum" \
        in result.output
    (tmp_path / "cut.cert").write_bytes((tmp_path / "m.cert").read_bytes()[:-3])
    result = run("verify", "m.json", "--certificate", "cut.cert")
    assert result.exit_code == 1 and "damaged or cut off" in result.output


def test_a_certificate_of_another_game_or_claim_proves_nothing_of_a_book(run, tmp_path):
    run("build", "--game", "mastermind", "-s", "optimal", "-j", "1", "--first", "1122",
        "--certificate", "after.cert", "-o", "after.json")
    run("build", "--game", "mastermind", "-s", "optimal", "-j", "1", "-o", "m.json")
    result = run("verify", "m.json", "--certificate", "after.cert")
    assert result.exit_code == 1 and "opening with 1122, the book opens with 1123" in result.output
    run("build", "--symbols", "1234567", "--length", "3", "-s", "optimal", "-j", "1",
        "--certificate", "p3c7.cert", "-o", "p3c7.json")
    result = run("verify", "m.json", "--certificate", "p3c7.cert")
    assert result.exit_code == 1 and "another game" in result.output
    result = run("verify", "after.json", "--certificate", "after.cert")
    assert result.exit_code == 0 and "optimal after 1122" in result.output


def test_a_bound_over_trees_of_any_depth_bounds_those_of_fewer_guesses(run):
    """Mastermind's optimum 5625 is reached within 6 guesses, not within 5 (5626): the game's
    certificate proves the first book optimal and not the second, and one over trees of at most
    6 guesses proves nothing of a book that may take more."""
    run("build", "--game", "mastermind", "-s", "optimal", "-j", "1", "--certificate", "m.cert",
        "-o", "m.json")
    for depth in (5, 6):
        run("build", "--game", "mastermind", "-s", "optimal", "-j", "1", "--max-depth", str(depth),
            "--certificate", f"m{depth}.cert", "-o", f"m{depth}.json")
    result = run("verify", "m6.json", "--certificate", "m.cert")
    assert result.exit_code == 0, result.output
    assert "no tree needs fewer than 5625 guesses; this book has 5625: optimal" in result.output
    result = run("verify", "m5.json", "--certificate", "m.cert")
    assert result.exit_code == 1 and "claims 5626 for the game; the certificate proves 5625" \
        in result.output
    result = run("verify", "m5.json", "--certificate", "m5.cert")
    assert result.exit_code == 0
    assert "no tree within 5 guesses needs fewer than 5626 guesses" in result.output
    result = run("verify", "m.json", "--certificate", "m6.cert")
    assert result.exit_code == 1 and "counts only the trees of at most 6 guesses, the book's may " \
        "take any number" in result.output
    result = run("verify", "m5.json", "--certificate", "m6.cert")  # covers it, but proves less
    assert result.exit_code == 1 and "claims 5626 for the game; the certificate proves 5625" \
        in result.output


def test_certificates_apply_to_the_optimal_strategy_only(run):
    result = run("build", "--game", "mastermind", "--certificate", "x.cert")
    assert result.exit_code == 2 and "--certificate apply to --strategy optimal only" in result.output


# -- statements that speak of no tree, and files of the wrong shapes --------------------------------

def bare(bound: int) -> dict:
    """The arrays of a certificate of one claim without entries."""
    none = np.zeros(0, dtype=np.int64)
    return {"bound": np.array([bound]), "depth": np.array([-1]), "count": np.array([0]),
            "set": np.array([-1]), "guess": none, "feedback": none, "child": none,
            "positions": none, "symbols": none, "size": none, "member": none}


def test_an_opening_guess_that_splits_nothing_proves_nothing():
    """After AAA=0A0B no secret holds an A: opening with AAA again costs |S| + T(S) (26 here),
    not "infinite", since it cannot be skipped; such a statement is refused."""
    game = Game("ABC", 3, True)
    claim = {"history": [["AAA", "0A0B"]], "first": "AAA", "max_depth": None, "bound": NO_TREE}
    with pytest.raises(CertificateRefused, match="splits nothing"):
        check(encode(game, claim, bare(NO_TREE)))


def test_a_history_that_ends_the_game_is_no_statement():
    game = Game("ABC", 3, True)
    claim = {"history": [["AAA", "3A0B"]], "first": None, "max_depth": 1, "bound": NO_TREE}
    with pytest.raises(CertificateRefused, match="ends the game"):
        check(encode(game, claim, bare(NO_TREE)))
    with pytest.raises(WriteRefused, match="ends the game"):
        prove(Claim(game, 1, ((game.index("AAA"), game.solved_index),)))


@pytest.mark.parametrize("claim", [{"history": [[["AAA"], "0A0B"]]}, {"first": ["AAA"]},
                                   {"history": "AAA"}, {"bound": 2.5}, {"max_depth": 0}])
def test_a_statement_of_the_wrong_shape_is_one_error(claim):
    game = Game("ABC", 3, True)
    statement = {"history": [], "first": None, "max_depth": None, "bound": 5, **claim}
    with pytest.raises(CertificateRefused):
        check(encode(game, statement, bare(5)))


# -- the checker's own scoring -------------------------------------------------------------------

@pytest.mark.parametrize("game", [Game("1234567", 4, True), Game.preset("bulls-and-cows"),
                                  Game("123456", 6, True), Game("12345", 4, True, rule="black"),
                                  Game("ABCD", 3, True, rule="wordle"), word_game("wordle", 1),
                                  Game("ABCDEF", 4, True, rule="jotto"), word_game("jotto", 2)],
                         ids=lambda game: game.slug)
def test_the_checker_scores_from_the_codes_as_the_reference_does(game):
    """Games too large for the checker's table are scored from the codes in blocks: on random
    pairs, every answer is the reference's."""
    from treegen.certificate.rules import Rules
    rules, scorer, rng = Rules(dict(game.to_dict())), SCORERS[game.rule], random.Random(3)
    rules.table = None  # as for a game over the table's size
    names = rules.names
    guesses = np.array(sorted(rng.sample(range(len(names)), min(len(names), 300))))
    secrets = np.array(sorted(rng.sample(range(rules.secrets), min(rules.secrets, 400))))
    answers = rules.score(guesses, secrets)
    assert answers.shape == (len(secrets), len(guesses))
    named = {"pegs": lambda t: f"{t[0]}A{t[1]}B", "black": lambda t: f"{t}A", "wordle": str,
             "jotto": str}
    for i, s in enumerate(secrets.tolist()):
        for j, g in enumerate(guesses.tolist()):
            theirs = named[game.rule](scorer(names[g], names[s]))
            assert rules.answers[answers[i, j]] == theirs, (names[g], names[s])
    pairs = rules.pairs(guesses[:len(secrets)], secrets[:len(guesses)])
    assert (pairs == answers[np.arange(len(pairs)), np.arange(len(pairs))]).all()


# -- the checker's shortcut: a count of classes never passes what their sizes do not ----------------

def class_sizes(solver, names, guess, cands):
    """The sizes of the classes ``guess`` makes of ``cands`` (the guess itself apart), by the
    reference's scorer."""
    sizes: dict[object, int] = {}
    for s in cands.tolist():
        if s != guess:
            answer = solver.scorer(names[guess], names[s])
            sizes[answer] = sizes.get(answer, 0) + 1
    return list(sizes.values())


@pytest.mark.parametrize("game", [game for game, _ in GAMES] + [game for game, _ in HARD_GAMES[:3]],
                         ids=lambda game: game.slug)
def test_counting_classes_never_passes_a_bound_the_class_sizes_do_not(game):
    """``Floors.suffice`` passes most claims by counting each guess's classes; against the least
    one-step bound counted by hand (the reference's scorer, each class's size), it never passes
    one more, and where level filling is exact it passes the bound itself."""
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import levels, rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(5)
    floors, names = Floors(rules), rules.names
    passed = 0
    for trial in range(40):
        n = rng.randint(1, min(12, rules.secrets))
        cands = np.array(sorted(rng.sample(range(rules.secrets), n)))
        pool = np.array(sorted(set(rng.sample(range(len(names)), len(names) // 2)) | set(cands))) \
            if game.hard else np.arange(len(names))
        depth = rng.choice([-1, 2, 3])
        parts = [(g in cands.tolist(), class_sizes(solver, names, g, cands))
                 for g in pool.tolist()]
        widest = max(len(sizes) for _, sizes in parts)
        level = levels(widest, depth - 1 if depth > 0 else -1, rules.secrets + 1)
        least = min(NO_TREE if not member and len(sizes) == 1 else n + sum(level[c] for c in sizes)
                    for member, sizes in parts)
        allowed = pool if game.hard else None
        assert not floors.suffice(cands, allowed, depth, least + 1), (trial, names, cands)
        if depth == -1 and n <= widest + 1:  # level filling exact up to n: the count is the bound
            assert floors.suffice(cands, allowed, depth, min(least, NO_TREE))
            passed += 1
    assert passed


@pytest.mark.parametrize("game", [game for game, _ in HARD_GAMES[:5]], ids=lambda game: game.slug)
def test_a_class_s_floor_in_hard_mode_is_the_least_bound_counted_by_hand(game):
    """In hard mode a class's floor is taken over the guesses it allows, most of them judged by
    their count of classes alone: it is the least one-step bound over those guesses counted by
    hand with the reference's scorer."""
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import levels, rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(13)
    floors, names = Floors(rules), rules.names
    for trial in range(12):
        n = rng.randint(3, min(40, rules.secrets))
        sub = np.array(sorted(rng.sample(range(rules.secrets), n)))
        later = np.array(sorted(rng.sample(range(len(names)), rng.randint(1, len(names)))))
        parts = {g: class_sizes(solver, names, g, sub) for g in later.tolist()}
        # the branching no set below exceeds: at least the most classes a guess makes here
        widest = min(max(map(len, parts.values())) + rng.randint(0, 2), len(rules.answers) - 1)
        depth = rng.choice([-1, 3])
        level = levels(widest, depth - 1 if depth > 0 else -1, rules.secrets + 1)
        by_hand = min(NO_TREE if g not in sub.tolist() and len(sizes) == 1 else
                      n + sum(level[c] for c in sizes) for g, sizes in parts.items())
        floor = floors.floors([sub], [later], depth, widest)[0]
        assert min(floor, NO_TREE) == min(by_hand, NO_TREE), (trial, n, depth)


@pytest.mark.parametrize("game", [game for game, _ in GAMES], ids=lambda game: game.slug)
def test_the_classes_a_guess_makes_are_counted_as_by_hand_at_every_size(game):
    """``Floors._classes`` counts a guess's classes other than the solved one by sets of
    feedbacks, or on a few secrets under many answers by comparing them: on sets around the
    size where it changes method, it counts what the reference's scorer counts."""
    from treegen.certificate.floors import PAIRWISE, Floors
    from treegen.certificate.rules import rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(11)
    floors, names = Floors(rules), rules.names
    for n in (1, 2, 7, PAIRWISE, PAIRWISE + 1, 3 * PAIRWISE):
        n = min(n, rules.secrets)
        cands = np.array(sorted(rng.sample(range(rules.secrets), n)))
        pool = np.array(sorted(rng.sample(range(len(names)), min(len(names), 150)) +
                               cands[:3].tolist()))
        pool = np.unique(pool)
        counted = floors._classes(np.stack([rules.score(pool, cands)] * 2))
        assert counted.shape == (2, len(pool)) and (counted[0] == counted[1]).all()
        assert counted[0].tolist() == [len(class_sizes(solver, names, g, cands))
                                       for g in pool.tolist()], (n, game.slug)


def test_wordle_s_classes_are_counted_as_by_hand_by_marking_them():
    """Sets of Wordle's answers larger than :data:`PAIRWISE` (beyond the test games' sizes):
    their classes, counted by marking each guess's answers, are the distinct answers counted by
    hand, the solved one apart."""
    from treegen.certificate.floors import PAIRWISE, Floors
    from treegen.certificate.rules import rules_of
    rules, rng = rules_of(dict(Game.preset("wordle").to_dict())), np.random.default_rng(3)
    floors = Floors(rules)
    for sizes in ((PAIRWISE + 1,), (300, 300), (2000,)):
        sets = [np.sort(rng.choice(rules.secrets, n, replace=False)) for n in sizes]
        pool = np.sort(rng.choice(len(rules.codes), 120, replace=False))
        pool[0] = sets[0][0]  # a guess that may be the answer: its solved class is not counted
        block = np.stack([rules.score(pool, cands) for cands in sets])
        by_hand = [[len(set(column) - {rules.solved}) for column in scores.T.tolist()]
                   for scores in block]
        assert floors._classes(block).tolist() == by_hand


@pytest.mark.parametrize("game", [game for game, _ in GAMES], ids=lambda game: game.slug)
def test_a_guess_s_one_step_bound_is_measured_alike_by_sorting_and_by_counting(game):
    """``Floors.bounds`` measures the classes of a few secrets by sorting each guess's answers
    and of many by counting them; either way it is the bound counted by hand with the
    reference's scorer, also where a depth limit makes a class infinite."""
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import levels, rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(7)
    floors, names = Floors(rules), rules.names
    sorted_ = counted = 0
    for trial in range(30):
        n = rng.randint(1, min(rules.secrets, 2 * len(rules.answers) // 6 + 1))
        cands = np.array(sorted(rng.sample(range(rules.secrets), n)))
        tried = np.array(sorted(set(rng.sample(range(len(names)), min(30, len(names))))
                                | set(cands[:2].tolist())))
        depth = rng.choice([-1, 1, 2])
        level = levels(rng.randint(1, 9), depth, rules.secrets + 1)
        by_hand = []
        for g in tried.tolist():
            sizes = class_sizes(solver, names, g, cands)
            one = g not in cands.tolist() and sizes == [n]
            by_hand.append(NO_TREE if one else n + sum(int(level[c]) for c in sizes))
        measured = floors.bounds(rules.score(tried, cands), tried, cands, level)
        assert measured.tolist() == by_hand, (trial, cands)
        sorted_ += n * 6 < len(rules.answers)
        counted += n * 6 >= len(rules.answers)
    assert sorted_ or len(rules.answers) < 12
    assert counted


#: Games whose answers take a 32-bit mask, a 64-bit one (7 pegs: 35 answers) and more (tiles).
FLOOR_GAMES = [game for game, _ in GAMES[:7]] + [Game("ABC", 7, True)]


@pytest.mark.kernels
@pytest.mark.parametrize("game", FLOOR_GAMES, ids=lambda game: game.slug)
def test_a_set_s_class_sizes_under_each_guess_are_those_counted_by_hand(game):
    """The compiled count of how many secrets give each answer to each guess (the sizes of a
    claim's classes) is the count by hand, for sets of one secret up to every secret."""
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import rules_of
    rules, rng = rules_of(dict(game.to_dict())), random.Random(31)
    floors = Floors(rules)
    for size in (1, 2, 7, rules.secrets):
        cands = np.array(sorted(rng.sample(range(rules.secrets), size)))
        guesses = np.array(sorted(rng.sample(range(len(rules.codes)), min(50, len(rules.codes)))))
        scores = rules.score(guesses, cands)
        counts = floors.counts(scores)
        assert counts.shape == (len(guesses), len(rules.answers))
        for column, guess in enumerate(guesses):
            by_hand = [0] * len(rules.answers)
            for row in range(len(cands)):
                by_hand[int(scores[row, column])] += 1
            assert counts[column].tolist() == by_hand, (int(guess), size)


@pytest.mark.kernels
@pytest.mark.parametrize("kept", [True, False], ids=["score-table", "scored-blocks"])
@pytest.mark.parametrize("game", FLOOR_GAMES, ids=lambda game: game.slug)
def test_class_floors_outside_hard_mode_are_the_least_bound_counted_by_hand(game, kept,
                                                                           monkeypatch):
    """Outside hard mode the floors of several classes at once are the least one-step bound over
    every guess counted by hand with the reference's scorer, on classes large enough that each
    guess is counted in full and small enough that the count of classes settles it; the lower
    bound from a class's own secrets never passes the floor, and is the floor where it says so.
    The compiled kernels read the game's score table, or (a game too large for one) blocks of
    answers scored a few classes at a time."""
    from treegen.certificate import floors as module
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import levels, rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(17)
    if not kept:
        rules.table = None
        monkeypatch.setattr(module, "SCORED_AT_ONCE", 40 * len(rules.codes))  # a few blocks
    names, every = rules.names, range(len(rules.names))
    exact_seen = counted_seen = 0
    for trial in range(4):
        subs = [np.array(sorted(rng.sample(range(rules.secrets), rng.randint(3, min(30, rules.secrets)))))
                for _ in range(4)]
        parts = [{g: class_sizes(solver, names, g, sub) for g in every} for sub in subs]
        # the branching no set below exceeds: at least the most classes a guess makes here
        widest = max(len(sizes) for part in parts for sizes in part.values()) + rng.randint(0, 1)
        depth = rng.choice([-1, 3])
        level = levels(widest, depth - 1 if depth > 0 else -1, rules.secrets + 1)
        by_hand = np.array([min(NO_TREE if g not in sub.tolist() and len(sizes) == 1 else
                                len(sub) + sum(level[c] for c in sizes)
                                for g, sizes in part.items()) for sub, part in zip(subs, parts)])
        by_hand = np.minimum(by_hand, NO_TREE)
        floors = Floors(rules)
        found = floors.floors(subs, [None] * len(subs), depth, widest)
        assert np.minimum(found, NO_TREE).tolist() == by_hand.tolist(), (trial, widest, depth)
        sizes = np.array([len(sub) for sub in subs])
        low, exact = Floors(rules).lower(np.concatenate(subs), sizes, depth, widest)
        assert (low <= by_hand).all() and (low[exact] == by_hand[exact]).all(), (trial, widest)
        even = level[sizes] == 2 * sizes - 1
        exact_seen += even.sum()
        counted_seen += (~even).sum()
    assert exact_seen and counted_seen  # both ways of counting were met


@pytest.mark.kernels
@pytest.mark.parametrize("kept", [True, False], ids=["score-table", "scored-blocks"])
@pytest.mark.parametrize("game", FLOOR_GAMES, ids=lambda game: game.slug)
def test_every_guess_s_least_bound_on_a_class_is_the_one_counted_by_hand(game, kept, monkeypatch):
    """The compiled count of every guess's one-step bound on each class (its count of answers
    first, then in full where level filling is not 2c - 1) is the least bound counted by hand,
    on classes where the count of answers alone would say less and where only a guess in the
    class reaches the least: both were met."""
    from treegen.certificate import floors as module
    from treegen.certificate.floors import Floors
    from treegen.certificate.rules import levels, rules_of
    rules, solver, rng = rules_of(dict(game.to_dict())), reference(game), random.Random(29)
    if not kept:
        rules.table = None
        monkeypatch.setattr(module, "SCORED_AT_ONCE", 40 * len(rules.codes))
    names, every = rules.names, range(len(rules.names))
    floors = Floors(rules)
    refined = inside_only = 0
    for trial in range(4):
        # scattered secrets, and runs of neighbours: alike codes, few answers, uneven classes
        subs = [np.array(sorted(rng.sample(range(rules.secrets), rng.randint(2, min(24, rules.secrets)))))
                for _ in range(3)]
        for _ in range(3):  # up to more secrets than answers: some class gets two
            size = rng.randint(2, min(max(24, len(rules.answers) + 8), rules.secrets))
            start = rng.randrange(rules.secrets - size + 1)
            subs.append(np.arange(start, start + size))
        widest, depth = rng.choice([2, 3, 40]), rng.choice([-1, 3])
        level = levels(widest, depth, rules.secrets + 1)
        sizes = np.array([len(sub) for sub in subs])
        found = floors._everyone(subs, sizes, level)
        for sub, value in zip(subs, found.tolist()):
            bound = {g: NO_TREE if g not in sub.tolist() and len(part) == 1 else
                     len(sub) + sum(int(level[c]) for c in part)
                     for g in every for part in [class_sizes(solver, names, g, sub)]}
            least = min(bound.values())
            assert min(value, NO_TREE) == min(least, NO_TREE), (trial, sub.tolist())
            outside, inside = floors.even(len(sub), level)
            estimate = min(inside[len(part)] if g in sub.tolist() else outside[len(part)]
                           for g in every for part in [class_sizes(solver, names, g, sub)])
            refined += estimate < least < NO_TREE
            inside_only += least < min(v for g, v in bound.items() if g not in sub.tolist())
    # under Wordle's 243 tiles a few dozen words always have a guess splitting them evenly
    assert inside_only and (refined or len(rules.answers) > 64)


def test_a_claim_s_classes_are_gathered_as_the_secrets_giving_each_answer():
    """The classes a claim raises are gathered by sorting each guess's answers, a block of guesses
    at a time: in any order asked, a guess asked twice, and in blocks of a few guesses, each class
    holds the set's secrets giving that guess that answer, ascending."""
    from treegen.certificate import floors as module
    from treegen.certificate.rules import rules_of
    rules = rules_of(dict(Game.preset("mastermind").to_dict()))
    rng = np.random.default_rng(5)
    cands = np.sort(rng.choice(rules.secrets, 300, replace=False))
    scores = rules.score(np.arange(40), cands)
    rows = rng.integers(0, 40, 60)
    answers = scores[rng.integers(0, len(cands), 60), rows].astype(np.int64)
    floors = module.Floors(rules)
    for at_once in (module.SORTED_AT_ONCE, 3 * len(cands), len(cands)):
        module_step = module.SORTED_AT_ONCE
        module.SORTED_AT_ONCE = at_once
        try:
            flat, sizes = floors.grouped(cands, scores, rows, answers)
        finally:
            module.SORTED_AT_ONCE = module_step
        classes = np.split(flat, np.cumsum(sizes)[:-1])
        assert len(classes) == len(rows)
        for members, r, f in zip(classes, rows, answers):
            assert members.tolist() == cands[scores[:, r] == f].tolist(), at_once
