"""What the command-line modules share: the game options, progress on the terminal, tables, and
reading a line from the person at the keyboard. Only the CLI imports it."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

import click

from treegen import book as books
from treegen import errors
from treegen.data import BookData
from treegen.errors import interrupted, resumable, signalled
from treegen.player import HARD_MODES, RULES
from treegen.rules.game import Game
from treegen.search.options import ENGINES, SCORING, SearchOptions
from treegen.strategies.base import POOLS
from treegen.strategies.heuristics import HEURISTICS

F = TypeVar("F", bound=Callable[..., Any])


def complete_games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of --game: the preset names and aliases."""
    from treegen.rules.game import ALIASES, PRESETS, WORD_PRESETS
    return [name for name in [*PRESETS, *WORD_PRESETS, *ALIASES] if name.startswith(incomplete)]


def complete_strategies(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of --strategy: the built-in names (a user's package.module:Name is free)."""
    from treegen.registry import BUILTIN
    return [name for name in BUILTIN if name.startswith(incomplete)]


def game_options(func: F) -> F:
    """The options that choose a game, shared by every command that takes one."""
    options = [
        click.option("--game", "-g", default="bulls-and-cows", show_default=True,
                     shell_complete=complete_games, help="Preset game (see `treegen games`)."),
        click.option("--symbols", default=None, help="Custom symbols, e.g. 0123456789."),
        click.option("--length", type=int, default=None, help="Custom code length."),
        click.option("--repetition/--no-repetition", default=None,
                     help="Whether a code may repeat a symbol (default: the preset's rule)."),
        click.option("--answers", type=click.Path(dir_okay=False), default=None,
                     expose_value=False, callback=_remember,
                     help="A word game: the file of its answers (the secrets), one per line; "
                          "with --game wordle, in place of Wordle's."),
        click.option("--guesses", type=click.Path(dir_okay=False), default=None,
                     expose_value=False, callback=_remember,
                     help="The file of the allowed guesses, answers included [default: the answers; "
                          "with --game wordle, Wordle's]."),
        *(click.option(f"{mode.flag}/--no-{mode.flag[2:]}", default=None, expose_value=False,
                       callback=_remember_mode,
                       help=f"Hard mode{mode.title.removeprefix(', hard mode')}: {mode.describe}.")
          for mode in HARD_MODES.values()),
        click.option("--rule", type=click.Choice(list(RULES)), default=None,
                     expose_value=False, callback=_remember,
                     help="How answers are given: " + ", ".join(
                         f"{name} ({rule.example})" for name, rule in RULES.items())
                     + " [default: the preset's; wordle for --answers].")
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _remember(ctx: click.Context, param: click.Parameter, value: object) -> object:
    """Keep a game option for :func:`make_game` (the commands' own signatures stay as they are)."""
    ctx.meta[f"treegen.{param.name}"] = value
    return value


def _remember_mode(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    """Keep the hard modes asked for, by name, for :func:`make_game`."""
    if value:
        flags = {mode.flag: name for name, mode in HARD_MODES.items()}
        ctx.meta.setdefault("treegen.hard_modes", []).append(flags[f"--{param.name}"])


def make_game(game: str, symbols: str | None, length: int | None, repetition: bool | None) -> Game:
    """The game the options choose: a preset, a custom game, or a user's word lists; in hard mode
    with --hard, or Wordle's own with --hints."""
    from dataclasses import replace
    meta = click.get_current_context().meta
    answers, guesses, rule = (meta.get(f"treegen.{key}") for key in ("answers", "guesses", "rule"))
    modes = [name for name in HARD_MODES if name in meta.get("treegen.hard_modes", ())]
    if len(modes) > 1:
        count = "two" if len(modes) == 2 else str(len(modes))
        raise click.UsageError(f"{' and '.join(HARD_MODES[m].flag for m in modes)} are {count} "
                               "hard modes: give one of them")
    game_ = _game(game, symbols, length, repetition, answers, guesses, rule)
    return replace(game_, hard=modes[0] if modes else "")


def _game(game: str, symbols: str | None, length: int | None, repetition: bool | None,
          answers: str | None, guesses: str | None, rule: str | None) -> Game:
    from dataclasses import replace

    if answers is None and guesses is None:
        base = Game.make(game, symbols, length, repetition)
        if rule is None or rule == base.rule:
            return base
        return replace(base, name="custom", rule=rule)
    from click.core import ParameterSource

    from treegen.rules.game import WORD_PRESETS, preset_key
    from treegen.rules.wordlists import word_lists
    source = click.get_current_context().get_parameter_source("game")
    chosen = source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)
    preset = preset_key(game)
    wordle = chosen and preset in WORD_PRESETS
    rule = rule or WORD_PRESETS.get(preset, "wordle")
    if chosen and not wordle:
        raise click.UsageError(f"--game {game} is a game of codes and --answers or --guesses a "
                               "game of words: give one or the other")
    if answers is None and not wordle:
        raise click.UsageError("--guesses needs --answers (or --game wordle, for Wordle's answers)")
    if symbols is not None or length is not None or repetition is not None:
        raise click.UsageError("--answers and --guesses make a word game: --symbols, --length "
                               "and --repetition do not apply")
    words, allowed = word_lists(answers, guesses, rule, wordle)
    return Game.of_words(words, allowed, rule)


#: The search's options on the command line, each declared once, by its field of
#: :class:`SearchOptions`; a command takes those it names (:func:`search_options`).
SEARCH_OPTIONS: dict[str, Callable[[F], F]] = {
    "max_depth": click.option(
        "--max-depth", type=click.IntRange(min=1), default=None,
        help="optimal: the best tree that never needs more than this many guesses."),
    "jobs": click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=None,
        help="optimal: worker processes; heuristics: threads scoring guesses, and from 10,000 "
             "secrets worker processes building the sets below the first guess [default: all "
             "cores; for a heuristic, one below 2^30 (guess, secret) pairs]."),
    "memory": click.option(
        "--memory", default=None, metavar="SIZE",
        help="optimal: memory for the search's caches, e.g. 4G; heuristics: the most the score "
             "table may take, else guesses are scored from the codes [default: half of what is "
             "available]."),
    "resume": click.option(
        "--resume", is_flag=True, default=False,
        help="optimal: continue an interrupted build from its checkpoint (BOOK.checkpoint)."),
    "engine": click.option(
        "--engine", type=click.Choice(ENGINES), default=ENGINES[0], show_default=True,
        help="optimal, and heuristics with workers: worker processes on this machine, or Ray "
             "tasks (pip install 'ray[default]')."),
    "address": click.option(
        "--address", default=None, metavar="ADDRESS",
        help="--engine ray: the Ray cluster to join, from one of its machines (auto, "
             "host:6379) [default: a Ray instance on this machine, for this command]."),
    "width": click.option(
        "--width", type=click.IntRange(min=1), default=None,
        help="optimal: on large sets search only the WIDTH guesses the heuristic ranks best (a "
             "bounded search, for games too large to solve outright; the book states how far "
             "from optimal it can be)."),
    "exact_below": click.option(
        "--exact-below", type=click.IntRange(min=0), default=None, metavar="N",
        help="optimal --width: solve sets of fewer than N secrets exactly [default: 200]."),
    "heuristic": click.option(
        "--heuristic", type=click.Choice(list(HEURISTICS)), default=None,
        help="optimal --width: what ranks the guesses [default: entropy]."),
}
#: The pools of guesses a strategy may take, as the command line offers them.
pool_option = click.option(
    "--pool", type=click.Choice(POOLS), default=None,
    help="Guesses allowed: any code, or only still-possible secrets [default: all; consistent "
         "for simple and random].")


def search_options(*names: str) -> Callable[[F], F]:
    """The search's options ``names`` (all of them without names), shared by the commands that
    take them: the command takes them as ``**search`` keywords, read with :func:`searched`."""
    chosen = names or tuple(SEARCH_OPTIONS)

    def decorate(func: F) -> F:
        for name in reversed(chosen):
            func = SEARCH_OPTIONS[name](func)
        return func
    return decorate


def search_only(given: dict[str, Any]) -> list[str]:
    """The options typed that only a search reads (a heuristic reads :data:`SCORING`)."""
    defaults = SearchOptions()
    return [name for name, value in given.items()
            if name not in SCORING and value != getattr(defaults, name)]


def flag(name: str) -> str:
    """The command line's flag of a search option."""
    return "--" + name.replace("_", "-")


def searched(given: dict[str, Any], **more: Any) -> SearchOptions:
    """The search options a command was given (and ``more`` fields): its memory read as a size,
    and, where it chooses an engine, its processors as :func:`engine_jobs` counts them."""
    from treegen.settings import parse_size
    fields = {**given, **more}
    if "engine" in fields:
        fields["jobs"] = engine_jobs(fields.get("engine", ENGINES[0]), fields.get("address"),
                                     fields["jobs"])
    if fields.get("memory") is not None:
        fields["memory"] = parse_size(fields["memory"], "--memory")
    return SearchOptions(**fields)


def say(message: object = "", err: bool = False, nl: bool = True) -> None:
    """Print a message for a person: text a file brought in (a book's names, say) is shown as
    code points where it holds control characters, never sent to the terminal as they are."""
    from treegen.views.encode import terminal_text
    click.echo(terminal_text(str(message)), err=err, nl=nl)


class BuildProgress:
    """A progress bar on stderr that appears only once a build has taken more than a moment; off a
    terminal, with ``lines``, a line every ``EVERY`` seconds instead (a long build's log). A clock
    thread shows it and keeps it current while no secret is placed, as while a huge game's first
    guesses are chosen."""

    DELAY = 0.5
    EVERY = 30.0
    TICK = 0.5

    def __init__(self, total: int, label: str, lines: bool = False) -> None:
        self.total, self.label = total, label
        self.done = 0
        self.bar: Any = None  # click's progress bar, once shown
        self.start = self.said = time.monotonic()
        self.enabled = sys.stderr.isatty()
        self.lines = lines and not self.enabled
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._clock: threading.Thread | None = None
        if self.enabled or self.lines:
            self._clock = threading.Thread(target=self._run, name="treegen-progress", daemon=True)
            self._clock.start()

    def __call__(self, step: int) -> None:
        with self._lock:
            self.done += step
            if self.bar is not None:
                self.bar.update(step)
        if self.lines and time.monotonic() - self.said >= self.EVERY:
            self.tick()

    def tick(self) -> None:
        """Show the bar once it is due and bring it up to date; off a terminal, the line due."""
        with self._lock:
            now = time.monotonic()
            if self.lines and now - self.said >= self.EVERY:
                self.said = now
                click.echo(f"{self.label}: {self.done:,} of {self.total:,} secrets placed "
                           f"({100 * self.done / max(1, self.total):.1f} %) in "
                           f"{now - self.start:,.0f} s", err=True)
            if not self.enabled or self._stop.is_set():
                return
            if self.bar is None:
                if now - self.start < self.DELAY:
                    return
                self.bar = click.progressbar(length=self.total, label=self.label, file=sys.stderr)
                self.bar.__enter__()
                self.bar.update(self.done)
            else:
                self.bar.render_progress()

    def close(self) -> None:
        self._stop.set()
        if self._clock is not None:
            self._clock.join()
        with self._lock:
            if self.bar is not None:
                self.bar.__exit__(None, None, None)

    def _run(self) -> None:
        while not self._stop.wait(self.TICK):
            self.tick()


class SearchStatus:
    """One status line on stderr, rewritten in place, for the exact search (terminals only)."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.shown = False

    def __call__(self, status: object) -> None:
        if self.enabled:
            from treegen.views.encode import terminal_text
            click.echo(f"\r\033[Koptimal: {terminal_text(str(status))}", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            click.echo("", err=True)
            self.shown = False


@contextlib.contextmanager
def kept_on_interrupt(searching: SearchStatus, kept: str | None, where: str,
                      deadline: Deadline | None = None) -> Iterator[None]:
    """Ctrl-C (or SIGTERM) during a search that keeps its work in ``kept``: say ``where`` in one
    line and exit 130; without anything kept, the usual "nothing was written". A worker lost is
    told the same way, with exit 1. The ``deadline`` passing is no Ctrl-C: it is left to the
    caller."""
    try:
        yield
    except (KeyboardInterrupt, Exception) as exc:  # see errors.interrupt
        if resumable(exc) and kept is not None and os.path.exists(kept) and \
                not (deadline is not None and deadline.passed):
            searching.close()
            if not interrupted(exc):
                from treegen.views.encode import terminal_text
                raise click.ClickException(terminal_text(f"{exc}; {where}")) from None
            say(f"\ninterrupted; {where}", err=True)
            sys.exit(130)
        raise
    finally:
        searching.close()


class Deadline:
    """Interrupt the work inside after ``seconds`` (as Ctrl-C does, so what it keeps is kept).
    ``passed`` says whether it rang, also when it rang before the work began: the caller catches
    the interrupt around the ``with``, not inside it."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self.passed = seconds, False

    def __enter__(self) -> Deadline:
        import signal
        if self.seconds is not None:
            self.previous = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds, 0.001))
        return self

    def __exit__(self, *exc: object) -> None:
        import signal
        if self.seconds is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)

    def _ring(self, signum: int, frame: object) -> None:
        self.passed = True
        errors.interrupt(signum, None)


def engine_jobs(engine: str, address: str | None, requested: int | None) -> int:
    """Processors for the optimal search: this machine's for the local engine and a Ray instance
    started here; a cluster joined with --address has its own count."""
    if address is not None:
        if engine != "ray":
            raise click.UsageError("--address joins a Ray cluster: add --engine ray")
        if requested is not None:
            raise click.UsageError("--jobs does not apply with --address: the cluster's "
                                   "processors are used")
        return 1
    return jobs_for(requested)


def jobs_for(requested: int | None) -> int:
    """Worker processes for the optimal search: all cores by default, never more (and say so)."""
    from treegen.settings import usable_cores
    cores = usable_cores()
    if requested is not None and requested > cores:
        say(f"note: --jobs {requested} is more than the {cores} processor"
                   f"{'s' if cores != 1 else ''} here; using {cores}", err=True)
    return min(requested or cores, cores)


def ask(prompt: str) -> str:
    """One line of input for an interactive session: end of input ends the session; Ctrl-C (which
    click turns into the same Abort) interrupts the command, exit status 130."""
    try:
        answer: str = click.prompt(prompt, default="", show_default=False)
        return answer
    except click.Abort:
        if signalled():
            raise KeyboardInterrupt from None
        raise EOFError from None


def default_output(book: str, suffix: str) -> str:
    """The book's file name with another ending, in the current directory."""
    stem = os.path.splitext(os.path.basename(book))[0]
    return stem + suffix


def checkpoint_path(output: str | None, rules: Game, strategy: str, max_depth: int | None,
                    first: str | None, width: int | None = None,
                    exact_below: int | None = None) -> str:
    """Where an optimal build keeps its checkpoint: next to the book it writes (in the current
    folder when the book goes to a pipe or a device)."""
    from treegen.search.checkpoint import path_for
    if output is None or (os.path.exists(output) and not os.path.isfile(output)):
        bounded = {} if width is None else {"width": width, "exact_below": exact_below}
        stub = {"game": rules.to_dict(), "strategy": {"name": strategy, "pool": "all",
                                                      "max_depth": max_depth, "first": first,
                                                      **bounded}}
        output = books.file_name(cast(BookData, stub), forced_first=first is not None)
    return path_for(output)
