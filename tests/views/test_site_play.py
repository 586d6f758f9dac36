"""The site's pages where a person plays, in Chromium: the code-maker page (the computer keeps the
secret: a seeded random one, or the adversary of `treegen challenge`), Wordle's six guesses, hard
mode; the tree page's player going on live once the answers leave its book; and Wordle's pages:
2,315 secrets at the start and a root of 148 answers laid out as a grid that can be read."""

import copy
import os
import re

import pytest

from tests.helpers.browsing import site_served
from tests.helpers.choices import python_choice
from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.api import build_book
from treegen.book.format import hard_allows
from treegen.errors import CodeError
from treegen.player import Player, score
from treegen.rules.game import Game
from treegen.sessions.challenge import Codemaker

pytestmark = [requires_binary("chromium"), requires_binary("dot")]

WORDLE_BOOK = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "books", "wordle-optimal-all.json")
HARD = Game("ABCDE", 3, False, hard=True)  # no repeats, and hard mode
JOTTO = Game("ABCDE", 4, True, rule="jotto")
#: A secret of JOTTO whose answer to the book's first guess the pruned Jotto book lacks.
JOTTO_SECRET = "DDDE"  # few anagrams: Jotto tells a code's anagrams apart only by the win



@pytest.fixture(scope="module")
def books_played(mastermind_minimax):
    pruned = copy.deepcopy(mastermind_minimax)
    del pruned["tree"]["next"]["0A0B"]  # a book that does not cover every secret
    jotto = build_book(JOTTO, "minimax")
    del jotto["tree"]["next"][score(jotto["tree"]["guess"], JOTTO_SECRET, "jotto")]
    return {"mm": mastermind_minimax, "pruned": pruned, "hard": build_book(HARD, "minimax"),
            "wordle": books.load(WORDLE_BOOK), "jotto": jotto}


@pytest.fixture(scope="module")
def base(tmp_path_factory, books_played):
    """The site served by a plain HTTP server on a free port, stopped after the tests."""
    with site_served(books_played, tmp_path_factory.mktemp("site") / "site") as base:
        yield base


def expect(locator):
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect(locator)


def guess(page, text, count):
    """Type a guess on the code-maker page; ``count``: the guesses the history then shows."""
    page.fill("#maker-guess", text)
    page.press("#maker-guess", "Enter")
    expect(page.locator("#maker-history li")).to_have_count(count)


def answers(page):
    return page.eval_on_selector_all("#maker-history li", "ls => ls.map(l => [l.dataset.guess, "
                                                          "l.dataset.answer])")


# -- the code-maker page -----------------------------------------------------------------------

def play_first_possible(page, maker, turns, hint=False):
    """Guess the first secret the page lists as still possible, turn after turn, until the game
    ends or ``turns`` run out: each answer as the Python code-maker gives it (and, with ``hint``,
    the count of what is left as it says)."""
    for n in turns:
        first = page.get_attribute("#maker-possible-list .possible li:first-child .code", "data-code")
        assert first == maker.possible()[0]
        guess(page, first, n)
        assert answers(page)[-1] == [first, maker.answer(first)]
        if maker.done:
            return
        if hint:
            expect(page.locator("#maker-possible-list .hint")).to_contain_text(
                f"{maker.remaining()} secret")


def test_a_seeded_random_game_played_to_a_win(page, base):
    maker = Codemaker(Game.preset("mastermind"), seed=7)  # the same seed, the same secret
    page.goto(f"{base}/mm/maker.html")
    page.fill("#maker-seed", "7")
    page.click("#maker-new")
    expect(page.locator("#maker-status")).to_contain_text("seed 7")
    page.click("#maker-possible")
    expect(page.locator("#maker-possible-list")).to_contain_text("1,296 secrets fit")
    play_first_possible(page, maker, range(1, 10), hint=True)  # bounded: a page that never ends fails
    assert maker.solved
    end = page.locator("#maker-end[data-outcome=won]")
    expect(end).to_contain_text(f"Solved in {len(maker.moves)} guess")
    assert end.get_attribute("data-secret") == maker.reveal()
    assert page.is_disabled("#maker-guess")


def test_the_adversary_answers_as_treegen_challenge_does(page, base):
    maker = Codemaker(Game.preset("mastermind"), adversarial=True)
    page.goto(f"{base}/mm/maker.html")
    page.check("input[name=mode][value=adversarial]")
    expect(page.locator("#maker-status")).to_contain_text("against the adversary")
    assert page.is_disabled("#maker-seed")
    played = ["1122", "3456", "1345", "2266"]
    for n in range(1, 20):
        code = played[n - 1] if n <= len(played) else maker.possible()[0]
        guess(page, code, n)
        assert answers(page)[-1] == [code, maker.answer(code)]
        if maker.done:
            break
    assert maker.solved and len(maker.moves) > len(played)
    assert page.get_attribute("#maker-end[data-outcome=won]", "data-secret") == maker.reveal()


def test_wordle_is_lost_after_six_wrong_guesses_and_shows_the_secret(page, base, books_played):
    game = Game.from_dict(books_played["wordle"]["game"])
    maker = Codemaker(game, seed=11)
    page.goto(f"{base}/wordle/maker.html?seed=11")
    expect(page.locator("#maker-status")).to_contain_text("Guess 1 of 6")
    page.click("#maker-possible")
    expect(page.locator("#maker-possible-list .possible li")).to_have_count(60)
    page.click("#maker-possible-all")
    expect(page.locator("#maker-possible-list .possible li")).to_have_count(2315)
    page.click("#maker-possible")  # closed again
    words = [w for w in ("CRANE", "Slate", "pious", "dumpy", "fjord", "glyph", "bawdy")
             if w.lower() != maker.reveal()][:6]
    refused = {"cran": "has 4 symbols", "zzzzz": "not one of the 12,972 guesses",
               "cr4ne": "not one of the symbols"}
    for n, word in enumerate(words, 1):
        if n <= len(refused):  # invalid guesses are explained and not counted
            text, why = list(refused.items())[n - 1]
            page.fill("#maker-guess", text)
            page.press("#maker-guess", "Enter")
            expect(page.locator("#maker-message")).to_contain_text(why)
            expect(page.locator("#maker-message")).to_contain_text("(not counted)")
            expect(page.locator("#maker-status")).to_contain_text(f"Guess {n} of 6")
        guess(page, word, n)
        assert answers(page)[-1] == [word.lower(), maker.answer(word.lower())]
    end = page.locator("#maker-end[data-outcome=lost]")
    expect(end).to_contain_text("Out of guesses: the secret was")
    assert end.get_attribute("data-secret") == maker.reveal()
    assert page.is_disabled("#maker-guess")
    assert len(maker.moves) == 6 and not maker.solved


def test_hard_mode_refuses_a_guess_that_does_not_fit_as_treegen_does(page, base):
    maker = Codemaker(HARD, seed=3)
    first = next(c for c in HARD.code_strings if c != maker.reveal())
    key = maker.answer(first)
    rules = {**HARD.to_dict_rules(), "hard": True}
    wrong = next(c for c in HARD.code_strings if not hard_allows(rules, first, key, c))
    with pytest.raises(CodeError) as refused:
        maker.answer(wrong)
    page.goto(f"{base}/hard/maker.html?seed=3")
    page.fill("#maker-guess", "AAB")
    page.press("#maker-guess", "Enter")
    expect(page.locator("#maker-message")).to_contain_text("repeats a symbol")
    guess(page, first.lower(), 1)  # any case
    assert answers(page) == [[first, key]]
    page.fill("#maker-guess", wrong.lower())
    page.press("#maker-guess", "Enter")
    expect(page.locator("#maker-message")).to_have_text(f"{refused.value} (not counted)")
    expect(page.locator("#maker-history li")).to_have_count(1)
    fits = maker.possible()[0]
    guess(page, fits, 2)
    assert answers(page)[-1] == [fits, maker.answer(fits)]


# -- the player off its book -------------------------------------------------------------------

def pegs(key):
    """An answer as people type black and white pegs: 2A1B as BBW, b2 w1 or 2B1W."""
    a, b = int(key[0]), int(key[2])
    return ["B" * a + "W" * b or "0A0B", f"b{a} w{b}", f"{a}B{b}W"][(a + b) % 3]


def test_off_its_book_the_player_goes_on_live_with_treegen_s_choice(page, base, books_played):
    book, game, secret = books_played["pruned"], Game.preset("mastermind"), "3456"
    page.goto(f"{base}/pruned/index.html")
    root = book["tree"]["guess"]
    assert page.get_attribute("#play-guess .code", "data-code") == root
    assert page.is_hidden("#play-live")
    moves = [(root, score(root, secret))]
    assert moves[0][1] == "0A0B"  # the branch the book lacks
    page.fill("#play-answer", "0a0b")
    page.press("#play-answer", "Enter")
    expect(page.locator("#play-live")).to_contain_text("Off the book")
    expect(page.locator("#play-live")).to_contain_text("minimax (the book's strategy)")
    page.click("#play-undo")  # back on the book, where it left it
    expect(page.locator("#play-live")).to_be_hidden()
    assert page.get_attribute("#play-guess .code", "data-code") == root
    page.fill("#play-answer", "0A0B")
    page.press("#play-answer", "Enter")
    for n in range(2, 12):
        expect(page.locator("#play-history li")).to_have_count(n - 1)
        if page.locator("#play-guess .solved").count():
            break
        shown = page.get_attribute("#play-guess .code", "data-code")
        expected, left = python_choice(game, moves, "minimax", "all")
        assert shown == expected, moves
        plural = "s" if left != 1 else ""
        expect(page.locator("#play-guess .left")).to_have_text(f"{left} secret{plural} possible")
        if n == 2:
            expect(page.locator("#play-live")).to_contain_text(
                f"over all 1,296 allowed guesses against the {left} possible secrets")
        key = score(shown, secret)
        moves.append((shown, key))
        page.fill("#play-answer", pegs(key))
        page.press("#play-answer", "Enter")
    assert page.get_attribute("#play-guess .solved .code", "data-code") == secret
    assert moves[-1] == (secret, "4A0B")
    expect(page.locator("#play-live")).to_have_text("Off the book: the rest was computed live.")
    # an answer no secret of the game gives is refused, as on the book
    page.click("#play-reset")
    page.fill("#play-answer", "3A1B")
    page.press("#play-answer", "Enter")
    expect(page.locator("#play-message")).to_contain_text("impossible")


# -- Jotto: counts of letters in common, and the win ---------------------------------------------

SPELLED = {"0": "none", "win": " Win "}  # Jotto's other spellings, typed as a person would


def test_a_jotto_book_is_played_on_and_off_its_book_to_the_win(page, base, books_played):
    book, secret = books_played["jotto"], JOTTO_SECRET
    page.goto(f"{base}/jotto/index.html")
    expect(page.locator(".hint").first).to_contain_text("win when it is your secret")
    root = book["tree"]["guess"]
    moves = [(root, score(root, secret, "jotto"))]
    page.fill("#play-answer", str(len(root) + 1))  # more letters than a guess has
    page.press("#play-answer", "Enter")
    expect(page.locator("#play-message")).to_contain_text("impossible")
    page.fill("#play-answer", SPELLED.get(moves[0][1], moves[0][1]))
    page.press("#play-answer", "Enter")
    expect(page.locator("#play-live")).to_contain_text("Off the book")
    for n in range(2, 30):
        expect(page.locator("#play-history li")).to_have_count(n - 1)
        if page.locator("#play-guess .solved").count():
            break
        shown = page.get_attribute("#play-guess .code", "data-code")
        assert shown == python_choice(JOTTO, moves, "minimax", "all")[0], moves
        key = score(shown, secret, "jotto")
        moves.append((shown, key))
        page.fill("#play-answer", SPELLED.get(key, key))
        page.press("#play-answer", "Enter")
    assert moves[-1] == (secret, "win"), (moves, page.text_content("#play-message"))
    assert page.get_attribute("#play-guess .solved .code", "data-code") == secret
    history = page.eval_on_selector_all("#play-history li b", "bs => bs.map(b => b.textContent)")
    assert history == [key for _, key in moves]


def test_the_maker_of_a_jotto_game_counts_an_anagram_and_wins_only_on_the_secret(page, base):
    seed = next(n for n in range(100) if len(set(Codemaker(JOTTO, seed=n).reveal())) > 1)
    maker = Codemaker(JOTTO, seed=seed)
    secret = maker.reveal()
    anagram = secret[1:] + secret[0]
    assert anagram != secret
    page.goto(f"{base}/jotto/maker.html")
    expect(page.locator("#maker .hint").first).to_contain_text("with the letters in common")
    page.fill("#maker-seed", str(seed))
    page.click("#maker-new")
    expect(page.locator("#maker-status")).to_contain_text(f"seed {seed}")
    guess(page, anagram, 1)
    assert answers(page) == [[anagram, maker.answer(anagram)]] == [[anagram, "4"]]
    assert page.locator("#maker-end[data-outcome]").count() == 0
    page.click("#maker-possible")
    play_first_possible(page, maker, range(2, 15))
    assert maker.solved and answers(page)[-1] == [secret, "win"]
    assert page.get_attribute("#maker-end[data-outcome=won]", "data-secret") == secret


# -- Wordle's tree pages -----------------------------------------------------------------------

def test_wordle_starts_with_2315_secrets_and_its_root_is_a_readable_grid(browser, base, books_played,
                                                                         tmp_path):
    book = books_played["wordle"]
    assert Player(book).remaining() == 2315
    first = book["tree"]["next"]
    for width, height in ((1280, 800), (390, 844)):
        phone = width < 500
        view = browser.new_page(viewport={"width": width, "height": height}, is_mobile=phone,
                                has_touch=phone)
        try:
            view.goto(f"{base}/wordle/index.html")
            expect(view.locator("#play-guess .left")).to_have_text("2315 secrets possible")
            assert view.locator(".picture svg").count() == 0
            cards = view.locator(".branches .grid > li")
            expect(cards).to_have_count(len(first))
            boxes = cards.evaluate_all(
                "cs => cs.slice(0, 12).map(c => { const r = c.getBoundingClientRect(); "
                "const s = getComputedStyle(c.querySelector('.next .code')); "
                "return [r.width, r.height, parseFloat(s.fontSize)]; })")
            assert all(w >= 140 and h >= 60 and size >= 14 for w, h, size in boxes), boxes
            columns = len({round(b) for b in cards.evaluate_all(
                "cs => cs.slice(0, 8).map(c => c.getBoundingClientRect().left)")})
            assert columns >= (4 if not phone else 2)
            assert view.evaluate("document.documentElement.scrollWidth") <= width
            view.screenshot(path=str(tmp_path / f"wordle-{width}.png"))
            # the player lights the card of the answer given; the sort puts the largest first
            answer = next(iter(first))
            view.fill("#play-answer", answer)
            view.press("#play-answer", "Enter")
            expect(view.locator(f'.branches [id="t-{answer}"]')).to_have_class(re.compile(r"\bpl\b"))
            view.click(".branches [data-sort=secrets]")
            expect(view.locator(".branches [data-sort=secrets]")).to_have_attribute("aria-pressed", "true")
            sizes = cards.evaluate_all("cs => cs.map(c => +c.dataset.secrets)")
            assert sizes == sorted(sizes, reverse=True) and sum(sizes) == 2315
            view.click("#play-reset")
        finally:
            view.close()


def test_mastermind_s_answers_are_black_and_white_pegs_on_the_code_maker_page(page, base):
    """The "you guess" page speaks the game's notation: Mastermind's answers drawn as small black
    and white pegs, as many as the answer has, and told as pegs."""
    maker = Codemaker(Game.preset("mastermind"), seed=7)
    page.goto(f"{base}/mm/maker.html?seed=7")
    expect(page.locator("#maker")).to_contain_text("I answer with black and white pegs")
    for n, code in enumerate(["1234", "3456", "1122"], 1):
        guess(page, code, n)
        written = maker.game.notation.format(maker.answer(code))
        drawn = page.eval_on_selector_all(f"#maker-history li:nth-child({n}) .answer-peg",
                                          "ps => ps.map(p => p.dataset.peg).join('')")
        assert drawn == (written if written != "none" else ""), code
        assert answers(page)[-1] == [code, maker.moves[-1][1]]  # the key stays canonical
