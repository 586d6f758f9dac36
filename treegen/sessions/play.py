"""Playing a book against a person, or against a known secret.

The session talks through two callables, ``ask(prompt) -> str`` (raising EOFError when input ends) and
``say(text)``, so the terminal command and the tests drive the same code. When an answer contradicts
the earlier ones, the whole game is rescored to point at the answer that was probably mistyped.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any, NamedTuple, cast

from treegen.book.format import answer_key
from treegen.book.reader import FileNode
from treegen.book.replay import game_codes
from treegen.data import BookData, GameData
from treegen.errors import BookError, CodeError, TreegenError
from treegen.notation import game_title
from treegen.player import NoSuchBranch, Player, PlayerError, feedback_keys, rule_of

Ask = Callable[[str], str]
Say = Callable[[str], None]

COMMANDS = {
    "undo": "take back your last answer",
    "restart": "start again from the first guess",
    "?": "the secrets still possible ('? all': every one; also: remaining)",
    "help": "this help",
    "quit": "stop playing (also: q, exit)",
}


QUIT = ("quit", "q", "exit")


def read(ask: Ask, prompt: str) -> tuple[str, str] | None:
    """The next non-empty line from the person, as (text as typed, lower-cased command); None when
    they quit (``quit``, ``q``, ``exit``, or the end of input)."""
    while True:
        try:
            text = ask(prompt).strip()
        except EOFError:
            return None
        if text.lower() in QUIT:
            return None
        if text:
            return text, text.lower()


#: The most secrets ``?`` shows; ``? all`` shows every one.
SHOWN = 60


def shared_command(command: str, possible: Callable[[], list[str]], words: tuple[str, str],
                   commands: dict[str, str], width: int, say: Say) -> bool:
    """Answer the commands every session has: ``?`` (the secrets left, the first screenful;
    ``? all`` every one) and ``help``. ``words``: what is said of one secret, and of several.
    True when ``command`` was one of them."""
    if command in ("?", "remaining", "? all", "?all"):
        codes = possible()
        count = len(codes)
        say(f"   {count} secret{'s' if count != 1 else ''} {words[count != 1]}:")
        shown = codes if command.endswith("all") else codes[:SHOWN]
        say(textwrap.fill(" ".join(shown), width=78, initial_indent="   ",
                          subsequent_indent="   ", break_on_hyphens=False))
        if len(shown) < count:
            say(f"   ... and {count - len(shown)} more (type '? all' to see every one)")
    elif command == "help":
        say("\n".join(f"   {name:<{width}} {what}" for name, what in commands.items()))
    else:
        return False
    return True


def make_player(book: BookData) -> Player:
    """A player for a checked book (one opened by :func:`treegen.book.open_book` is not walked
    again); a tree the player cannot use is a BookError."""
    try:
        return Player.of_checked(book) if isinstance(book["tree"], FileNode) else Player(book)
    except PlayerError as exc:
        raise BookError(str(exc)) from None


def autoplay(player: Player, secret: str) -> list[dict[str, Any]]:
    """Play ``secret`` from the start; one record per guess: guess, feedback, secrets possible before.

    Feedback comes from the plain scorer, not from the book, so a book that mishandles the secret
    fails here with a BookError instead of playing on.
    """
    player.reset()
    moves = []
    while not player.solved:
        guess, possible = str(player.guess), player.remaining()
        answer = answer_key(player.book["game"], guess, secret)
        try:
            player.answer(answer)
        except NoSuchBranch:
            raise BookError(f"the book has no branch for secret {secret}: {guess} scores {answer} "
                            f"after {_moves(player.history) or 'no answers'}") from None
        moves.append({"guess": guess, "feedback": answer, "remaining": possible})
    return moves


def transcript(moves: list[dict[str, Any]], game: GameData | None = None) -> str:
    """The moves of :func:`autoplay`, answers in the notation of ``game`` (its rule's own by
    default: the canonical keys)."""
    write = rule_of(game).format if game is not None else str
    answers = [write(m["feedback"]) for m in moves]
    width = len(str(max(m["remaining"] for m in moves)))
    spoken = max(len(a) for a in answers)
    lines = [f"{i}. {m['guess']}  {a:<{spoken}}  {m['remaining']:>{width}} possible"
             for i, (m, a) in enumerate(zip(moves, answers), 1)]
    lines.append(f"solved in {len(moves)} guess{'es' if len(moves) != 1 else ''}")
    return "\n".join(lines)


class Diagnosis(NamedTuple):
    """What the plain scorer says about a history: secrets that fit it, else the suspect answer."""

    fits: list[str]  # secrets of the game consistent with every answer
    suspect: int | None  # earliest answer whose change lets some secret fit (None: none does)
    options: list[str]  # the answers at ``suspect`` that some secret would give


def diagnose(game: GameData, history: list[tuple[str, str]]) -> Diagnosis:
    """Rescore every code of the game against ``history`` to find the answer that is probably wrong.

    Each code is scored against every guess once; a code that disagrees with exactly one answer
    would fit had that answer been different, so the earliest such answer is the suspect.
    """
    fits: list[str] = []
    alone: dict[int, list[str]] = {}  # answer index -> codes that disagree with that answer only
    for code in game_codes(game):
        wrong = -1
        for i, (guess, key) in enumerate(history):
            if answer_key(game, guess, code) != key:
                if wrong >= 0:
                    break
                wrong = i
        else:
            if wrong < 0:
                fits.append(code)
            else:
                alone.setdefault(wrong, []).append(code)
    if fits or not alone:
        return Diagnosis(fits, None, [])
    index = min(alone)
    guess = history[index][0]
    keys = feedback_keys(game)
    options = sorted({answer_key(game, guess, code) for code in alone[index]}, key=keys.index)
    return Diagnosis(fits, index, options)


def explain(diagnosis: Diagnosis, history: list[tuple[str, str]],
            game: GameData | None = None) -> str:
    """The diagnosis in words, for a person who just gave the last answer of ``history``, its
    answers in the notation of ``game`` (canonical without one)."""
    write = rule_of(game).format if game is not None else str
    if diagnosis.fits:
        return (f"the book does not cover secret {diagnosis.fits[0]}, which gives all these answers; "
                "it is not a complete treegen book")
    if diagnosis.suspect is None:
        return "more than one answer must be wrong: undo or restart"
    shown = [write(key) for key in diagnosis.options[:4]]
    options = " or ".join(shown) + (" or ..." if len(diagnosis.options) > len(shown) else "")
    if diagnosis.suspect == len(history) - 1:
        return f"check this answer: {options} would fit your earlier answers"
    guess, key = history[diagnosis.suspect]
    return (f"your answer {write(key)} to guess {diagnosis.suspect + 1} ({guess}) is probably wrong: with "
            f"{options} instead, some secret fits; undo back to it")




def session(player: Player, ask: Ask, say: Say) -> dict[str, Any]:
    """One interactive game: the person answers the book's guesses. Returns how it ended."""
    game = player.game
    kind = "repeats allowed" if game.get("repetition") else "no repeats"
    title = game_title(cast(GameData, game))
    if "answers" in game:
        say(f"Think of a secret: one of the {len(game['answers'])} answers of {title}.")
    else:
        say(f"Think of a secret: {player.length} symbols from {game.get('symbols')}, {kind}"
            f" ({title}).")
    say(rule_of(game).how.replace("*", "") + " Type help for commands.")
    player.reset()
    while not player.solved:
        number = len(player.history) + 1
        line = read(ask, f"{number}. {player.guess}  your answer")
        if line is None:
            left = player.remaining()
            say(f"bye: {left} secret{'s' if left != 1 else ''} were still possible")
            return {"solved": False, "guesses": len(player.history), "history": player.history}
        text, command = line
        if shared_command(command, player.possible, ("is still possible", "are still possible"),
                          COMMANDS, 8, say):
            continue
        if command == "undo":
            try:
                player.undo()
            except PlayerError as exc:
                say(f"   {exc}")
        elif command == "restart":
            player.reset()
        else:
            _answer(player, text, say)
    guesses = len(player.history)
    secret = player.history[-1][0]
    say(f"solved in {guesses} guess{'es' if guesses != 1 else ''}: your secret is {secret}")
    return {"solved": True, "guesses": guesses, "secret": secret, "history": player.history}


def _answer(player: Player, text: str, say: Say) -> None:
    try:
        key = player.parse(text)
        player.answer(key)
    except NoSuchBranch as exc:
        history = [*player.history, (str(player.guess), key)]
        say(f"   {exc}")
        try:
            game = cast(GameData, player.game)
            say(f"   {explain(diagnose(game, history), history, game)}")
        except TreegenError as problem:  # a game too large to rescore on this machine
            say(f"   (cannot look for the mistyped answer: {problem})")
    except PlayerError as exc:
        say(f"   {exc}")


def check_secret(game: GameData, secret: str) -> str:
    """The secret itself if it is a code of the book's game, else a CodeError saying why."""
    from treegen.rules.game import Game
    rules = Game.from_dict(game)
    code = rules.validate_code(secret)
    if rules.answers is not None and code not in rules.answers:
        raise CodeError(f"{code} is one of the guesses {rules.title} allows, but not one of its "
                        f"{rules.size:,} answers: the book never meets it as a secret")
    return code


def _moves(history: list[tuple[str, str]]) -> str:
    return ", ".join(f"{g}={f}" for g, f in history)
