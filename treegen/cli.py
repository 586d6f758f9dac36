"""The ``treegen`` command: parses arguments and calls the library, nothing more."""

from __future__ import annotations

import json
import signal
import sys
import time

import click

from . import book as books
from .errors import TreegenError


class _Group(click.Group):
    """Turns treegen's own errors and Ctrl-C into one-line messages and a non-zero exit."""

    def invoke(self, ctx):
        # SIGTERM unwinds like Ctrl-C, so temporary files and worker processes are cleaned up.
        try:
            previous = signal.signal(signal.SIGTERM, _terminated)
        except ValueError:  # not the main thread: leave signals alone
            previous = None
        try:
            return super().invoke(ctx)
        except TreegenError as exc:
            raise click.ClickException(str(exc)) from None
        except MemoryError:
            raise click.ClickException("out of memory; try a smaller game") from None
        except KeyboardInterrupt:
            click.echo("\ninterrupted; nothing was written", err=True)
            sys.exit(130)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)


def _terminated(signum, frame):
    raise KeyboardInterrupt


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="treegen")
def main():
    """Compile code-breaking strategies into complete decision trees ("strategy books").

    \b
    Example:
      treegen build --strategy minimax
      treegen verify bulls-and-cows-minimax-all.json
    """


def _complete_games(ctx, param, incomplete: str) -> list[str]:
    """Shell completion of --game: the preset names and aliases."""
    from .game import ALIASES, PRESETS
    return [name for name in [*PRESETS, *ALIASES] if name.startswith(incomplete)]


def _complete_strategies(ctx, param, incomplete: str) -> list[str]:
    """Shell completion of --strategy: the built-in names (a user's package.module:Name is free)."""
    from .registry import BUILTIN
    return [name for name in BUILTIN if name.startswith(incomplete)]


def game_options(func):
    """The options that choose a game, shared by every command that takes one."""
    options = [
        click.option("--game", "-g", default="bulls-and-cows", show_default=True,
                     shell_complete=_complete_games, help="Preset game (see `treegen games`)."),
        click.option("--symbols", default=None, help="Custom symbols, e.g. 0123456789."),
        click.option("--length", type=int, default=None, help="Custom code length."),
        click.option("--repetition/--no-repetition", default=None,
                     help="Whether a code may repeat a symbol (default: the preset's rule)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_game(game, symbols, length, repetition):
    from .game import Game
    return Game.make(game, symbols, length, repetition)


class _Progress:
    """A progress bar on stderr that appears only once a build has taken more than a moment."""

    DELAY = 0.5

    def __init__(self, total: int, label: str):
        self.total, self.label = total, label
        self.done, self.bar = 0, None
        self.start = time.monotonic()
        self.enabled = sys.stderr.isatty()

    def __call__(self, step: int) -> None:
        self.done += step
        if not self.enabled:
            return
        if self.bar is None:
            if time.monotonic() - self.start < self.DELAY:
                return
            self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
            self.bar.update(self.done)
        else:
            self.bar.update(step)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


class _SearchProgress:
    """One status line on stderr, rewritten in place, for the exact search (terminals only)."""

    def __init__(self):
        self.enabled = sys.stderr.isatty()
        self.shown = False

    def __call__(self, status) -> None:
        if self.enabled:
            click.echo(f"\r\033[Koptimal: {status}", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            click.echo("", err=True)


@main.command()
@game_options
@click.option("--strategy", "-s", default="minimax", show_default=True,
              shell_complete=_complete_strategies,
              help="Built-in strategy (see `treegen strategies`), optimal, or package.module:Name.")
@click.option("--pool", type=click.Choice(["all", "consistent"]), default=None,
              help="Guesses allowed: any code, or only still-possible secrets "
                   "[default: all; consistent for simple and random].")
@click.option("--first", default=None, help="Force the first guess.")
@click.option("--seed", type=int, default=None, help="Seed of the random strategy [default: 0].")
@click.option("--max-depth", type=click.IntRange(min=1), default=None,
              help="optimal: the best tree that never needs more than this many guesses.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="optimal: worker processes [default: all cores].")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Heuristics: score one guess per class of equivalent guesses (same book, "
                   "faster); the optimal search always does.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Book file [default: GAME-STRATEGY-POOL.json in the current directory].")
def build(game, symbols, length, repetition, strategy, pool, first, seed, max_depth, jobs, symmetry,
          output):
    """Compile a strategy into a book: play every secret and merge the games into one tree.

    \b
    Examples:
      treegen build --strategy minimax
      treegen build --game mastermind --strategy minimax --first 1122 -o knuth.json
      treegen build --game mastermind --strategy optimal --max-depth 5
      treegen build --symbols ABCDE --length 3 --no-repetition --strategy entropy
    """

    from .compiler import build_book
    rules = make_game(game, symbols, length, repetition)
    options = {}
    searching = _SearchProgress()
    from .registry import takes
    if "max_depth" in takes(strategy):
        options = {"max_depth": max_depth, "jobs": _jobs(jobs), "status": searching}
    elif max_depth is not None or jobs is not None:
        raise click.UsageError("--max-depth and --jobs apply to --strategy optimal only")
    progress = _Progress(rules.size, f"{rules.slug} {strategy}")
    try:
        result = build_book(rules, strategy, pool=pool, first=first, seed=seed, symmetry=symmetry,
                            progress=progress, **options)
    finally:
        searching.close()
        progress.close()
    path = output or books.file_name(result, forced_first=first is not None)
    books.save(result, path)
    click.echo(f"wrote {path}: {books.summary(result)}")


def _jobs(requested: int | None) -> int:
    """Worker processes for the optimal search: all cores by default, never more (and say so)."""
    from .optimal import usable_cores
    cores = usable_cores()
    if requested is not None and requested > cores:
        click.echo(f"note: --jobs {requested} is more than the {cores} processor"
                   f"{'s' if cores != 1 else ''} here; using {cores}", err=True)
    return min(requested or cores, cores)


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
def verify(book):
    """Replay every secret through a book with independent scoring and check its stats.

    \b
    Example:
      treegen verify mastermind-minimax-all.json
    """
    from .replay import verify as check_book
    data = books.load(book)
    problems = check_book(data)
    if problems:
        for problem in problems:
            click.echo(f"{book}: {problem}", err=True)
        sys.exit(1)
    click.echo(f"ok {book}: {books.summary(data)}")


@main.command()
@click.argument("book", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def stats(book, as_json):
    """Compare books side by side: game, strategy, total, average, max, depth histogram.

    \b
    Example:
      treegen stats mastermind-*.json
    """
    rows = []
    for path in book:
        data = books.load(path)
        rows.append({"book": path, "game": data["game"]["name"], **data["strategy"], **data["stats"]})
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, allow_nan=False))
        return
    headers = ["book", "game", "strategy", "pool", "first", "secrets", "total", "average", "max",
               "histogram"]
    table = [[str(r["book"]), r["game"], r["name"], r["pool"], r["first"], str(r["secrets"]),
              str(r["total"]), f"{r['average']:.4f}", str(r["max"]),
              " ".join(f"{k}:{v}" for k, v in r["histogram"].items())] for r in rows]
    click.echo(format_table(headers, table))


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return "\n".join(lines)


@main.command()
def games():
    """List the preset games.

    \b
    Example:
      treegen games
    """
    from .game import ALIASES, DESCRIPTIONS, PRESETS, Game
    rows = []
    for name in PRESETS:
        rules = Game.preset(name)
        aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
        rows.append([name, rules.symbols, str(rules.length), "yes" if rules.repetition else "no",
                     f"{rules.size}", DESCRIPTIONS[name] + (f" (alias: {aliases})" if aliases else "")])
    click.echo(format_table(["game", "symbols", "length", "repeats", "codes", "description"], rows))


@main.command()
def strategies():
    """List the built-in strategies.

    \b
    Example:
      treegen strategies
    """
    from .registry import BUILTIN
    rows = [[name, cls.default_pool, cls.description] for name, cls in BUILTIN.items()]
    rows.append(["package.module:Name", "all", "your own class or function (see the README)"])
    click.echo(format_table(["strategy", "pool", "description"], rows))


def _ask(prompt: str) -> str:
    """One line of input for an interactive session; end of input (or Ctrl-C) reads as EOF."""
    try:
        return click.prompt(prompt, default="", show_default=False)
    except click.Abort:
        raise EOFError from None


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--secret", default=None, help="Play this secret automatically and print the transcript.")
@click.option("--json", "as_json", is_flag=True, help="With --secret: print the transcript as JSON.")
def play(book, secret, as_json):
    """Play from a book: think of a secret and answer its guesses.

    Answers are aAbB (a right in place, b right elsewhere): 1A2B, 12, "1 2" or 1,2. Commands: undo,
    restart, ? (secrets still possible), help, quit.

    \b
    Examples:
      treegen play mastermind-minimax-all.json
      treegen play mastermind-minimax-all.json --secret 3456
      treegen play mastermind-minimax-all.json --secret 3456 --json
    """
    from . import play as playing
    if as_json and secret is None:
        raise click.UsageError("--json needs --secret")
    data = books.load(book)
    player = playing.make_player(data)
    if secret is None:
        playing.session(player, _ask, click.echo)
        return
    secret = playing.check_secret(data["game"], secret)
    moves = playing.autoplay(player, secret)
    if as_json:
        click.echo(json.dumps({"book": book, "game": data["game"]["name"],
                               "strategy": data["strategy"]["name"], "secret": secret,
                               "guesses": len(moves), "moves": moves}, indent=2))
        return
    click.echo(f"secret {secret} with {book} ({books.summary(data)})")
    click.echo(playing.transcript(moves))


@main.command()
@game_options
@click.option("--seed", type=int, default=None,
              help="Seed of the random secret, to replay a game [default: a fresh random seed].")
@click.option("--secret", default=None, help="Use this secret instead of a random one.")
@click.option("--adversarial", is_flag=True,
              help="Choose no secret: answer each guess with its largest class of secrets.")
def challenge(game, symbols, length, repetition, seed, secret, adversarial):
    """You guess, treegen answers: a random secret, or the adversarial codemaker.

    The adversary answers with the feedback that leaves the most secrets possible (ties: the feedback
    first in the order 0A0B, 0A1B, ..., 1A0B, ...), always consistently, and shows a secret that fits
    every answer when the game ends. Invalid guesses are explained and do not count.

    \b
    Examples:
      treegen challenge --game mastermind --seed 7
      treegen challenge --game muertos-y-heridos --adversarial
    """
    from .challenge import Codemaker, session
    maker = Codemaker(make_game(game, symbols, length, repetition), secret=secret, seed=seed,
                      adversarial=adversarial)
    session(maker, _ask, click.echo)


@main.command()
@game_options
@click.option("--after", default=None,
              help="The moves so far, GUESS=FEEDBACK,... (e.g. 0123=1A2B,4567=0A1B).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def partitions(game, symbols, length, repetition, after, as_json):
    """How each class of equivalent guesses splits the secrets still possible, by feedback.

    One row per class of guesses that a symmetry of the game maps onto each other; * marks each
    row's largest class (the one minimax looks at).

    \b
    Examples:
      treegen partitions --game muertos-y-heridos
      treegen partitions --game mastermind --after 1122=1A0B
    """
    from .partitions import format_partitions, parse_history, partition_table
    rules = make_game(game, symbols, length, repetition)
    history = parse_history(rules, after) if after is not None else ()
    rows = partition_table(rules, history)
    if as_json:
        moves = [f"{rules.code_strings[g]}={rules.feedback_texts[f]}" for g, f in history]
        click.echo(json.dumps({"game": rules.to_dict(), "after": moves,
                               "secrets": sum(rows[0]["counts"].values()), "classes": rows}, indent=2))
        return
    click.echo(format_partitions(rules, history, rows))


def _default_output(book: str, suffix: str) -> str:
    """The book's file name with another ending, in the current directory."""
    import os
    stem = os.path.splitext(os.path.basename(book))[0]
    return stem + suffix


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Picture file; its suffix (.svg, .png, .pdf, .dot) chooses the format "
                   "[default: the book's name with .svg].")
@click.option("--format", "fmt", type=click.Choice(["svg", "png", "pdf", "dot"]), default=None,
              help="Output format, whatever the file is called. dot needs no Graphviz.")
@click.option("--depth", default="3", show_default=True, metavar="N|all",
              help="Levels of guesses to draw; 'all' draws the whole tree.")
@click.option("--from", "start", default=None, metavar="GUESS=FEEDBACK,...",
              help="Draw from the node these moves lead to, e.g. 1122=1A0B,1344=2A0B.")
@click.option("--pegs/--text", default=None,
              help="Draw codes as colour pegs or as text [default: pegs for Mastermind-like games].")
def render(book, output, fmt, depth, start, pegs):
    """Draw the top of a book (or of any subtree) with Graphviz: SVG, PNG, PDF or DOT.

    Nodes show the guess and how many secrets remain; small boxes on the edges show the answer;
    dashed nodes are cut-off subtrees with their size; green nodes are solved secrets.

    \b
    Examples:
      treegen render mastermind-minimax-all.json -o tree.svg
      treegen render knuth.json --depth 2 --from 1122=1A0B -o after-1A0B.png
      treegen render knuth.json --format dot -o tree.dot    # no Graphviz needed
    """
    from .files import refuse_sources
    from .render import output_format
    from .render import render as draw
    from .tree import describe_path, locate, node_count, parse_path
    if depth == "all":
        levels = None
    else:
        try:
            levels = int(depth)
        except ValueError:
            raise click.BadParameter(f"{depth!r} is not a number of levels or 'all'",
                                     param_hint="--depth") from None
        if levels < 1:
            raise click.BadParameter("draw at least 1 level", param_hint="--depth")
    fmt = output_format(output, fmt)
    output = output or _default_output(book, "." + fmt)
    refuse_sources(output, [book])
    data = books.load(book)
    path = locate(data, parse_path(start)) if start else ()
    if levels is None:
        click.echo(f"warning: --depth all draws all {node_count(data, path)} nodes of the "
                   "subtree; the picture will be large", err=True)
    draw(data, output, fmt, depth=levels, start=path, pegs=pegs, sources=[book])
    click.echo(f"wrote {output} ({fmt}, {'all levels' if levels is None else f'{levels} levels'}"
               f"{' from ' + describe_path(data['tree'], path) if path else ''})")


@main.command()
@click.argument("book", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Path(file_okay=False), required=True,
              help="Folder of the site: created, or an earlier treegen site there is replaced.")
@click.option("--depth", type=click.IntRange(min=2), default=3, show_default=True,
              help="Levels of guesses per page.")
@click.option("--min-secrets", type=click.IntRange(min=1), default=5, show_default=True,
              help="A cut-off subtree with at least this many secrets gets its own page; smaller "
                   "ones are drawn whole on the page that reaches them.")
def site(book, output, depth, min_secrets):
    """Write a static web site of books: compare them, browse the trees, find secrets, play.

    Plain files: open DIR/index.html from disk or serve the folder with any web server.

    \b
    Example:
      treegen site mastermind-*.json -o site
      python3 -m http.server -d site    # optional: any static server works
    """
    import os

    from .site import build_site
    named = [(os.path.splitext(os.path.basename(path))[0], books.load(path)) for path in book]
    pages = build_site(named, output, depth=depth, min_secrets=min_secrets, sources=book)
    click.echo(f"wrote {output}: {len(pages)} book{'s' if len(pages) != 1 else ''}, "
               f"{sum(pages.values())} pages; open {os.path.join(output, 'index.html')}")


@main.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["graphml", "gexf", "node-link"]), default=None,
              help="Graph format [default: from the -o suffix (.graphml, .gexf, .json), "
                   "else graphml].")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Graph file [default: the book's name with .graphml, .gexf or -graph.json].")
def export(book, fmt, output):
    """Export a book as a graph for Gephi, yEd or networkx: GraphML, GEXF or node-link JSON.

    Nodes carry guess, remaining (secrets still possible) and depth (answers before the node);
    edges carry feedback.

    \b
    Examples:
      treegen export knuth.json -o knuth.graphml
      treegen export knuth.json --format node-link -o knuth-graph.json
    """
    from .export import export as write_graph
    from .export import export_format
    from .files import refuse_sources
    if output is None:
        fmt = fmt or "graphml"
        output = _default_output(book, {"graphml": ".graphml", "gexf": ".gexf",
                                        "node-link": "-graph.json"}[fmt])
    fmt = export_format(output, fmt)
    refuse_sources(output, [book])
    write_graph(books.load(book), output, fmt, sources=[book])
    click.echo(f"wrote {output} ({fmt})")


@main.group(name="books")
def library_group():
    """The strategy book library: every preset game with every strategy, pictures and an index.

    \b
    Examples:
      treegen books rebuild books
      treegen books rebuild books --only 'mastermind-*' --force
      treegen books index books
    """


def _library_folder(folder: str) -> str:
    """The folder as the user wrote it, tidied: the index's commands name it that way."""
    import os
    return os.path.normpath(folder)


@library_group.command(name="rebuild")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Rebuild books that are up to date too.")
@click.option("--only", default=None, metavar="PATTERN",
              help="Only the books whose name matches a shell pattern (comma-separated for several).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="optimal: worker processes [default: all cores].")
@click.option("--dry-run", is_flag=True, help="Only say which books are out of date, and why.")
def library_rebuild(folder, force, only, jobs, dry_run):
    """Build every book of the library that is out of date, draw its picture, and rewrite the index.

    A book is up to date when its file records the game and strategy parameters of its entry and
    its picture is stamped with that very file and this treegen version.

    \b
    Examples:
      treegen books rebuild books
      treegen books rebuild books --only bulls-and-cows-optimal-all
      treegen books rebuild books --only 'mastermind-*,*-entropy-*' --force
    """
    from . import library
    folder = _library_folder(folder)
    tasks = library.plan(folder, force=force, only=only)
    width = len(str(len(tasks)))
    built = 0
    for number, task in enumerate(tasks, 1):
        prefix = f"[{number:>{width}}/{len(tasks)}] {task.entry.name}"
        if task.reason is None:
            click.echo(f"{prefix}: up to date")
            continue
        if dry_run:
            click.echo(f"{prefix}: {task.reason}; would {'build' if task.book else 'draw'} it")
            continue
        start = time.monotonic()
        progress = _Progress(task.entry.secrets, task.entry.name)
        searching = _SearchProgress()
        try:
            result = library.update(task, folder, progress=progress, jobs=_jobs(jobs),
                                    status=searching)
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: {task.entry.name} was not written; the {built} book"
                       f"{'s' if built != 1 else ''} built before it are kept", err=True)
            sys.exit(130)
        finally:
            searching.close()
            progress.close()
        seconds = time.monotonic() - start
        built += result is not None
        what = f"built: {books.summary(result)}" if result is not None else "picture drawn"
        click.echo(f"{prefix}: {task.reason}; {what} ({seconds:.1f} s)")
    if not dry_run:
        click.echo(f"wrote {library.write_index(folder, folder)}")


@library_group.command(name="index")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
def library_index(folder):
    """Regenerate the library's README.md (the table of books) from the books in FOLDER.

    \b
    Example:
      treegen books index books
    """
    from . import library
    folder = _library_folder(folder)
    click.echo(f"wrote {library.write_index(folder, folder)}")
