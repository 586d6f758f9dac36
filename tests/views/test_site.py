import json
import os
import re
from html.parser import HTMLParser

import pytest

from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.api import build_book
from treegen.errors import SiteError
from treegen.rules.game import Game
from treegen.views.dot import WIDEST, fitting_depth, level_widths
from treegen.views.site import MARKER, build_site, page_file
from treegen.views.tree import measure, node_at

pytestmark = requires_binary("dot")


class Links(HTMLParser):
    """Every href of a page (HTML anchors and the SVG's xlink:href) and every element id."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "xlink:href", "src"):
                self.hrefs.append(value)
            if name == "id":
                self.ids.add(value)


def parse(path):
    links = Links()
    links.feed(path.read_text(encoding="utf-8"))
    return links


def walk(tree, path=()):
    yield path, tree
    for answer, child in tree["next"].items():
        yield from walk(child, (*path, answer))


@pytest.fixture(scope="module")
def small_book():
    return build_book(Game("ABCD", 3, True), "entropy")


@pytest.fixture(scope="module")
def site(tmp_path_factory, mastermind_minimax, small_book):
    out = tmp_path_factory.mktemp("site") / "site"
    pages = build_site([("mm", mastermind_minimax), ("small", small_book)], out)
    return out, pages


def test_index_compares_the_books(site, mastermind_minimax, small_book):
    out, _ = site
    text = (out / "index.html").read_text()
    assert {"mm/index.html", "small/index.html", "assets/style.css"} <= set(parse(out / "index.html").hrefs)
    for book in (mastermind_minimax, small_book):
        stats = book["stats"]
        assert f'<td class="num">{stats["total"]}</td>' in text
        assert f'{stats["average"]:.4f}' in text and book["strategy"]["name"] in text
        for depth, count in stats["histogram"].items():
            share = 100 * count / stats["secrets"]
            noun = "guesses" if depth != "1" else "guess"
            assert f"<title>{depth} {noun}: {count} secrets ({share:.1f}%)" in text


def test_pages_are_linked_from_the_root_and_cover_every_node(site, mastermind_minimax):
    out, pages = site
    folder = out / "mm"
    files = {p.name for p in folder.glob("*.html")}
    assert len(files) == pages["mm"]
    # follow the links of the pictures from the root page: every page is reachable
    seen, todo, drawn = set(), ["index.html"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        links = parse(folder / name)
        drawn |= {i[2:] for i in links.ids if i.startswith("t-")}
        for href in links.hrefs:
            target = href.split("#")[0]
            if target and not target.startswith(("../", "book-data")):
                assert (folder / target).exists(), (name, href)
                if target.startswith("n-") or target == "maker.html":
                    todo.append(target)
    assert seen == files
    everything = {"-".join(path) or "root" for path, _ in walk(mastermind_minimax["tree"])}
    assert drawn == everything


def test_only_big_cut_off_subtrees_get_pages(site, mastermind_minimax):
    """A page starts where the page above it cuts off: as many levels below as that page draws,
    which is its depth, or fewer where a level would be wider than a screen shows readably."""
    out, _ = site
    sizes = measure(mastermind_minimax["tree"], mastermind_minimax["game"])
    pages = {()} | {tuple(p.stem[2:].split("-")) for p in (out / "mm").glob("n-*.html")}
    fewer = 0
    for path in pages - {()}:
        node = node_at(mastermind_minimax["tree"], path)
        assert sizes[id(node)].secrets >= 5 and node["next"]
        above = max((path[:n] for n in range(len(path)) if path[:n] in pages), key=len)
        levels = fitting_depth(mastermind_minimax, above, 3, 5, sizes)
        assert len(path) - len(above) == levels - 1
        widths = level_widths(mastermind_minimax["tree"], above, levels, 5, sizes)
        assert levels == 2 or max(widths) <= WIDEST
        fewer += levels < 3
    assert fewer > 0  # the first answers of Mastermind are too many to draw two levels below


def test_breadcrumbs_lead_back_to_the_root(site, mastermind_minimax):
    out, _ = site
    deepest = max((out / "mm").glob("n-*.html"), key=lambda p: p.stem.count("-"))
    path = deepest.stem[2:].split("-")
    nav = re.search(r'<nav class="crumbs".*?</nav>', deepest.read_text(), re.S).group(0)
    hrefs = re.findall(r'href="([^"]+)"', nav)
    assert hrefs[0] == "index.html" and len(hrefs) == len(path)
    for i, href in enumerate(hrefs[1:], 1):
        target, anchor = href.split("#")
        assert anchor == "node-" + "-".join(path[:i])  # names no element: the page does not jump
        node = anchor.replace("node-", "t-", 1)
        assert f'id="{node}"' in (out / "mm" / target).read_text().replace("&#45;", "-")


def test_book_data_is_a_script_with_the_book_and_its_pages(site, mastermind_minimax):
    out, _ = site
    text = (out / "mm" / "book-data.js").read_text()
    prefix = "window.TREEGEN_BOOK = "
    assert text.startswith(prefix) and text.endswith(";\n")
    data = json.loads(text[len(prefix):-2])
    assert data["book"] == mastermind_minimax
    assert {page_file(() if k == "root" else k.split("-")) for k in data["pages"]} | {"maker.html"} == {
        p.name for p in (out / "mm").glob("*.html")}
    assert data["pegs"]["1"] and data["depth"] == 3 and data["limit"] is None
    assert books.load(out / "mm" / "book.json") == mastermind_minimax
    for asset in ("player.js", "live.js", "offbook.js", "site.js", "codemaker.js", "maker.js",
                  "style.css"):
        assert (out / "assets" / asset).stat().st_size > 0


def test_same_books_give_the_same_files_and_a_site_is_replaced(tmp_path, small_book):
    a, b = tmp_path / "a", tmp_path / "b"
    build_site([("small", small_book)], a)
    build_site([("small", small_book)], b)
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes()
    (a / "small" / "stale.html").write_text("old")
    build_site([("other", small_book)], a)
    assert (a / "other" / "index.html").exists() and not (a / "small").exists()
    assert sorted(os.listdir(tmp_path)) == ["a", "b"]  # nothing left behind


def test_refuses_to_replace_a_folder_that_is_not_a_site(tmp_path, small_book):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("mine")
    with pytest.raises(SiteError, match="not a treegen site"):
        build_site([("small", small_book)], tmp_path / "docs")
    assert os.listdir(tmp_path / "docs") == ["notes.txt"]
    assert not (tmp_path / "empty").exists()
    (tmp_path / "empty").mkdir()
    build_site([("small", small_book)], tmp_path / "empty")
    assert (tmp_path / "empty" / MARKER).exists()


def test_book_names_become_distinct_folders(tmp_path, small_book):
    pages = build_site([("my book", small_book), ("my book", small_book), ("assets", small_book)],
                       tmp_path / "s")
    assert list(pages) == ["my-book", "my-book-2", "assets-2"]


def test_cli_site(run, tmp_path, small_book, mastermind_minimax):
    books.save(small_book, tmp_path / "small.json")
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("site", "small.json", "mm.json", "-o", "out", "--depth", "2", "--min-secrets", "1")
    assert result.exit_code == 0, result.output
    count = sum(1 for _ in (tmp_path / "out").rglob("*.html")) - 1
    assert result.output == f"wrote out: 2 books, {count} pages; open out/index.html\n"
    # every inner node has its own page when every cut-off subtree gets one (and maker.html)
    inner = sum(1 for _, node in walk(mastermind_minimax["tree"]) if node["next"])
    assert sum(1 for _ in (tmp_path / "out" / "mm").glob("*.html")) == inner + 1
    result = run("site", "missing.json", "-o", "out")
    assert result.exit_code == 1 and result.output.startswith("Error: cannot read missing.json")


def test_a_huge_book_gets_its_top_levels_as_pages_and_no_dead_link(tmp_path, monkeypatch,
                                                                   mastermind_minimax):
    """Past MOST_PAGES pages (a book of 10^5 secrets has tens of thousands of subtrees worth
    one), the site keeps the top levels, breadth first; a node left without a page is drawn but
    not linked."""
    import treegen.views.site as site_module
    monkeypatch.setattr(site_module, "MOST_PAGES", 6)
    out = tmp_path / "site"
    pages = build_site([("mm", mastermind_minimax)], out)
    folder = out / "mm"
    tree_pages = sorted(p.name for p in folder.glob("n-*.html")) + ["index.html"]
    assert len(tree_pages) == 6 and pages["mm"] == 7  # and the code-maker page
    depths = [name.count("-") for name in tree_pages if name.startswith("n-")]
    assert max(depths) == 1  # the root's answers first: the top level, breadth first
    for name in tree_pages:
        for href in parse(folder / name).hrefs:
            target = href.split("#")[0]
            if target.startswith("n-"):
                assert (folder / target).exists(), (name, href)
