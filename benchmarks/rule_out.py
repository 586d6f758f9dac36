"""Ruling an opening out: the class that decides it searched within a budget (``treegen classes
--rule-out``) beside the same class solved exactly, in paired rounds.

    python benchmarks/rule_out.py --symbols 1234567 --length 4 --first 1234 --rule-out 11228

Each round solves the opening's classes twice in fresh records, exactly and with ``--rule-out``,
one core each, and prints the seconds of every class of more than ``--shown`` secrets: the
deciding class has a cost in the exact run and an "at least" in the other.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--symbols", default="1234567")
    parser.add_argument("--length", type=int, default=4)
    parser.add_argument("--no-repetition", action="store_true")
    parser.add_argument("--first", default="1234")
    parser.add_argument("--rule-out", type=int, default=11228, help="the total to rule out")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shown", type=int, default=300, help="show classes of more secrets")
    args = parser.parse_args()
    from treegen.api import solve_classes
    from treegen.rules.game import Game
    game = Game(args.symbols, args.length, not args.no_repetition)
    deciding: dict[str, list[float]] = {"exact": [], "rule-out": []}
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.rounds):
            runs = {}
            for label, limit in (("exact", None), ("rule-out", args.rule_out)):
                path = os.path.join(folder, f"{label}-{n}.json")
                runs[label] = solve_classes(game, args.first, path, rule_out=limit)
            bounded = [e for e in runs["rule-out"]["classes"] if "at_least" in e]
            if not bounded:
                print(f"{args.first} is not ruled out by {args.rule_out}: no class was bounded")
                return 1
            answer = bounded[0]["feedback"]
            for label, record in runs.items():
                entry = next(e for e in record["classes"] if e["feedback"] == answer)
                deciding[label].append(entry["seconds"])
                shown = [(e["feedback"], e["secrets"], e.get("cost", f">={e.get('at_least')}"),
                          e["seconds"]) for e in record["classes"] if e["secrets"] > args.shown]
                print(f"round {n + 1} {label:8} bound {record['lower_bound']}: {shown}")
    exact, cut = statistics.median(deciding["exact"]), statistics.median(deciding["rule-out"])
    print(f"deciding class {answer}: median {exact} s exact, {cut} s within the budget "
          f"({exact / cut:.1f} times faster)" if cut else f"deciding class {answer}: {exact} s exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
