"""The library's index, ``books/README.md``: a table of every book with its figures, build time
and command, and the record of each opening solved class by class; generated, never edited."""

from __future__ import annotations

import os
import shlex
from typing import TYPE_CHECKING, Any

from treegen import book as books
from treegen.data import BookData, GameData
from treegen.errors import LibraryError
from treegen.files.atomic import write_atomic
from treegen.library.catalogue import (
    DEPTH_FLOORS,
    OPENINGS,
    Entry,
    entries,
    game_arguments,
)
from treegen.library.certificates import (
    MANIFEST,
    QUICK_SECONDS,
    certificate_file,
    checked_elsewhere,
    manifest,
)
from treegen.library.sources import (
    BEFORE,
    NOT_YET_PROVEN,
    PARTLY_GRAFTED,
    PROVEN_BY_RECORDS,
    PUBLISHED,
    SOURCES_CHECKED,
)
from treegen.library.times import build_times, time_text
from treegen.notation import hard_title
from treegen.rules.game import Game

if TYPE_CHECKING:
    from treegen.search.records import Record

INDEX_FILE = "README.md"

_INTRO = """\
# Strategy books

Ready-made books for the preset games, one per strategy; the proven optimal books of other
sizes (Mastermind with 3 pegs of 6 to 8 colours, 4 pegs of 5, 7, 8 or 9, 5 pegs of 5 or 6; Bulls
and Cows with 3 digits, and with 4 of the digits 1 to 9), with the depth limits that change their
optimum; and the strongest Muertos y Heridos book known, with its proven lower bound. Each is
verified (every secret replayed through the tree with independent scoring). Download a JSON file
and play from it with `treegen play`, or embed `treegen/player.py` (standard library only) in your
program. Each picture shows the first
guess and the second guess for every answer (`treegen render BOOK --depth N` or `treegen site` draws
more).

This file is generated from the books by `treegen books index books`; do not edit it by hand.
Rebuild the whole library (books, pictures and this index) with one command:

```sh
treegen books rebuild books
```

It skips a book that is up to date: the file exists, records the game and strategy parameters of its
entry, and its picture carries the stamp of that very file and of the same treegen version.
`--force` rebuilds anyway; `--only PATTERN` (shell patterns, comma-separated) limits the rebuild,
e.g. `--only 'mastermind-*'`. Each book's command below writes the identical file on its own. Books
are byte-identical wherever they are built; pictures are too with the same Graphviz version (the
version is recorded in each SVG).

Names are `GAME-STRATEGY-POOL` (`-seedN` for `random`, `-depthN` for a depth limit), as `treegen
build` names books by default.
Pool `all` lets a heuristic guess any code, `consistent` only codes that are still possible secrets;
`simple` and `random` guess possible secrets only. Every heuristic (`minimax`, `expected`, `entropy`,
`parts`) gives a different book with each pool on every game, so the library has both. The
"published" column sets the figure the literature gives for the same strategy beside ours (a total
of guesses over all secrets, or the average and maximum when that is what the source gives); the
tests check that they agree. Where nothing is published, it gives the best figure known before
the book, saying where it comes from: a figure computed here (by mmstrat, the C++ solver of
fancidev/mastermind, or by treegen) is labelled as such, never as published. The lower bound is
proven: no tree of the game needs fewer guesses in total. An exact search's book reaches it (proven
optimal); a bounded search's book, for a game too large to solve outright (`--width`,
`--exact-below`), states how far above the optimum it can be. Each such claim has a
**certificate** beside its book (docs/certificate-format.md): a proof that
`treegen verify BOOK --certificate FILE` checks with a checker of its own, sharing no code with the
search; `treegen books certify books` writes and checks them and the table of certificates below
gives each one's size and the time it took to write and to check. Certificates over 5 MiB are not
committed: the table says so, and the command that writes one again. The build time is the wall time of
the book's own `treegen build` command as `treegen books rebuild` ran it (recorded in
`build-times.json`), with the number of worker processes of the optimal search and the peak memory
of its largest process.

A book is called the **first published optimum, as far as we know** only when these sources gave
no optimum for its size:

{sources}
"""


def histogram_text(histogram: dict[str, int]) -> str:
    return " ".join(f"{k}:{v}" for k, v in histogram.items())


def lower_text(data: BookData, proven: bool = True) -> str:
    """The index's lower bound of a book: a bounded search's bound, "optimal" for an exact search's
    book, each with its scope (the game, or the trees opening with a guess the search was held to;
    a grafted book of a forced opening claims both); nothing for a heuristic's. ``proven``: a
    certificate backs the claims (else they are the search's word, and not called proven)."""
    strategy, total = data["strategy"], data["stats"]["total"]
    optimal = "proven optimal" if proven else "optimal"
    said = []
    lower = strategy.get("lower_bound")
    if isinstance(lower, int):
        gap = total - lower
        said.append(f"{lower} ({optimal})" if gap == 0 else
                    f"{lower} (at most {gap} above the optimum)")
    elif strategy.get("optimal"):
        said.append(optimal)
    after = strategy.get("after")
    if after is not None:
        gap = total - after["lower_bound"]
        said.append(f"optimal after {after['first']}" if gap == 0 else
                    f"{after['lower_bound']} after {after['first']} (at most {gap} above)")
    return "; ".join(said)


def game_text(game: GameData) -> str:
    """The index's name of a game: the preset's, or its rules; and hard mode when it is played."""
    hard = hard_title(game)
    if game["name"] != "custom":
        return game["name"] + hard
    kind = "repeats" if game["repetition"] else "no repeats"
    return f"{len(game['symbols'])} symbols {game['symbols']}, length {game['length']}, {kind}{hard}"


def index_text(folder: str, link_folder: str = "books") -> str:
    """The Markdown of ``books/README.md`` for the books in ``folder``; a missing book is listed as
    not built yet, with the command that builds it. ``link_folder`` is how commands name the folder."""
    header = ["game", "strategy", "pool", "first", "total", "lower bound", "certificate", "average",
              "max", "histogram", "published, or best before", "build time", "files", "command"]
    intro = _INTRO.replace("{sources}", "\n".join(f"- {source}" for source in SOURCES_CHECKED))
    lines = [intro, "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    missing = []
    times = build_times(folder)
    certified = manifest(folder)["books"]
    for entry in entries():
        path = os.path.join(folder, entry.book_file)
        published = str(PUBLISHED[entry.name]) if entry.name in PUBLISHED else \
            BEFORE.get(entry.name, "")
        command = f"`{entry.command(link_folder)}`"
        if not os.path.exists(path):
            missing.append(entry)
            lines.append(f"| {game_text(entry.game.to_dict())} | {entry.strategy} | {entry.pool} | "
                         f"| not built yet | | | | | | {published} | | | {command} |")
            continue
        data = books.load(path)
        stats, strategy = data["stats"], data["strategy"]
        grafted = strategy.get("grafted")
        if grafted and len(grafted["classes"]) < len(data["tree"]["next"]):  # classes left
            published = published.replace(PROVEN_BY_RECORDS, PARTLY_GRAFTED)
        elif strategy.get("optimal") is not True:  # the records do not prove it (yet)
            published = published.replace(PROVEN_BY_RECORDS, NOT_YET_PROVEN)
        files = f"[json]({entry.book_file})"
        if os.path.exists(os.path.join(folder, entry.picture_file)):
            files += f" [svg]({entry.picture_file})"
        name = strategy["name"]
        if strategy.get("max_depth") is not None:
            name += f", at most {strategy['max_depth']} guesses"
        if strategy.get("grafted"):
            name += f", {len(strategy['grafted']['classes'])} classes grafted"
        cell = certificate_cell(folder, entry, data, certified)
        lines.append(
            f"| {game_text(data['game'])} | {name} | {strategy['pool']} | "
            f"{strategy['first']} | {stats['total']} | {lower_text(data, cell != UNCERTIFIED)} | "
            f"{cell} | {stats['average']:.4f} | "
            f"{stats['max']} | "
            f"{histogram_text(stats['histogram'])} | {published} | {time_text(folder, entry, times)} "
            f"| {files} | {command} |")
    lines.extend(certificates_text(folder, link_folder, certified))
    lines.extend(depth_floors_text(folder, link_folder))
    lines.extend(openings_text(folder, link_folder))
    if missing:
        lines.append("")
        for entry in missing:
            lines.append(f"{entry.book_file} is not built yet: `treegen books rebuild {link_folder} "
                         f"--only {entry.name}` builds it.")
    return "\n".join(lines) + "\n"


def _size(size: int) -> str:
    return f"{size / 2 ** 20:.1f} MiB" if size >= 2 ** 20 else f"{size / 1024:.1f} KiB" \
        if size >= 1024 else f"{size} B"


def _certificate_of(folder: str, entry: Entry, data: BookData,
                    certified: dict[str, Any]) -> dict[str, Any] | None:
    """The manifest's certificate of a book, if it is of this very file."""
    from treegen.library.times import file_digest
    item = certified.get(entry.name)
    if not isinstance(item, dict) or item.get("book_sha256") != file_digest(
            os.path.join(folder, entry.book_file)):
        return None
    return item


#: The certificate cell of a claim no certificate backs yet.
UNCERTIFIED = "none yet: the search's word"


def certificate_cell(folder: str, entry: Entry, data: BookData, certified: dict[str, Any]) -> str:
    """The index's certificate of a book: a link and its size, or where it is; for a book that
    claims a bound without one, that the claim is the search's word until it has one; nothing for
    a heuristic's."""
    from treegen.proofs import book_claim
    if book_claim(data) is None:
        return ""
    item = _certificate_of(folder, entry, data, certified)
    if item is None:
        return UNCERTIFIED
    if item.get("committed"):
        return f"[cert]({item['file']}) {_size(item['bytes'])}"
    return f"{_size(item['bytes'])}, not committed"


def certificates_text(folder: str, link_folder: str, certified: dict[str, Any]) -> list[str]:
    """The index's table of certificates: what each proves, its size, the seconds it took to
    write and to check, and whether it is in the repository (else the command that writes it)."""
    from treegen.search.records import duration_text
    lines = ["", "## Certificates", "",
             "What each certificate proves, checked by `treegen verify BOOK --certificate FILE` "
             "(the checker of `treegen/certificate/`, which shares no code with the search): its "
             "size, and the time it took here to write (the exact search that fails to beat the "
             "bound) and to check. A grafted book's certificate rests on the certificates of its "
             "records' classes (the sections below), whose checks are timed beside its own; committed "
             "certificates checked here, premises included, in "
             f"{QUICK_SECONDS:g} s or less are checked again by the tests.", "",
             "| book | no tree needs fewer than | certificate | written in | checked in | "
             "in the repository |", "|---|---|---|---|---|---|"]
    for entry in entries():
        path = os.path.join(folder, entry.book_file)
        if not os.path.exists(path):
            continue
        data = books.load(path)
        item = _certificate_of(folder, entry, data, certified)
        if item is None:
            continue
        scope = "" if item.get("first") is None else f" (opening with {item['first']})"
        where = "yes" if item.get("committed") else \
            f"no: `treegen books certify {link_folder} --only {entry.name}` writes it"
        times = f"{item['write_seconds']} s | {item['check_seconds']} s"
        if "premises_check_seconds" in item:  # a grafted book's: its records' classes
            resting = item["premises_check_seconds"]
            times += " and its premises' " + (duration_text(resting)
                                              if isinstance(resting, (int, float))
                                              else "where they were written")
        if item["file"] != certificate_file(entry):  # another book's, which proves this one too
            times = "that book's | that book's"
        lines.append(f"| [{entry.name}]({entry.book_file}) | {item['bound']}{scope} | "
                     f"{item['file']}, {_size(item['bytes'])} | {times} | {where} |")
    return lines


def depth_floors_text(folder: str, link_folder: str) -> list[str]:
    """The index's section on the fewest guesses that solve every secret of a size: the best total
    within them, and the command that proves one guess fewer impossible."""
    lines = ["", "## The fewest guesses each size needs", "",
             "The fewest guesses in which some tree solves every secret, and the best total among "
             "such trees: where the optimal tree needs more, a book of its own (`--max-depth`). "
             "The command with one guess fewer ends \"impossible\".", "",
             "| game | the optimum needs | fewest possible | best total within it | "
             "one fewer is impossible | CPU time of that proof |", "|---|---|---|---|---|---|"]
    for (symbols, length, repetition), floor in DEPTH_FLOORS.items():
        sized = [e for e in entries() if e.strategy == "optimal" and e.width is None
                 and e.game == Game(symbols, length, repetition)]
        found = {e.max_depth: books.load(os.path.join(folder, e.book_file))["stats"]
                 for e in sized if os.path.exists(os.path.join(folder, e.book_file))}
        if None in found and found[None]["max"] == floor.depth:
            found.setdefault(floor.depth, found[None])
        if None not in found or floor.depth not in found:
            continue
        proof = sized[0].command(link_folder).rsplit(" -o ", 1)[0]
        lines.append(f"| {game_text(sized[0].game.to_dict())} | {found[None]['max']} | "
                     f"{floor.depth} | {found[floor.depth]['total']} | "
                     f"`{proof} --max-depth {floor.depth - 1}` | {floor.cpu_seconds:g} s |")
    return lines


def opening_files() -> list[str]:
    """The file names of the opening records of the library."""
    from treegen.search.records import record_name
    return [record_name(game, first) for game, first in OPENINGS]


def openings_text(folder: str, link_folder: str) -> list[str]:
    """The index's sections on the openings solved class by class, for the records present, and
    for each of their games the optimum bracketed first guess by first guess."""
    from treegen.errors import RecordError
    from treegen.search.records import load_record, record_table
    lines: list[str] = []
    records: dict[Game, dict[str, Record]] = {}
    elsewhere = checked_elsewhere(folder)
    for (game, first), file in zip(OPENINGS, opening_files()):
        path = os.path.join(folder, file)
        if not os.path.exists(path):
            continue
        try:
            record = load_record(path, elsewhere=elsewhere)
        except RecordError as exc:
            lines += ["", f"{file}: {exc}"]
            continue
        records.setdefault(game, {})[first] = record
        books_of_game = [e for e in entries() if e.game == game and e.width is not None]
        record_book = None
        if books_of_game and os.path.exists(os.path.join(folder, books_of_game[0].book_file)):
            record_book = books.load(os.path.join(folder, books_of_game[0].book_file))
        command = shlex.join(["treegen", "classes", *game_arguments(game), "--first", first,
                              "-o", f"{link_folder}/{file}"])
        lines += ["", f"## {game_text(game.to_dict())} after {first}, class by class", "",
                  f"The exact optimum of each class of the first guess {first}, proven one at a "
                  f"time by `{command}` "
                  f"(the same command continues it), in [{file}]({file}), each with its "
                  f"certificate (`treegen certify {link_folder}/{file}` writes those it lacks):",
                  "",
                  record_table(record, record_book).rstrip("\n")]
        times = record_times(record, manifest(folder)["records"].get(file[:-len(".json")], {}))
        if times:
            lines += ["", times]
    for game, of_game in records.items():
        lines += first_guesses_text(folder, game, of_game)
    return lines


def record_times(record: Record, checks: dict[str, Any]) -> str:
    """What a solved opening cost: its classes' search in all and, where the manifest has the
    check time of every class (with the facts it rests on), their certificates' check; nothing
    while a class is open."""
    from treegen.search.records import duration_text
    classes = record["classes"]
    if record.get("total") is None or not all("seconds" in e for e in classes):
        return ""
    text = f"Its classes took {duration_text(round(sum(e['seconds'] for e in classes), 1))} of " \
           "search in all"
    checked = [checks.get(e["feedback"], {}).get("check_seconds") for e in classes]
    if all(isinstance(s, (int, float)) and not isinstance(s, bool) and s >= 0 for s in checked):
        text += (f", and their certificates, with the facts they rest on, "
                 f"{duration_text(round(sum(checked), 1))} of check (`{MANIFEST}` lists each)")
    return text + "."


def first_guesses_text(folder: str, game: Game, records: dict[str, Record]) -> list[str]:
    """The game's optimum bracketed: each first guess up to symmetry with its proven lower bound
    (derived again here from the records and the game), beside the library's best book."""
    from treegen.search.first_guesses import first_guesses, game_lower_bound
    name = game_text(game.to_dict())
    bounds = first_guesses(game, list(records.values()))
    totals = [books.load(os.path.join(folder, e.book_file))["stats"]["total"] for e in entries()
              if e.game == game and os.path.exists(os.path.join(folder, e.book_file))]
    best = min(totals) if totals else None
    # a complete record is a strategy too: its classes' trees, replayed on every read
    reached = {b.first: b.total for b in bounds if b.total is not None}
    upper = min([*totals, *reached.values()]) if totals or reached else None
    by = "the best book's total" if upper == best else \
        f"the record after {min(f for f, t in reached.items() if t == upper)}, its classes' trees"
    lines = ["", f"## {name}: every first guess", "",
             f"The optimum of {name} is the least, over its first guesses, of the optimum after "
             "each; one guess per class of equivalent guesses is enough. A record's bound counts "
             "the certified cost of each class it has proven and, for each other, its floor or "
             "the larger bound a certified search within a budget showed (`--rule-out`); without "
             "a record, the bound is the two-step floor (every class's floor). A first guess whose "
             "bound reaches the best total known (the best book's, or a complete record's) cannot "
             "do better.", "",
             "| first guess | guesses like it | classes solved | optimum after it | "
             "compared with the best book |", "|---|---|---|---|---|"]
    for b in bounds:
        optimum = str(b.total) if b.total is not None else f"at least {b.lower_bound}"
        if upper is None:
            verdict = ""
        elif b.total is not None and b.total == best:
            verdict = "the best book opens here and reaches it"
        elif b.total is not None and b.total == upper:
            verdict = f"the best known, {best - upper} below the best book" if best is not None \
                else "the best known"
        elif b.lower_bound >= upper:
            verdict = f"cannot do better ({b.lower_bound} ≥ {upper})"
        else:
            verdict = f"open: {upper - b.lower_bound} between its bound and the best known"
        lines.append(f"| {b.first} | {b.equivalent} | {b.solved} of {b.classes} | {optimum} | "
                     f"{verdict} |")
    low = game_lower_bound(bounds)
    if upper is not None and low >= upper:
        lines.append(f"\nEvery first guess is accounted for: **the optimum of {name} is {upper}**, "
                     + ("and the best book reaches it." if upper == best else f"reached by {by}."))
    elif upper is not None:
        lines.append(f"\nProven so far: the optimum of {name} lies between {low} and {upper} "
                     f"({by}).")
    else:
        lines.append(f"\nProven so far: the optimum of {name} is at least {low}; the library has "
                     "no book of this game yet to bound it from above.")
    return lines


def write_index(folder: str, link_folder: str = "books") -> str:
    """Regenerate ``README.md`` in ``folder``; returns its path."""
    if not os.path.isdir(folder):
        raise LibraryError(f"{folder} is not a folder")
    path = os.path.join(folder, INDEX_FILE)
    write_atomic(path, index_text(folder, link_folder))
    return path
