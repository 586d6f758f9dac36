"""The certificate checker against an earlier revision of itself, on the same certificates.

    python benchmarks/checker_speed.py --vs 27ad55d                      # the default games
    python benchmarks/checker_speed.py --vs 27ad55d --games wordle-hard-half --rounds 5
    python benchmarks/checker_speed.py --vs 27ad55d --games "" \
        --certificates books/custom-123456789-5-norep-first12345-classes.certificates/2A1B.cert

Each game's certificate is written once by this checkout (`treegen build --strategy optimal
--certificate`); ``--certificates`` adds certificates already written (a campaign's classes);
then the revision's checker (its `treegen/` exported with `git archive`, its kernels compiled
ahead of time as this checkout's are) and this checkout's check it in fresh processes,
alternately (A B A B ...). Prints a Markdown table
(medians of CPU seconds, and their ratio) and writes benchmarks/results/checker_speed-REV.json.

The "half" word games keep every second Wordle answer and every third other allowed guess: hard
mode's certificates there take tens of seconds to check, where the whole game's take many minutes.
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
    "mastermind-hard": ["-g", "mastermind", "--hard"],
    "p4c7": ["--symbols", "1234567", "--length", "4", "--repetition"],
    "wordle-salet": ["-g", "wordle", "--first", "salet"],
    "wordle-hard-half": ["@half", "--hard"],
    "wordle-hints-half": ["@half", "--hints"],
}
CHECK = ("import sys, treegen; from treegen.certificate import check; "
         "print(check(sys.argv[1]).bound, treegen.__file__)")


def half_lists(folder):
    """Every second Wordle answer, and every third other allowed guess, as word files."""
    sys.path.insert(0, ROOT)
    from treegen.rules.game import Game
    wordle = Game.preset("wordle")
    answers = wordle.code_strings[:wordle.size][::2]
    others = wordle.code_strings[wordle.size:][::3]
    paths = os.path.join(folder, "answers.txt"), os.path.join(folder, "guesses.txt")
    for path, words in zip(paths, (answers, sorted({*answers, *others}))):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(words) + "\n")
    return ["--answers", paths[0], "--guesses", paths[1]]


def revision_tree(revision, folder):
    """The package as it was at ``revision``, exported into ``folder``/base: the folder to put
    first on the path."""
    base = os.path.join(folder, "base")
    os.makedirs(base)
    archive = subprocess.run(["git", "archive", revision, "treegen"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
    return base


def build_kernels(base, folder):
    """Compile the revision's checker kernels ahead of time, as an install does (this checkout's
    are): else its checks would load numba's cache, a second or so a process more. A revision
    without them keeps numba's JIT."""
    if os.path.exists(os.path.join(base, "treegen", "certificate", "native.py")):
        subprocess.run([sys.executable, "-m", "treegen.certificate.native"], check=True,
                       capture_output=True, env={**os.environ, "PYTHONPATH": base}, cwd=folder)


def timed(command, env, folder):
    """(wall seconds, CPU seconds, what it printed), run in ``folder`` (``python -c`` puts its
    working folder first on the path)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, env=env,
                         cwd=folder)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), \
        out.stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--vs", required=True, help="the git revision of the checker to compare")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--certificates", default="",
                        help="comma-separated certificate files to check as well")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        base = revision_tree(args.vs, folder)
        build_kernels(base, folder)
        words = half_lists(folder)
        env = {**os.environ, "TREEGEN_STATE": os.path.join(folder, "state")}
        given = [(os.path.basename(os.path.dirname(os.path.abspath(p))) + "/" +
                  os.path.basename(p), os.path.abspath(p)) for p in args.certificates.split(",") if p]
        for name in [n for n in args.games.split(",") if n] + [n for n, _ in given]:
            if name in GAMES:
                options = [w for o in GAMES[name] for w in (words if o == "@half" else [o])]
                book = os.path.join(folder, f"{name}.json")
                cert = os.path.join(folder, f"{name}.cert")
                subprocess.run([sys.executable, "-m", "treegen", "build", "-s", "optimal", "-j",
                                "1", *options, "-o", book, "--certificate", cert], check=True,
                               capture_output=True, env={**env, "PYTHONPATH": ROOT})
            else:
                cert = dict(given)[name]
            times = {"base": [], "this": []}
            for _ in range(args.rounds):
                for who, path in (("base", base), ("this", ROOT)):
                    _, cpu, said = timed([sys.executable, "-c", CHECK, cert],
                                         {**env, "PYTHONPATH": path}, folder)
                    bound, where = said.split()
                    if not where.startswith(path):
                        sys.exit(f"the check ran {where}, not the checker in {path}")
                    times[who].append(cpu)
            row = {"game": name, "bytes": os.path.getsize(cert), "bound": int(bound),
                   "base_cpu": statistics.median(times["base"]),
                   "this_cpu": statistics.median(times["this"]), "rounds": args.rounds,
                   "runs": times}
            row["ratio"] = round(row["this_cpu"] / row["base_cpu"], 3)
            rows.append(row)
            print(f"{name}: {row['base_cpu']:.1f} s -> {row['this_cpu']:.1f} s ({row['ratio']})",
                  file=sys.stderr)
    print(f"| certificate | bytes | checker at {args.vs}, CPU s | this checker, CPU s | ratio |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['game']} | {row['bytes']:,} | {row['base_cpu']:.2f} | {row['this_cpu']:.2f} "
              f"| {row['ratio']} |")
    os.makedirs(os.path.join(ROOT, "benchmarks", "results"), exist_ok=True)
    name = f"checker_speed-{args.vs}.json"
    with open(os.path.join(ROOT, "benchmarks", "results", name), "w") as fh:
        json.dump({"vs": args.vs, "rows": rows}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
