import copy

from treegen.book.replay import game_codes, verify


def test_a_correct_book_verifies(mastermind_minimax, bulls_simple):
    assert verify(mastermind_minimax) == []
    assert verify(bulls_simple) == []


def test_enumeration_is_independent_and_complete():
    assert len(game_codes({"symbols": "0123456789", "length": 4, "repetition": False})) == 5040
    assert game_codes({"symbols": "ab", "length": 2, "repetition": True}) == ["aa", "ab", "ba", "bb"]


def test_wrong_stats_are_reported(mastermind_minimax):
    book = copy.deepcopy(mastermind_minimax)
    book["stats"]["total"] += 1
    book["stats"]["histogram"]["5"] -= 1
    problems = verify(book)
    assert any("stats.total says 5802 but the tree gives 5801" in p for p in problems)
    assert any("stats.histogram" in p for p in problems)


def test_a_missing_branch_is_reported_with_the_secret(mastermind_minimax):
    book = copy.deepcopy(mastermind_minimax)
    del book["tree"]["next"]["0A0B"]
    problems = verify(book)
    assert problems and problems[0].startswith("secret ") and "no branch 0A0B" in problems[0]


def test_a_wrong_guess_strands_its_secrets(mastermind_minimax):
    book = copy.deepcopy(mastermind_minimax)
    leaf = book["tree"]["next"]["0A0B"]["next"]["0A0B"]
    assert leaf["next"] == {}
    leaf["guess"] = "5555"
    assert any("secret 6666" in p for p in verify(book))


def test_dead_branches_and_first_guess_are_checked(mastermind_minimax):
    book = copy.deepcopy(mastermind_minimax)
    leaf = book["tree"]["next"]["0A0B"]["next"]["0A0B"]
    leaf["next"]["0A0B"] = {"guess": "1111", "next": {}}
    assert verify(book) == ["branch 1122=0A0B,3345=0A0B,6666=0A0B is reached by no secret"]
    book = copy.deepcopy(mastermind_minimax)
    book["strategy"]["first"] = "1234"
    assert verify(book) == ["strategy.first says 1234 but the tree starts with 1122"]


def test_structural_problems_come_first():
    assert verify({"format": "x"})[0].startswith("not a treegen book")


def test_a_books_claims_are_checked(mastermind_minimax):
    """Every mutant of the strategy section that claims more than the tree shows is refused."""
    def claimed(**change):
        book = copy.deepcopy(mastermind_minimax)
        book["strategy"].update(change)
        return verify(book)

    assert any("max_depth says 4, but the tree needs 5" in p for p in claimed(max_depth=4))
    assert claimed(max_depth=5) == [] and claimed(max_depth=None) == []
    assert any("optimal says true, but its lower bound 5000 is below the total 5801" in p
               for p in claimed(optimal=True, lower_bound=5000))
    assert any("above the total" in p for p in claimed(lower_bound=5802))
    assert claimed(optimal=False, lower_bound=5000) == []  # a claim of less is no false claim
