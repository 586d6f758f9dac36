"""Pictures of a book: Graphviz DOT text from a pure function, and ``dot`` to turn it into SVG/PNG/PDF.

A whole book has thousands of nodes, so a picture shows a few levels below one node; deeper subtrees
are cut off and labelled with their size (the site links them to their own pages). Building the DOT
text needs no Graphviz at all, so it is tested directly and ``--format dot`` always works.
"""

from __future__ import annotations

import functools
import html
import os
import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from .book import feedback
from .errors import TreegenError
from .files import refuse_sources, write_atomic
from .notation import format_feedback, parse_key, parse_moves, possible

FORMATS = ("svg", "png", "pdf", "dot")
SUFFIXES = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}
DEFAULT_DEPTH = 3

#: Peg colours by symbol position: saturated, distinct, and visible on white (no white peg).
PEG_COLOURS = ("#dc2626", "#2563eb", "#16a34a", "#eab308", "#f97316", "#9333ea",
               "#0891b2", "#db2777", "#92400e", "#334155")

INSTALL_HINT = ("Graphviz's dot program is not installed: install Graphviz (apt install graphviz, "
                "brew install graphviz, or https://graphviz.org/download/); --format dot works "
                "without it")

_MUTED, _LINK, _EDGE = "#64748b", "#1d4ed8", "#475569"


class PathError(TreegenError):
    """A path (``--from GUESS=FEEDBACK,...``) that does not lead to a node of the book."""


class RenderError(TreegenError):
    """Graphviz is missing or failed, or an output format treegen cannot write."""


# -- the shape of the tree ---------------------------------------------------------------------

@dataclass(frozen=True)
class Size:
    """What a node stands for: how many secrets reach it and how many guesses they still need."""

    secrets: int    #: secrets whose game passes through this node
    height: int     #: most guesses still needed from here, this node's guess included
    possible: bool  #: whether this node's guess can itself be the secret (then it may win here)


def measure(tree: dict, start: Sequence[str] = ()) -> dict[int, Size]:
    """Size of every node below ``start``, keyed by ``id(node)``: one iterative walk.

    A node's secrets are its children's plus one when its own guess is still possible there
    (checked against the answers on the path from the root); a leaf is one solved secret. Paths
    are linked lists shared by the nodes below them, so the walk is linear in the tree's size.
    """
    top = node_at(tree, start)
    history: _History = None
    for g, a in zip(guesses_on_path(tree, start), start):
        history = ((g, feedback_pair(a)), history)
    sizes: dict[int, Size] = {}
    stack: list[tuple[dict, _History, bool]] = [(top, history, False)]
    while stack:
        node, history, children_done = stack.pop()
        branches = node["next"]
        if not children_done:
            stack.append((node, history, True))
            for key, child in branches.items():
                if child["next"]:
                    stack.append((child, ((node["guess"], feedback_pair(key)), history), False))
                else:  # most nodes are leaves: one solved secret, nothing to check
                    sizes[id(child)] = _LEAF
            continue
        guess = node["guess"]
        possible = _fits(guess, history)
        below = [sizes[id(child)] for child in branches.values()]
        sizes[id(node)] = Size(sum(s.secrets for s in below) + possible,
                               1 + max((s.height for s in below), default=0), possible)
    return sizes


#: The answers on a path, latest first: ((guess, (a, b)), rest), or None at the root.
_History = Optional[tuple]


def _fits(code: str, history: _History) -> bool:
    while history is not None:
        (guess, fb), history = history
        if feedback(guess, code) != fb:
            return False
    return True


_LEAF = Size(1, 1, True)


@functools.lru_cache(maxsize=4096)
def feedback_pair(key: str) -> tuple[int, int]:
    """A canonical key (``1A2B``) as ``(a, b)``; cached, keys repeat throughout a book."""
    return parse_key(key)


def path_key(path: Sequence[str]) -> str:
    """A node's name from the answers that lead to it: ``root``, ``0A1B``, ``0A1B-2A0B``."""
    return "-".join(path) or "root"


def node_at(tree: dict, path: Sequence[str]) -> dict:
    """The node the answers ``path`` lead to from the root."""
    node = tree
    for i, answer in enumerate(path):
        if answer not in node["next"]:
            where = "the root" if i == 0 else "after " + ",".join(path[:i])
            raise PathError(f"the book has no answer {answer} to {node['guess']} at {where}")
        node = node["next"][answer]
    return node


def parse_path(text: str) -> list[tuple[str, str]]:
    """``GUESS=FEEDBACK,...`` as (guess, feedback key) pairs, in any spelling the player reads."""
    return [(guess, format_feedback(fb)) for guess, fb in parse_moves(text)]


def locate(book: dict, steps: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The answers of a path of (guess, feedback) moves, checked against the book's guesses."""
    node, path = book["tree"], []
    solved = f"{book['game']['length']}A0B"
    for guess, answer in steps:
        moves = describe_path(book["tree"], path) or "the root"
        if guess != node["guess"]:
            raise PathError(f"no such node: the book guesses {node['guess']}, not {guess}, at "
                            f"{moves}")
        length = book["game"]["length"]
        if not possible(feedback_pair(answer), length):
            raise PathError(f"answer {answer} is impossible in a game of length {length}")
        if answer == solved:
            raise PathError(f"no such node: {guess}={answer} solves the game at {moves}")
        if answer not in node["next"]:
            known = " ".join(node["next"]) or "none"
            raise PathError(f"no such node: the book never gets {answer} for {guess} at {moves} "
                            f"(answers there: {known})")
        node = node["next"][answer]
        path.append(answer)
    return tuple(path)


def guesses_on_path(tree: dict, path: Sequence[str]) -> list[str]:
    """The guesses the book plays on the way to the node the answers ``path`` lead to."""
    guesses, node = [], tree
    for answer in path:
        guesses.append(node["guess"])
        node = node["next"][answer]
    return guesses


def describe_path(tree: dict, path: Sequence[str]) -> str:
    """``1122=0A1B,3345=1A0B``: the moves that lead to a node, as ``--from`` takes them."""
    return ",".join(f"{g}={a}" for g, a in zip(guesses_on_path(tree, path), path))


# -- DOT text ----------------------------------------------------------------------------------

def uses_pegs(game: dict) -> bool:
    """Mastermind-like games are drawn as colour pegs, number games as text.

    Pegs: the mastermind preset, and custom games with repetition and at most as many symbols as
    there are peg colours, unless their symbols are digits including 0 (number games such as
    Muertos y Heridos). Games without repetition (Bulls and Cows) are number games.
    """
    symbols = game["symbols"]
    if len(symbols) > len(PEG_COLOURS):
        return False
    if game["name"] == "mastermind":
        return True
    if game["name"] != "custom" or not game["repetition"]:
        return False
    return not (symbols.isdigit() and "0" in symbols)


def peg_colours(game: dict) -> dict[str, str]:
    """A colour per symbol; games with more symbols than colours are drawn as text."""
    if len(game["symbols"]) > len(PEG_COLOURS):
        raise RenderError(f"pegs come in {len(PEG_COLOURS)} colours and this game has "
                          f"{len(game['symbols'])} symbols: draw it as text (--text)")
    return dict(zip(game["symbols"], PEG_COLOURS))


def dot_source(book: dict, depth: int | None = DEFAULT_DEPTH, start: Sequence[str] = (), *,
               pegs: bool | None = None, full_below: int = 0,
               href: Callable[[tuple[str, ...]], str | None] | None = None,
               title: bool = True, sizes: dict[int, Size] | None = None) -> str:
    """The DOT text of ``depth`` levels of guesses below the node the answers ``start`` lead to.

    ``depth`` None draws everything. A node on the last level that has children is cut off and
    shows its size, unless it has fewer than ``full_below`` secrets: then its whole subtree is
    drawn. ``href(path)`` gives the link of a cut-off node (the site's pages). ``pegs`` None
    decides by the game (see :func:`uses_pegs`). Pure and deterministic.
    """
    if depth is not None and depth < 1:
        raise RenderError(f"depth must be at least 1, not {depth}")
    tree, game = book["tree"], book["game"]
    start = tuple(start)
    top = node_at(tree, start)
    sizes = sizes if sizes is not None else measure(tree, start)
    colours = peg_colours(game) if (uses_pegs(game) if pegs is None else pegs) else None

    def code(text: str, size: int = 13) -> str:
        if colours is None:
            return f'<FONT POINT-SIZE="{size}"><B>{_esc(text)}</B></FONT>'
        return "".join(f'<FONT COLOR="{colours[c]}" POINT-SIZE="{size + 5}">&#9679;</FONT>'
                       for c in text)

    lines = ["digraph book {",
             '  graph [rankdir=LR, nodesep=0.12, ranksep=0.45, bgcolor="white", '
             'fontname="Helvetica", pad=0.2];',
             '  node [shape=box, style="rounded,filled", fillcolor="white", color="#94a3b8", '
             'fontname="Helvetica", fontsize=10, margin="0.1,0.05"];',
             "  edge [color=\"#94a3b8\", arrowsize=0.6];"]
    if title:
        lines.append(f"  graph [labelloc=t, labeljust=l, label=<{_title(book, start, colours)}>];")
    # Depth-first, children in the book's order: the same book always gives the same text.
    stack: list[tuple[dict, tuple[str, ...], int, bool]] = [(top, start, 1, False)]
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
            # The answer is a small label node on the edge: plain edge labels of a wide fan of
            # edges end up next to the wrong edge.
            answer = "f-" + path_key(path)
            lines.append(f'  {_quote(answer)} [id="{answer}", shape=box, style="rounded,filled", '
                         f'fillcolor="#f1f5f9", color="#e2e8f0", fontsize=9, fontcolor="{_EDGE}", '
                         f'margin="0.04,0.01", width=0, height=0.2, label="{path[-1]}"];')
            lines.append(f"  {_quote(_node_id(path[:-1]))} -> {_quote(answer)} [arrowhead=none];")
            lines.append(f"  {_quote(answer)} -> {_quote(name)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _title(book: dict, start: Sequence[str], colours: dict[str, str] | None) -> str:
    game, strategy, stats = book["game"], book["strategy"], book["stats"]
    rows = [f'<FONT POINT-SIZE="13"><B>{_esc(game["name"])} &#183; {_esc(strategy["name"])}'
            f'</B></FONT>',
            f'<FONT POINT-SIZE="10" COLOR="{_MUTED}">{stats["secrets"]} secrets &#183; average '
            f'{stats["average"]:.4f} &#183; max {stats["max"]} guesses</FONT>']
    if start:
        rows.append(f'<FONT POINT-SIZE="10" COLOR="{_MUTED}">from '
                    f'{_esc(describe_path(book["tree"], start))}</FONT>')
    if colours:
        legend = " ".join(f'{_esc(s)}<FONT COLOR="{c}" POINT-SIZE="13">&#9679;</FONT>'
                          for s, c in colours.items())
        rows.append(f'<FONT POINT-SIZE="10" COLOR="{_MUTED}">{legend}</FONT>')
    return "<BR ALIGN=\"LEFT\"/>".join(rows) + '<BR ALIGN="LEFT"/>'


def _node_id(path: Sequence[str]) -> str:
    return "t-" + path_key(path)


def _count(n: int) -> str:
    return f"{n} secret" if n == 1 else f"{n} secrets"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}=<{v}>" if k == "label" else f"{k}={_quote(str(v))}"
                     for k, v in attrs.items())


def node_count(book: dict, start: Sequence[str] = ()) -> int:
    """How many nodes the subtree at ``start`` has: the size of a ``--depth all`` picture."""
    count, stack = 0, [node_at(book["tree"], start)]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node["next"].values())
    return count


# -- running Graphviz --------------------------------------------------------------------------

def output_format(path: str | os.PathLike | None, fmt: str | None = None) -> str:
    """The format asked for, else the one the file suffix names, else SVG."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise RenderError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        return fmt
    if path is None:
        return "svg"
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        raise RenderError(f"cannot tell the format of {os.fspath(path)!r} from its suffix; "
                          f"use .svg, .png, .pdf or .dot, or --format")
    return SUFFIXES[suffix]


def run_dot(source: str, fmt: str) -> bytes:
    """Lay out DOT text with Graphviz's ``dot`` (through the ``graphviz`` package)."""
    if fmt == "dot":
        return source.encode("utf-8")
    if fmt not in FORMATS:
        raise RenderError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    import graphviz
    try:
        data = graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        raise RenderError(INSTALL_HINT) from None
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise RenderError(f"Graphviz failed: {detail[0] if detail else exc}") from None
    if fmt == "pdf":
        # Cairo stamps the time into PDFs; a fixed date of the same length keeps the xref offsets.
        data = re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:19700101000000", data)
    return data


def svg_pages(sources: Sequence[str]) -> list[str]:
    """SVG of many graphs from one ``dot`` run: starting the program once per page costs more."""
    if not sources:
        return []
    text = run_dot("".join(sources), "svg").decode("utf-8")
    pages = ["<?xml" + part for part in text.split("<?xml")[1:]]
    if len(pages) != len(sources):
        raise RenderError(f"Graphviz returned {len(pages)} pictures for {len(sources)} graphs")
    return pages


def render(book: dict, path: str | os.PathLike, fmt: str | None = None,
           depth: int | None = DEFAULT_DEPTH, start: Sequence[str] = (),
           pegs: bool | None = None, sources: Sequence[str | os.PathLike] = ()) -> str:
    """Draw a book into a file; returns the format written. ``sources``, the files read, are
    never written over."""
    fmt = output_format(path, fmt)
    refuse_sources(path, sources)
    write_atomic(path, run_dot(dot_source(book, depth, start, pegs=pegs), fmt), sources=sources)
    return fmt
