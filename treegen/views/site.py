"""A static web site of books: an index comparing them, linked tree pages, a finder and a player.

Plain files that work from the file system and from any web server: every page is HTML with its
picture inlined as SVG, and each book's data is a script (``book-data.js``) rather than JSON to fetch,
because browsers refuse ``fetch`` on ``file://``. A page shows ``depth`` levels below one node; a
cut-off node with at least ``min_secrets`` secrets links to its own page, and smaller subtrees (a few
nodes) are drawn whole where they are reached, which keeps a 10,000-secret book to a few hundred pages.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources

from treegen.data import BookData, Stats
from treegen.errors import TreegenError
from treegen.files import folders
from treegen.views.dot import dot_source, peg_colours, uses_pegs
from treegen.views.encode import html_text
from treegen.views.graphviz import svg_pages
from treegen.views.tree import Size, guesses_on_path, measure, node_at, path_key

PAGE_DEPTH = 3
MIN_SECRETS = 5
ASSETS = ("style.css", "player.js", "site.js")
MARKER = ".treegen-site"
_RESERVED = {"assets", "index.html", MARKER}


class SiteError(TreegenError):
    """A site that cannot be written where it was asked to go."""


@dataclass
class _Book:
    slug: str
    book: BookData
    sizes: dict[int, Size]
    pegs: dict[str, str] | None
    pages: dict[tuple[str, ...], str] = field(default_factory=dict)  # page root -> DOT text


def page_file(path: Sequence[str]) -> str:
    """The file of the page that starts at the node the answers ``path`` lead to."""
    return "index.html" if not path else f"n-{path_key(path)}.html"


def build_site(books: Sequence[tuple[str, BookData]], out_dir: str | os.PathLike[str],
               depth: int = PAGE_DEPTH, min_secrets: int = MIN_SECRETS,
               jobs: int | None = None, sources: Sequence[str | os.PathLike[str]] = ()) -> dict[str, int]:
    """Write the site of ``(name, book)`` pairs into ``out_dir``; returns pages written per book.

    The site is built in a temporary folder next to ``out_dir`` and swapped into place in one step,
    replacing an earlier treegen site there (never any other folder, and never one that holds a
    file of ``sources``, the books read): ``out_dir`` always holds the old site or the new one.
    """
    if depth < 2:
        raise SiteError(f"page depth must be at least 2, not {depth}")
    if not books:
        raise SiteError("a site needs at least one book")
    out_dir = os.path.realpath(os.fspath(out_dir))
    parent = os.path.dirname(out_dir)
    folders.recover(parent)
    _check_target(out_dir, sources)
    entries = [_plan(slug, book, depth, min_secrets) for slug, book in _slugs(books)]
    graphs = [source for entry in entries for source in entry.pages.values()]
    pictures = iter(_svgs(graphs, jobs))
    try:
        staging = folders.staging(parent)
    except OSError as exc:
        raise SiteError(f"cannot write {out_dir}: {exc.strerror or exc}") from None
    try:
        _write(os.path.join(staging, MARKER), "treegen site\n")
        os.mkdir(os.path.join(staging, "assets"))
        for name in ASSETS:
            text = resources.files("treegen.views").joinpath("web").joinpath(name).read_text(encoding="utf-8")
            _write(os.path.join(staging, "assets", name), text)
        for entry in entries:
            folder = os.path.join(staging, entry.slug)
            os.mkdir(folder)
            _write(os.path.join(folder, "book.json"), _book_json(entry.book))
            _write(os.path.join(folder, "book-data.js"), _book_data(entry, depth))
            for path in entry.pages:
                _write(os.path.join(folder, page_file(path)), _node_page(entry, path, next(pictures)))
        _write(os.path.join(staging, "index.html"), _index_page(entries))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)
        folders.swap(staging, out_dir)
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise SiteError(f"cannot write {out_dir}: {exc.strerror or exc}") from None
        raise
    return {entry.slug: len(entry.pages) for entry in entries}


# -- planning ----------------------------------------------------------------------------------

def _slugs(books: Sequence[tuple[str, BookData]]) -> list[tuple[str, BookData]]:
    """File-name-safe, distinct folder names for the books, in the order given."""
    taken, named = set(_RESERVED), []
    for name, book in books:
        base = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip(".-") or "book"
        slug, n = base, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        named.append((slug, book))
    return named


def _plan(slug: str, book: BookData, depth: int, min_secrets: int) -> _Book:
    """Every page of a book, found by drawing: each page's cut-off links are the next pages."""
    game = book["game"]
    entry = _Book(slug, book, measure(book["tree"]), peg_colours(game) if uses_pegs(game) else None)
    todo: list[tuple[str, ...]] = [()]
    while todo:
        path = todo.pop(0)
        linked: list[tuple[str, ...]] = []

        def href(target: tuple[str, ...], linked: list[tuple[str, ...]] = linked) -> str:
            linked.append(target)
            return page_file(target)

        entry.pages[path] = dot_source(book, depth, path, pegs=entry.pegs is not None,
                                       full_below=min_secrets, href=href, title=False,
                                       sizes=entry.sizes)
        todo.extend(linked)
    return entry


def _svgs(sources: list[str], jobs: int | None) -> list[str]:
    """All pictures with a few ``dot`` runs in parallel, each laying out a batch of pages."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, 8, len(sources)))
    chunks, size = [], -(-len(sources) // jobs)
    for i in range(0, len(sources), size):
        chunks.append(sources[i:i + size])
    if len(chunks) == 1:
        return svg_pages(chunks[0])
    with ThreadPoolExecutor(len(chunks)) as pool:
        return [svg for batch in pool.map(svg_pages, chunks) for svg in batch]


# -- writing -----------------------------------------------------------------------------------

def _check_target(out_dir: str, sources: Sequence[str | os.PathLike[str]]) -> None:
    if os.path.exists(out_dir):
        if not os.path.isdir(out_dir):
            raise SiteError(f"{out_dir} exists and is not a folder")
        if os.listdir(out_dir) and not os.path.exists(os.path.join(out_dir, MARKER)):
            raise SiteError(f"{out_dir} is a folder that is not a treegen site; "
                            "choose a new or empty folder")
    for source in sources:
        real = os.path.realpath(os.fspath(source))
        if os.path.commonpath([real, out_dir]) == out_dir:
            raise SiteError(f"the book {source} is inside {out_dir}, which the new site replaces; "
                            "copy it out or choose another folder")


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def _book_json(book: BookData) -> str:
    from treegen.book.format import dumps
    return dumps(book)


def _book_data(entry: _Book, depth: int) -> str:
    """The book and what the page scripts need, as a script: it loads from file:// too."""
    data = {"name": entry.slug, "depth": depth, "pegs": entry.pegs,
            "pages": sorted(path_key(p) for p in entry.pages), "book": entry.book}
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    return f"window.TREEGEN_BOOK = {text};\n"


# -- HTML --------------------------------------------------------------------------------------

def _esc(text: object) -> str:
    return html_text(str(text))


def code_html(code: str, pegs: dict[str, str] | None) -> str:
    """A code as text, or as a row of coloured pegs (each titled with its symbol)."""
    if pegs is None:
        return f'<span class="code" data-code="{_esc(code)}">{_esc(code)}</span>'
    dots = "".join(f'<span class="peg" style="background:{pegs[c]}" title="{_esc(c)}"></span>'
                   for c in code)
    return f'<span class="code pegs" data-code="{_esc(code)}" title="{_esc(code)}">{dots}</span>'


def _head(title: str, root: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(title)}</title>\n"
            f"<link rel=\"stylesheet\" href=\"{root}assets/style.css\">\n</head>\n")


def _book_title(book: BookData) -> str:
    return f"{book['game']['name']} · {book['strategy']['name']}"


def _node_page(entry: _Book, path: tuple[str, ...], svg: str) -> str:
    book, tree = entry.book, entry.book["tree"]
    node = node_at(tree, path)
    size = entry.sizes[id(node)]
    title = _book_title(book)
    # Every step links to the page that shows its node; the last one is this page.
    crumbs = ['<a href="index.html">start</a>' if path else '<span>start</span>']
    guesses = guesses_on_path(tree, path)
    for i, (guess, answer) in enumerate(zip(guesses, path)):
        step = f"{code_html(guess, entry.pegs)} <b>{answer}</b>"
        prefix = path[:i + 1]
        if prefix != path:
            shown = next(prefix[:n] for n in range(len(prefix), -1, -1) if prefix[:n] in entry.pages)
            crumbs.append(f'<a href="{page_file(shown)}#t-{path_key(prefix)}">{step}</a>')
        else:
            crumbs.append(f'<span class="here">{step}</span>')
    left = size.height
    facts = (f"{size.secrets} secret{'s' if size.secrets != 1 else ''} still possible · "
             f"each solved within {left} guess{'es' if left != 1 else ''} from here")
    if size.possible and node["next"]:
        facts += " · this guess may be the secret"
    where = "the first guess · " if not path else ""
    heading = f"Guess {len(path) + 1}: {code_html(node['guess'], entry.pegs)}"
    return (_head(f"{title} · {path_key(path)} · treegen", "../")
            + f'<body class="book" data-page="{path_key(path)}">\n'
            + _top_bar(book, "../")
            + '<main class="layout">\n<section class="tree">\n'
            + f'<nav class="crumbs" aria-label="path">{" <span class=sep>›</span> ".join(crumbs)}'
              "</nav>\n"
            + f'<h1>{heading}</h1>\n<p class="facts">{where}{facts}</p>\n'
            + _legend(entry)
            + f'<div class="picture">\n{_inline_svg(svg)}</div>\n</section>\n'
            + _sidebar(entry)
            + "</main>\n"
            + '<script src="book-data.js"></script>\n<script src="../assets/player.js"></script>\n'
              '<script src="../assets/site.js"></script>\n</body>\n</html>\n')


def _top_bar(book: BookData | None, root: str) -> str:
    parts = [f'<a class="brand" href="{root}index.html">treegen</a>']
    if book is not None:
        parts.append(f'<span class="sep">/</span><a href="index.html">{_esc(_book_title(book))}</a>'
                     f'<span class="muted">pool {_esc(book["strategy"]["pool"])} · '
                     f'{book["stats"]["secrets"]} secrets · average {book["stats"]["average"]:.4f}'
                     f' · max {book["stats"]["max"]}</span>')
    return f'<header class="top">{"".join(parts)}</header>\n'


def _legend(entry: _Book) -> str:
    keys = ('<span class="key"><span class="swatch cut"></span>continues on its own page</span>'
            '<span class="key"><span class="swatch leaf"></span>solved</span>'
            '<span class="key"><span class="swatch answer">1A2B</span>answer: A in place, '
            'B elsewhere</span>')
    if entry.pegs:
        keys += "".join(f'<span class="key">{code_html(s, entry.pegs)}{_esc(s)}</span>'
                        for s in entry.pegs)
    return f'<div class="legend">{keys}</div>\n'


def _sidebar(entry: _Book) -> str:
    game = entry.book["game"]
    kind = "repeats allowed" if game["repetition"] else "no repeats"
    rules = f"{game['length']} symbols from {_esc(game['symbols'])}, {kind}"
    return f"""<aside>
<section class="card" id="find">
<h2>Find a secret</h2>
<form id="find-form" autocomplete="off">
<label for="find-secret">The path of secret</label>
<div class="row"><input id="find-secret" name="secret" placeholder="{_esc(game['symbols'][:game['length']])}" spellcheck="false"><button type="submit">Find</button></div>
</form>
<div id="find-result" aria-live="polite"></div>
</section>
<section class="card" id="play">
<h2>Play</h2>
<p class="hint">Think of a secret ({rules}). Answer each guess with <b>aAbB</b>: a right symbols in the right place, b right symbols elsewhere (1A2B, 12 and 1,2 all work).</p>
<div id="play-guess" class="guess"></div>
<form id="play-form" autocomplete="off">
<div class="row"><input id="play-answer" name="answer" placeholder="your answer, e.g. 1A2B" spellcheck="false"><button type="submit">Answer</button></div>
</form>
<div class="row buttons"><button type="button" id="play-undo" class="secondary">Undo</button><button type="button" id="play-reset" class="secondary">New game</button><a id="play-where" href="index.html">show in tree</a></div>
<p id="play-message" role="status"></p>
<ol id="play-history"></ol>
</section>
</aside>
"""


def _inline_svg(svg: str) -> str:
    """Graphviz's SVG without the XML prologue and the node-name tooltips."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    return re.sub(r"<title>[^<]*</title>\n?", "", body)


def _index_page(entries: list[_Book]) -> str:
    longest = max((int(k) for e in entries for k in e.book["stats"]["histogram"]), default=1)
    # The best average among the books of the same game is marked, when there is a comparison.
    games: dict[str, list[float]] = {}
    for e in entries:
        games.setdefault(json.dumps(e.book["game"], sort_keys=True), []).append(
            e.book["stats"]["average"])
    rows = []
    for e in entries:
        book, stats, strategy = e.book, e.book["stats"], e.book["strategy"]
        rivals = games[json.dumps(book["game"], sort_keys=True)]
        top = len(rivals) > 1 and stats["average"] == min(rivals)
        rows.append(
            f'<tr><td><a class="book-link" href="{e.slug}/index.html">{_esc(e.slug)}</a></td>'
            f'<td>{_esc(book["game"]["name"])}</td><td>{_esc(strategy["name"])}</td>'
            f'<td>{_esc(strategy["pool"])}</td><td>{code_html(strategy["first"], e.pegs)}</td>'
            f'<td class="num">{stats["secrets"]}</td><td class="num">{stats["total"]}</td>'
            f'<td class="num{" best" if top else ""}">{stats["average"]:.4f}</td>'
            f'<td class="num">{stats["max"]}</td><td>{_histogram(stats, longest)}</td></tr>')
    count = len(entries)
    return (_head("treegen · strategy books", "")
            + '<body class="index">\n' + _top_bar(None, "")
            + '<main class="wide">\n<h1>Strategy books</h1>\n'
            + f'<p class="facts">{count} book{"s" if count != 1 else ""}. Average and max count '
              "the guesses needed per secret, the final all-correct guess included; the chart "
              "shows how many secrets need 1, 2, 3, … guesses. Open a book to browse its tree "
              "page by page, find the path of any secret, or let it guess your secret.</p>\n"
            + '<table class="books">\n<thead><tr><th>book</th><th>game</th><th>strategy</th>'
              '<th>pool</th><th>first guess</th><th class="num">secrets</th>'
              '<th class="num">total</th><th class="num">average</th><th class="num">max</th>'
              "<th>guesses needed</th></tr></thead>\n<tbody>\n" + "\n".join(rows)
            + "\n</tbody>\n</table>\n</main>\n</body>\n</html>\n")


def _histogram(stats: Stats, longest: int) -> str:
    """Inline SVG bars: secrets per number of guesses, scaled to the book's largest bar."""
    counts = {int(k): v for k, v in stats["histogram"].items()}
    peak = max(counts.values(), default=1)
    bar, gap, height = 16, 4, 40
    width = longest * (bar + gap)
    parts = [f'<svg class="histogram" width="{width}" height="{height + 14}" '
             f'viewBox="0 0 {width} {height + 14}" role="img" '
             f'aria-label="secrets per number of guesses">']
    for d in range(1, longest + 1):
        n = counts.get(d, 0)
        h = round(height * n / peak, 1) if n else 0
        x = (d - 1) * (bar + gap)
        share = 100 * n / stats["secrets"] if stats["secrets"] else 0
        parts.append(f'<g><title>{d} guess{"es" if d != 1 else ""}: {n} secrets '
                     f'({share:.1f}%)</title><rect x="{x}" y="{height - max(h, 1 if n else 0)}" '
                     f'width="{bar}" height="{max(h, 1 if n else 0)}" rx="2"/>'
                     f'<text x="{x + bar / 2}" y="{height + 11}">{d}</text></g>')
    parts.append(f'<line x1="0" y1="{height + 0.5}" x2="{width - gap}" y2="{height + 0.5}"/></svg>')
    return "".join(parts)
