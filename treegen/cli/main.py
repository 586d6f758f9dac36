"""The ``treegen`` command: parses arguments and calls the library, nothing more."""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
import warnings
from typing import Any

import click

from treegen import book as books
from treegen.cli.support import (
    BuildProgress,
    Deadline,
    SearchStatus,
    checkpoint_path,
    complete_strategies,
    flag,
    game_options,
    kept_on_interrupt,
    make_game,
    pool_option,
    say,
    search_only,
    search_options,
    searched,
)
from treegen.errors import TreegenError, forget_interrupts, interrupt, interrupted
from treegen.search.options import SCORING
from treegen.version import __version__
from treegen.views.encode import terminal_text

#: The commands of the other modules of the command line, each imported only when it is run or
#: listed: a build never loads what play, drawing, the library or certificates need.
ELSEWHERE = {
    "play": "treegen.cli.play:play", "challenge": "treegen.cli.play:challenge",
    "next": "treegen.cli.play:next_guess", "partitions": "treegen.cli.play:partitions",
    "render": "treegen.cli.draw:render", "site": "treegen.cli.draw:site",
    "export": "treegen.cli.draw:export", "books": "treegen.cli.library:library_group",
    "certify": "treegen.cli.proofs:certify",
}


class _Group(click.Group):
    """Turns treegen's own errors and Ctrl-C into one-line messages and a non-zero exit; finds
    the commands of :data:`ELSEWHERE` when asked for them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in ELSEWHERE and cmd_name not in self.commands:
            module, _, name = ELSEWHERE[cmd_name].partition(":")
            self.add_command(getattr(importlib.import_module(module), name), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        # SIGTERM unwinds like Ctrl-C, so temporary files and worker processes are cleaned up;
        # both are remembered, in case compiled code swallows the KeyboardInterrupt (errors.py).
        try:
            previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
        except ValueError:  # not the main thread: leave signals alone
            previous = {}
        warnings.showwarning = _warn
        forget_interrupts()
        try:
            return super().invoke(ctx)
        except TreegenError as exc:
            raise click.ClickException(terminal_text(str(exc))) from None
        except MemoryError:
            raise click.ClickException("out of memory; try a smaller game") from None
        except (KeyboardInterrupt, Exception) as exc:  # Ctrl-C in compiled code may be an Exception
            if not interrupted(exc):
                raise
            say("\ninterrupted; nothing was written", err=True)
            sys.exit(130)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _warn(message: Warning | str, category: type[Warning], filename: str, lineno: int,
          file: Any = None, line: str | None = None) -> None:
    """A warning (a checkpoint that could not be written, say) as one line on stderr."""
    say(f"\nwarning: {message}", err=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="treegen")
def main() -> None:
    """Compile code-breaking strategies into complete decision trees ("strategy books").

    \b
    Example:
      treegen build --strategy minimax
      treegen verify bulls-and-cows-minimax-all.json
    """


@main.command()
@game_options
@click.option("--strategy", "-s", default="minimax", show_default=True,
              shell_complete=complete_strategies,
              help="Built-in strategy (see `treegen strategies`), optimal, or package.module:Name.")
@pool_option
@click.option("--first", default=None, help="Force the first guess.")
@click.option("--seed", type=int, default=None, help="Seed of the random strategy [default: 0].")
@search_options("max_depth", "jobs")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Heuristics: score one guess per class of equivalent guesses (same book, "
                   "faster); the optimal search always does.")
@search_options("memory", "resume", "engine", "address", "width", "exact_below", "heuristic")
@click.option("--certificate", type=click.Path(dir_okay=False), default=None,
              help="optimal: also write the certificate of what the search proves (the optimum, "
                   "or a bounded search's lower bound), for `treegen verify --certificate`.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Book file [default: GAME-STRATEGY-POOL.json in the current directory].")
@click.option("--verbose", "-v", is_flag=True,
              help="Say how guesses are scored (a table, or from the codes) before building; off "
                   "a terminal, a line of progress every 30 seconds.")
def build(game: str, symbols: str | None, length: int | None, repetition: bool | None, strategy: str,
          pool: str | None, first: str | None, seed: int | None, symmetry: bool,
          certificate: str | None, output: str | None, verbose: bool, **search: Any) -> None:
    """Compile a strategy into a book: play every secret and merge the games into one tree.

    \b
    Examples:
      treegen build --strategy minimax
      treegen build --game mastermind --strategy minimax --first 1122 -o knuth.json
      treegen build --game mastermind --strategy optimal --max-depth 5
      treegen build --game mastermind --strategy optimal --certificate mastermind.cert
      treegen build --strategy optimal --engine ray --address auto
      treegen build --game muertos-y-heridos --strategy optimal --width 2 --exact-below 300
      treegen build --symbols ABCDE --length 3 --no-repetition --strategy entropy
      treegen build --symbols 1234567 --length 6 --strategy entropy --verbose
    """

    from treegen.api import compile_file
    from treegen.registry import searches
    from treegen.search.options import Build
    rules = make_game(game, symbols, length, repetition)
    searching = SearchStatus()
    kept = None
    if searches(strategy):
        kept = checkpoint_path(output, rules, strategy, search["max_depth"], first,
                               search["width"], search["exact_below"])
        options = searched(search, checkpoint=kept)
    elif search_only(search) or certificate is not None:
        only = [flag(name) for name in search if name not in SCORING]
        raise click.UsageError(f"{', '.join(only)} and --certificate apply to --strategy optimal "
                               "only")
    else:
        from treegen.rules.scoring import describe, threads_for
        joined = search["address"] is not None  # a cluster's processors are its own
        options = searched({"jobs": search["jobs"] if joined else threads_for(rules, search["jobs"]),
                            "memory": search["memory"], "engine": search["engine"],
                            "address": search["address"]})
        if verbose:
            say(f"{rules.slug}: {describe(rules, options.memory, options.jobs)}", err=True)
    made = Build(rules, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                 search=options)
    progress = BuildProgress(rules.size, f"{rules.slug} {strategy}", lines=verbose)
    try:
        with kept_on_interrupt(searching, kept, f"the search so far is kept in {kept}: continue "
                               "it with --resume"):
            path, result = compile_file(output, made, progress,
                                        status=searching if kept is not None else None)
    finally:
        progress.close()
    if kept is not None:
        from treegen.search.checkpoint import remove
        remove(kept)
    say(f"wrote {path}: {books.summary(result)}")
    if certificate is not None:
        from treegen.proofs import certify
        size = certify(result, certificate, options.memory, searching)
        searching.close()
        say(f"wrote {certificate}: the certificate of {path} ({size:,} bytes)")


@main.command()
@game_options
@click.option("--first", required=True, help="The opening guess whose classes are solved.")
@search_options("max_depth", "jobs", "memory", "engine", "address")
@click.option("--for", "budget", default=None, metavar="DURATION",
              help="Stop after this long (90m, 2h, 3600s), keeping the classes solved and the "
                   "search of the next: a piece of a longer campaign.")
@click.option("--rule-out", "rule_out", type=click.IntRange(min=1), default=None, metavar="TOTAL",
              help="Stop as soon as the opening is proven to need at least TOTAL guesses in all "
                   "(so it cannot beat a book of that total); each class is searched only within "
                   "the most it may cost for the opening to beat TOTAL.")
@click.option("--certificates/--no-certificates", default=True, show_default=True,
              help="Certify each class's cost as it is found (a certificate beside the record, "
                   "checked): without one, a class's cost is an upper bound only.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Check each certificate here as it is written and as the record is read; "
                   "--no-check leaves that to `treegen verify RECORD` in another process, so "
                   "that a campaign's search goes on while a large class's check runs.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="The record [default: GAME-firstCODE-classes.json]; an existing record of the "
                   "same opening is continued.")
def classes(game: str, symbols: str | None, length: int | None, repetition: bool | None,
            first: str, budget: str | None, rule_out: int | None, certificates: bool,
            check: bool, output: str | None, **search: Any) -> None:
    """Solve the classes of an opening guess exactly, one at a time, smallest first.

    Each class's optimal cost and tree go into the record as soon as it is proven, so the optimum
    after the opening is bracketed at any moment; run the command again (here, on another
    machine, or on a Ray cluster) to continue where it stopped.

    \b
    Examples:
      treegen classes --game muertos-y-heridos --first 0123
      treegen classes --game muertos-y-heridos --first 0123 --for 2h
      treegen classes --game muertos-y-heridos --first 0012 --rule-out 55632
      treegen classes --game muertos-y-heridos --first 0012 --engine ray --address auto
    """
    from treegen.api import solve_classes
    from treegen.library.certificates import checked_elsewhere
    from treegen.search.records import record_name
    from treegen.settings import parse_duration
    rules = make_game(game, symbols, length, repetition)
    path = output or record_name(rules, rules.validate_code(first))
    # a record of the library takes the certificates its manifest lists as checked where written
    elsewhere = checked_elsewhere(os.path.dirname(os.path.abspath(path)))
    seconds = parse_duration(budget, "--for") if budget is not None else None
    searching = SearchStatus()

    def told(entry: dict[str, Any]) -> None:
        searching.close()
        cost = entry["cost"] if "cost" in entry else f"at least {entry['at_least']}"
        say(f"{entry['feedback']} ({entry['secrets']} secrets): cost {cost}, "
                   f"{entry['seconds']} s")

    where = (f"the classes solved are in {path}, the search of the next in its checkpoint: run "
             "the command again to continue")
    deadline = Deadline(seconds)
    try:
        with deadline, kept_on_interrupt(searching, path, where, deadline):
            record = solve_classes(rules, first, path, searched(search), status=searching,
                                   told=told, rule_out=rule_out, certificates=certificates,
                                   elsewhere=elsewhere, check=check)
    except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
        if not (deadline.passed and interrupted(exc)):
            raise
        searching.close()
        say(f"stopped after {budget}: {where}")
        return
    total = record["total"]
    bracket = (f"optimum after {record['first']}: {total}" if total is not None
               else f"optimum after {record['first']} at least {record['lower_bound']}")
    if not check:
        bracket = (f"its certificates are written, not checked here: `treegen verify {path}` "
                   "checks them and brackets the optimum")
    elif record["certified"] < record["solved"]:
        bracket += (f" ({record['solved'] - record['certified']} solved classes without a "
                    "certificate count their floors)")
    if total is None and rule_out is not None and record["lower_bound"] >= rule_out:
        bracket += f", so it cannot beat {rule_out}"
    say(f"wrote {path}: {record['solved']} of {len(record['classes'])} classes solved; "
               f"{bracket}")


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.argument("records", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False),
              help="The grafted book (never BOOK or a RECORD).")
@click.option("--certificate", type=click.Path(dir_okay=False), default=None,
              help="Also write the certificate of the game's lower bound the records prove, "
                   "resting on their certificates (keep it beside them).")
def graft(book: str, records: tuple[str, ...], output: str, certificate: str | None) -> None:
    """Swap the optimal trees a record of classes proves into a book with the same first guess.

    The record of the book's first guess is grafted; records of the game's other first guesses
    raise the book's lower bound to the least any first guess can reach (each guess without a
    record counts its two-step floor), so with all of them the book can prove itself optimal. The
    totals are counted again by replaying every secret. Run it again as the records grow
    (treegen classes) to improve the book class by class.

    \b
    Example:
      treegen graft muertos-y-heridos-optimal-width3-below200-all.json \\
          muertos-y-heridos-first0123-classes.json \\
          muertos-y-heridos-first0012-classes.json -o muertos-best.json
    """
    from treegen.proofs import compose, graft_records
    from treegen.search.records import load_record
    loaded = [load_record(path) for path in records]
    base = books.load(book)
    result = graft_records(base, loaded)
    books.save_to(result, output, sources=(book, *records))
    say(f"wrote {output}: {books.summary(result)}")
    if certificate is not None:
        from treegen.files.atomic import refuse_sources
        refuse_sources(certificate, (book, *records, output))
        lower, size = compose(base, loaded, certificate)
        say(f"wrote {certificate}: the certificate of the lower bound {lower} ({size:,} "
                   "bytes, resting on the records' certificates)")


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--certificate", type=click.Path(dir_okay=False), multiple=True,
              help="Also check this certificate and what it proves of the book's claims; "
                   "repeat it for a book with two claims (the game's and after its first guess).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes that check certificates: premises side by side, a "
                   "certificate's claims shared.")
def verify(book: str, certificate: tuple[str, ...], jobs: int) -> None:
    """Replay every secret through a book with independent scoring and check its stats.

    With --certificate, check the certificate with the independent checker and say what it
    proves of the book: its bound against the book's total; every bound the book claims must be
    proven by a certificate given. Given a record of classes (`treegen classes`), replay each
    solved class's tree and check the certificates beside it, the facts of a class still searched
    too (a campaign's other core checks them as they come), then show what is proven.

    \b
    Examples:
      treegen verify mastermind-minimax-all.json
      treegen verify mastermind-optimal-all.json --certificate mastermind-optimal-all.cert
      treegen verify muertos-y-heridos-first0123-classes.json -j 2
    """
    from treegen.search.records import is_record
    if is_record(book):
        if certificate:
            raise click.UsageError("a record's certificates are beside it: give the record alone")
        from treegen.search.records import load_record, record_table

        def checked(path: str, seconds: float) -> None:
            say(f"checked {path} ({seconds:.1f} s)", err=True)

        record = load_record(book, told=checked, jobs=jobs, facts=True)
        say(f"ok {book}: {record['solved']} of {len(record['classes'])} classes solved, "
            f"{record['certified']} certified")
        for entry in record["classes"]:
            if "facts_checked" in entry:
                say(f"{entry['feedback']}: {entry['facts_checked']} of {len(entry['facts'])} "
                    "facts checked (its certificate, once written, names them as premises)")
        say(record_table(record).rstrip("\n"))
        return
    from treegen.book.replay import verify_file
    data, problems = verify_file(book)
    lines: list[str] = []
    if certificate and not problems:
        from treegen.proofs import check_certificate, judge
        lines, problems = judge(data, [check_certificate(path, jobs=jobs)
                                       for path in certificate])
    if problems:
        for problem in problems:
            say(f"{book}: {problem}", err=True)
        sys.exit(1)
    say(f"ok {book}: {books.summary(data)}")
    for line in lines:
        say(line)


@main.command()
@click.argument("book", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def stats(book: tuple[str, ...], as_json: bool) -> None:
    """Compare books side by side: game, strategy, total, average, max, depth histogram.

    \b
    Example:
      treegen stats mastermind-*.json
    """
    from treegen.views.compare import compare_rows, compare_text
    loaded = [(path, books.load_sections(path)) for path in book]
    if as_json:
        rows = compare_rows(loaded)
        click.echo(json.dumps(rows, indent=2, allow_nan=False))
        return
    say(compare_text(loaded))


@main.command()
def games() -> None:
    """List the preset games.

    \b
    Example:
      treegen games
    """
    from treegen.rules.game import ALIASES, DESCRIPTIONS, PRESETS, WORD_PRESETS, Game
    rows = []
    for name in PRESETS:
        rules = Game.preset(name)
        aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
        rows.append([name, rules.symbols, str(rules.length), "yes" if rules.repetition else "no",
                     f"{rules.size}", DESCRIPTIONS[name] + (f" (alias: {aliases})" if aliases else "")])
    for name in WORD_PRESETS:  # listed without fetching the lists
        rows.append([name, "a-z", "5", "yes", "2315", DESCRIPTIONS[name]])
    from treegen.views.compare import format_table
    say(format_table(["game", "symbols", "length", "repeats", "codes", "description"], rows))


@main.command()
def strategies() -> None:
    """List the built-in strategies.

    \b
    Example:
      treegen strategies
    """
    from treegen.registry import BUILTIN
    rows = [[name, cls.default_pool, cls.description] for name, cls in BUILTIN.items()]
    rows.append(["package.module:Name", "all", "your own class or function (see docs/usage.md)"])
    from treegen.views.compare import format_table
    say(format_table(["strategy", "pool", "description"], rows))

