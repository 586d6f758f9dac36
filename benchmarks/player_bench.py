"""Runtime player speed: loading the largest preset book and answering from it.

    python benchmarks/player_bench.py [--game muertos-y-heridos] [--strategy entropy] [--book FILE]

Builds the book in a temporary folder (unless --book is given), then times ``Player.from_file`` (read,
parse, precompute per-node secret counts) and ``Player.answer`` while playing every secret of the
book. Targets: at most 50 ms per load and 5 µs per answer call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from treegen import book as books
from treegen.book.format import answer_key
from treegen.book.replay import game_codes
from treegen.player import Player

LOAD_TARGET = 50e-3
ANSWER_TARGET = 5e-6


def time_loads(path: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        Player.from_file(path)
        times.append(time.perf_counter() - start)
    return times


def answer_sequences(book: dict, spell) -> list[list[str]]:
    """For every secret, the answers a person would give: pegs written with ``spell`` (from the
    pair of counts), any other rule's answers as the book keys them."""
    out = []
    pegs = book["game"].get("rule", "pegs") == "pegs"
    for secret in game_codes(book["game"]):
        node, answers = book["tree"], []
        while True:
            key = answer_key(book["game"], node["guess"], secret)
            answers.append(spell(books.feedback(node["guess"], secret)) if pegs else key)
            if node["guess"] == secret:
                break
            node = node["next"][key]
        out.append(answers)
    return out


def time_answers(player: Player, sequences: list[list[str]], repeat: int) -> float:
    """Seconds per answer call, best of ``repeat`` passes over every secret (reset included)."""
    calls = sum(map(len, sequences))
    answer, reset = player.answer, player.reset
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for answers in sequences:
            reset()
            for text in answers:
                answer(text)
        best = min(best, time.perf_counter() - start)
    return best / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="muertos-y-heridos")
    parser.add_argument("--strategy", default="entropy")
    parser.add_argument("--book", default=None, help="benchmark this book instead of building one")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.book
        if path is None:
            from treegen.api import build_book
            path = os.path.join(folder, "book.json")
            books.save(build_book(args.game, args.strategy), path)
        book = books.load(path)
        loads = time_loads(path, args.repeat)
        player = Player.from_file(path)
        canonical = answer_sequences(book, lambda fb: "%dA%dB" % fb)
        loose = answer_sequences(book, lambda fb: " %d , %d " % fb)
        per_answer = time_answers(player, canonical, max(1, args.repeat // 4))
        per_loose = time_answers(player, loose, max(1, args.repeat // 4))
        size = os.path.getsize(path)
    stats = book["stats"]
    print(f"book: {book['game']['name']} {book['strategy']['name']}, {stats['secrets']} secrets, "
          f"{size / 1024:.0f} KiB; python {sys.version.split()[0]}")
    rows = [
        ("load (Player.from_file), best", f"{min(loads) * 1e3:.1f} ms", f"{LOAD_TARGET * 1e3:.0f} ms",
         min(loads) <= LOAD_TARGET),
        ("load (Player.from_file), median", f"{statistics.median(loads) * 1e3:.1f} ms",
         f"{LOAD_TARGET * 1e3:.0f} ms", statistics.median(loads) <= LOAD_TARGET),
        ("answer('1A2B')", f"{per_answer * 1e6:.2f} µs", f"{ANSWER_TARGET * 1e6:.0f} µs",
         per_answer <= ANSWER_TARGET),
        ("answer(' 1 , 2 ') (regex path)", f"{per_loose * 1e6:.2f} µs", "-", None),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'time':>10}  {'target':>7}  ok")
    for name, value, target, ok in rows:
        mark = "-" if ok is None else ("yes" if ok else "NO")
        print(f"{name.ljust(width)}  {value:>10}  {target:>7}  {mark}")


if __name__ == "__main__":
    main()
