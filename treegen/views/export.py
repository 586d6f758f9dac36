"""A book as a graph for Gephi, yEd and other graph tools (GraphML, GEXF or node-link JSON), or as
a C header that plays it (see :mod:`treegen.views.c_header`).

The tree becomes a networkx ``DiGraph``: nodes are named by the answers that lead to them (``root``,
``0A1B``, ``0A1B-2A0B``) and carry the guess, how many secrets remain there and the depth (answers
before the node; the root is 0); edges carry the feedback. Files are written atomically and the same
book always gives the same bytes.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

from treegen.data import BookData, Node
from treegen.errors import ExportError, unknown
from treegen.files.atomic import format_from_suffix, write_atomic
from treegen.views.c_header import PREFIX, header_text
from treegen.views.encode import xml_text
from treegen.views.tree import measure, path_key

FORMATS = ("graphml", "gexf", "node-link", "c")
SUFFIXES = {".graphml": "graphml", ".gexf": "gexf", ".json": "node-link", ".h": "c"}


def book_graph(book: BookData) -> nx.DiGraph[str]:
    """The tree as ``nx.DiGraph``; graph attributes describe the game, strategy and stats."""
    import networkx as nx
    game, strategy, stats = book["game"], book["strategy"], book["stats"]
    graph: nx.DiGraph[str] = nx.DiGraph(game=game["name"], symbols=game["symbols"], length=game["length"],
                       repetition=game["repetition"], strategy=strategy["name"],
                       pool=strategy["pool"], first=strategy["first"], secrets=stats["secrets"],
                       average=float(stats["average"]), max=stats["max"])
    sizes = measure(book["tree"], book["game"])
    stack: list[tuple[Node, tuple[str, ...]]] = [(book["tree"], ())]
    while stack:
        node, path = stack.pop()
        name = path_key(path)
        size = sizes[id(node)]
        graph.add_node(name, label=node["guess"], guess=node["guess"], remaining=size.secrets,
                       depth=len(path), leaf=not node["next"])
        if path:
            graph.add_edge(path_key(path[:-1]), name, label=path[-1], feedback=path[-1])
        stack.extend(reversed([(child, (*path, answer)) for answer, child in node["next"].items()]))
    return graph


def export_text(book: BookData, fmt: str, prefix: str = PREFIX) -> str:
    """The text of the file in one of :data:`FORMATS`; ``prefix`` names the C header's identifiers."""
    if fmt == "c":
        return header_text(book, prefix)
    import networkx as nx
    graph = book_graph(book)
    if fmt in ("graphml", "gexf"):
        for key, value in graph.graph.items():  # names are a book's free text
            if isinstance(value, str):
                graph.graph[key] = xml_text(value)
        buffer = io.BytesIO()
        (nx.write_graphml if fmt == "graphml" else nx.write_gexf)(graph, buffer)
        text = buffer.getvalue().decode("utf-8")
        # networkx stamps today's date into GEXF; the attribute is optional, so drop it.
        return re.sub(r' lastmodifieddate="[^"]*"', "", text)
    if fmt == "node-link":
        try:
            data = nx.node_link_data(graph, edges="edges")
        except TypeError:  # networkx before 3.4 names the edge list "links"
            data = nx.node_link_data(graph)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    raise ExportError(unknown("export format", fmt, FORMATS))


def export_format(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The format asked for, else the one the file suffix names."""
    return format_from_suffix(path, fmt, SUFFIXES, FORMATS, what="export format",
                              hint="use .graphml, .gexf, .json or .h, or --format", error=ExportError)


def export(book: BookData, path: str | os.PathLike[str], fmt: str | None = None,
           sources: Sequence[str | os.PathLike[str]] = (), prefix: str = PREFIX) -> str:
    """Write the book as a graph file or C header; returns the format written. ``sources``, the
    files read, are never written over."""
    fmt = export_format(path, fmt)
    write_atomic(path, export_text(book, fmt, prefix), sources=sources)
    return fmt
