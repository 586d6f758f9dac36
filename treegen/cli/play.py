"""The commands that play: a book against you, you against treegen, and the partition table."""

from __future__ import annotations

import json

import click

from treegen import book as books
from treegen.cli.support import ask, game_options, make_game, say


@click.command()
@click.argument("book", type=click.Path(dir_okay=False))
@click.option("--secret", default=None, help="Play this secret automatically and print the transcript.")
@click.option("--json", "as_json", is_flag=True, help="With --secret: print the transcript as JSON.")
def play(book: str, secret: str | None, as_json: bool) -> None:
    """Play from a book: think of a secret and answer its guesses.

    Answers are aAbB (a right in place, b right elsewhere): 1A2B, 12, "1 2" or 1,2. Commands: undo,
    restart, ? (secrets still possible), help, quit.

    \b
    Examples:
      treegen play mastermind-minimax-all.json
      treegen play mastermind-minimax-all.json --secret 3456
      treegen play mastermind-minimax-all.json --secret 3456 --json
    """
    from treegen.sessions import play as playing
    if as_json and secret is None:
        raise click.UsageError("--json needs --secret")
    data = books.load(book)
    player = playing.make_player(data)
    if secret is None:
        playing.session(player, ask, say)
        return
    secret = playing.check_secret(data["game"], secret)
    moves = playing.autoplay(player, secret)
    if as_json:
        click.echo(json.dumps({"book": book, "game": data["game"]["name"],
                               "strategy": data["strategy"]["name"], "secret": secret,
                               "guesses": len(moves), "moves": moves}, indent=2))
        return
    say(f"secret {secret} with {book} ({books.summary(data)})")
    say(playing.transcript(moves))


@click.command()
@game_options
@click.option("--seed", type=int, default=None,
              help="Seed of the random secret, to replay a game [default: a fresh random seed].")
@click.option("--secret", default=None, help="Use this secret instead of a random one.")
@click.option("--adversarial", is_flag=True,
              help="Choose no secret: answer each guess with its largest class of secrets.")
def challenge(game: str, symbols: str | None, length: int | None, repetition: bool | None,
              seed: int | None, secret: str | None, adversarial: bool) -> None:
    """You guess, treegen answers: a random secret, or the adversarial codemaker.

    The adversary answers with the feedback that leaves the most secrets possible (ties: the feedback
    first in the order 0A0B, 0A1B, ..., 1A0B, ...), always consistently, and shows a secret that fits
    every answer when the game ends. Invalid guesses are explained and do not count.

    \b
    Examples:
      treegen challenge --game mastermind --seed 7
      treegen challenge --game muertos-y-heridos --adversarial
    """
    from treegen.sessions.challenge import Codemaker, session
    maker = Codemaker(make_game(game, symbols, length, repetition), secret=secret, seed=seed,
                      adversarial=adversarial)
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
