import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.api import build_book
from treegen.book.format import feedback
from treegen.book.replay import game_codes
from treegen.errors import PathError, RenderError
from treegen.rules.game import Game
from treegen.views.dot import PEG_COLOURS, WIDEST, dot_source, fitting_depth, level_widths, uses_pegs
from treegen.views.graphviz import run_dot
from treegen.views.render import output_format, render
from treegen.views.tree import locate, measure, node_at, parse_path

SVG = "{http://www.w3.org/2000/svg}"


def walk(tree):
    """Every (path, node) of a tree, plainly and recursively (books are shallow)."""
    yield (), tree
    for answer, child in tree["next"].items():
        for path, node in walk(child):
            yield (answer, *path), node


def visits(book):
    """How many secrets pass through each node: every secret played from the root, one by one."""
    count = Counter()
    solved = f"{book['game']['length']}A0B"
    for secret in game_codes(book["game"]):
        node, path = book["tree"], ()
        while True:
            count[path] += 1
            answer = "%dA%dB" % feedback(node["guess"], secret)
            if answer == solved:
                break
            node, path = node["next"][answer], (*path, answer)
    return count


def dot_nodes(text):
    """Node name -> attribute text of the tree nodes (not the answer boxes) in DOT text."""
    return dict(re.findall(r'^  "(t-[^"]*)" \[(.*)\];$', text, re.M))


def dot_edges(text):
    return re.findall(r'^  "([^"]+)" -> "([^"]+)"', text, re.M)


def test_remaining_counts_match_playing_every_secret(mastermind_minimax, bulls_simple):
    for book in (mastermind_minimax, bulls_simple):
        sizes = measure(book["tree"], book["game"])
        expected = visits(book)
        for path, node in walk(book["tree"]):
            assert sizes[id(node)].secrets == expected[path], path
        root = sizes[id(book["tree"])]
        assert root.secrets == book["stats"]["secrets"] and root.height == book["stats"]["max"]


def test_measure_from_a_subtree_uses_the_answers_above_it(mastermind_minimax):
    path = ("1A0B", "0A0B")
    node = node_at(mastermind_minimax["tree"], path)
    tree, game = mastermind_minimax["tree"], mastermind_minimax["game"]
    whole, part = measure(tree, game), measure(tree, game, path)
    assert part[id(node)] == whole[id(node)]
    assert part[id(node)].secrets == visits(mastermind_minimax)[path]


def test_two_levels_show_guesses_counts_answers_and_cut_off_sizes(bulls_simple):
    text = dot_source(bulls_simple, depth=2)
    tree, sizes = bulls_simple["tree"], measure(bulls_simple["tree"], bulls_simple["game"])
    nodes = dot_nodes(text)
    assert set(nodes) == {"t-root"} | {f"t-{a}" for a in tree["next"]}
    assert "<B>0123</B>" in nodes["t-root"] and "5040 secrets" in nodes["t-root"]
    edges = dot_edges(text)
    for answer, child in tree["next"].items():
        # the answer sits on the edge as a small labelled box: root -> answer -> child
        assert ("t-root", f"f-{answer}") in edges and (f"f-{answer}", f"t-{answer}") in edges
        assert re.search(rf'"f-{answer}" \[[^\n]*label="{answer}"', text)
        attrs = nodes[f"t-{answer}"]
        assert f"<B>{child['guess']}</B>" in attrs
        size = sizes[id(child)]
        assert f">{size.secrets} secret" in attrs
        if child["next"]:
            assert "dashed" in attrs and f"up to {size.height - 1} more guess" in attrs
        else:
            assert "solved" in attrs and "dashed" not in attrs
    assert len(edges) == 2 * len(tree["next"])


def test_whole_tree_draws_every_node_and_leaves_as_solved(mastermind_minimax):
    text = dot_source(mastermind_minimax, depth=None, pegs=False)
    nodes = dot_nodes(text)
    everything = list(walk(mastermind_minimax["tree"]))
    assert len(nodes) == len(everything)
    leaves = [n for n in nodes.values() if "solved" in n]
    assert len(leaves) == sum(1 for _, node in everything if not node["next"])
    assert not any("dashed" in n for n in nodes.values())
    assert text == dot_source(mastermind_minimax, depth=None, pegs=False)  # deterministic


def test_links_go_on_cut_off_nodes_only(mastermind_minimax):
    linked = []

    def href(path):
        linked.append(path)
        return "page-" + "-".join(path) + ".html"

    text = dot_source(mastermind_minimax, depth=2, href=href)
    nodes = dot_nodes(text)
    tree = mastermind_minimax["tree"]
    assert sorted(linked) == sorted((a,) for a, child in tree["next"].items() if child["next"])
    for path in linked:
        assert f'URL="page-{path[0]}.html"' in nodes[f"t-{path[0]}"]
    assert sum("URL=" in n for n in nodes.values()) == len(linked)


def test_small_subtrees_are_drawn_whole_instead_of_cut(mastermind_minimax):
    sizes = measure(mastermind_minimax["tree"], mastermind_minimax["game"])
    cut = []
    text = dot_source(mastermind_minimax, depth=2, full_below=20,
                      href=lambda p: cut.append(p) or "x.html")
    for path in cut:
        assert sizes[id(node_at(mastermind_minimax["tree"], path))].secrets >= 20
    small = [(a,) for a, c in mastermind_minimax["tree"]["next"].items()
             if c["next"] and sizes[id(c)].secrets < 20]
    assert small, "the test needs a small subtree at level 2"
    for path in small:
        subtree = node_at(mastermind_minimax["tree"], path)
        for below, _ in walk(subtree):
            assert f'"t-{"-".join(path + below)}"' in text


def test_mastermind_is_drawn_with_coloured_pegs_and_numbers_as_text(mastermind_minimax,
                                                                    bulls_simple):
    pegs = dot_source(mastermind_minimax, depth=1)
    root = dot_nodes(pegs)["t-root"]
    first = mastermind_minimax["tree"]["guess"]  # 1122: two pegs of colour 1, two of colour 2
    colours = re.findall(r'COLOR="(#[0-9a-f]{6})" POINT-SIZE="18">&#9679;', root)
    assert colours == [PEG_COLOURS["123456".index(c)] for c in first]
    assert f"<B>{first}</B>" not in root
    # the legend names every symbol's colour, each symbol and peg in a cell of its own (laid out
    # by Graphviz, not by a browser's font); every code shows its symbols as text too
    for symbol, colour in zip("123456", PEG_COLOURS):
        assert (f'<TD><FONT POINT-SIZE="10" COLOR="#64748b">{symbol}</FONT></TD>'
                f'<TD><FONT COLOR="{colour}" POINT-SIZE="13">&#9679;</FONT></TD>') in pegs
    assert f'<FONT POINT-SIZE="9" COLOR="#64748b">{first}</FONT>' in root
    text = dot_source(bulls_simple, depth=1)
    assert "&#9679;" not in text and "<B>0123</B>" in text
    assert "&#9679;" not in dot_source(mastermind_minimax, depth=1, pegs=False)


def test_which_games_get_pegs():
    def game(symbols, repetition, name="custom"):
        return {"name": name, "symbols": symbols, "length": 4, "repetition": repetition}

    assert uses_pegs(game("123456", True, "mastermind"))
    assert uses_pegs(game("12345678", True))      # Mastermind with more colours
    assert uses_pegs(game("RGBYOW", True))
    assert not uses_pegs(game("0123456789", True, "muertos-y-heridos"))
    assert not uses_pegs(game("0123456789", False, "bulls-and-cows"))
    assert not uses_pegs(game("012345", True))    # a number game
    assert not uses_pegs(game("ABCDEF", False))   # no repetition
    assert not uses_pegs(game("ABCDEFGHIJK", True))  # more symbols than colours


def test_start_node_and_title(mastermind_minimax):
    steps = parse_path("1122=1A0B, 1344=0 0", mastermind_minimax["game"])
    assert steps == [("1122", "1A0B"), ("1344", "0A0B")]
    path = locate(mastermind_minimax, steps)
    assert path == ("1A0B", "0A0B")
    text = dot_source(mastermind_minimax, depth=2, start=path)
    node = node_at(mastermind_minimax["tree"], path)
    assert set(dot_nodes(text)) == {"t-1A0B-0A0B"} | {f"t-1A0B-0A0B-{a}" for a in node["next"]}
    assert "from 1122=1A0B,1344=0A0B" in text and "mastermind &#183; minimax" in text


@pytest.mark.parametrize("path, message", [
    ("1122=1A0B,1345=0A0B", "the book guesses 1344, not 1345, at 1122=1A0B"),
    ("1122=3A1B", "the last symbol cannot be elsewhere"),
    ("1122=4A0B", "solves the game at the root"),
    ("1122=1A3B", "never gets 1A3B for 1122 at the root"),
])
def test_paths_that_lead_nowhere_are_refused(mastermind_minimax, path, message):
    assert "1A3B" not in mastermind_minimax["tree"]["next"]
    with pytest.raises(PathError, match=re.escape(message)):
        locate(mastermind_minimax, parse_path(path, mastermind_minimax["game"]))


def test_formats_come_from_the_suffix_or_the_option():
    assert output_format("a.SVG") == "svg" and output_format("a.gv") == "dot"
    assert output_format("a.txt", "png") == "png" and output_format(None) == "svg"
    with pytest.raises(RenderError, match="suffix"):
        output_format("a.txt")


def test_odd_symbols_are_escaped():
    book = build_book(Game('<&"', 2, True), "simple")
    text = dot_source(book, depth=None, pegs=False)
    labels = re.findall(r"<B>([^<]*)</B>", text)
    assert "&lt;&lt;" in labels and "&amp;&quot;" in labels and not any('"' in t for t in labels)


@requires_binary("dot")
def test_svg_parses_and_holds_the_drawn_nodes(bulls_simple):
    svg = run_dot(dot_source(bulls_simple, depth=2), "svg")
    root = ET.fromstring(svg)
    groups = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("class") == "node"}
    tree = bulls_simple["tree"]
    assert {i for i in groups if i.startswith("t-")} == {"t-root"} | {f"t-{a}" for a in tree["next"]}
    texts = ["".join(t.itertext()) for t in groups["t-root"].iter(f"{SVG}text")]
    assert "0123" in texts and "5040 secrets" in texts
    answers = {"".join(t.itertext()) for i, g in groups.items() if i.startswith("f-")
               for t in g.iter(f"{SVG}text")}
    assert answers == set(tree["next"])


@requires_binary("dot")
def test_odd_symbols_survive_graphviz():
    book = build_book(Game('<&"', 2, True), "simple")
    root = ET.fromstring(run_dot(dot_source(book, depth=None, pegs=False), "svg"))
    words = {"".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")}
    assert book["tree"]["guess"] in words


@requires_binary("dot")
def test_png_and_pdf_are_written_and_reproducible(mastermind_minimax, tmp_path):
    render(mastermind_minimax, tmp_path / "a.png", depth=1)
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    render(mastermind_minimax, tmp_path / "a.pdf", depth=1)
    render(mastermind_minimax, tmp_path / "b.pdf", depth=1)
    first = (tmp_path / "a.pdf").read_bytes()
    assert first.startswith(b"%PDF") and first == (tmp_path / "b.pdf").read_bytes()


@requires_binary("dot")
def test_cli_render_svg_from_a_node(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("render", "mm.json", "--from", "1122=1A0B", "--depth", "2", "-o", "t.svg")
    assert result.exit_code == 0, result.output
    root = ET.parse(tmp_path / "t.svg").getroot()
    ids = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert "t-1A0B" in ids and "t-root" not in ids


def test_cli_dot_needs_no_graphviz_and_svg_says_how_to_install_it(run, tmp_path, monkeypatch,
                                                                  mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = run("render", "mm.json", "-o", "t.dot")
    assert result.exit_code == 0, result.output
    levels = fitting_depth(mastermind_minimax)  # the default depth, auto
    assert (tmp_path / "t.dot").read_text() == dot_source(mastermind_minimax, levels)
    result = run("render", "mm.json", "-o", "t.svg")
    assert result.exit_code == 1 and not (tmp_path / "t.svg").exists()
    assert result.output.count("\n") == 1 and "install Graphviz" in result.output


def test_cli_depth_all_warns_and_bad_paths_are_one_line_errors(run, tmp_path,
                                                               mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("render", "mm.json", "--depth", "all", "--format", "dot")
    assert result.exit_code == 0 and (tmp_path / "mm.dot").exists()
    count = len(list(walk(mastermind_minimax["tree"])))
    assert f"warning: --depth all draws all {count} nodes" in result.stderr
    result = run("render", "mm.json", "--from", "1122=1A0B,9999=0A0B", "--format", "dot")
    assert result.exit_code == 1 and result.output.startswith("Error: no such node")
    assert result.output.count("\n") == 1


def test_the_default_depth_draws_as_many_levels_as_read_well(mastermind_minimax):
    """Mastermind's 14 first answers each lead to up to 16 more: three levels would stack about
    a hundred boxes; two are drawn. A small game's three levels are narrow: all three are drawn."""
    sizes = measure(mastermind_minimax["tree"], mastermind_minimax["game"])
    assert fitting_depth(mastermind_minimax) == 2
    assert max(level_widths(mastermind_minimax["tree"], (), 3, 0, sizes)) > WIDEST
    small = build_book(Game("ABC", 2, True), "minimax")
    assert fitting_depth(small) == 3
    assert fitting_depth(small, most=2) == 2 and fitting_depth(mastermind_minimax, most=1) == 1


def png_size(data):
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@requires_binary("dot")
def test_dpi_scales_a_png_and_is_bounded(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    assert run("render", "mm.json", "-o", "a.png").output.endswith("(png, 2 levels)\n")
    assert run("render", "mm.json", "-o", "b.png", "--dpi", "192").exit_code == 0
    (w1, h1), (w2, h2) = (png_size((tmp_path / f).read_bytes()) for f in ("a.png", "b.png"))
    assert abs(w2 - 2 * w1) <= 2 and abs(h2 - 2 * h1) <= 2
    result = run("render", "mm.json", "-o", "c.png", "--dpi", "5000")
    assert result.exit_code == 2 and "--dpi" in result.output and not (tmp_path / "c.png").exists()
    with pytest.raises(RenderError, match="dpi must be a whole number from 10 to 1200"):
        render(mastermind_minimax, tmp_path / "d.png", dpi=10 ** 9)
