"""Pictures of a book as Graphviz DOT text: pure functions, no Graphviz needed.

A whole book has thousands of nodes, so a picture shows a few levels below one node; deeper subtrees
are cut off and labelled with their size (the site links them to their own pages). The same book
always gives the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from treegen.data import BookData, GameData, Node
from treegen.errors import RenderError
from treegen.notation import game_title
from treegen.player import brief, rule_of
from treegen.views.encode import html_text
from treegen.views.tree import Size, describe_path, measure, node_at, path_key

__all__ = ["DEFAULT_DEPTH", "PEG_COLOURS", "TILE_COLOURS", "WIDEST", "dot_source", "fitting_depth",
           "level_widths", "peg_colours", "tiles_html", "uses_pegs"]

DEFAULT_DEPTH = 3

#: Peg colours by symbol position: saturated, distinct, and visible on white (no white peg).
PEG_COLOURS = ("#dc2626", "#2563eb", "#16a34a", "#eab308", "#f97316", "#9333ea",
               "#0891b2", "#db2777", "#92400e", "#334155")

#: Wordle's tiles: green (in place), yellow (elsewhere), grey (not in the word, or not again).
TILE_COLOURS = {"G": "#6aaa64", "Y": "#c9b458", ".": "#787c7e"}

_MUTED, _LINK, _EDGE = "#64748b", "#1d4ed8", "#475569"


def uses_pegs(game: GameData) -> bool:
    """Mastermind-like games are drawn as colour pegs, number games as text.

    Pegs: the mastermind preset, and custom games with repetition and at most as many symbols as
    there are peg colours, unless their symbols are digits including 0 (number games such as
    Muertos y Heridos). Games without repetition (Bulls and Cows) are number games; words and
    games answered with tiles are drawn as letters.
    """
    symbols = game["symbols"]
    if len(symbols) > len(PEG_COLOURS) or "answers" in game or rule_of(game).tiles:
        return False  # words and tiles are letters
    if game["name"] == "mastermind":
        return True
    if game["name"] != "custom" or not game["repetition"]:
        return False
    return not (symbols.isdigit() and "0" in symbols)


def tiles_html(guess: str, answer: str) -> str:
    """Wordle's answer as the game shows it: the guess's letters on green, yellow and grey tiles
    (a Graphviz HTML label; the answer's text is the tooltip-free fallback ``GY..Y``)."""
    cells = "".join(f'<TD BGCOLOR="{TILE_COLOURS[tile]}" WIDTH="14" HEIGHT="14"><FONT COLOR="white" '
                    f'POINT-SIZE="9"><B>{html_text(letter.upper())}</B></FONT></TD>'
                    for letter, tile in zip(guess, answer))
    return f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="1" CELLPADDING="1"><TR>{cells}</TR></TABLE>'


def peg_colours(game: GameData) -> dict[str, str]:
    """A colour per symbol; games with more symbols than colours are drawn as text."""
    if len(game["symbols"]) > len(PEG_COLOURS):
        raise RenderError(f"pegs come in {len(PEG_COLOURS)} colours and this game has "
                          f"{len(game['symbols'])} symbols: draw it as text (--text)")
    return dict(zip(game["symbols"], PEG_COLOURS))


#: The graph's look, before its nodes.
_HEADER = ("digraph book {",
           '  graph [rankdir=LR, nodesep=0.12, ranksep=0.45, bgcolor="white", '
           'fontname="Helvetica", pad=0.2];',
           '  node [shape=box, style="rounded,filled", fillcolor="white", color="#94a3b8", '
           'fontname="Helvetica", fontsize=10, margin="0.1,0.05"];',
           "  edge [color=\"#94a3b8\", arrowsize=0.6];")


def _code(text: str, colours: dict[str, str] | None, size: int = 13) -> str:
    """A code in a label: bold text, or pegs in their colours with the symbols beside them
    (colours alone are not enough)."""
    if colours is None:
        return f'<FONT POINT-SIZE="{size}"><B>{_esc(text)}</B></FONT>'
    pegs = "".join(f'<FONT COLOR="{colours[c]}" POINT-SIZE="{size + 5}">&#9679;</FONT>'
                   for c in text)
    return f'{pegs} <FONT POINT-SIZE="9" COLOR="{_MUTED}">{_esc(text)}</FONT>'


def dot_source(book: BookData, depth: int | None = DEFAULT_DEPTH, start: Sequence[str] = (), *,
               pegs: bool | None = None, full_below: int = 0,
               href: Callable[[tuple[str, ...]], str | None] | None = None,
               title: bool = True, sizes: dict[int, Size] | None = None) -> str:
    """The DOT text of ``depth`` levels of guesses below the node the answers ``start`` lead to.

    ``depth`` None draws everything. A node on the last level that has children is cut off and
    shows its size, unless it has fewer than ``full_below`` secrets: then its whole subtree is
    drawn. ``href(path)`` gives the link of a cut-off node (the site's pages). ``pegs`` None
    decides by the game (see :func:`uses_pegs`). Pure and deterministic.
    """
    if depth is not None and (type(depth) is not int or depth < 1):
        raise RenderError(f"depth must be a whole number of at least 1, or None, not "
                          f"{brief(depth)}")
    if isinstance(start, (str, bytes)) or not isinstance(start, Sequence) or \
            not all(isinstance(answer, str) for answer in start):
        raise RenderError(f"start must be a list of answers, not {brief(start)}")
    tree, game = book["tree"], book["game"]
    start = tuple(start)
    top = node_at(tree, start)
    sizes = sizes if sizes is not None else measure(tree, game, start)
    colours = peg_colours(game) if (uses_pegs(game) if pegs is None else pegs) else None

    def code(text: str) -> str:
        return _code(text, colours)

    lines = list(_HEADER)
    if title:
        lines.append(f"  graph [labelloc=t, labeljust=l, label=<{_title(book, start, colours)}>];")
    # Depth-first, children in the book's order: the same book always gives the same text.
    stack: list[tuple[Node, tuple[str, ...], int, bool]] = [(top, start, 1, False)]
    while stack:
        node, path, level, whole = stack.pop()
        size = sizes[id(node)]
        name = _node_id(path)
        attrs = {"id": name}
        secrets = f'<FONT POINT-SIZE="9" COLOR="{_MUTED}">{_count(size.secrets)}</FONT>'
        branches = node["next"]
        if not branches:
            attrs.update(fillcolor="#ecfdf5", color="#10b981",
                         label=f'<FONT COLOR="#047857">&#10003;</FONT> {code(node["guess"])}'
                               f'<BR/><FONT POINT-SIZE="9" COLOR="#047857">solved</FONT>')
        elif depth is not None and level >= depth and not whole and size.secrets >= full_below:
            more = f"up to {size.height - 1} more guess{'es' if size.height > 2 else ''}"
            attrs.update(style="rounded,filled,dashed", fillcolor="#eff6ff", color="#3b82f6",
                         label=f'{code(node["guess"])}<BR/>{secrets}<BR/>'
                               f'<FONT POINT-SIZE="9" COLOR="{_LINK}">&#9656; {more}</FONT>')
            link = href(path) if href else None
            if link:
                attrs.update(URL=link, target="_top", tooltip=f"open {describe_path(tree, path)}")
        else:
            attrs["label"] = f'{code(node["guess"])}<BR/>{secrets}'
            if level >= (depth or level + 1):
                whole = True
            children = [(child, (*path, answer), level + 1, whole)
                        for answer, child in branches.items()]
            stack.extend(reversed(children))
        if path == start:
            attrs["penwidth"] = "2"
        lines.append(f"  {_quote(name)} [{_attrs(attrs)}];")
        if path != start:
            lines += _answer_lines(tree, game, path)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _answer_lines(tree: Node, game: GameData, path: tuple[str, ...]) -> list[str]:
    """The answer that leads to the node at ``path``, as a small label node on its edge: plain
    edge labels of a wide fan of edges end up next to the wrong edge. Tiles are drawn as tiles."""
    answer = "f-" + path_key(path)
    if rule_of(game).tiles:
        asked = node_at(tree, path[:-1])["guess"]
        label = (f'  {_quote(answer)} [id="{answer}", shape=plain, '
                 f'label=<{tiles_html(asked, path[-1])}>];')
    else:
        label = (f'  {_quote(answer)} [id="{answer}", shape=box, style="rounded,filled", '
                 f'fillcolor="#f1f5f9", color="#e2e8f0", fontsize=9, fontcolor="{_EDGE}", '
                 f'margin="0.04,0.01", width=0, height=0.2, label="{path[-1]}"];')
    return [label, f"  {_quote(_node_id(path[:-1]))} -> {_quote(answer)} [arrowhead=none];",
            f"  {_quote(answer)} -> {_quote(_node_id(path))};"]


#: The most boxes a level of a picture should hold to be read at a glance: pictures of the
#: default depth draw fewer levels where a level would hold more (see :func:`fitting_depth`).
WIDEST = 16


def level_widths(tree: Node, start: Sequence[str], depth: int, full_below: int,
                 sizes: dict[int, Size]) -> list[int]:
    """How many guesses each level of :func:`dot_source`'s picture holds, drawn as it draws them."""
    widths: list[int] = []
    level_nodes: list[tuple[Node, bool]] = [(node_at(tree, start), False)]
    level = 1
    while level_nodes:
        widths.append(len(level_nodes))
        below: list[tuple[Node, bool]] = []
        for node, whole in level_nodes:
            cut = level >= depth and not whole and sizes[id(node)].secrets >= full_below
            if node["next"] and not cut:
                below += [(child, whole or level >= depth) for child in node["next"].values()]
        level_nodes, level = below, level + 1
    return widths


def fitting_depth(book: BookData, start: Sequence[str] = (), most: int = DEFAULT_DEPTH,
                  full_below: int = 0, sizes: dict[int, Size] | None = None) -> int:
    """The most levels, up to ``most`` (at least 2), whose picture has no level over
    :data:`WIDEST` guesses: a wide tree is drawn a level less, so it can be read when it fits
    the screen or the page."""
    sizes = sizes if sizes is not None else measure(book["tree"], book["game"], start)
    for depth in range(most, 2, -1):
        if max(level_widths(book["tree"], start, depth, full_below, sizes)) <= WIDEST:
            return depth
    return min(most, 2)


def _title(book: BookData, start: Sequence[str], colours: dict[str, str] | None) -> str:
    game, strategy, stats = book["game"], book["strategy"], book["stats"]
    name = game_title(game) if "answers" in game else game["name"]
    rows = [f'<FONT POINT-SIZE="13"><B>{_esc(name)} &#183; {_esc(strategy["name"])}'
            f'</B></FONT>',
            f'<FONT POINT-SIZE="10" COLOR="{_MUTED}">{stats["secrets"]} secrets &#183; average '
            f'{stats["average"]:.4f} &#183; max {stats["max"]} guesses</FONT>']
    if start:
        rows.append(f'<FONT POINT-SIZE="10" COLOR="{_MUTED}">from '
                    f'{_esc(describe_path(book["tree"], start))}</FONT>')
    cells = [f'<TR><TD ALIGN="LEFT">{row}</TD></TR>' for row in rows]
    if colours:
        # One cell per symbol and per peg: text and pegs laid out by Graphviz, not by whatever
        # font a browser has, which would squeeze them together.
        legend = "".join(f'<TD><FONT POINT-SIZE="10" COLOR="{_MUTED}">{_esc(s)}</FONT></TD>'
                         f'<TD><FONT COLOR="{c}" POINT-SIZE="13">&#9679;</FONT></TD>'
                         for s, c in colours.items())
        cells.append(f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="2" CELLPADDING="0">'
                     f'<TR>{legend}</TR></TABLE></TD></TR>')
    return f'<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">{"".join(cells)}</TABLE>'


def _node_id(path: Sequence[str]) -> str:
    return "t-" + path_key(path)


def _count(n: int) -> str:
    return f"{n} secret" if n == 1 else f"{n} secrets"


def _esc(text: str) -> str:
    return html_text(text)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}=<{v}>" if k == "label" else f"{k}={_quote(str(v))}"
                     for k, v in attrs.items())
