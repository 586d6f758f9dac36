"""What to play next in a game in progress: the secrets its answers leave, and a guess for them.

The guess comes from a book while the moves are on its path (by default the proven optimal book
treegen comes with, for the preset games: :mod:`treegen.presets`), else it is computed here: the exact
optimum from this position when few secrets remain (solved in about a second; Muertos y Heridos
takes longer), else the game's best heuristic, or the strategy asked for. Nothing is computed
that the position does not need: no book, no search of the game from its start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from treegen.data import BookData, History
from treegen.errors import CodeError, GameError, StrategyError
from treegen.notation import split_moves
from treegen.player import brief
from treegen.rules.game import Game
from treegen.rules.scoring import Scorer, scorer_for
from treegen.sessions.partitions import candidates
from treegen.strategies.base import State, chosen

#: From this many secrets down, the default is the exact optimum from the position: more in
#: games whose search is quick (small, or with many answers to a guess), fewer in large ones
#: with few answers, such as Muertos y Heridos (see benchmarks/next_guess.py).
EXACT_BELOW, EXACT_BELOW_LARGE = 300, 100
#: Pairs of (guess, secret) from which a game with few answers is large.
LARGE_PAIRS = 30_000_000


def exact_from(game: Game) -> int:
    """The most secrets solved exactly by default."""
    large = game.guess_count * game.size > LARGE_PAIRS and game.branching <= 20
    return EXACT_BELOW_LARGE if large else EXACT_BELOW
#: The heuristic whose book has the smallest total, per preset (books/: e.g. Mastermind's parts
#: book totals 5,668, entropy's 5,722); entropy elsewhere.
BEST_HEURISTIC = {"mastermind": "parts", "bulls-and-cows": "entropy",
                  "muertos-y-heridos": "entropy", "wordle": "parts"}

Moves = str | Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Advice:
    """The next guess of a game in progress, and what it rests on."""

    guess: str
    #: Where the guess comes from: ``book``, ``only`` (one secret left), ``optimal`` or the name
    #: of the strategy that chose it.
    source: str
    #: The moves so far, written canonically.
    moves: tuple[tuple[str, str], ...]
    #: The secrets that fit every answer, in the game's order.
    candidates: tuple[str, ...]
    #: How the guess splits them: answer -> how many, in the game's order of answers.
    partition: dict[str, int] = field(default_factory=dict)
    #: With ``optimal``, or a move of the installed optimal book: the fewest guesses that find
    #: every candidate from here, this one included, in all (not each).
    total: int | None = None
    #: Why this source: a line for people.
    note: str = ""
    #: The installed book the guess comes from, by name (see :mod:`treegen.presets`).
    book: str | None = None


def advise(game: Game | str | None = None, moves: Moves = (), strategy: str | None = None,
           pool: str | None = None, seed: int | None = None, book: Any = None,
           exact_below: int | None = None, max_depth: int | None = None,
           installed: bool = True) -> Advice:
    """The next guess after ``moves`` (``"crane=..Y..,moist=.G..."`` or (guess, answer) pairs):
    the book's while they are on its path (``book``: a Book, its data or a file; by default, with
    ``installed`` and no strategy but optimal, the proven optimal book treegen comes with for a
    preset game, when it keeps to the guesses allowed), else the strategy's, else the exact
    optimum for ``exact_below`` secrets or fewer, else the game's best heuristic. ``game``: a Game
    or a preset's name (by default the book's)."""
    data = _book_data(book)
    if game is None:
        if data is None:
            raise GameError("advise needs a game or a book")
        game = Game.from_dict(data["game"])
    elif isinstance(game, str):
        game = Game.preset(game)
    if not isinstance(game, Game):
        raise GameError(f"game must be a Game or a preset's name, not {brief(game)}")
    if exact_below is None:
        exact_below = exact_from(game)
    if type(exact_below) is not int or exact_below < 0:
        raise GameError(f"exact_below must be a whole number, not {brief(exact_below)}")
    if isinstance(strategy, str):
        from treegen.registry import builtin_name
        strategy = builtin_name(strategy)  # Minimax is minimax
    history = _history(game, moves)
    written = tuple((game.code_strings[g], game.feedback_texts[f]) for g, f in history)
    scorer = scorer_for(game)
    cands = candidates(game, history, scorer)
    names = game.code_strings
    possible = tuple(names[i] for i in cands)
    left = _depth_left(game, max_depth, len(history))
    if left is not None and left <= 0:
        found = f"the secret was {possible[0]}" if len(possible) == 1 else \
            f"{len(possible)} secrets were still possible"
        raise CodeError(f"the game is lost: {game.title} allows {left + len(history)} guesses, "
                        f"all played without finding the secret ({found})")
    shipped = None
    if data is None and installed and strategy in (None, "optimal"):
        data, shipped = _installed(game, max_depth)
    from_book = _book_move(game, data, written) if data is not None else None
    total = None
    if from_book is not None:
        guess, source, note = game.index(from_book), "book", "the book's move"
        if shipped is not None and data is not None:
            total = int(data["stats"]["total"]) if not history else \
                _book_total(game, scorer, data, written, cands)
            note = (f"the move of the proven optimal book that comes with treegen ({shipped}, "
                    f"certified); the optimum from here: {per_secret(total, len(cands))}")
    elif len(cands) == 1:
        guess, source, note = int(cands[0]), "only", "the one secret left"
    elif strategy == "optimal" or (strategy is None and len(cands) <= exact_below):
        total, guess, short = _exact(game, cands, history, left)
        source = "optimal"
        note = f"the exact optimum from here: {per_secret(total, len(cands))}{short}"
    else:
        name = strategy or BEST_HEURISTIC.get(game.name, "entropy")
        guess = _heuristic(game, scorer, cands, history, name, pool, seed)
        source = name
        note = f"strategy {name}" if strategy else \
            f"{name}, the best heuristic for {game.title} ({len(cands)} secrets is too many to " \
            f"solve exactly at once; the optimum is computed from {exact_below} down)"
    followed = shipped is None or (written and written[0][0] == data["tree"]["guess"]) \
        if data is not None else False  # an installed book's path is news only once taken
    if data is not None and source not in ("book", "only") and followed:
        note += f"; the moves left {'the installed optimal' if shipped else 'the'} book's path"
    counts = scorer.counts(np.array([guess]), cands)[0]
    partition = {game.feedback_texts[i]: int(c) for i, c in enumerate(counts) if c}
    return Advice(names[guess], source, written, possible, partition, total, note,
                  shipped if source == "book" else None)


def per_secret(total: int, secrets: int) -> str:
    """A total of guesses as people read it: in all, and on average a secret."""
    return (f"{total} guess{'es' if total != 1 else ''} in all for the {secrets} "
            f"secret{'s' if secrets != 1 else ''}, {total / secrets:.3f} a secret")


def _installed(game: Game, max_depth: int | None) -> tuple[BookData | None, str | None]:
    """The installed book of ``game`` and its name, when it is optimal within the guesses
    allowed (the game's limit, or ``max_depth``): a book of that very limit, or one without a
    limit that never needs more; else (None, None)."""
    from treegen import presets
    name = presets.name_for(game)
    if name is None:
        return None, None
    data = presets.book_data(game)
    if data is None:
        return None, None
    limit = max_depth if max_depth is not None else game.guess_limit
    own = data["strategy"].get("max_depth")
    if own == limit or (own is None and (limit is None or data["stats"]["max"] <= limit)):
        return data, name
    return None, None


def _book_total(game: Game, scorer: Scorer, book: Mapping[str, Any],
                moves: tuple[tuple[str, str], ...], cands: np.ndarray) -> int:
    """The guesses the book spends from the position on every secret still possible, in all:
    each secret pays one at every node it reaches."""
    node = book["tree"]
    for _, answer in moves:
        node = node["next"][answer]
    answers = {text: i for i, text in enumerate(game.feedback_texts)}
    total, todo = 0, [(node, cands)]
    while todo:
        at, here = todo.pop()
        total += len(here)
        scores = scorer.block(np.array([game.index(at["guess"])]), here)[0]
        for answer, child in at["next"].items():
            todo.append((child, here[scores == answers[answer]]))
    return total


def _book_data(book: Any) -> BookData | None:
    """A book given as a Book, its data, or a file's path."""
    if book is None:
        return None
    import os

    from treegen import book as books
    from treegen.book.reader import FileNode
    if isinstance(book, (str, os.PathLike)):
        return books.open_book(book)  # its path is read from the file, not the whole tree
    data = getattr(book, "data", book)
    if not isinstance(data, Mapping):
        raise GameError(f"book must be a Book, its data or a file's path, not {brief(book)}")
    if isinstance(data.get("tree"), FileNode):  # opened by open_book, which checked it whole
        return data  # type: ignore[return-value]
    problem = books.check(data)
    if problem:
        raise GameError(f"not a usable book: {problem}")
    return data  # type: ignore[return-value]


def _history(game: Game, moves: Moves) -> History:
    """The moves as (guess index, answer index) pairs, each checked against the game."""
    if isinstance(moves, str):
        pairs = split_moves(moves)
    elif isinstance(moves, Sequence) and all(
            isinstance(m, (tuple, list)) and len(m) == 2 and all(isinstance(x, str) for x in m)
            for m in moves):
        pairs = [(str(m[0]), str(m[1])) for m in moves]
    else:
        raise CodeError(f"moves must be GUESS=ANSWER,... or (guess, answer) pairs, not "
                        f"{brief(moves)}")
    history = tuple((game.index(guess), game.feedback_texts.index(game.parse_answer(answer)))
                    for guess, answer in pairs)
    for k, (_, answer) in enumerate(history):
        if answer == game.solved_index:
            raise CodeError(f"move {k + 1} found the secret: the game is over")
    if game.hard:
        from treegen.rules.hard_mode import allowed_guesses
        for k, (guess, _) in enumerate(history):
            if not np.isin(guess, allowed_guesses(game, history[:k])):
                raise CodeError(f"hard mode: guess {k + 1}, {game.code_strings[guess]}, does not "
                                "fit the answers before it")
    return history


def _depth_left(game: Game, max_depth: int | None, played: int) -> int | None:
    limit = max_depth if max_depth is not None else game.guess_limit
    if limit is None:
        return None
    if type(limit) is not int or limit < 1:
        raise GameError(f"max_depth must be a positive whole number, not {brief(limit)}")
    if limit >= game.size:  # as many guesses as secrets: no limit to an optimal tree
        return None
    return limit - played


def _book_move(game: Game, book: Mapping[str, Any], moves: tuple[tuple[str, str], ...]
               ) -> str | None:
    """The book's guess after ``moves``, or None once they leave its path."""
    if Game.from_dict(book["game"]).identity() != game.identity():
        raise GameError(f"the book is of another game than {game.title}")
    node = book["tree"]
    for guess, answer in moves:
        child = node["next"].get(answer) if node["guess"] == guess else None
        if child is None:
            return None
        node = child
    return str(node["guess"])


def _exact(game: Game, cands: np.ndarray, history: History, left: int | None
           ) -> tuple[int, int, str]:
    """(total, guess, a note): the optimum within the guesses left, or, when no tree is sure to
    find every secret in them, the optimum without a limit (the best a player can still do)."""
    from treegen.search.bounds import INFEASIBLE, UNLIMITED
    from treegen.search.exact import Search
    note = ""
    if left is not None:
        search = Search(game, len(history) + left)
        cost, guess = search.best(cands.astype(np.int64), history, left)
        if cost < INFEASIBLE:
            return cost, guess, note
        note = f"; no strategy is sure to find it in the {left} guess{'es' if left != 1 else ''} left"
    cost, guess = Search(game, None).best(cands.astype(np.int64), history, UNLIMITED)
    return cost, guess, note


def _heuristic(game: Game, scorer: Scorer, cands: np.ndarray, history: History, name: str,
               pool: str | None, seed: int | None) -> int:
    from treegen.registry import make_strategy, searches
    if searches(name):
        raise StrategyError(f"strategy {name} is a search: ask for optimal")
    strategy = make_strategy(name, pool, seed)
    strategy.start(game, None)
    return chosen(strategy, State(game, scorer, cands, history, strategy.seed or 0))


#: Candidates shown without ``--all``.
SHOWN = 60


def format_advice(game: Game, advice: Advice, every: bool = False) -> str:
    """The advice for a terminal, answers in the game's notation: the position, the guess and
    why, its partition table (each class with its first secrets), and the candidates (the first
    screenful, or ``every`` one)."""
    import textwrap
    count, write = len(advice.candidates), game.notation.format
    where = "at the start" if not advice.moves else \
        "after " + ", ".join(f"{g}={write(a)}" for g, a in advice.moves)
    lines = [f"{game.title} {where}: {count} secret{'s' if count != 1 else ''} still possible",
             f"next guess: {advice.guess}  ({advice.note})"]
    classes: dict[str, list[str]] = {key: [] for key in advice.partition}
    texts = game.feedback_texts
    if len(classes) > 1 or game.solved_index != texts.index(next(iter(classes))):
        guess = game.index(advice.guess)
        scorer = scorer_for(game)
        cands = np.array([game.index(code) for code in advice.candidates])
        for code, answer in zip(advice.candidates, scorer.block(np.array([guess]), cands)[0]):
            members = classes[texts[answer]]
            if len(members) < 6:
                members.append(code)
        width = max(len(write(key)) for key in classes)
        lines.append(f"how {advice.guess} splits them ({len(classes)} answers, largest "
                     f"{max(advice.partition.values())}):")
        for key, members in classes.items():
            size = advice.partition[key]
            more = " ..." if size > len(members) else ""
            lines.append(f"  {write(key):<{width}}  {size:>6}  {' '.join(members)}{more}")
    shown = advice.candidates if every else advice.candidates[:SHOWN]
    lines.append("still possible:")
    lines.append(textwrap.fill(" ".join(shown), width=78, initial_indent="  ",
                               subsequent_indent="  ", break_on_hyphens=False))
    if len(shown) < count:
        lines.append(f"  ... and {count - len(shown)} more (--all shows every one)")
    return "\n".join(lines)
