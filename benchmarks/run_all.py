"""Every benchmark in one command: build time of every book of the library, player load and lookup,
and the source document's from-scratch solvers beside treegen, with the speed-up.

    python benchmarks/run_all.py [--output benchmarks/results/run_all.md] [--include-slow]
                                 [--simple-sample 252] [--entropy-sample 20]

1. Builds every book of the library once with the exact command its index lists (`treegen build ...`,
   wall time of the whole command: start-up, score table, compile, write), in a temporary folder,
   and checks the file is byte-identical to the one in books/. The books that take minutes (the
   optimal Bulls and Cows book, the frontier sizes) are skipped unless --include-slow, and so are the
   grafted books: `treegen graft` checks every certificate of the records it reads, hours on a
   machine that has not checked them before (with --include-slow, each is grafted from the
   committed book and records it names).
2. Times `Player.from_file` and `Player.answer` on one book per game (the entropy one) from books/.
3. Plays a sample of Bulls and Cows secrets with the source document's simple and max-entropy
   solvers (replay each secret from scratch, score pairs in Python; benchmarks/seed_baseline.py),
   counts the secrets where they need as many guesses as treegen's book of the same strategy,
   extrapolates the time to all 5040 secrets and divides it by treegen's build time of that book.
   (The document's max-entropy solver compares float entropies, so of two guesses that split the
   candidates into classes of the same sizes it sometimes takes the later one, by one unit of
   rounding; treegen calls them equal and takes the first. Its games then differ a little.)

Prints a Markdown table as it goes and writes it to --output. Each book is built once: the figures
are single runs on whatever load the machine has.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT]

import player_bench  # noqa: E402
import seed_baseline  # noqa: E402

from treegen import book as books  # noqa: E402
from treegen import library  # noqa: E402
from treegen.files.atomic import write_atomic  # noqa: E402
from treegen.player import Player  # noqa: E402

BOOKS = os.path.join(ROOT, "books")
PLAYER_BOOKS = [f"{game}-entropy-all" for game in library.GAMES]
#: The source document's solvers and the books that play the same strategy.
NAIVE = [("simple", seed_baseline.choose_first, "bulls-and-cows-simple-consistent"),
         ("max-entropy", seed_baseline.choose_max_entropy, "bulls-and-cows-entropy-consistent")]


def build_times(include_slow: bool, emit) -> dict[str, float]:
    """Wall time of each book's own command, and whether the file matches books/."""
    emit("| book | total | average | max | build (s) | same bytes as books/ |")
    emit("|---|---|---|---|---|---|")
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        for entry in library.entries():
            committed = os.path.join(BOOKS, entry.book_file)
            if entry.name in library.SLOW and not include_slow:
                emit(f"| {entry.name} | | | | not timed (minutes; --include-slow) | |")
                continue
            if entry.grafted is not None and not include_slow:  # its graft checks the records
                emit(f"| {entry.name} | | | | not timed (checks its records' certificates: hours "
                     f"where they were not checked before; --include-slow) | |")
                continue
            if entry.grafted is not None:  # its inputs: the committed book, records and proofs
                for name in (entry.base.book_file, *entry.record_files, "certificates.json"):
                    shutil.copyfile(os.path.join(BOOKS, name), os.path.join(folder, name))
                for name in entry.record_files:
                    proofs = name[:-len(".json")] + ".certificates"
                    if os.path.isdir(os.path.join(BOOKS, proofs)):
                        shutil.copytree(os.path.join(BOOKS, proofs), os.path.join(folder, proofs),
                                        dirs_exist_ok=True)
            command = shlex.split(entry.command(folder))
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "treegen", *command[1:]], check=True,
                           capture_output=True)
            seconds[entry.name] = elapsed = time.perf_counter() - start
            path = os.path.join(folder, entry.book_file)
            stats = books.load(path)["stats"]
            same = "yes" if os.path.exists(committed) and _same(path, committed) else "NO"
            if not os.path.exists(committed):
                same = "not in books/"
            emit(f"| {entry.name} | {stats['total']} | {stats['average']:.4f} | {stats['max']} | "
                 f"{elapsed:.2f} | {same} |")
    emit(f"| **all {len(seconds)} books** | | | | **{sum(seconds.values()):.1f}** | |")
    return seconds


def _same(a: str, b: str) -> bool:
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def player_speed(emit, repeat: int = 20) -> None:
    emit("| book | secrets | size (KiB) | load, best (ms) | load, median (ms) | answer (µs) |")
    emit("|---|---|---|---|---|---|")
    for name in PLAYER_BOOKS:
        path = os.path.join(BOOKS, name + ".json")
        loads = player_bench.time_loads(path, repeat)
        data = books.load(path)
        sequences = player_bench.answer_sequences(data, lambda fb: "%dA%dB" % fb)
        per_answer = player_bench.time_answers(Player.from_file(path), sequences, 3)
        emit(f"| {name} | {data['stats']['secrets']} | {os.path.getsize(path) / 1024:.0f} | "
             f"{min(loads) * 1e3:.1f} | {statistics.median(loads) * 1e3:.1f} | "
             f"{per_answer * 1e6:.2f} |")


def naive_versus_treegen(samples: dict[str, int], built: dict[str, float], emit) -> None:
    codes = seed_baseline.all_candidates()
    emit("| strategy | secrets played | same number of guesses as the book | per secret (s) | "
         "all 5040, extrapolated | treegen book (s) | speed-up |")
    emit("|---|---|---|---|---|---|---|")
    for label, choose, name in NAIVE:
        depths = guesses_per_secret(books.load(os.path.join(BOOKS, name + ".json")))
        step = max(1, len(codes) // samples[label])
        sample = codes[step // 2::step][:samples[label]]
        start = time.perf_counter()
        needed = [seed_baseline.solve(secret, codes, choose) for secret in sample]
        per_secret = (time.perf_counter() - start) / len(sample)
        same = sum(n == depths[secret] for n, secret in zip(needed, sample))
        estimate = per_secret * len(codes)
        ours = built.get(name)
        ratio = f"{estimate / ours:,.0f}x" if ours else "-"
        emit(f"| {label} ({name}) | {len(sample)} | {same} of {len(sample)} | {per_secret:.4f} | "
             f"{_duration(estimate)} | {f'{ours:.2f}' if ours else '-'} | {ratio} |")


def guesses_per_secret(data: dict) -> dict[str, int]:
    """How many guesses the book needs for each secret: the depth of the node guessing it."""
    depths, stack = {}, [(data["tree"], 1)]
    while stack:
        node, depth = stack.pop()
        depths.setdefault(node["guess"], depth)
        stack.extend((child, depth + 1) for child in node["next"].values())
    return depths


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.1f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=os.path.join(HERE, "results", "run_all.md"),
                        help="Markdown file for the table [default: benchmarks/results/run_all.md]")
    parser.add_argument("--include-slow", action="store_true",
                        help="also time the books that take minutes (optimal Bulls and Cows, frontier sizes)")
    parser.add_argument("--simple-sample", type=int, default=252,
                        help="secrets the document's simple solver plays")
    parser.add_argument("--entropy-sample", type=int, default=20,
                        help="secrets the document's max-entropy solver plays")
    args = parser.parse_args()
    lines: list[str] = []

    def emit(line: str = "") -> None:
        lines.append(line)
        print(line, flush=True)

    began = time.perf_counter()
    emit(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
         f"{os.getloadavg()[0]:.1f} at the start.")
    emit()
    emit("Build time of every book (`treegen build`, the book's own command, one run):")
    emit()
    built = build_times(args.include_slow, emit)
    emit()
    emit("Player (`treegen/player.py`): load a book, then answer while playing every secret:")
    emit()
    player_speed(emit)
    emit()
    emit("The source document's solvers (every secret replayed from scratch, pairs scored in "
         "Python) against treegen building the same book:")
    emit()
    naive_versus_treegen({"simple": args.simple_sample, "max-entropy": args.entropy_sample},
                         built, emit)
    emit()
    emit(f"Benchmark run time: {_duration(time.perf_counter() - began)}.")
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    write_atomic(args.output, "\n".join(lines) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
