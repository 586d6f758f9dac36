"""treegen's own choice of a heuristic at a position, what the site's scripts are held to."""

from treegen.rules.scoring import scorer_for
from treegen.sessions.partitions import candidates
from treegen.strategies.base import State
from treegen.strategies.heuristics import HEURISTICS


def python_choice(game, moves, name, pool):
    """The guess of the heuristic ``name`` over the secrets that fit ``moves`` ((guess, answer
    key) pairs), and how many secrets fit."""
    scorer = scorer_for(game)
    history = tuple((game.index(asked), game.feedback_texts.index(key)) for asked, key in moves)
    cands = candidates(game, history, scorer)
    chosen = HEURISTICS[name](pool).choose(State(game, scorer, cands, history))
    return game.code_strings[chosen], len(cands)
