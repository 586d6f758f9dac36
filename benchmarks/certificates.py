"""What a certificate costs: its size, the time to write it (paired runs of the optimal build
without and with ``--certificate``) and the time to check it.

    python benchmarks/certificates.py                                      # Mastermind, 4 x 7, Bulls and Cows
    python benchmarks/certificates.py --games mastermind,wordle-salet --rounds 3

Each round runs `treegen build --strategy optimal --jobs 1` and then the same build with
`--certificate`, whole commands, alternately (A B A B ...); the write overhead is the CPU time of
the second less the first, pair by pair. The certificate of the last round is then checked with
the independent checker in a fresh process (`treegen verify BOOK --certificate FILE`, its memory of
checked certificates in a scratch folder) `--checks` times. Prints a Markdown table (medians) and
writes benchmarks/results/certificates.json, where the rows of games not measured this time stay,
each with the command that measured it.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = {
    "mastermind": ["-g", "mastermind"],
    "p4c7": ["--symbols", "1234567", "--length", "4", "--repetition"],
    "bulls-and-cows": ["-g", "bulls-and-cows"],
    "wordle-salet": ["-g", "wordle", "--first", "salet"],
    "p5c5": ["--symbols", "12345", "--length", "5", "--repetition"],
}


def timed(args, env):
    """(wall seconds, CPU seconds of the command's processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "treegen", *args], check=True, capture_output=True,
                   env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(name, options, rounds, checks, folder):
    env = {**os.environ, "TREEGEN_STATE": os.path.join(folder, "state")}
    plain, proving = [], []
    book, cert = os.path.join(folder, f"{name}.json"), os.path.join(folder, f"{name}.cert")
    for _ in range(rounds):
        plain.append(timed(["build", "-s", "optimal", "-j", "1", *options, "-o", book], env))
        proving.append(timed(["build", "-s", "optimal", "-j", "1", *options, "-o", book,
                              "--certificate", cert], env))
    checked = []
    for k in range(checks):  # a fresh memory each time: the checker does all the work
        fresh = {**env, "TREEGEN_STATE": os.path.join(folder, f"state-{name}-{k}")}
        checked.append(timed(["verify", book, "--certificate", cert], fresh))
    sys.path.insert(0, ROOT)
    from treegen.certificate import read_certificate
    with open(cert, "rb") as fh:
        data = fh.read()
    header, _ = read_certificate(data)
    sizes = header["sizes"]
    build_cpu = statistics.median(c for _, c in plain)
    overhead = statistics.median(p[1] - b[1] for b, p in zip(plain, proving))
    return {"game": name, "options": options, "rounds": rounds, "bytes": len(data),
            "claims": sizes["claims"], "entries": sizes["entries"],
            "bytes_per_claim": round(len(data) / max(1, sizes["claims"]), 1),
            "build_cpu_s": round(build_cpu, 2), "write_overhead_cpu_s": round(overhead, 2),
            "write_ratio": round(statistics.median(p[1] / b[1] for b, p in zip(plain, proving)), 2),
            "check_cpu_s": round(statistics.median(c for _, c in checked), 2),
            "bound": header["claim"]["bound"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="mastermind,p4c7,bulls-and-cows")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checks", type=int, default=1)
    args = parser.parse_args()
    rows = []
    print("| game | bound | certificate | claims | entries | bytes per claim | build CPU | "
          "with certificate | check CPU |\n|---|---|---|---|---|---|---|---|---|", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in args.games.split(","):
            row = measure(name, GAMES[name], args.rounds, args.checks, folder)
            rows.append(row)
            print(f"| {name} | {row['bound']} | {row['bytes']:,} B | {row['claims']:,} | "
                  f"{row['entries']:,} | {row['bytes_per_claim']} | {row['build_cpu_s']} s | "
                  f"+{row['write_overhead_cpu_s']} s (×{row['write_ratio']}) | "
                  f"{row['check_cpu_s']} s |", flush=True)
    command = f"python benchmarks/certificates.py --games {args.games} --rounds {args.rounds} " \
              f"--checks {args.checks}"
    path = os.path.join(ROOT, "benchmarks", "results", "certificates.json")
    try:
        with open(path, encoding="utf-8") as fh:
            earlier = json.load(fh)
    except (OSError, ValueError):
        earlier = {}
    measured = {row["game"] for row in rows}
    kept = [dict(row, command=row.get("command", earlier.get("command")))
            for row in earlier.get("rows", []) if row.get("game") not in measured]
    rows = sorted(kept + [dict(row, command=command) for row in rows],
                  key=lambda row: list(GAMES).index(row["game"]) if row["game"] in GAMES else 99)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"rows": rows}, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
