"""The tree readable at first sight: on a laptop (1280 x 800) and a phone (390 x 844), every node
label a tree page shows on arrival is drawn at 11 CSS pixels or more. A picture that would only fit
its frame smaller is shown as cards instead (the same levels), and the picture is a click away."""

import os

import pytest

from tests.helpers.browsing import served, watched
from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.views.site import build_site
from treegen.views.site_html import page_file
from treegen.views.tree import measure

pytestmark = [requires_binary("chromium"), requires_binary("dot")]

LIBRARY = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "books")
BOOKS = {"mastermind": "mastermind-optimal-all.json", "bulls": "bulls-and-cows-minimax-all.json",
         "wordle": "wordle-optimal-all.json"}
SCREENS = {"laptop": (1280, 800), "phone": (390, 844)}
READABLE = 11

#: Every label on view and the size it is drawn at: the picture's text (its font size times the
#: scale the picture is drawn at) where the picture is shown, the cards' text where they are.
LABELS = """() => {
  const out = [], shown = e => e && !e.closest("[hidden]") && e.getBoundingClientRect().width > 0;
  const svg = document.querySelector(".picture svg");
  if (shown(svg)) {
    const frame = svg.getBoundingClientRect();
    svg.querySelectorAll("text").forEach(t => {
      const r = t.getBoundingClientRect(), m = t.getScreenCTM();
      if (!r.width || r.right < frame.left || r.left > frame.right || r.bottom < frame.top ||
          r.top > frame.bottom) return;
      const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      out.push(["picture", t.closest("g[id]").id, t.textContent, size]);
    });
  }
  document.querySelectorAll(".branches .grid > li").forEach(card => {
    if (!shown(card)) return;
    const walk = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.textContent.trim() && shown(n.parentElement)) {
        const size = parseFloat(getComputedStyle(n.parentElement).fontSize);
        out.push(["card", card.id, n.textContent.trim(), size]);
      }
    }
  });
  return out;
}"""


@pytest.fixture(scope="module")
def library():
    return {name: books.load(os.path.join(LIBRARY, file)) for name, file in BOOKS.items()}


@pytest.fixture(scope="module")
def site(tmp_path_factory, library):
    folder = tmp_path_factory.mktemp("site") / "site"
    build_site(list(library.items()), folder)
    with served(folder) as base:
        yield base, folder


def tree_pages(book, folder):
    """The root page, then each page down the biggest answers to the deepest: a wide level first,
    a few nodes last."""
    sizes = measure(book["tree"], book["game"])
    node, path, files = book["tree"], (), ["index.html"]
    while node["next"]:
        answer = max(node["next"], key=lambda a: sizes[id(node["next"][a])].secrets)
        node, path = node["next"][answer], (*path, answer)
        if (folder / page_file(path)).exists():
            files.append(page_file(path))
    return files


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("name", sorted(BOOKS))
def test_every_label_on_view_is_readable_on_arrival(browser, site, library, name, screen):
    base, folder = site
    width, height = SCREENS[screen]
    files = tree_pages(library[name], folder / name)
    assert len(files) >= 3, files
    for file in files:
        with watched(browser, width, height, phone=screen == "phone") as page:
            page.goto(f"{base}/{name}/{file}")
            labels = page.evaluate(LABELS)
            shown = {node for _, node, _, _ in labels}
            assert len(shown) >= 2, (file, labels)  # the node's answers are on view, not nothing
            small = [(node, text, round(px, 1)) for _, node, text, px in labels if px < READABLE]
            assert small == [], (file, small[:6], f"{len(small)} of {len(labels)} labels")
