"""The commands that play: a book against you, you against treegen, and the partition table."""

from __future__ import annotations

import json

import click

from treegen import book as books
from treegen.cli.support import ask, complete_strategies, game_options, make_game, say
from treegen.rules.game import Game


@click.command()
@click.argument("book", type=click.Path(dir_okay=False), required=False)
@game_options
@click.option("--secret", default=None, help="Play this secret automatically and print the transcript.")
@click.option("--json", "as_json", is_flag=True, help="With --secret: print the transcript as JSON.")
def play(book: str | None, game: str, symbols: str | None, length: int | None,
         repetition: bool | None, secret: str | None, as_json: bool) -> None:
    """Play from a book: think of a secret and answer its guesses.

    Without BOOK, --game chooses the proven optimal book installed with treegen (a preset game,
    or its hard mode with --hard or --hints; `treegen books installed` lists them).

    Each game speaks its own notation: Mastermind's black and white pegs (BBW, 2B1W or "B2 W1":
    B for a right colour in place, W for one elsewhere); aAbB in Bulls and Cows (a right in
    place, b right elsewhere: 1A2B, 12, "1 2" or 1,2); Wordle's tiles, GY..Y; Jotto's count.
    Either peg spelling is read in every game of pegs, and -, none or 0 for nothing in common.
    Commands: undo, restart, ? (the secrets still possible; ? all), help, quit.

    \b
    Examples:
      treegen play --game mastermind
      treegen play --game mastermind --secret 3456
      treegen play mastermind-minimax-all.json
      treegen play mastermind-minimax-all.json --secret 3456 --json
    """
    from treegen.sessions import play as playing
    if as_json and secret is None:
        raise click.UsageError("--json needs --secret")
    chosen = _game_chosen(symbols, length, repetition)
    if book is not None and chosen:
        raise click.UsageError("give a BOOK or a game (--game ...) to play, not both")
    if book is None and not chosen:
        raise click.UsageError("give a BOOK to play, or --game for the one installed "
                               "(e.g. treegen play --game mastermind)")
    if book is not None:
        data, label = books.open_book(book), book
    else:
        from treegen import presets
        rules = make_game(game, symbols, length, repetition)
        found, name = presets.book_data(rules), presets.name_for(rules)
        if found is None or name is None:
            from treegen.errors import GameError
            raise GameError(f"treegen comes with no book of {rules.title}: give a BOOK "
                            "(treegen books installed lists those it has)")
        data, label = found, name
    player = playing.make_player(data)
    if secret is None:
        playing.session(player, ask, say)
        return
    secret = playing.check_secret(data["game"], secret)
    moves = playing.autoplay(player, secret)
    if as_json:
        click.echo(json.dumps({"book": label, "game": data["game"]["name"],
                               "strategy": data["strategy"]["name"], "secret": secret,
                               "guesses": len(moves), "moves": moves}, indent=2))
        return
    say(f"secret {secret} with {label if book else 'the installed ' + label} "
        f"({books.summary(data)})")
    say(playing.transcript(moves, data["game"]))


@click.command()
@game_options
@click.option("--seed", type=int, default=None,
              help="Seed of the random secret, to replay a game [default: a fresh random seed].")
@click.option("--secret", default=None, help="Use this secret instead of a random one.")
@click.option("--adversarial", is_flag=True,
              help="Choose no secret: answer each guess with its largest class of secrets.")
@click.option("--max-guesses", type=click.IntRange(min=1), default=None,
              help="End the game, lost, after this many guesses [default: the game's own limit, "
                   "6 for Wordle; none for the others].")
def challenge(game: str, symbols: str | None, length: int | None, repetition: bool | None,
              seed: int | None, secret: str | None, adversarial: bool,
              max_guesses: int | None) -> None:
    """You guess, treegen answers: a random secret, or the adversarial codemaker.

    The adversary answers with the feedback that leaves the most secrets possible (ties: the feedback
    first in the order 0A0B, 0A1B, ..., 1A0B, ...), always consistently, and shows a secret that fits
    every answer when the game ends. Invalid guesses are explained and do not count; guesses are
    read in any case (CRANE is crane). Commands: ? (the secrets that still fit; ? all), help,
    quit.

    \b
    Examples:
      treegen challenge --game mastermind --seed 7
      treegen challenge --game muertos-y-heridos --adversarial
    """
    from treegen.sessions.challenge import Codemaker, session
    maker = Codemaker(make_game(game, symbols, length, repetition), secret=secret, seed=seed,
                      adversarial=adversarial, max_guesses=max_guesses)
    session(maker, ask, say)


@click.command()
@game_options
@click.option("--after", default=None,
              help="The moves so far, GUESS=FEEDBACK,... (e.g. 0123=1A2B,4567=0A1B).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def partitions(game: str, symbols: str | None, length: int | None, repetition: bool | None,
               after: str | None, as_json: bool) -> None:
    """How each class of equivalent guesses splits the secrets still possible, by feedback.

    One row per class of guesses that a symmetry of the game maps onto each other; * marks each
    row's largest class (the one minimax looks at).

    \b
    Examples:
      treegen partitions --game muertos-y-heridos
      treegen partitions --game mastermind --after 1122=1A0B
    """
    from treegen.sessions.partitions import format_partitions, parse_history, partition_table
    rules = make_game(game, symbols, length, repetition)
    history = parse_history(rules, after) if after is not None else ()
    rows = partition_table(rules, history)
    if as_json:
        moves = [f"{rules.code_strings[g]}={rules.feedback_texts[f]}" for g, f in history]
        click.echo(json.dumps({"game": rules.to_dict(), "after": moves,
                               "secrets": sum(rows[0]["counts"].values()), "classes": rows}, indent=2))
        return
    say(format_partitions(rules, history, rows))


@click.command("next")
@game_options
@click.option("--after", default="", help="The moves so far, GUESS=ANSWER,... (crane=..Y..,"
              "moist=.G...; 1122=1A0B or 1122=BW).")
@click.option("--strategy", "-s", default=None, shell_complete=complete_strategies,
              help="Choose with this strategy [default: the exact optimum when few secrets "
                   "remain, else the game's best heuristic].")
@click.option("--pool", type=click.Choice(["all", "consistent"]), default=None,
              help="The strategy's pool of guesses.")
@click.option("--seed", type=int, default=None, help="The random strategy's seed.")
@click.option("--book", type=click.Path(dir_okay=False), default=None,
              help="Take the book's move while the moves are on its path (the game is the "
                   "book's) [default: the proven optimal book installed with treegen, for a "
                   "preset game].")
@click.option("--no-book", is_flag=True,
              help="Compute every move: take none from the installed optimal book.")
@click.option("--exact-below", type=click.IntRange(min=0), default=None,
              help="Solve exactly from this many secrets down [default: 300, or 100 in large "
                   "games with few answers such as Muertos y Heridos].")
@click.option("--max-depth", type=click.IntRange(min=1), default=None,
              help="Guesses in all, for the exact optimum [default: the game's limit, 6 for "
                   "Wordle].")
@click.option("--all", "every", is_flag=True, help="List every secret still possible.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def next_guess(game: str, symbols: str | None, length: int | None, repetition: bool | None,
               after: str, strategy: str | None, pool: str | None, seed: int | None,
               book: str | None, no_book: bool, exact_below: int | None, max_depth: int | None,
               every: bool, as_json: bool) -> None:
    """What to play next in a game in progress, and what is still possible.

    Prints the guess and where it comes from, how it splits the secrets still possible (each
    answer with its first few secrets) and those secrets. A preset game's guesses come from the
    proven optimal book installed with treegen while the moves are on its path. Where the exact
    optimum is known, it is given in all and a secret: "698 guesses in all for the 246 secrets,
    2.837 a secret". Guesses are read in any case; answers in any spelling play and challenge
    read (1A2B, BBW, 2B1W, GY..Y). --json names the game's word lists by their SHA-256 (its
    "identity") instead of listing them.

    \b
    Examples:
      treegen next --game mastermind --after 1122=1A0B
      treegen next --game wordle --after crane=..Y..,moist=.G...
      treegen next --game wordle --hard --after salet=.Y..G --strategy entropy
      treegen next --book books/wordle-optimal-all.json --after salet=..Y..
    """
    from treegen.sessions.advice import advise, format_advice
    rules = None if book is not None and not _game_chosen(symbols, length, repetition) else \
        make_game(game, symbols, length, repetition)
    data = books.open_book(book) if book is not None else None
    if book is not None and no_book:
        raise click.UsageError("--book and --no-book: give one of them")
    advice = advise(rules, after, strategy, pool, seed, data, exact_below, max_depth,
                    installed=not no_book)
    played = rules if rules is not None else Game.from_dict(data["game"]) if data else None
    assert played is not None
    if as_json:
        click.echo(json.dumps({"game": played.identity(),
                               "moves": [list(m) for m in advice.moves],
                               "guess": advice.guess, "source": advice.source,
                               "book": advice.book, "note": advice.note, "total": advice.total,
                               "partition": advice.partition,
                               "candidates": list(advice.candidates)}, indent=2))
        return
    say(format_advice(played, advice, every))


def _game_chosen(symbols: str | None, length: int | None, repetition: bool | None) -> bool:
    """Whether the command line names a game (beside --book, the book's is taken otherwise)."""
    from click.core import ParameterSource
    ctx = click.get_current_context()
    named = ctx.get_parameter_source("game") not in (None, ParameterSource.DEFAULT)
    meta = [ctx.meta.get(f"treegen.{key}") for key in ("answers", "guesses", "rule", "hard")]
    return named or any(v is not None for v in (symbols, length, repetition, *meta)) or \
        bool(ctx.meta.get("treegen.hints"))
