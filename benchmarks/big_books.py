"""Reading a large book whole or node by node, side by side: what ``stats``, ``verify``, ``play``
and ``render`` do with it, each way in its own process, in turn (A B A B ...).

    python benchmarks/big_books.py BOOK --rounds 3
    python benchmarks/big_books.py p7c7.json --secret 7654321 --save

Make a large book first, e.g. ``treegen build --symbols 1234567 --length 7 --repetition -s minimax
--first 1122334 -o p7c7.json`` (823,543 secrets). Prints, per task, the medians of CPU seconds and
peak memory of each way and the median of the pairwise CPU ratios (node by node / whole).
``--save`` adds them to benchmarks/results/big-books.json.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

import saved as saved_results
from heuristic_scale import measured

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "big-books.json")

#: task: (read whole, node by node), each a program of the book's path (argv[1]) and a secret
TASKS = {
    "stats": ("from treegen import book; book.load(sys.argv[1])",
              "from treegen import book; book.load_sections(sys.argv[1])"),
    "verify": ("from treegen import book; from treegen.book.replay import verify; "
               "assert verify(book.load(sys.argv[1])) == []",
               "from treegen.book.replay import verify_file; "
               "assert verify_file(sys.argv[1])[1] == []"),
    "play": ("from treegen import book; from treegen.sessions.play import autoplay, make_player; "
             "autoplay(make_player(book.load(sys.argv[1])), sys.argv[2])",
             "from treegen import book; from treegen.sessions.play import autoplay, make_player; "
             "autoplay(make_player(book.open_book(sys.argv[1])), sys.argv[2])"),
    "render": ("from treegen import book; from treegen.views.dot import dot_source, fitting_depth; "
               "b = book.load(sys.argv[1]); dot_source(b, fitting_depth(b))",
               "from treegen.views.dot import DEFAULT_DEPTH, dot_source, fitting_depth; "
               "from treegen.views.top import top_of; "
               "b, p, s = top_of(sys.argv[1], None, DEFAULT_DEPTH); "
               "dot_source(b, fitting_depth(b, p, sizes=s), p, sizes=s)"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("book", help="a book in the layout treegen writes")
    parser.add_argument("--secret", default=None, help="the secret play plays [default: the "
                        "last code of the game's first guess's first class]")
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"of {', '.join(TASKS)}")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", action="store_true", help=f"add the figures to {RESULTS}")
    args = parser.parse_args()
    secret = args.secret or _a_secret(args.book)
    rows = []
    print(f"{'task':7} {'whole cpu':>10} {'peak MB':>8} {'nodes cpu':>10} {'peak MB':>8} "
          f"{'cpu ratio':>10}")
    for task in args.tasks.split(","):
        runs: tuple[list[tuple[float, float, int, str]], ...] = ([], [])
        for _ in range(args.rounds):
            for way, program in enumerate(TASKS[task]):  # in turn
                runs[way].append(measured([sys.executable, "-c", "import sys; " + program,
                                           args.book, secret]))
        whole, nodes = ({"cpu": statistics.median(r[1] for r in ways),
                         "peak_bytes": int(statistics.median(r[2] for r in ways))}
                        for ways in runs)
        ratio = statistics.median(b[1] / a[1] for a, b in zip(*runs))
        rows.append({"task": task, "whole": whole, "node_by_node": nodes, "cpu_ratio": ratio,
                     "rounds": args.rounds})
        print(f"{task:7} {whole['cpu']:10.2f} {whole['peak_bytes'] / 1e6:8.0f} "
              f"{nodes['cpu']:10.2f} {nodes['peak_bytes'] / 1e6:8.0f} {ratio:10.2f}", flush=True)
    if args.save:
        saved_results.append(RESULTS, book=os.path.basename(args.book), secret=secret, runs=rows)
    return 0


def _a_secret(path: str) -> str:
    """A secret the book plays to a leaf: the guesses down its first branches, the last one."""
    from treegen import book
    node = book.open_book(path)["tree"]
    while node["next"]:
        node = next(iter(node["next"].values()))
    return str(node["guess"])


if __name__ == "__main__":
    sys.exit(main())
