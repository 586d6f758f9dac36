"""Pictures and sites: rendering the top of the largest preset book, and building sites.

    python benchmarks/render_bench.py [--repeat 5] [--game mastermind] [--jobs N]

1. Builds the Muertos y Heridos entropy book (10,000 secrets; not timed), then times the top 3
   levels: the DOT text alone (pure Python) and the whole picture to SVG with Graphviz's dot
   (DOT text + one dot run), best of --repeat runs.
2. Builds every heuristic book of --game (simple, random, minimax, expected, entropy, parts) and
   times `build_site` over all of them (page planning, one dot run per batch of pages, writing),
   best of --repeat runs, into a temporary folder.
3. The layout of those sites' pages alone, three ways, once each: one dot run per page, one dot run
   for all pages, and build_site's way (a batch per core, in parallel).
4. The same site figure for the Muertos y Heridos book alone: the largest single book.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from treegen.api import build_book
from treegen.views.dot import dot_source
from treegen.views.graphviz import run_dot, svg_pages
from treegen.views.site import MIN_SECRETS, PAGE_DEPTH, _plan, _svgs, build_site
from treegen.views.tree import measure

HEURISTICS = ["simple", "random", "minimax", "expected", "entropy", "parts"]


def best_of(repeat: int, action) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def site_figures(books, repeat: int, jobs: int | None) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "site")
        seconds, pages = best_of(repeat, lambda: build_site(books, out, jobs=jobs))
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    return seconds, sum(pages.values()), size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the best is kept")
    parser.add_argument("--game", default="mastermind", help="game of the site of all heuristics")
    parser.add_argument("--jobs", type=int, default=None, help="parallel dot runs [default: cores]")
    args = parser.parse_args()

    muertos = build_book("muertos-y-heridos", "entropy")
    sizes = measure(muertos["tree"])
    drawn = dot_source(muertos, depth=3, sizes=sizes)
    nodes = len(re.findall(r'^  "t-[^"]*" \[', drawn, re.M))
    text_s, _ = best_of(args.repeat, lambda: dot_source(muertos, depth=3))
    svg_s, svg = best_of(args.repeat, lambda: run_dot(dot_source(muertos, depth=3), "svg"))
    print(f"muertos-y-heridos entropy, top 3 levels ({nodes} nodes): DOT text {text_s * 1e3:.1f} ms, "
          f"SVG {svg_s * 1e3:.0f} ms ({len(svg) / 1e3:.0f} kB)")

    books = [(f"{args.game}-{name}", build_book(args.game, name)) for name in HEURISTICS]
    seconds, pages, size = site_figures(books, args.repeat, args.jobs)
    print(f"site of {len(books)} {args.game} books ({', '.join(HEURISTICS)}): {seconds:.2f} s, "
          f"{pages} pages, {size / 1e6:.1f} MB")

    sources = [text for name, book in books
               for text in _plan(name, book, PAGE_DEPTH, MIN_SECRETS).pages.values()]
    each, _ = best_of(1, lambda: [run_dot(text, "svg") for text in sources])
    batch, _ = best_of(1, lambda: svg_pages(sources))
    parallel, _ = best_of(1, lambda: _svgs(sources, args.jobs))
    print(f"layout of those {len(sources)} pages: one dot run per page {each:.2f} s, one run for all "
          f"{batch:.2f} s, a batch per core in parallel {parallel:.2f} s")

    seconds, pages, size = site_figures([("muertos-y-heridos-entropy", muertos)],
                                        max(1, args.repeat // 2), args.jobs)
    print(f"site of the muertos-y-heridos entropy book: {seconds:.2f} s, {pages} pages, "
          f"{size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
