import json
from collections import Counter

import networkx as nx
import pytest

from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.book.format import feedback
from treegen.book.replay import game_codes
from treegen.errors import ExportError
from treegen.views.export import book_graph, export, export_format, export_text


def secrets_through(book):
    """Node name -> how many secrets pass through it, by playing every secret from the root."""
    count = Counter()
    solved = f"{book['game']['length']}A0B"
    for secret in game_codes(book["game"]):
        node, path = book["tree"], []
        while True:
            count["-".join(path) or "root"] += 1
            answer = "%dA%dB" % feedback(node["guess"], secret)
            if answer == solved:
                break
            node = node["next"][answer]
            path.append(answer)
    return count


def test_graph_nodes_carry_guess_remaining_depth_and_edges_feedback(mastermind_minimax):
    graph = book_graph(mastermind_minimax)
    through = secrets_through(mastermind_minimax)
    assert set(graph.nodes) == set(through)
    assert graph.number_of_edges() == graph.number_of_nodes() - 1 and nx.is_arborescence(graph)
    for name, data in graph.nodes(data=True):
        assert data["remaining"] == through[name]
        assert data["depth"] == (0 if name == "root" else name.count("-") + 1)
    assert graph.nodes["root"]["guess"] == mastermind_minimax["tree"]["guess"]
    for _parent, child, data in graph.edges(data=True):
        assert child.split("-")[-1] == data["feedback"]
        tree_child = mastermind_minimax["tree"]
        for answer in child.split("-"):
            tree_child = tree_child["next"][answer]
        assert graph.nodes[child]["guess"] == tree_child["guess"]
    assert graph.graph["game"] == "mastermind" and graph.graph["secrets"] == 1296


def test_graphml_reads_back_with_the_same_counts(mastermind_minimax, tmp_path):
    graph = book_graph(mastermind_minimax)
    assert export(mastermind_minimax, tmp_path / "t.graphml") == "graphml"
    back = nx.read_graphml(tmp_path / "t.graphml")
    assert back.is_directed()
    assert (back.number_of_nodes(), back.number_of_edges()) == (graph.number_of_nodes(),
                                                               graph.number_of_edges())
    assert back.nodes["root"]["remaining"] == 1296 and back.edges["root", "0A0B"]["feedback"] == "0A0B"


def test_gexf_and_node_link_read_back_and_are_reproducible(bulls_simple, tmp_path):
    size = (len(secrets_through(bulls_simple)), len(secrets_through(bulls_simple)) - 1)
    export(bulls_simple, tmp_path / "a.gexf")
    export(bulls_simple, tmp_path / "b.gexf")
    assert (tmp_path / "a.gexf").read_bytes() == (tmp_path / "b.gexf").read_bytes()
    assert b"lastmodifieddate" not in (tmp_path / "a.gexf").read_bytes()
    back = nx.read_gexf(tmp_path / "a.gexf")
    assert (back.number_of_nodes(), back.number_of_edges()) == size
    export(bulls_simple, tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    links = "edges" if "edges" in data else "links"
    back = nx.node_link_graph(data, edges=links)
    assert (back.number_of_nodes(), back.number_of_edges()) == size
    assert back.nodes["root"]["remaining"] == 5040


def test_format_from_suffix_or_option():
    assert export_format("x.graphml") == "graphml" and export_format("x.GEXF") == "gexf"
    assert export_format("x.json") == "node-link" and export_format("x.txt", "gexf") == "gexf"
    assert export_format("x.h") == "c"
    with pytest.raises(ExportError, match=r"use .graphml, .gexf, .json or .h"):
        export_format("x.txt")


def test_cli_export(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("export", "mm.json")
    assert result.exit_code == 0 and result.output == "wrote mm.graphml (graphml)\n"
    assert nx.read_graphml(tmp_path / "mm.graphml").number_of_nodes() == len(
        secrets_through(mastermind_minimax))
    assert run("export", "mm.json", "--format", "node-link").output == \
        "wrote mm-graph.json (node-link)\n"
    result = run("export", "mm.json", "-o", "mm.txt")
    assert result.exit_code == 1 and result.output.startswith("Error: cannot tell the export format")
    result = run("export", "mm.json", "-o", "mm.json")
    assert result.exit_code == 1 and "never writes over a file it reads" in result.output
    assert books.load(tmp_path / "mm.json") == mastermind_minimax


@requires_binary("dot")
def test_names_are_encoded_for_every_language_treegen_writes(tmp_path, mastermind_minimax):
    """A book's names are free text: control characters, markup, quotes and backslashes reach
    GraphML, GEXF, SVG (through DOT's HTML labels) and the site's HTML only encoded."""
    import copy
    import xml.etree.ElementTree as ElementTree

    import treegen
    from treegen.views.site import build_site
    book = copy.deepcopy(mastermind_minimax)
    book["game"]["name"] = 'a\x01b<script>alert(1)</script>&"\x0b\n\\"'
    book["strategy"]["name"] = "</script><!--"
    assert treegen.verify(book) == []
    for fmt in ("graphml", "gexf"):
        root = ElementTree.fromstring(export_text(book, fmt).encode("utf-8"))
        assert root is not None
    svg = treegen.Book(book).svg()
    assert ElementTree.fromstring(svg.encode("utf-8")) is not None
    build_site([("hostile", book)], tmp_path / "site")
    for page in (tmp_path / "site").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "</script><!--" not in text and "\x01" not in text
    assert "</script" not in (tmp_path / "site" / "hostile" / "book-data.js").read_text()
