"""The commands that show a book: pictures, a static site, graph files."""

from __future__ import annotations

import os

import click

from treegen import book as books
from treegen.cli.support import default_output, say


@click.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Picture file; its suffix (.svg, .png, .pdf, .dot) chooses the format "
                   "[default: the book's name with .svg].")
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "pdf", "dot"]), default=None,
              help="Output format, whatever the file is called. dot needs no Graphviz.")
@click.option("--depth", default="auto", show_default=True, metavar="N|auto|all",
              help="Levels of guesses to draw; auto: up to 3, fewer where a level would be too "
                   "wide to read; all: the whole tree.")
@click.option("--dpi", type=click.IntRange(10, 1200), default=None,
              help="Resolution of a PNG  [default: Graphviz's, 96].")
@click.option("--from", "start", default=None, metavar="GUESS=FEEDBACK,...",
              help="Draw from the node these moves lead to, e.g. 1122=1A0B,1344=2A0B.")
@click.option("--pegs/--text", default=None,
              help="Draw codes as colour pegs or as text [default: pegs for Mastermind-like games].")
def render(book: str, output: str | None, fmt: str | None, depth: str, dpi: int | None,
           start: str | None, pegs: bool | None) -> None:
    """Draw the top of a book (or of any subtree) with Graphviz: SVG, PNG, PDF or DOT.

    Nodes show the guess and how many secrets remain; small boxes on the edges show the answer;
    dashed nodes are cut-off subtrees with their size; green nodes are solved secrets.

    \b
    Examples:
      treegen render mastermind-minimax-all.json -o tree.svg
      treegen render knuth.json --depth 2 --from 1122=1A0B -o after-1A0B.png
      treegen render knuth.json --format dot -o tree.dot    # no Graphviz needed
    """
    from treegen.files.atomic import refuse_sources
    from treegen.views.dot import DEFAULT_DEPTH
    from treegen.views.render import output_format, picture_depth
    from treegen.views.render import render as draw
    from treegen.views.top import top_of
    from treegen.views.tree import describe_path, locate, node_count, parse_path
    levels: int | None
    if depth in ("all", "auto"):
        levels = None
    else:
        try:
            levels = int(depth)
        except ValueError:
            raise click.BadParameter(f"{depth!r} is not a number of levels or 'all'",
                                     param_hint="--depth") from None
        if levels < 1:
            raise click.BadParameter("draw at least 1 level", param_hint="--depth")
    fmt = output_format(output, fmt)
    output = output or default_output(book, "." + fmt)
    refuse_sources(output, [book])
    sizes = None
    if depth == "all":
        data = books.load(book)
        path = locate(data, parse_path(start, data["game"])) if start else ()
        say(f"warning: --depth all draws all {node_count(data, path)} nodes of the "
                   "subtree; the picture will be large", err=True)
    else:  # only the levels drawn are kept, whatever the size of the book
        data, path, sizes = top_of(book, start, levels or DEFAULT_DEPTH)
        if depth == "auto":
            levels = picture_depth(data, "auto", path, sizes)
    draw(data, output, fmt, depth=levels, start=path, pegs=pegs, sources=[book], dpi=dpi,
         sizes=sizes)
    say(f"wrote {output} ({fmt}, {'all levels' if levels is None else f'{levels} levels'}"
               f"{' from ' + describe_path(data['tree'], path) if path else ''})")


@click.command()
@click.argument("book", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Path(file_okay=False), required=True,
              help="Folder of the site: created, or an earlier treegen site there is replaced.")
@click.option("--depth", type=click.IntRange(min=2), default=3, show_default=True,
              help="Levels of guesses per page.")
@click.option("--min-secrets", type=click.IntRange(min=1), default=5, show_default=True,
              help="A cut-off subtree with at least this many secrets gets its own page; smaller "
                   "ones are drawn whole on the page that reaches them.")
def site(book: tuple[str, ...], output: str, depth: int, min_secrets: int) -> None:
    """Write a static web site of books: compare them, browse the trees, find secrets, play.

    Plain files: open DIR/index.html from disk or serve the folder with any web server.

    \b
    Example:
      treegen site mastermind-*.json -o site
      python3 -m http.server -d site    # optional: any static server works
    """

    from treegen.views.site import build_site
    named = [(os.path.splitext(os.path.basename(path))[0], books.load(path)) for path in book]
    pages = build_site(named, output, depth=depth, min_secrets=min_secrets, sources=book)
    say(f"wrote {output}: {len(pages)} book{'s' if len(pages) != 1 else ''}, "
               f"{sum(pages.values())} pages; open {os.path.join(output, 'index.html')}")


@click.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["graphml", "gexf", "node-link", "c"]), default=None,
              help="Graph format, or c for a C header [default: from the -o suffix (.graphml, .gexf, "
                   ".json, .h), else graphml].")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="File to write [default: the book's name with .graphml, .gexf, -graph.json or .h].")
@click.option("--prefix", default="tg", show_default=True,
              help="C header only: the prefix of its names (tg_answer, TG_OK, ...), so that several "
                   "books can share a program.")
def export(book: str, fmt: str | None, output: str | None, prefix: str) -> None:
    """Export a book as a graph for Gephi, yEd or networkx (GraphML, GEXF or node-link JSON), or as
    a C99 header that plays it.

    Graph nodes carry guess, remaining (secrets still possible) and depth (answers before the
    node); edges carry feedback. The C header holds the tree as a packed table and the functions
    tg_start, tg_guess, tg_answer and tg_undo.

    \b
    Examples:
      treegen export knuth.json -o knuth.graphml
      treegen export knuth.json --format node-link -o knuth-graph.json
      treegen export knuth.json -o knuth.h
    """
    from treegen.files.atomic import refuse_sources
    from treegen.views.export import export as write_graph
    from treegen.views.export import export_format
    if output is None:
        fmt = fmt or "graphml"
        output = default_output(book, {"graphml": ".graphml", "gexf": ".gexf",
                                        "node-link": "-graph.json", "c": ".h"}[fmt])
    fmt = export_format(output, fmt)
    refuse_sources(output, [book])
    write_graph(books.load(book), output, fmt, sources=[book], prefix=prefix)
    say(f"wrote {output} ({fmt})")
