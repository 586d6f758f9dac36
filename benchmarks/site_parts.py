"""A site's large book in the browser, whole or in parts, side by side: the time to the first
guess, a game played to the end, and the page's JavaScript heap, in headless Chromium.

    python benchmarks/site_parts.py BOOK --secret 7654321 --rounds 3
    python benchmarks/site_parts.py p7c7.json --secret 7654321 --save

Make a large book first, e.g. ``treegen build --symbols 1234567 --length 7 --repetition -s minimax
--first 1122334 -o p7c7.json`` (823,543 secrets). Both sites are written once (the pages are the
same; only the book's data differs), then each round opens each from ``file://`` in a fresh
page, in turn (A B A B ...). ``--save`` adds the medians to benchmarks/results/site-parts.json.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import saved as saved_results

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "site-parts.json")
FLAGS = ["--no-sandbox", "--headless", "--disable-gpu", "--enable-precise-memory-info"]


def play(browser, page_file: Path, secret: str) -> dict[str, float]:
    from treegen.player import score
    page = browser.new_page()
    try:
        start = time.perf_counter()
        page.goto(page_file.as_uri(), timeout=900_000)
        page.wait_for_selector("#play-guess .code", timeout=900_000)
        first = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(64):
            if page.locator("#play-guess .solved").count():
                break
            page.wait_for_selector("#play-answer:not([disabled])")
            guess = page.get_attribute("#play-guess .code", "data-code")
            page.fill("#play-answer", score(guess, secret))
            page.press("#play-answer", "Enter")
        assert page.get_attribute("#play-guess .solved .code", "data-code") == secret
        game = time.perf_counter() - start
        heap = page.evaluate("performance.memory.usedJSHeapSize") / 1e6
        return {"first_guess_s": first, "game_s": game, "heap_mb": heap}
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book")
    parser.add_argument("--secret", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from treegen import book as books
    from treegen.views.site import build_site
    folder = Path(tempfile.mkdtemp(prefix="site-parts-"))
    try:
        loaded = books.load(args.book)
        nodes = {"whole": 10 ** 12, "parts": None}
        for way, budget in nodes.items():
            extra = {} if budget is None else {"part_nodes": budget}
            build_site([("book", loaded)], folder / way, **extra)
        del loaded
        runs: dict[str, list[dict[str, float]]] = {way: [] for way in nodes}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                        args=FLAGS)
            try:
                for _ in range(args.rounds):
                    for way in nodes:
                        runs[way].append(play(browser, folder / way / "book" / "index.html", args.secret))
                        print(way, {k: round(v, 2) for k, v in runs[way][-1].items()}, file=sys.stderr)
            finally:
                browser.close()
        medians = {way: {key: statistics.median(run[key] for run in runs[way]) for key in runs[way][0]}
                   for way in nodes}
        data = (folder / "parts" / "book" / "book-data.js").stat().st_size
        files = len(list((folder / "parts" / "book" / "parts").iterdir()))
        for way, figures in medians.items():
            print(f"{way:6} first guess {figures['first_guess_s']:.2f} s, game {figures['game_s']:.2f} s, "
                  f"heap {figures['heap_mb']:.1f} MB")
        print(f"parts: book-data.js {data / 1e6:.2f} MB and {files} part files")
        if args.save:
            saved_results.append(RESULTS, book=os.path.basename(args.book), secret=args.secret,
                                 rounds=args.rounds, medians=medians, top_bytes=data, part_files=files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
