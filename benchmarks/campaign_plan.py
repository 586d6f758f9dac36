"""What is left of a campaign, projected from what it has done: for each class of an opening not
yet solved, the core-hours its search and its certificate's check should take, scaled from the
largest class the record has solved; then the total, in hours on two cores and on a Ray cluster.

    python benchmarks/campaign_plan.py books/custom-1234567-5-rep-first11223-classes.json
    python benchmarks/campaign_plan.py books/custom-123456789-5-norep-first12345-classes.json \
        --unfinished 1A2B=2585 --check-ratio 0.57 --machines 4,16
    python benchmarks/campaign_plan.py books/muertos-y-heridos-first0123-classes.json \
        --as-unsolved 0A1B         # the method tried on a finished campaign

A class's search time is scaled from each solved class of at least ``--least`` secrets (half the
largest solved, by default) as (secrets / its secrets) ** k: the range runs from the median of
those at k = 3 to the most of them at k = 5 (``--exponents``): the time of a class hangs on how far
its optimum lies above its floor as much as on its size, so sizes alone give a range, not a figure.
Classes resumed from a checkpoint by a treegen that timed only a class's last piece (``--partial``)
are not taken as the anchor. A class searched for a while without finishing (the record says how
long, or ``--unfinished FEEDBACK=SECONDS``) takes at least that, and a larger class at least that
scaled likewise. Its check takes the search time times the median ratio of check to search among
the record's certificates in books/certificates.json (``--check-ratio`` instead: after the checker
changed). Several cores work on one class at a time at ``--efficiency`` each (two jobs beside one
on ``treegen classes``, docs/performance.md); checks run one certificate per core.
``--as-unsolved`` treats solved classes as left and prints the time each took beside its range.
Prints a Markdown table and writes benchmarks/results/campaign-plan-NAME.json.
"""

import argparse
import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("record", help="a record of classes (treegen classes -o)")
    parser.add_argument("--exponents", default="3,5", help="the least and the most k")
    parser.add_argument("--least", type=int, default=None,
                        help="smallest solved class to scale from [default: half the largest]")
    parser.add_argument("--as-unsolved", default="", help="FEEDBACK,...: solved classes to project")
    parser.add_argument("--unfinished", action="append", default=[],
                        help="FEEDBACK=SECONDS: a class searched that long without finishing")
    parser.add_argument("--partial", default="",
                        help="FEEDBACK,...: classes resumed from a checkpoint, whose recorded "
                             "seconds are their last piece's only (left out of the fit)")
    parser.add_argument("--check-ratio", type=float, default=None,
                        help="check seconds per search second [default: from the manifest]")
    parser.add_argument("--efficiency", type=float, default=0.83,
                        help="what each further core adds to one class's search")
    parser.add_argument("--machines", default="4,16", help="Ray clusters of N two-core machines")
    args = parser.parse_args()
    with open(args.record, encoding="utf-8") as fh:
        record = json.load(fh)
    name = os.path.basename(args.record).removesuffix(".json")
    # a record keeps the time a class not yet solved was searched for; --unfinished adds others
    unfinished = {c["feedback"]: c["seconds"] for c in record["classes"]
                  if "seconds" in c and "cost" not in c and "at_least" not in c}
    unfinished.update(item.split("=") for item in args.unfinished)
    partial = set(filter(None, args.partial.split(",")))
    pretend = set(filter(None, args.as_unsolved.split(",")))
    solved = [c for c in record["classes"] if "cost" in c and c["feedback"] not in pretend]
    timed = [c for c in solved if c.get("seconds") is not None and c["feedback"] not in partial]
    if not timed:
        sys.exit(f"{name}: no solved class to scale from")
    largest = max(c["secrets"] for c in timed)
    least = args.least if args.least is not None else largest // 2
    anchors = [c for c in timed if c["secrets"] >= least]
    low, high = (float(k) for k in args.exponents.split(","))
    ratio = args.check_ratio
    if ratio is None:
        with open(os.path.join(ROOT, "books", "certificates.json"), encoding="utf-8") as fh:
            listed = json.load(fh)["records"].get(name, {})
        ratios = [e["check_seconds"] / e["write_seconds"] for e in listed.values()
                  if e.get("write_seconds", 0) >= 10]
        ratio = statistics.median(ratios) if ratios else 1.0
    sizes = {c["feedback"]: c["secrets"] for c in record["classes"]}
    rows = []
    for entry in record["classes"]:
        if entry in solved:
            continue
        at_least = max([float(unfinished.get(entry["feedback"], 0))] +
                       [float(t) * (entry["secrets"] / sizes[f]) ** low
                        for f, t in unfinished.items() if sizes[f] <= entry["secrets"]])
        scaled = [[a["seconds"] * (entry["secrets"] / a["secrets"]) ** k for a in anchors]
                  for k in (low, high)]
        fewest = max(statistics.median(scaled[0]), at_least) / 3600
        most = max(max(scaled[1]), at_least) / 3600
        rows.append({"feedback": entry["feedback"], "secrets": entry["secrets"],
                     "floor": entry["floor"], "search_hours": [fewest, most],
                     "check_hours": [fewest * ratio, most * ratio], "at_least_seconds": at_least,
                     "searched_seconds": float(unfinished.get(entry["feedback"], 0)),
                     "took_seconds": entry.get("seconds")})
    search = [sum(r["search_hours"][e] for r in rows) for e in (0, 1)]
    check = [sum(r["check_hours"][e] for r in rows) for e in (0, 1)]
    biggest = [max((r["search_hours"][e] for r in rows), default=0.0) for e in (0, 1)]

    def span(pair):
        return f"{pair[0]:.1f} … {pair[1]:.1f}"

    listed = ", ".join(f"{a['feedback']} {a['secrets']:,}: {a['seconds']:.0f} s" for a in anchors)
    print(f"{name}: {len(solved)} classes solved, {len(rows)} left; scaled from the "
          f"{len(anchors)} solved of {least:,} secrets or more ({listed}): the median as "
          f"size^{low:g} … the most as size^{high:g}; check / search = {ratio:.2f}")
    print("\n| class | secrets | floor | search (core-hours) | check (core-hours) |")
    print("|---|---|---|---|---|")
    for r in rows:
        note = f" (searched {r['searched_seconds']:.0f} s unfinished)" if r["searched_seconds"] \
            else f" (took {r['took_seconds'] / 3600:.2f})" if r["took_seconds"] is not None else ""
        print(f"| {r['feedback']} | {r['secrets']:,} | {r['floor']:,} | "
              f"{span(r['search_hours'])}{note} | {span(r['check_hours'])} |")
    print(f"| **all** | | | **{span(search)}** | **{span(check)}** |")
    plan = {"record": name, "anchors": [a["feedback"] for a in anchors], "exponents": [low, high],
            "check_ratio": ratio, "efficiency": args.efficiency, "classes": rows,
            "core_hours": [search[e] + check[e] for e in (0, 1)], "wall_hours": {}}
    print()
    for cores, label in [(2, "this machine (2 cores)"),
                         *((2 * int(n), f"Ray, {n} machines of 2 cores") for n in
                           args.machines.split(",") if n)]:
        speed = 1 + (cores - 1) * args.efficiency
        hours = [search[e] / speed + check[e] / cores for e in (0, 1)]
        plan["wall_hours"][label] = hours
        print(f"- {label}: {span(hours)} h (the largest class's search alone: "
              f"{span([b / speed for b in biggest])} h)")
    os.makedirs(os.path.join(ROOT, "benchmarks", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "benchmarks", "results", f"campaign-plan-{name}.json"), "w",
              encoding="utf-8") as fh:
        json.dump(plan, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
