"""The HTML of the site's pages (:mod:`treegen.views.site` plans and writes them): a book's tree
pages with their finder, player and table of answers (a picture, or for a node with too many
answers to draw readably a grid of them), and the index that compares the books. The code-maker
page is :mod:`treegen.views.site_maker`."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from treegen.data import BookData, GameData, Node, Stats
from treegen.notation import game_title
from treegen.player import Rule, rule_of
from treegen.views.encode import html_text
from treegen.views.tree import Size, guesses_on_path, node_at, path_key

__all__ = ["SiteBook", "code_html", "grid_html", "index_page", "node_page", "page_file"]


@dataclass
class SiteBook:
    """A book as the site shows it: its folder name, sizes, peg colours and pages."""

    slug: str
    book: BookData
    sizes: dict[int, Size]
    pegs: dict[str, str] | None
    #: page root -> DOT text of its picture, or None for a grid of its answers
    pages: dict[tuple[str, ...], str | None] = field(default_factory=dict)
    #: page root -> levels its picture draws (a grid: 2, the node and its answers)
    levels: dict[tuple[str, ...], int] = field(default_factory=dict)
    #: a subtree cut off at a picture's last level with fewer secrets is drawn whole instead
    min_secrets: int = 5


def page_file(path: Sequence[str]) -> str:
    """The file of the page that starts at the node the answers ``path`` lead to."""
    return "index.html" if not path else f"n-{path_key(path)}.html"


# -- HTML --------------------------------------------------------------------------------------

def _esc(text: object) -> str:
    return html_text(str(text))


def code_html(code: str, pegs: dict[str, str] | None) -> str:
    """A code as text, or as a row of coloured pegs with its symbols as text beside them."""
    if pegs is None:
        return f'<span class="code" data-code="{_esc(code)}">{_esc(code)}</span>'
    dots = "".join(f'<span class="peg" style="background:{pegs[c]}" title="{_esc(c)}"></span>'
                   for c in code)
    return (f'<span class="code pegs" data-code="{_esc(code)}" title="{_esc(code)}">{dots}'
            f'<span class="symbols">{_esc(code)}</span></span>')


def answer_html(game: GameData, guess: str, answer: str) -> str:
    """An answer as the game shows it: Wordle's tiles (the guess's letters, green, yellow and
    grey), else its text in the game's notation (``1A2B``, ``BWW`` for Mastermind, ``2A``)."""
    rule = rule_of(game)
    if not rule.tiles:
        return f"<b>{_esc(rule.format(answer))}</b>"
    tiles = "".join(f'<span class="tile {_TILE[t]}">{_esc(letter)}</span>'
                    for letter, t in zip(guess, answer))
    return f'<span class="tiles" title="{_esc(answer)}">{tiles}</span>'


_TILE = {"G": "green", "Y": "yellow", ".": "grey"}


def _head(title: str, root: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_esc(title)}</title>\n"
            f"<link rel=\"stylesheet\" href=\"{root}assets/style.css\">\n</head>\n")


def _book_title(book: BookData) -> str:
    return f"{game_title(book['game'])} · {book['strategy']['name']}"


def node_page(entry: SiteBook, path: tuple[str, ...], svg: str | None) -> str:
    """The page of the node ``path`` leads to: its picture (``svg``), or with None the grid of its
    answers."""
    book, tree = entry.book, entry.book["tree"]
    node = node_at(tree, path)
    size = entry.sizes[id(node)]
    title = _book_title(book)
    # Every step links to the page that shows its node; the last one is this page.
    crumbs = ['<a href="index.html">start</a>' if path else '<span>start</span>']
    guesses = guesses_on_path(tree, path)
    for i, (guess, answer) in enumerate(zip(guesses, path)):
        step = f"{code_html(guess, entry.pegs)} {answer_html(book['game'], guess, answer)}"
        prefix = path[:i + 1]
        if prefix != path:
            shown = _page_of(entry, prefix)
            crumbs.append(f'<a href="{page_file(shown)}#node-{path_key(prefix)}">{step}</a>')
        else:
            crumbs.append(f'<span class="here">{step}</span>')
    left = size.height
    facts = (f"{size.secrets} secret{'s' if size.secrets != 1 else ''} still possible · "
             f"each solved within {left} guess{'es' if left != 1 else ''} from here")
    if size.possible and node["next"]:
        facts += " · this guess may be the secret"
    where = "the first guess · " if not path else ""
    heading = f"Guess {len(path) + 1}: {code_html(node['guess'], entry.pegs)}"
    grid_id = ""  # a grid has no picture of its node: the heading stands for it
    if svg is None:
        where += f"{len(node['next'])} answers (too many for a picture: a card each) · "
        body = grid_html(entry, path)
        grid_id = f' id="t-{path_key(path)}"'
    else:
        # The same levels as cards too: site.js shows them instead of a picture that would only
        # fit its frame with labels too small to read (a phone, a wide level).
        body = ('<div class="picture">\n<div class="zoom" role="group" aria-label="zoom">'
                '<button type="button" data-zoom="in" title="zoom in">+</button>'
                '<button type="button" data-zoom="out" title="zoom out">&#8722;</button>'
                '<button type="button" data-zoom="fit" title="fit the tree to the view">fit</button>'
                '<button type="button" data-view="cards" title="these levels as cards">cards'
                f'</button></div>\n{_inline_svg(svg)}</div>\n'
                + grid_html(entry, path, entry.levels.get(path, 2), cards=True))
    return (_head(f"{title} · {path_key(path)} · treegen", "../")
            + f'<body class="book" data-page="{path_key(path)}">\n'
            + _top_bar(book, "../")
            + '<main class="layout">\n<section class="tree">\n'
            + f'<nav class="crumbs" aria-label="path">{" <span class=sep>›</span> ".join(crumbs)}'
              "</nav>\n"
            + f'<h1{grid_id}>{heading}</h1>\n<p class="facts">{where}{facts}</p>\n'
            + _legend(entry) + body + '</section>\n'
            + _sidebar(entry, _answers(entry, path) if svg is not None else "")
            + "</main>\n"
            + '<script src="book-data.js"></script>\n<script src="../assets/player.js"></script>\n'
              '<script src="../assets/live.js"></script>\n<script src="../assets/offbook.js"></script>\n'
              '<script src="../assets/site.js"></script>\n</body>\n</html>\n')


def _top_bar(book: BookData | None, root: str, here: str = "tree") -> str:
    """The bar above every page: the site, the book, its figures, and the book's two ways to play:
    the tree (the computer guesses) and the code-maker page (the person guesses)."""
    parts = [f'<a class="brand" href="{root}index.html">treegen</a>']
    if book is not None:
        parts.append(f'<span class="sep">/</span><a href="index.html">{_esc(_book_title(book))}</a>'
                     f'<span class="muted">pool {_esc(book["strategy"]["pool"])} · '
                     f'{book["stats"]["secrets"]} secrets · average {book["stats"]["average"]:.4f}'
                     f' · max {book["stats"]["max"]}</span>')
        tabs = [("index.html", "tree", "the book's tree: it guesses your secret"),
                ("maker.html", "you guess", "the computer keeps a secret: you guess it")]
        current = ' class="here" aria-current="page"'
        parts.append('<nav class="tabs">' + "".join(
            f'<a href="{href}" title="{title}"{current if name == here else ""}>{name}</a>'
            for href, name, title in tabs) + "</nav>")
    return f'<header class="top">{"".join(parts)}</header>\n'


def _legend(entry: SiteBook) -> str:
    keys = ('<span class="key"><span class="swatch cut"></span>continues on its own page</span>'
            '<span class="key"><span class="swatch leaf"></span>solved</span>')
    if rule_of(entry.book["game"]).tiles:
        keys += "".join(f'<span class="key"><span class="tiles"><span class="tile {_TILE[t]}">'
                        f'{t}</span></span>{what}</span>' for t, what in
                        (("G", "in place"), ("Y", "elsewhere"), (".", "not in the word")))
    else:
        rule = rule_of(entry.book["game"])
        keys += (f'<span class="key"><span class="swatch answer">{_esc(rule.format(rule.example))}'
                 f'</span>answer {_esc(rule.short)}</span>')
    if entry.pegs:
        keys += "".join(f'<span class="key">{code_html(s, entry.pegs)}</span>'
                        for s in entry.pegs)
    return f'<div class="legend">{keys}</div>\n'


def _page_of(entry: SiteBook, path: tuple[str, ...]) -> tuple[str, ...]:
    """The page that draws a node: the deepest page starting at the node or above it."""
    return next(path[:n] for n in range(len(path), -1, -1) if path[:n] in entry.pages)


def _answers(entry: SiteBook, path: tuple[str, ...]) -> str:
    """The table of this node's answers: for each, the secrets it leaves, the next guess and the
    most guesses those secrets still need; each row links to where its node is drawn."""
    node = node_at(entry.book["tree"], path)
    rows = []
    for answer, child in node["next"].items():
        size = entry.sizes[id(child)]
        target = (*path, answer)
        shown = _page_of(entry, target)
        guess = code_html(child["guess"], entry.pegs)
        shown_answer = answer_html(entry.book["game"], node["guess"], answer)
        rows.append(f'<tr><td><a href="{page_file(shown)}#node-{path_key(target)}">{shown_answer}</a>'
                    f'</td><td class="num">{size.secrets}</td><td>{guess}'
                    f'{" ✓" if not child["next"] else ""}</td><td class="num">{size.height}</td></tr>')
    if not rows:
        return ""
    return (f'<section class="card" id="answers">\n<details open>\n<summary><h2>Answers to '
            f'{code_html(node["guess"], entry.pegs)}</h2></summary>\n<table class="answers">\n'
            '<thead><tr><th>answer</th><th class="num">secrets</th><th>next guess</th>'
            '<th class="num" title="the most guesses these secrets still need">at most</th></tr>'
            '</thead>\n<tbody>\n' + "\n".join(rows) + "\n</tbody>\n</table>\n</details>\n</section>\n")


def _sidebar(entry: SiteBook, answers: str) -> str:
    game = entry.book["game"]
    kind = "repeats allowed" if game["repetition"] else "no repeats"
    rules = f"{game['length']} symbols from {_esc(game['symbols'])}, {kind}" if "answers" not in game \
        else f"one of the {len(game['answers'])} answers"
    rule = rule_of(game)
    first = game["answers"][0] if "answers" in game else game["symbols"][:game["length"]]
    return f"""<aside>
<section class="card" id="find">
<h2>Find a secret</h2>
<form id="find-form" autocomplete="off">
<label for="find-secret">The path of secret</label>
<div class="row"><input id="find-secret" name="secret" placeholder="{_esc(first)}" spellcheck="false"><button type="submit">Find</button></div>
</form>
<div id="find-result" aria-live="polite"></div>
</section>
<section class="card" id="play">
<h2>Play</h2>
<p class="hint">Think of a secret ({rules}). {_how(rule)}{_also(rule)}</p>
<div id="play-guess" class="guess"></div>
<form id="play-form" autocomplete="off">
<div class="row"><input id="play-answer" name="answer" placeholder="your answer, e.g. {_esc(rule.example)}" spellcheck="false"><button type="submit">Answer</button></div>
</form>
<div class="row buttons"><button type="button" id="play-undo" class="secondary">Undo</button><button type="button" id="play-reset" class="secondary">New game</button><a id="play-where" href="index.html">show in tree</a></div>
<p id="play-live" class="live" hidden></p>
<p id="play-message" role="status"></p>
<ol id="play-history"></ol>
</section>
{answers}</aside>
"""


def _inline_svg(svg: str) -> str:
    """Graphviz's SVG without the XML prologue, its fixed size and the node-name tooltips."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    # without its fixed size the picture scales to its frame (the viewBox keeps its proportions)
    body = re.sub(r'\A<svg width="[^"]*" height="[^"]*"', "<svg", body, count=1)
    return re.sub(r"<title>[^<]*</title>\n?", "", body)


def index_page(entries: list[SiteBook]) -> str:
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
            f'<tr><td><a class="book-link" href="{e.slug}/index.html">{_esc(e.slug)}</a>'
            f' <a class="maker-link" href="{e.slug}/maker.html" title="the computer keeps a secret: '
            'you guess it">you guess</a></td>'
            f'<td>{_esc(game_title(book["game"]))}</td><td>{_esc(strategy["name"])}</td>'
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
              "page by page, find the path of any secret, or let it guess your secret; or "
              "choose <i>you guess</i> to guess a secret the computer keeps.</p>\n"
            + '<div class="table-scroll">\n<table class="books">\n<thead><tr><th>book</th><th>game</th><th>strategy</th>'
              '<th>pool</th><th>first guess</th><th class="num">secrets</th>'
              '<th class="num">total</th><th class="num">average</th><th class="num">max</th>'
              "<th>guesses needed</th></tr></thead>\n<tbody>\n" + "\n".join(rows)
            + "\n</tbody>\n</table>\n</div>\n</main>\n</body>\n</html>\n")


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


def _how(rule: Rule) -> str:
    """How a person answers, what to type in bold."""
    return _typed(rule.how)


def _also(rule: Rule) -> str:
    """The rule's other spellings, if it names any."""
    return f" {_typed(rule.also)}" if rule.also else ""


def _typed(text: str) -> str:
    return re.sub(r"\*([^*]+)\*", r"<b>\1</b>", _esc(text))


def grid_html(entry: SiteBook, path: tuple[str, ...], levels: int = 2, cards: bool = False) -> str:
    """The answers of a node as a grid of cards: the answer, the secrets it leaves, the next guess
    and the most guesses still needed; below it, nested, the levels a picture of ``levels`` levels
    draws, each node cut off where the picture cuts it (linking to its page, which the answer of
    a card links to when it is one). A node with too many answers to draw gets only this grid;
    with ``cards`` it is the alternative to a picture, hidden until site.js shows it, its ids
    ``c-``/``a-`` rather than the picture's ``t-``/``f-``."""
    node = node_at(entry.book["tree"], path)
    ids = ("c-", "a-") if cards else ("t-", "f-")
    items = []
    for order, (answer, child) in enumerate(node["next"].items()):
        target = (*path, answer)
        size = entry.sizes[id(child)]
        cut = _cut(entry, child, 2, levels, False)
        own = cut and target in entry.pages
        shown = answer_html(entry.book["game"], node["guess"], answer)
        head = (f'<a class="answer" id="{ids[1]}{path_key(target)}" href="{page_file(target)}">'
                f'{shown}</a>' if own else
                f'<span class="answer" id="{ids[1]}{path_key(target)}">{shown}</span>')
        kind = "cut" if cut else "leaf" if not child["next"] else "whole"
        more = f"up to {size.height - 1} more" if child["next"] else "solved"
        below = "" if cut else _nested(entry, target, child, 2, levels, False, ids)
        items.append(
            f'<li class="branch {kind}" id="{ids[0]}{path_key(target)}" data-order="{order}" '
            f'data-secrets="{size.secrets}">{head}<span class="next">'
            f'{code_html(child["guess"], entry.pegs)}{" ✓" if not child["next"] else ""}</span>'
            f'<span class="meta">{size.secrets} secret{"s" if size.secrets != 1 else ""} · {more}'
            f'</span>{below}</li>')
    switch = ('<button type="button" class="secondary" data-view="picture" title="these levels as '
              'a picture">picture</button>' if cards else "")
    return (f'<div class="branches"{" hidden" if cards else ""}>\n<div class="row sort" role="group" '
            'aria-label="order of the answers">order: <button type="button" class="secondary" '
            'data-sort="order" aria-pressed="true">the book\'s</button><button type="button" '
            'class="secondary" data-sort="secrets" aria-pressed="false">most secrets first</button>'
            f'{switch}</div>\n<ol class="grid">\n' + "\n".join(items) + "\n</ol>\n</div>\n")


def _cut(entry: SiteBook, node: Node, level: int, levels: int, whole: bool) -> bool:
    """Whether a picture of ``levels`` levels cuts ``node``, on ``level``, off (as
    :func:`treegen.views.dot.dot_source` does): a big subtree on its last level."""
    return bool(node["next"]) and level >= levels and not whole and \
        entry.sizes[id(node)].secrets >= entry.min_secrets


def _nested(entry: SiteBook, path: tuple[str, ...], node: Node, level: int, levels: int,
            whole: bool, ids: tuple[str, str]) -> str:
    """The levels below a card, nested: each answer and the guess it leads to, down to where the
    picture cuts off (a link to that node's page, or its size where it has none)."""
    if not node["next"]:
        return ""
    whole = whole or level >= levels
    items = []
    for answer, child in node["next"].items():
        target = (*path, answer)
        shown = answer_html(entry.book["game"], node["guess"], answer)
        guess = f'{code_html(child["guess"], entry.pegs)}{" ✓" if not child["next"] else ""}'
        if _cut(entry, child, level + 1, levels, whole):
            size = entry.sizes[id(child)]
            more = f'{size.secrets} secret{"s" if size.secrets != 1 else ""} · up to ' \
                f'{size.height - 1} more'
            if target in entry.pages:
                guess = f'<a href="{page_file(target)}">{guess} <span class="more">▸ {more}</span></a>'
            else:
                guess += f' <span class="more">{more}</span>'
            below = ""
        else:
            below = _nested(entry, target, child, level + 1, levels, whole, ids)
        items.append(f'<li id="{ids[0]}{path_key(target)}"><span id="{ids[1]}{path_key(target)}">'
                     f'{shown}</span> {guess}{below}</li>')
    return f'<ul class="whole">{"".join(items)}</ul>'
