"""CPU time of the exact search of one class of an opening, one core: the part of a campaign's
piece that the engine decides.

    python benchmarks/class_search.py --symbols 123456789 --length 5 --no-repetition \
        --first 12345 --feedback 1A1B                          # 1,440 secrets, cost 6,164
    python benchmarks/class_search.py --symbols 1234567 --length 5 --first 11223 --feedback 2A1B
    python benchmarks/class_search.py ... --vs ../old-checkout --rounds 3
    python benchmarks/class_search.py ... --proof --rounds 3    # search + proof vs one search
    python benchmarks/class_search.py --symbols 123456789 --length 5 --no-repetition \
        --first 12345 --feedback 0A3B --then 23657 1A1B         # a class two guesses in
    python benchmarks/class_search.py ... --floors 3343         # the floors alone

Alone, prints one JSON line: the class, its cost, the CPU seconds of its search (kernels loaded
before the clock starts) and the states of its tree. With ``--vs`` (another checkout of treegen,
its compiled modules built), runs this checkout and that one in turn (A B A B ...), each search in
a process of its own on the processor it is given (``--cpu``), and prints both sides' medians and
the median of the pairs' ratios; both must find the same cost. With ``--proof``, compares the
two ways of certifying the class, each in processes of its own in turn: the search and then a
proof of its cost (a second search, as with workers), against one search that proves as it goes
(``treegen classes -j 1``); both must prove the same cost. ``--then GUESS FEEDBACK`` (repeatable)
goes further into the game: the class searched is the one those steps leave (the sets a campaign's
class is made of). ``--floors BEST`` times what most of a large class's search is, instead of the
search: every guess of the class passed over in compiled code or found hopeful against a best tree
of BEST by its classes' floors; both sides must find the same hopeful guesses.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def search_once(args: argparse.Namespace) -> dict:
    import numpy as np

    from treegen.rules.game import Game
    from treegen.run.seam import Inline
    from treegen.search.bounds import UNLIMITED
    from treegen.search.exact import Search
    from treegen.search.tasks import Tasks
    game = Game.make(symbols=args.symbols, length=args.length, repetition=not args.no_repetition)
    solver = Search(game, None, None, 2 << 30)
    cands, history = np.arange(game.size, dtype=np.int64), ()
    for code, feedback in [(args.first, args.feedback), *args.then]:
        guess = game.index(game.validate_code(code))
        f = game.feedback_texts.index(feedback)
        ordered, start, _ = solver.split(guess, cands)
        cands, history = ordered[start[f]:start[f + 1]], (*history, (guess, f))
    began = time.process_time()
    if args.floors is not None:
        hopeful = floors_once(solver, cands, history, args.floors)
        return {"secrets": len(cands), "cost": None, "hopeful": hopeful,
                "cpu_seconds": round(time.process_time() - began, 2)}
    if args.way == "one":
        from treegen.search.certify import Claim, solve_proven
        cost, plan, _ = solve_proven(Claim(game, 0, history), cands, None, 2 << 30)
    else:
        with Inline().farm(Tasks(solver)) as farm:
            cost, plan = solver.best_with(cands, history, UNLIMITED, farm, follow=len(history))
    if args.way == "two":
        from treegen.search.certify import Claim, prove
        prove(Claim(game, cost, history), 2 << 30)
    seconds = time.process_time() - began
    return {"first": args.first, "feedback": args.feedback, "secrets": len(cands), "cost": cost,
            "cpu_seconds": round(seconds, 2), "states": len(plan or {})}


def floors_once(solver, cands, history, best: int) -> list[int]:
    """The guesses of a class that its classes' floors leave hopeful against ``best``, found as
    the search finds them (:meth:`Search.hopeful`)."""
    from treegen.search.bounds import UNLIMITED
    pool, bounds, order, widest = solver.ordered(cands, history, UNLIMITED, best - 1)
    rank, hopeful = 0, []
    while True:
        rank, guess, classes = solver.hopeful(cands, history, UNLIMITED, widest, best, pool,
                                              bounds, order, rank)
        if classes is None:
            return hopeful
        hopeful.append(guess)
        rank += 1


def run_in(root: Path, argv: list[str], cpu: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, str(Path(__file__).resolve()), *argv]
    if cpu:
        command = ["taskset", "-c", cpu, *command]
    out = subprocess.run(command, env=env, cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--symbols", required=True)
    parser.add_argument("--length", type=int, required=True)
    parser.add_argument("--no-repetition", action="store_true")
    parser.add_argument("--first", required=True)
    parser.add_argument("--feedback", required=True)
    parser.add_argument("--then", nargs=2, action="append", default=[],
                        metavar=("GUESS", "FEEDBACK"), help="a further step into the game")
    parser.add_argument("--floors", type=int, metavar="BEST",
                        help="time the floors of the class's guesses against BEST, not a search")
    parser.add_argument("--vs", type=Path, help="another checkout, searched in turn with this one")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", default="", help="the processor to pin each search to (taskset)")
    parser.add_argument("--proof", action="store_true",
                        help="compare a search and then a proof with one search proving")
    parser.add_argument("--way", choices=("search", "two", "one"), default="search",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.vs is None and not args.proof:
        print(json.dumps(search_once(args)))
        return
    argv = [a for a in sys.argv[1:]]
    for flag in ("--vs", "--rounds", "--cpu"):
        while flag in argv:
            i = argv.index(flag)
            del argv[i:i + 2]
    if "--proof" in argv:
        argv.remove("--proof")
    ours, theirs = [], []
    for _ in range(args.rounds):
        if args.proof:
            ours.append(run_in(HERE, [*argv, "--way", "one"], args.cpu))
            theirs.append(run_in(HERE, [*argv, "--way", "two"], args.cpu))
        else:
            ours.append(run_in(HERE, argv, args.cpu))
            theirs.append(run_in(args.vs.resolve(), argv, args.cpu))
        assert ours[-1]["cost"] == theirs[-1]["cost"], (ours[-1], theirs[-1])
        assert ours[-1].get("hopeful") == theirs[-1].get("hopeful")
    a = [r["cpu_seconds"] for r in ours]
    b = [r["cpu_seconds"] for r in theirs]
    steps = " ".join(f"{code} {feedback}" for code, feedback in [(args.first, args.feedback),
                                                                 *args.then])
    print(json.dumps({"class": steps, "secrets": ours[0]["secrets"], "cost": ours[0]["cost"],
                      "hopeful": len(ours[0].get("hopeful", [])), "this": a, "other": b,
                      "median_this": statistics.median(a), "median_other": statistics.median(b),
                      "median_ratio": round(statistics.median(x / y for x, y in zip(a, b)), 3)}))


if __name__ == "__main__":
    main()
