"""A static web site of books: an index comparing them, linked tree pages, a finder and a player.

Plain files that work from the file system and from any web server: every page is HTML with its
picture inlined as SVG, and each book's data is a script (``book-data.js``) rather than JSON to fetch,
because browsers refuse ``fetch`` on ``file://``. A page shows up to ``depth`` levels below one node
(fewer where a level would be too wide to read once the picture fits the screen); a cut-off node with
at least ``min_secrets`` secrets links to its own page, and smaller subtrees (a few nodes) are drawn
whole where they are reached. A node with more answers than a picture shows readably (Wordle's first
guess has over a hundred) gets no picture: its page lays its answers out as a grid of cards, each
linking to the page of its answer (see :func:`treegen.views.site_html.grid_html`); a picture's page
holds its levels as such cards too, shown instead of the picture where the picture would only fit
the screen with labels under 11 pixels (a phone, a tall first level). Each book also
has a code-maker page, ``maker.html``, where the person guesses and the page answers. The pages'
HTML is :mod:`treegen.views.site_html` and :mod:`treegen.views.site_maker`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from treegen.data import BookData
from treegen.errors import SiteError
from treegen.files import folders
from treegen.views.dot import WIDEST, dot_source, fitting_depth, peg_colours, uses_pegs
from treegen.views.graphviz import svg_pages
from treegen.views.site_html import SiteBook, index_page, node_page, page_file
from treegen.views.site_maker import MAKER_PAGE, guess_limit, maker_page
from treegen.views.site_parts import PART_NODES, split_tree
from treegen.views.tree import measure, node_at, path_key

PAGE_DEPTH = 3
MIN_SECRETS = 5
#: Pages of one book at most: a book of 10^5 secrets and more gets its top levels as pages (breadth
#: first), and its finder and player for the rest, in memory and files that stay small.
MOST_PAGES = 2000
ASSETS = ("style.css", "player.js", "live.js", "offbook.js", "site.js", "codemaker.js", "maker.js")
MARKER = ".treegen-site"
_RESERVED = {"assets", "index.html", MARKER}


def build_site(books: Sequence[tuple[str, BookData]], out_dir: str | os.PathLike[str],
               depth: int = PAGE_DEPTH, min_secrets: int = MIN_SECRETS,
               jobs: int | None = None, sources: Sequence[str | os.PathLike[str]] = (),
               part_nodes: int = PART_NODES) -> dict[str, int]:
    """Write the site of ``(name, book)`` pairs into ``out_dir``; returns pages written per book.

    The site is built in a temporary folder next to ``out_dir`` and swapped into place in one step,
    replacing an earlier treegen site there (never any other folder, and never one that holds a
    file of ``sources``, the books read): ``out_dir`` always holds the old site or the new one.
    A book of more than ``part_nodes`` nodes is played from parts the page loads as it goes
    (:mod:`treegen.views.site_parts`).
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
    graphs = [source for entry in entries for source in entry.pages.values() if source is not None]
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
            parts = split_tree(entry.book["tree"], entry.sizes, part_nodes)
            _write(os.path.join(folder, "book-data.js"), _book_data(entry, depth, parts.top))
            if parts.files:
                os.mkdir(os.path.join(folder, "parts"))
            for name, script in parts.scripts():
                _write(os.path.join(folder, "parts", name), script)
            for path, source in entry.pages.items():
                svg = next(pictures) if source is not None else None
                _write(os.path.join(folder, page_file(path)), node_page(entry, path, svg))
            _write(os.path.join(folder, MAKER_PAGE), maker_page(entry))
        _write(os.path.join(staging, "index.html"), index_page(entries))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)
        folders.swap(staging, out_dir)
    except BaseException as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(exc, OSError):
            raise SiteError(f"cannot write {out_dir}: {exc.strerror or exc}") from None
        raise
    return {entry.slug: len(entry.pages) + 1 for entry in entries}  # the code-maker page too


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


def _plan(slug: str, book: BookData, depth: int, min_secrets: int) -> SiteBook:
    """Every page of a book, found by drawing: each page's cut-off links are the next pages."""
    game = book["game"]
    entry = SiteBook(slug, book, measure(book["tree"], game), peg_colours(game) if uses_pegs(game) else None,
                     min_secrets=min_secrets)
    todo: list[tuple[str, ...]] = [()]
    planned = 1  # pages planned so far: the top levels, breadth first, up to MOST_PAGES
    while todo:
        path = todo.pop(0)
        linked: list[tuple[str, ...]] = []

        def href(target: tuple[str, ...], linked: list[tuple[str, ...]] = linked) -> str | None:
            nonlocal planned
            if planned >= MOST_PAGES:
                return None  # drawn, not linked: the finder and the player go on below
            planned += 1
            linked.append(target)
            return page_file(target)

        node = node_at(book["tree"], path)
        if len(node["next"]) > WIDEST:  # too many answers for a picture: a grid of them
            entry.pages[path] = None
            for answer, child in node["next"].items():
                if child["next"] and entry.sizes[id(child)].secrets >= min_secrets and \
                        planned < MOST_PAGES:
                    planned += 1
                    todo.append((*path, answer))
            continue
        # as many levels as read well once the picture fits the screen (a wide level: fewer)
        levels = fitting_depth(book, path, depth, min_secrets, entry.sizes)
        entry.levels[path] = levels
        entry.pages[path] = dot_source(book, levels, path, pegs=entry.pegs is not None,
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


def _book_data(entry: SiteBook, depth: int, top: dict[str, Any]) -> str:
    """The book (its top part) and what the page scripts need, as a script: it loads from
    file:// too."""
    data = {"name": entry.slug, "depth": depth, "pegs": entry.pegs,
            "limit": guess_limit(entry.book["game"]),
            "pages": sorted(path_key(p) for p in entry.pages), "book": {**entry.book, "tree": top}}
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    return f"window.TREEGEN_BOOK = {text};\n"
