"""What a reader needs to check the library's certificates: the CPU time and peak memory of each
check, from nothing.

    python benchmarks/check_needs.py                                     # manifest check <= 120 s
    python benchmarks/check_needs.py --only 'mastermind-*' --only '*-first0123-classes/*'
    nice -n 5 taskset -c 1 python benchmarks/check_needs.py --max-seconds 300 --save

The certificates are those of books/certificates.json whose files are on disk. A book's certificate
is checked as a reader checks it, `treegen verify books/NAME.json --certificate CERT`; a record's
class certificate, which has no book, by `treegen.check_certificate(CERT)` in `python -c` (what
`verify` and `treegen classes` call). Each check runs in a fresh process with an empty memory of
checked certificates and an empty cache (TREEGEN_STATE and TREEGEN_CACHE in a scratch folder), so
the checker does all the work; its CPU seconds and peak resident memory are the process's own (and
its children's), from `os.wait4` in a small Python that starts it (on Linux a process's peak
counts that of the process that started it, and this script's is tens of MiB). A book's replay
alone (`treegen verify BOOK`) is measured too, and, once, the floor: a Python that imports the
checker and does nothing.

``--max-seconds`` skips the certificates whose manifest check time, with that of the premises they
rest on (a fresh check checks them all), is above it, or unknown. The checker's budget is
TREEGEN_MEMORY_LIMIT if set (``--memory-limit``), else the memory available at the check: a score
table is kept only within an 18th of it (docs/certificate-format.md, "Resource bounds"), so the
peak of a large game depends on the memory free. Prints a Markdown table; ``--save`` adds the rows
to benchmarks/results/check-needs.json.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import saved as saved_results

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOKS = os.path.join(ROOT, "books")
MANIFEST = os.path.join(BOOKS, "certificates.json")
RESULTS = os.path.join(ROOT, "benchmarks", "results", "check-needs.json")
CHECK = ("import sys; from treegen.files.checked import check_certificate; "
         "print('ok', sys.argv[1], 'proves', check_certificate(sys.argv[1]).bound)")
#: Runs argv[2:] and writes its CPU seconds, peak resident KiB (Linux) and exit code to argv[1].
RUNNER = ("import json, os, subprocess, sys; p = subprocess.Popen(sys.argv[2:]); "
          "_, status, u = os.wait4(p.pid, 0); p.returncode = os.waitstatus_to_exitcode(status); "
          "f = open(sys.argv[1], 'w'); "
          "f.write(json.dumps([u.ru_utime + u.ru_stime, u.ru_maxrss, p.returncode])); f.close()")
FLOOR = "import treegen.files.checked, treegen.certificate.claims, treegen.book.replay"


def certificates(manifest):
    """(name, item, book or None) of every certificate the manifest lists: books, then classes."""
    for name, item in manifest.get("books", {}).items():
        yield name, item, os.path.join(BOOKS, f"{name}.json")
    for record, classes in manifest.get("records", {}).items():
        for answer, item in classes.items():
            yield f"{record}/{answer}", item, None


def header_of(path):
    sys.path.insert(0, ROOT)
    from treegen.certificate import read_header
    with open(path, "rb") as fh:
        header, _ = read_header(fh.read())
    return header


def game_of(header):
    """(a short name of the certificate's game, its codes, its secrets)."""
    game = header["game"]
    symbols, length, repetition = game["symbols"], game["length"], game["repetition"]
    if "guesses" in game or "answers" in game:
        secrets = len(game.get("answers") or game.get("guesses"))
        codes = len(set(game.get("guesses") or []) | set(game.get("answers") or []))
    else:
        n = len(symbols)
        secrets = codes = n ** length if repetition else math.perm(n, length)
    name = game.get("name") or "custom"
    if name == "custom":
        name = f"{symbols} x {length} {'rep' if repetition else 'norep'}"
    if game.get("hard"):
        name += " hints" if game["hard"] == "hints" else " hard"
    depth = header["claim"].get("max_depth")
    if depth is not None:
        name += f", depth {depth}"
    return name, codes, secrets


def estimate(item, manifest_files, header):
    """Seconds the manifest gives for a check from nothing: the certificate's and its premises'
    (None when one is unknown; facts, named from the certificate's own folder, are not listed),
    and the premises absent from disk."""
    seconds, absent = item.get("check_seconds"), []
    here = os.path.dirname(os.path.join(BOOKS, item["file"]))
    for premise in header.get("premises", []):
        where = os.path.normpath(os.path.join(here, premise.get("file", "")))
        found = manifest_files.get(os.path.relpath(where, BOOKS))
        seconds = None if seconds is None or found is None or found.get("check_seconds") is None \
            else seconds + found["check_seconds"]
        if not os.path.exists(where):
            absent.append(premise.get("file"))
    return seconds, absent


def measured(command, env, folder):
    """(CPU seconds, peak resident MiB, wall seconds, exit code, output) of one process, started
    by a small Python of its own: a process's peak counts the resident memory of the one that
    started it (Linux carries it over exec), and this script holds tens of MiB."""
    usage = os.path.join(folder, "usage.json")
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        subprocess.run([sys.executable, "-S", "-c", RUNNER, usage, *command], stdout=out,
                       stderr=subprocess.STDOUT, env=env, cwd=folder, check=True)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().strip()
    with open(usage, encoding="utf-8") as fh:
        cpu, peak_kib, code = json.load(fh)
    return cpu, peak_kib / 1024, wall, code, text


def fresh(folder, label):
    """The environment of a reader who never checked anything: state and cache in ``folder``."""
    base = os.path.join(folder, label.replace("/", "-"))
    os.makedirs(base)
    return {**os.environ, "TREEGEN_STATE": os.path.join(base, "state"),
            "TREEGEN_CACHE": os.path.join(base, "cache"), "PYTHONPATH": ROOT}


def available_mib():
    with open("/proc/meminfo", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], metavar="PATTERN",
                        help="fnmatch pattern of the manifest's names (book, or RECORD/CLASS); "
                             "repeat it for more")
    parser.add_argument("--max-seconds", type=float, default=120.0,
                        help="skip certificates whose manifest check time (with their premises') "
                             "is above this (default 120)")
    parser.add_argument("--memory-limit", default=None,
                        help="TREEGEN_MEMORY_LIMIT for the checks (e.g. 4G); default: as set")
    parser.add_argument("--save", action="store_true", help=f"add the rows to {RESULTS}")
    args = parser.parse_args()
    if args.memory_limit is not None:
        os.environ["TREEGEN_MEMORY_LIMIT"] = args.memory_limit
    with open(MANIFEST, encoding="utf-8") as fh:
        manifest = json.load(fh)
    by_file = {item["file"]: item for _, item, _ in certificates(manifest)}
    chosen, skipped = [], []
    for name, item, book in certificates(manifest):
        if args.only and not any(fnmatch.fnmatchcase(name, p) for p in args.only):
            continue
        path = os.path.join(BOOKS, item["file"])
        if not os.path.isfile(path):
            skipped.append((name, "not on disk" + ("" if item.get("committed") else
                                                   " (not committed)")))
            continue
        if book is not None and not os.path.isfile(book):
            skipped.append((name, f"no book {os.path.relpath(book, ROOT)}"))
            continue
        header = header_of(path)
        seconds, absent = estimate(item, by_file, header)
        if absent:
            skipped.append((name, f"{len(absent)} of its {len(header['premises'])} premises are "
                                  f"not on disk (e.g. {absent[0]})"))
        elif seconds is None or seconds > args.max_seconds:
            mine = item.get("check_seconds")
            skipped.append((name, f"manifest check {mine} s" + (
                f", {seconds:.1f} s with its premises" if header.get("premises") and seconds
                else "") + f" > {args.max_seconds:g} s"))
        else:
            chosen.append((name, item, book, path, header, seconds))
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        cpu, floor, *_ = measured([sys.executable, "-c", FLOOR], fresh(folder, "floor"), folder)
        print(f"Floor (Python importing the checker and the book reader): {floor:.0f} MiB, "
              f"{cpu:.2f} s CPU; memory available now {available_mib():,} MiB"
              + (f", TREEGEN_MEMORY_LIMIT={os.environ['TREEGEN_MEMORY_LIMIT']}"
                 if os.environ.get("TREEGEN_MEMORY_LIMIT") else "") + "\n", flush=True)
        print("| certificate | game | codes | bytes | claims | manifest s | CPU s | peak MiB "
              "| book alone: CPU s, MiB | result |\n|---|---|---|---|---|---|---|---|---|---|",
              flush=True)
        for name, item, book, path, header, seconds in chosen:
            game, codes, secrets = game_of(header)
            row = {"certificate": name, "file": item["file"], "game": game, "codes": codes,
                   "secrets": secrets, "bytes": os.path.getsize(path),
                   "claims": header["sizes"]["claims"], "entries": header["sizes"]["entries"],
                   "premises": len(header.get("premises", [])), "bound": header["claim"]["bound"],
                   "manifest_check_s": item.get("check_seconds"), "manifest_with_premises_s": seconds,
                   "available_mib": available_mib()}
            if book is None:
                command = [sys.executable, "-c", CHECK, path]
            else:
                command = [sys.executable, "-m", "treegen", "verify", book, "--certificate", path]
                cpu, peak, wall, code, _ = measured(command[:5], fresh(folder, name + "-book"),
                                                    folder)
                row.update(book_cpu_s=round(cpu, 2), book_peak_mib=round(peak, 1),
                           book_ok=code == 0)
            cpu, peak, wall, code, text = measured(command, fresh(folder, name), folder)
            row.update(cpu_s=round(cpu, 2), wall_s=round(wall, 2), peak_mib=round(peak, 1),
                       ok=code == 0, output=text[-2000:])
            rows.append(row)
            said = text.splitlines()[-1] if text else ""
            result = "ok" if code == 0 else f"FAILED ({code}): {said[:160]}"
            alone = "-" if book is None else f"{row['book_cpu_s']:.2f}, {row['book_peak_mib']:.0f}" \
                + ("" if row["book_ok"] else " FAILED")
            codes_text = f"{codes:,}" if codes == secrets else f"{codes:,} / {secrets:,}"
            print(f"| {name} | {game} | {codes_text} | {row['bytes']:,} | {row['claims']:,} | "
                  f"{item.get('check_seconds')} | {cpu:.2f} | {peak:.0f} | {alone} | {result} |",
                  flush=True)
    if skipped:
        print("\nSkipped:")
        for name, why in skipped:
            print(f"- {name}: {why}")
    if args.save:
        revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                  capture_output=True, text=True).stdout.strip()
        saved_results.append(RESULTS, command=" ".join(["python", *sys.argv]), revision=revision,
                             memory_limit=os.environ.get("TREEGEN_MEMORY_LIMIT"),
                             floor_mib=round(floor, 1), rows=rows,
                             skipped=[{"certificate": n, "why": w} for n, w in skipped])
    return 1 if any(not row["ok"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
