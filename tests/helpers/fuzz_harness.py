"""Fuzzing the book readers: mutations of real books against the loader, ``verify``, the standalone
``Player``, the picture and site code and the CLI, each case under a time cap and the whole run under
a memory cap.

    python tests/helpers/fuzz_harness.py --cases 300 --seed 1  # what the test suite runs
    python benchmarks/fuzz.py books                            # the long run

A case passes when every reader either accepts the book and works on it, or refuses it with
treegen's own one-line error (``TreegenError`` or ``PlayerError``). Anything else — another exception
(a traceback for the user), a case over its time cap (a hang), a MemoryError under the memory cap —
is a failure, and so is the Player refusing a book the loader accepts (a disagreement).
Prints a JSON summary; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from click.testing import CliRunner  # noqa: E402

from treegen import book as books  # noqa: E402
from treegen.cli.main import main as cli  # noqa: E402
from treegen.errors import TreegenError  # noqa: E402
from treegen.player import Player, PlayerError, parse_json  # noqa: E402

EXPECTED = (TreegenError, PlayerError)
SOURCES = ["mastermind-minimax-all.json", "mastermind-optimal-all.json"]

#: Values that have broken readers before: wrong types, huge numbers, bad Unicode, odd shapes.
HOSTILE = [None, True, False, 0, -1, 1.0, 1.5, 2 ** 63, 10 ** 30, "", "x", "0", "1A0B", "٣", "\ud800",
           "\x00", "A" * 5000, [], [1], {}, {"guess": "1122"}, {"guess": "1122", "next": []},
           {"guess": "1122", "next": {"0A0B": None}}, {"1": 1}, {"²": 1}, {"0": 1},
           {"99999999999999999999": 1}]
#: Text fragments spliced into the JSON where a number stands.
NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "-0", "1" * 5000, "1.0", "true", "null", "\"1\""]


class Hang(Exception):
    """A case ran past its time cap."""


def _alarm(signum, frame):
    raise Hang


def seed_books() -> list[dict]:
    """Real books to mutate: small built ones and two of the library's."""
    from treegen.api import build_book
    from treegen.rules.game import Game
    found = [build_book(Game("ABC", 2, True), "minimax"), build_book(Game("ABCD", 3, False), "simple"),
             build_book(Game("AB", 1, True), "entropy"), build_book(Game("ABCD", 2, True), "optimal")]
    for name in SOURCES:
        path = os.path.join(ROOT, "books", name)
        if os.path.exists(path):
            found.append(books.load(path))
    return found


def _places(book: dict) -> list[tuple]:
    """Paths (tuples of keys) to values of a book, the tree's nodes sampled."""
    places = [()]
    for section in ("format", "version", "game", "strategy", "stats", "tree"):
        places.append((section,))
        if isinstance(book.get(section), dict) and section != "tree":
            places += [(section, key) for key in book[section]]
    places += [("stats", "histogram", key) for key in book["stats"]["histogram"]]
    node, path = book["tree"], ("tree",)
    while node["next"]:
        places += [path + ("guess",), path + ("next",)]
        key = sorted(node["next"])[len(path) % len(node["next"])]
        path, node = path + ("next", key), node["next"][key]
    return places + [path + ("guess",)]


def _guesses(book: dict) -> list[str]:
    out, stack = [], [book["tree"]]
    while stack and len(out) < 200:
        node = stack.pop()
        out.append(node["guess"])
        stack.extend(node["next"].values())
    return out


def _feedback_keys(book: dict) -> list[str]:
    n = book["game"]["length"]
    return [f"{a}A{b}B" for a in range(n) for b in range(n + 1 - a) if (a, b) != (n - 1, 1)]


def _get(book, path):
    for key in path:
        book = book[key]
    return book


def mutate(book: dict, rng: random.Random) -> str:
    """One mutated book, as the text a reader gets."""
    data = copy.deepcopy(book)
    places = _places(book)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        path = rng.choice(places[1:])
        try:
            parent, key = _get(data, path[:-1]), path[-1]
            parent[key]
        except (KeyError, TypeError, IndexError):
            continue  # an earlier mutation took this place away
        kind = rng.random()
        if kind < 0.25:
            # plausible damage that keeps the book readable: another code of the game, a branch lost
            # or grafted, a count off by some
            value = parent[key]
            if key == "guess" or key == "first":
                parent[key] = rng.choice(_guesses(book))
            elif isinstance(value, dict) and value and key == "next":
                if rng.random() < 0.5:
                    del value[rng.choice(sorted(value))]
                else:
                    value[rng.choice(_feedback_keys(book))] = copy.deepcopy(
                        rng.choice(list(value.values())))
            elif isinstance(value, int) and not isinstance(value, bool):
                parent[key] = max(0, value + rng.choice([-2, -1, 1, 2, 100]))
        elif kind < 0.5:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE))
        elif kind < 0.57:
            del parent[key]
        elif kind < 0.65 and isinstance(parent, dict):
            # rename a key (feedback keys of the tree, histogram depths, section names)
            parent[rng.choice(["0A0B", "4A0B", "3A1B", "9A9B", "00A1B", "1a0b", "²", "-1", key + " "])] = \
                parent.pop(key)
        elif kind < 0.75:
            value = parent[key]
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + rng.choice([-1, 1, 10 ** 6, -(10 ** 6)])
            elif isinstance(value, str) and value:
                i = rng.randrange(len(value))
                parent[key] = value[:i] + rng.choice(["9", "Z", "", value[i] * 2, "\u0660"]) + value[i + 1:]
            else:
                parent[key] = rng.choice(HOSTILE)
        elif kind < 0.85:
            # a deep chain where a subtree was
            node = {"guess": book["tree"]["guess"], "next": {}}
            for _ in range(rng.choice([50, 400])):
                node = {"guess": book["tree"]["guess"], "next": {"0A0B": node}}
            parent[key] = node
        else:
            data["game"] = dict(data.get("game") if isinstance(data.get("game"), dict) else {},
                                **rng.choice([
                {"length": 2000}, {"length": 0}, {"symbols": ""}, {"symbols": "1123"},
                {"symbols": "".join(map(chr, range(300, 600)))}, {"repetition": "yes"},
                {"name": "mastermind", "symbols": "ABCDEFGHIJKL"}, {"length": 12},
                {"symbols": "0123456789", "length": 12}]))
    if not isinstance(data, dict):
        data = {"format": data}
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
    roll = rng.random()
    if roll < 0.2:
        # splice a hostile number over a number of the text
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            i = rng.choice(digits)
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            text = text[:i] + rng.choice(NUMBERS) + text[j:]
    elif roll < 0.3:
        text = text[:rng.randrange(len(text))]
    elif roll < 0.4:
        i = rng.randrange(len(text))
        text = text[:i] + rng.choice(["\\ud800", "\\u0000", "{", "]", "\"", "\\", "é"]) + text[i + 1:]
    return text


def play_some(player: Player, rng: random.Random) -> None:
    """Drive the player the way a person might, mistakes included."""
    for _ in range(12):
        move = rng.random()
        if move < 0.6 and not player.solved:
            a = rng.randrange(player.length + 1)
            answer = rng.choice([f"{a}A{rng.randrange(player.length + 1 - a)}B", "x", "9A9B", (a, -1)])
            try:
                player.answer(answer)
            except PlayerError:
                pass
        elif move < 0.8:
            try:
                player.undo()
            except PlayerError:
                pass
        else:
            player.remaining()
            player.reset()


def run_case(text: str, rng: random.Random, folder: str, use_cli: bool) -> str | None:
    """None when every reader behaved; else what went wrong."""
    try:
        parsed = parse_json(text)
    except (ValueError, RecursionError):
        parsed = None
    loaded = player = None
    try:
        loaded = books.loads(text, "fuzz")
    except EXPECTED:
        pass
    if parsed is not None:
        try:
            player = Player(parsed)
        except EXPECTED:
            pass
        if loaded is not None and player is None:
            return "disagreement: the loader accepts a book the player refuses"
    if player is not None:
        play_some(player, rng)
    if loaded is not None:
        from treegen.book.replay import verify
        from treegen.views.dot import dot_source
        from treegen.views.export import export_text
        from treegen.views.site import _plan
        from treegen.views.site_html import index_page
        for step in (lambda: verify(loaded), lambda: dot_source(loaded, depth=3),
                     lambda: index_page([_plan("b", loaded, 2, 5)]),
                     lambda: export_text(loaded, "graphml")):
            try:
                step()
            except EXPECTED:
                pass
    if use_cli:
        path = os.path.join(folder, "case.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text)
        runner = CliRunner()
        for args in (["verify", path], ["stats", "--json", path],
                     ["render", path, "--format", "dot", "-o", os.path.join(folder, "out.dot")]):
            result = runner.invoke(cli, args, catch_exceptions=True)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            if "Traceback" in result.output:
                return f"traceback printed by treegen {args[0]}"
    return None


def fuzz(cases: int, seed: int, time_cap: float) -> dict:
    rng = random.Random(seed)
    sources = seed_books()
    report = {"cases": cases, "seed": seed, "accepted": 0, "tracebacks": 0, "hangs": 0,
              "disagreements": 0, "failures": []}
    signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory() as folder:
        for number in range(cases):
            text = mutate(rng.choice(sources), rng)
            case_rng = random.Random(f"{seed}-{number}")
            problem = None
            signal.setitimer(signal.ITIMER_REAL, time_cap)
            try:
                problem = run_case(text, case_rng, folder, use_cli=number % 5 == 0)
            except Hang:
                report["hangs"] += 1
                problem = f"hang: over {time_cap} s"
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                report["tracebacks"] += 1
                problem = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300]
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if problem is not None:
                if problem.startswith("disagreement"):
                    report["disagreements"] += 1
                report["failures"].append({"case": number, "problem": problem, "book": text[:400]})
            else:
                try:
                    books.loads(text)
                    report["accepted"] += 1
                except EXPECTED:
                    pass
    report["failures"] = report["failures"][:20]
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-cap", type=float, default=20.0, help="seconds per case")
    parser.add_argument("--memory-cap", type=int, default=3 << 30, help="bytes for the whole run")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (args.memory_cap, args.memory_cap))
    start = time.monotonic()
    report = fuzz(args.cases, args.seed, args.time_cap)
    report["seconds"] = round(time.monotonic() - start, 1)
    print(json.dumps(report, indent=2, ensure_ascii=True))
    failed = report["tracebacks"] + report["hangs"] + report["disagreements"]
    return 1 if failed or report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
