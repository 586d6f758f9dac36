"""The computer as codemaker: a person guesses, treegen answers.

Two codemakers. The honest one picks a secret (reproducibly from a seed) and scores guesses against
it. The adversarial one, the evil codemaker, never picks: after each guess it splits the secrets still
consistent with its answers by feedback and gives the answer of the largest class, so each answer
gives away as little as possible; it stays consistent, so at any point some secret fits every answer.

Tie rule of the adversary, fixed so games are reproducible: among classes of equal largest size it
answers the feedback first in the game's feedback order (fewest A, then fewest B). The all-correct
feedback comes last in that order, so the adversary concedes only when nothing else is left.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from treegen.errors import CodeError, GameError
from treegen.player import brief
from treegen.rules.game import Game
from treegen.rules.scoring import scorer_for
from treegen.sessions.play import Ask, Say, read, shared_command

COMMANDS = {
    "?": "the secrets that still fit my answers ('? all': every one; also: remaining)",
    "help": "this help",
    "quit": "give up and see a secret (also: q, exit)",
}


class Codemaker:
    """Answers guesses and keeps the secrets consistent with every answer given so far."""

    def __init__(self, game: Game | str, secret: str | None = None, seed: int | None = None,
                 adversarial: bool = False, max_guesses: int | None = None):
        if adversarial and (secret is not None or seed is not None):
            raise CodeError("the adversarial codemaker chooses no secret: give no secret or seed")
        if secret is not None and seed is not None:
            raise CodeError("give a secret or a seed, not both")
        if isinstance(game, str):
            game = Game.preset(game)
        if not isinstance(game, Game):
            raise GameError(f"a codemaker plays a Game or a preset's name, not {brief(game)}")
        if max_guesses is not None and (type(max_guesses) is not int or max_guesses < 1):
            raise GameError(f"max_guesses must be a positive whole number, not {brief(max_guesses)}")
        self.game = game
        #: The guesses the person has (the game's own limit, Wordle's six, unless given); None: no limit.
        self.max_guesses = game.guess_limit if max_guesses is None else max_guesses
        self.adversarial = adversarial
        self.seed = seed
        self.secret: int | None = None
        if secret is not None:
            self.secret = game.index(secret)
        elif not adversarial:
            if self.seed is None:
                self.seed = random.SystemRandom().randrange(2 ** 32)
            self.secret = random.Random(self.seed).randrange(game.size)
        self.scorer = scorer_for(game)
        self.solved_index = game.solved_index
        self.candidates = np.arange(game.size)
        self.moves: list[tuple[str, str]] = []

    def __repr__(self) -> str:
        kind = "adversarial codemaker" if self.adversarial else "codemaker"
        left = self.remaining()
        return (f"<Codemaker {self.game.name}: {kind}, {len(self.moves)} guesses answered, "
                f"{left} secret{'s fit' if left != 1 else ' fits'}>")

    @property
    def solved(self) -> bool:
        return bool(self.moves) and self.moves[-1][1] == self.game.feedback_texts[self.solved_index]

    @property
    def done(self) -> bool:
        """Solved, or out of guesses."""
        return self.solved or (self.max_guesses is not None and len(self.moves) >= self.max_guesses)

    def answer(self, guess: str) -> str:
        """The feedback to ``guess``, its canonical key (``1A2B``; ``game.notation`` writes it as
        the game's players do); an invalid code, or in hard mode a guess that
        does not fit every answer so far, is a CodeError, not a move."""
        if self.done:
            raise CodeError("the game is over: " + ("solved" if self.solved else
                                                    f"all {self.max_guesses} guesses used"))
        index = self.game.index(guess)
        if self.game.hard:
            self._check_fits(index)
        row = self.scorer.block(np.array([index]), self.candidates)[0]
        if self.adversarial:
            counts = np.bincount(row, minlength=len(self.game.feedback_texts))
            fb = int(np.argmax(counts))  # first of the largest classes in feedback order
        else:
            fb = int(self.scorer.block(np.array([index]), np.array([self.secret]))[0, 0])
        self.candidates = self.candidates[row == fb]
        text = self.game.feedback_texts[fb]
        self.moves.append((self.game.code_strings[index], text))
        return text

    def _check_fits(self, index: int) -> None:
        """Hard mode: the guess, were it the secret, must give every answer given so far (or, by
        Wordle's own rule, keep their hints)."""
        code, mode, rule = self.game.code_strings[index], self.game.hard_mode, self.game.notation
        for move, (guess, answer) in enumerate(self.moves, 1):
            if mode is None or mode.allows(rule, guess, answer, code):
                continue
            raise CodeError(f"hard mode: {code} {mode.breaks} guess {move}, {guess} = "
                            f"{rule.format(answer)} ({mode.describe}; {code} would give "
                            f"{rule.format(rule.score(guess, code))})")

    def remaining(self) -> int:
        return len(self.candidates)

    def possible(self) -> list[str]:
        """The secrets that fit every answer so far, in the game's order."""
        names = self.game.code_strings
        return [names[i] for i in self.candidates]

    def reveal(self) -> str:
        """The secret, or for the adversary the first secret consistent with every answer."""
        index = self.secret if self.secret is not None else int(self.candidates[0])
        return self.game.code_strings[index]




def session(maker: Codemaker, ask: Ask, say: Say) -> dict[str, Any]:
    """One interactive game: the person guesses until all-correct or quit. Returns how it ended."""
    game = maker.game
    kind = "repeats allowed" if game.repetition else "no repeats"
    if maker.adversarial:
        say("I answer so as to give away as little as possible, always consistently.")
    secret = f"one of the {game.size} answers of {game.title}" if game.listed else \
        f"{game.length} symbols from {game.symbols}, {kind} ({game.title})"
    limit = f" You have {maker.max_guesses} guesses." if maker.max_guesses is not None else ""
    say(f"The secret: {secret}. Type a guess; I answer {game.notation.short}.{limit} Type "
        "help for commands.")
    while not maker.done:
        number = len(maker.moves) + 1
        line = read(ask, f"guess {number}")
        if line is None:
            say(f"{_secret_words(maker)} {maker.reveal()}{_seed_words(maker)}")
            return _outcome(maker, solved=False)
        text, command = line
        if not shared_command(command, maker.possible, ("fits my answers", "fit my answers"),
                              COMMANDS, 6, say):
            try:
                say(f"   {game.notation.format(maker.answer(text))}")
            except CodeError as exc:
                say(f"   {exc} (not counted)")
    count = len(maker.moves)
    if not maker.solved:
        say(f"out of guesses ({count}): {_secret_words(maker)} {maker.reveal()}{_seed_words(maker)}")
        return _outcome(maker, solved=False)
    say(f"solved in {count} guess{'es' if count != 1 else ''}: the secret is {maker.reveal()}"
        f"{_seed_words(maker)}")
    return _outcome(maker, solved=True)


def _secret_words(maker: Codemaker) -> str:
    if maker.secret is None:
        left = maker.remaining()
        return f"a secret consistent with every answer ({left} fit{'s' if left == 1 else ''}):"
    return "the secret was"


def _seed_words(maker: Codemaker) -> str:
    return f" (seed {maker.seed})" if maker.seed is not None else ""


def _outcome(maker: Codemaker, solved: bool) -> dict[str, Any]:
    return {"solved": solved, "guesses": len(maker.moves), "secret": maker.reveal(),
            "moves": list(maker.moves)}
