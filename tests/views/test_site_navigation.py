"""The site in Chromium, as a visitor uses it: the whole first level in view on arrival at 1280 x 800
(as a picture, or as cards where the picture would be too small to read), zoom and pan, a game
played through the page lighting its path, Find keeping its result across pages, and a phone's
width."""

import re

import pytest

from tests.helpers.browsing import site_served
from tests.helpers.ci import requires_binary
from treegen.api import build_book
from treegen.book.format import feedback
from treegen.player import Player

pytestmark = [requires_binary("chromium"), requires_binary("dot")]




@pytest.fixture(scope="module")
def books():
    return {"mm": build_book("mastermind", "minimax"), "bc": build_book("bulls-and-cows", "minimax")}


@pytest.fixture(scope="module")
def base(tmp_path_factory, books):
    """The site served by a plain HTTP server on a free port, stopped after the tests."""
    with site_served(books, tmp_path_factory.mktemp("site") / "site") as base:
        yield base


def box(page, selector):
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); "
                                           "return [r.left, r.top, r.right, r.bottom]; }")


def view_box(page):
    return [float(v) for v in page.get_attribute(".picture svg", "viewBox").split()]


def moves(book, secret):
    player, out = Player(book), []
    while not player.solved:
        guess = player.guess
        answer = "%dA%dB" % feedback(guess, secret)
        out.append((guess, answer))
        player.answer(answer)
    return out


def shown(page):
    """The way the tree is on view: its picture, or (where the picture would only fit its frame
    with labels too small to read) its cards; the selector of the frame and the node id prefix."""
    if page.is_visible(".picture svg"):
        assert page.is_hidden(".picture ~ .branches")
        return ".picture svg", "t-"
    assert page.is_visible(".branches .grid")
    return ".branches .grid", "c-"


@pytest.mark.parametrize("name", ["mm", "bc"])
def test_the_root_page_shows_the_whole_first_level_without_scrolling(page, base, books, name,
                                                                     tmp_path):
    page.goto(f"{base}/{name}/index.html")
    frame_selector, prefix = shown(page)
    frame = box(page, frame_selector)
    assert frame[3] <= 800 and frame[2] <= 1280  # the picture itself is on the screen
    for answer in books[name]["tree"]["next"]:
        left, top, right, bottom = box(page, f'[id="{prefix}{answer}"]')
        assert frame[0] <= left and right <= frame[2] and frame[1] <= top and bottom <= frame[3]
        assert bottom - top >= 14, answer  # drawn large enough to read, not a speck
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=str(tmp_path / f"{name}-root.png"))


def test_the_picture_and_its_cards_are_a_click_apart(page, base, books):
    """Cards where the picture would be too small to read, and the picture on request; the cards
    draw the same nodes as the picture."""
    page.goto(f"{base}/mm/index.html")
    assert shown(page)[0] == ".branches .grid"  # Mastermind's first level is too tall to read
    picture = set(page.eval_on_selector_all(".picture g.node[id^='t-']", "gs => gs.map(g => g.id)"))
    cards = set(page.eval_on_selector_all(".branches [id^='c-']", "cs => cs.map(c => c.id)"))
    assert {"c-" + i[2:] for i in picture} == cards | {"c-root"}
    page.click('.branches [data-view="picture"]')
    assert shown(page)[0] == ".picture svg"
    page.click('.picture [data-view="cards"]')
    assert shown(page)[0] == ".branches .grid"
    page.click(".branches .grid > li > a.answer >> nth=0")  # a card of a big subtree: its page
    page.wait_for_url(re.compile(r"/mm/n-.*\.html"))


def test_zoom_buttons_and_dragging_move_the_view_and_fit_brings_it_back(page, base):
    page.goto(f"{base}/mm/index.html")
    page.click('.branches [data-view="picture"]')  # too small to read at "fit": the cards first
    full = view_box(page)
    page.click('[data-zoom="in"]')
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(full[2] / 1.5, rel=1e-3)
    left, top, right, bottom = box(page, ".picture svg")
    page.mouse.move((left + right) / 2, (top + bottom) / 2)
    page.mouse.down()
    page.mouse.move((left + right) / 2 + 120, (top + bottom) / 2 + 40, steps=5)
    page.mouse.up()
    dragged = view_box(page)
    assert dragged[0] < zoomed[0] and dragged[1] < zoomed[1] and dragged[2] == zoomed[2]
    assert page.url.endswith("/mm/index.html")  # a drag over a link does not follow it
    page.click('[data-zoom="fit"]')
    assert view_box(page) == pytest.approx(full)
    page.mouse.move((left + right) / 2, (top + bottom) / 2)
    page.mouse.wheel(0, -300)
    assert view_box(page)[2] < full[2]


def test_a_game_played_through_the_page_lights_its_path(page, base, books):
    book = books["mm"]
    played = moves(book, "6543")
    page.goto(f"{base}/mm/index.html")
    assert page.locator(".picture g.pl").count() == 0
    for guess, answer in played[:2]:
        assert page.get_attribute("#play-guess .code", "data-code") == guess
        page.fill("#play-answer", answer)
        page.press("#play-answer", "Enter")
    first, second = played[0][1], played[1][1]
    lit = set(page.eval_on_selector_all(".picture g.pl", "gs => gs.map(g => g.id)"))
    on_page = {g for g in (f"t-{first}", f"f-{first}", f"t-{first}-{second}", f"f-{first}-{second}")
               if page.locator(f'[id="{g}"]').count()}
    assert {"t-root", f"t-{first}", f"f-{first}"} <= lit and lit == {"t-root"} | on_page
    page.click("#play-undo")
    lit = set(page.eval_on_selector_all(".picture g.pl", "gs => gs.map(g => g.id)"))
    assert lit == {"t-root", f"t-{first}", f"f-{first}"}


def test_find_keeps_its_result_on_the_pages_its_links_lead_to(page, base, books):
    book = books["mm"]
    secret = max(("6543", "5566", "3456", "6161", "2435"), key=lambda s: len(moves(book, s)))
    path = [answer for _, answer in moves(book, secret)][:-1]
    page.goto(f"{base}/mm/index.html")
    page.fill("#find-secret", secret)
    page.press("#find-secret", "Enter")
    count = page.locator("#find-result .moves li").count()
    assert count == len(path) + 1
    page.click("#find-result .moves li:last-child a")
    page.wait_for_url(re.compile(r"/mm/n-.*\.html#node-"))
    assert page.input_value("#find-secret") == secret
    assert page.locator("#find-result .moves li").count() == count
    here = page.get_attribute("body", "data-page").split("-")
    lit = set(page.eval_on_selector_all(".picture g.hl", "gs => gs.map(g => g.id)"))
    deepest = "t-" + "-".join(path)
    assert deepest in lit and "t-" + "-".join(here) in lit
    assert page.get_attribute(f'[id="{deepest}"]', "class").split().count("at") == 1
    assert page.evaluate("window.scrollY") == 0  # the page did not jump down to the node


def test_a_phone_can_browse_find_and_play(browser, base, books, tmp_path):
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        for url in ("index.html", "bc/index.html"):
            phone.goto(f"{base}/{url}")
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390, url
        left, top, right, bottom = box(phone, shown(phone)[0])
        assert right - left > 300 and bottom - top > 300
        phone.fill("#find-secret", "9876")
        phone.press("#find-secret", "Enter")
        assert phone.locator("#find-result .moves li").count() == len(moves(books["bc"], "9876"))
        first, answer = moves(books["bc"], "9876")[0]
        assert phone.get_attribute("#play-guess .code", "data-code") == first
        phone.fill("#play-answer", answer)
        phone.press("#play-answer", "Enter")
        assert phone.locator("#play-history li").count() == 1
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    finally:
        phone.close()
