"""What books claim of their optimality, and the certificates that prove it: written by the exact
search (:mod:`treegen.search.certify`), checked by the independent checker
(:mod:`treegen.certificate`, through :mod:`treegen.files.checked`), and compared with a book's
claims."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from treegen import settings
from treegen.book.graft import graft
from treegen.certificate import Proven
from treegen.data import BookData
from treegen.errors import CertificateError, GraftError
from treegen.files.atomic import write_atomic
from treegen.files.checked import check_certificate
from treegen.notation import game_title
from treegen.rules.game import Game
from treegen.rules.symmetry import stabilizer
from treegen.search.first_guesses import FirstGuess, first_guesses, game_lower_bound
from treegen.search.records import Record

__all__ = ["Proven", "book_claim", "book_claims", "certify", "check_certificate", "compose",
           "graft_records", "judge", "opening_bounds"]


def book_claim(book: BookData) -> tuple[int, str | None] | None:
    """The bound a book claims first, and the first guess it is scoped to (None: the game's): an
    optimal book its total, a bounded search's book its lower bound, else its bound after the first
    guess it was held to; None when it claims none (:func:`book_claims` lists them all)."""
    claims = book_claims(book)
    return claims[0] if claims else None


def book_claims(book: BookData) -> list[tuple[int, str | None]]:
    """Every bound a book claims with its scope: the game's (None) first, then the trees opening
    with its forced first guess. A grafted book of a forced opening claims both."""
    strategy, total = book["strategy"], book["stats"]["total"]
    claims: list[tuple[int, str | None]] = []
    if strategy.get("optimal") is True:
        claims.append((total, None))
    elif strategy.get("lower_bound") is not None:
        claims.append((strategy["lower_bound"], None))
    after = strategy.get("after")
    if after is not None:
        claims.append(((total if after["optimal"] else after["lower_bound"]), after["first"]))
    return claims


def certify(book: BookData, path: str | os.PathLike[str], memory: int | None = None,
            status: Callable[[Any], None] | None = None) -> int:
    """Write the certificate of what ``book`` claims to ``path`` (by an exact search that fails to
    beat the claim); returns its size in bytes. One that would pass ``TREEGEN_SPLIT_BYTES`` names
    certificates of classes just below its root, in the folder named after it, as premises
    (see :func:`treegen.search.certify.write_certificate`). A CertificateError when the book
    claims nothing."""
    from treegen.search.certify import Claim, write_certificate
    claimed = book_claim(book)
    if claimed is None:
        raise CertificateError("the book claims no bound to certify (a book of the optimal "
                               "strategy does)")
    bound, first = claimed
    game = Game.from_dict(book["game"])
    depth = book["strategy"].get("max_depth")
    claim = Claim(game, bound, (), None if first is None else game.index(first), depth)
    return write_certificate(claim, path, memory, status, settings.split_bytes())


def judge(book: BookData, proven: Proven | Sequence[Proven]) -> tuple[list[str], list[str]]:
    """What checked certificates prove of a verified book (its stats are its tree's: lines to
    print) and what is wrong: a certificate of another game or claim, one that covers fewer trees
    than the book is one of (a depth-d claim makes optimal only a book that never needs more than
    d guesses), one that proves more than the book's total, or a claim of the book that none of
    them proves (a book of a forced opening may claim a bound for the game and another for the
    trees after its first guess: each needs its certificate)."""
    every = [proven] if isinstance(proven, Proven) else list(proven)
    lines: list[str] = []
    problems: list[str] = []
    for one in every:
        said, wrong = _judge_one(book, one)
        lines += said
        problems += wrong
    if problems:
        return lines, problems
    for bound, first in book_claims(book):
        scoped = [one for one in every if one.first is None or one.first == first]
        if any(one.bound >= bound for one in scoped):
            continue
        what = "the game" if first is None else f"the trees opening with {first}"
        if scoped:
            best = max(one.bound for one in scoped)
            problems.append(f"the book claims {bound} for {what}; the certificate proves {best}")
        else:
            problems.append(f"the book claims {bound} for {what}; no certificate given proves it")
    return lines, problems


def _judge_one(book: BookData, proven: Proven) -> tuple[list[str], list[str]]:
    """What one certificate proves of a book, or why it proves nothing of it."""
    title, total = game_title(book["game"]), book["stats"]["total"]
    strategy = book["strategy"]
    problems = []
    if _rules(proven.game) != _rules(book["game"]):
        problems.append("the certificate is of another game than the book")
    if not covers_depth(proven.max_depth, strategy.get("max_depth")):
        limit = strategy.get("max_depth")
        problems.append(f"the certificate counts only the trees of at most {proven.max_depth} "
                        f"guesses, the book's may take " + ("any number" if limit is None else
                                                            f"{limit}"))
    elif proven.max_depth is not None and book["stats"]["max"] > proven.max_depth:
        problems.append(f"the certificate counts only the trees of at most {proven.max_depth} "
                        f"guesses; this book needs {book['stats']['max']}")
    if proven.history:
        problems.append("the certificate is about the secrets left after "
                        + ", ".join(f"{g}={a}" for g, a in proven.history) + ", not the book's game")
    if proven.first is not None and proven.first != strategy["first"]:
        problems.append(f"the certificate is about trees opening with {proven.first}, the book "
                        f"opens with {strategy['first']}")
    if problems:
        return [], problems
    scope = "" if proven.first is None else f" opening with {proven.first}"
    if proven.max_depth is not None:
        scope += f" within {proven.max_depth} guesses"
    verdict = "optimal" if proven.bound == total else \
        f"at most {total - proven.bound} above the optimum"
    if proven.first is not None:
        verdict += f" after {proven.first}"
    if proven.bound > total:
        problems.append(f"the certificate proves {proven.bound}, above the book's own total {total}")
    return [f"{title}: no tree{scope} needs fewer than {proven.bound} guesses; this book has "
            f"{total}: {verdict}"], problems


def covers_depth(proven: int | None, book: int | None) -> bool:
    """Whether a bound proven for trees of at most ``proven`` guesses (None: any) bounds a book's
    trees of at most ``book``: the fewer guesses allowed, the fewer the trees, so a bound over
    more trees holds for fewer (a game's optimum bounds its optimum within 6 guesses)."""
    if proven is None:
        return True
    return type(book) is int and type(proven) is int and book <= proven


def _rules(game: Mapping[str, Any]) -> dict[str, Any]:
    """A game without its name: two names of the same rules are one game."""
    return {key: value for key, value in game.items() if key != "name"}

# -- records of a game's openings -----------------------------------------------------------------

def graft_records(book: BookData, records: Sequence[Record]) -> BookData:
    """``book`` with the solved classes of the record of its first guess grafted in, claiming the
    bounds the records of every first guess prove (:func:`opening_bounds`)."""
    first = book["tree"]["guess"]
    for record in records:
        if record["game"] != dict(book["game"]):
            raise GraftError(f"the record of {record['first']} is of another game than the book")
    opening = [record for record in records if record["first"] == first]
    if len(opening) != 1:
        given = ", ".join(record["first"] for record in records)
        raise GraftError(f"the book opens with {first}: give exactly one record of {first} "
                         f"(records given: {given})")
    bounds = opening_bounds(book, records)
    return graft(book, opening[0], game_lower_bound(bounds), opening[0]["lower_bound"])


def opening_bounds(book: BookData, records: Sequence[Record],
                   memory: int | None = None) -> list[FirstGuess]:
    """Every first guess of the book's game up to symmetry with what is proven of it: its
    record's certified bound, or its two-step floor (never the book's own claims, which are its
    search's word). A record of another game, depth limit or rule is refused."""
    game = Game.from_dict(dict(book["game"]))
    for record in records:
        if record["game"] != dict(book["game"]):
            raise GraftError(f"the record of {record['first']} is of another game than the book")
    return first_guesses(game, records, book["strategy"].get("max_depth"), memory)


def compose(book: BookData, records: Sequence[Record], path: str | os.PathLike[str],
            memory: int | None = None) -> tuple[int, int]:
    """Write the certificate of the game's lower bound that the records' certificates prove
    together (each class certificate a premise, every other class its floor); returns the bound
    and the file's size."""
    from treegen.search.certificate_file import Claim
    from treegen.search.certificate_file import compose as certificate_of
    game = Game.from_dict(dict(book["game"]))
    depth = book["strategy"].get("max_depth")
    bounds = first_guesses(game, records, depth, memory)
    folder = os.path.dirname(os.path.abspath(path))
    entries: list[tuple[int, int, int]] = []
    premises: list[dict[str, object]] = []
    texts = game.feedback_texts
    for bound in bounds:
        record = bound.record
        if record is None:  # no record: every class of the opening counts its floor
            continue
        opening = record["first"]
        guess = game.index(opening)
        for entry in record["classes"]:
            feedback = texts.index(entry["feedback"])
            if entry.get("certified"):  # the other classes count their floors
                where = os.path.join(record["folder"], *entry["certificate"]["file"].split("/"))
                relative = os.path.relpath(where, folder).replace(os.sep, "/")
                if relative.startswith("../"):
                    raise CertificateError(f"write the certificate in the folder of the records "
                                           f"(or one above it), not {folder}: it names theirs")
                entries.append((guess, feedback, -1 - len(premises)))
                premises.append({"file": relative,
                                 "sha256": entry["certificate"]["sha256"],
                                 "history": [[opening, entry["feedback"]]],
                                 "bound": entry["cost"] if "cost" in entry else entry["at_least"]})
    lower = game_lower_bound(bounds)
    data = certificate_of(Claim(game, lower, (), None, depth), entries, premises,
                          stabilizer(game, ()))
    write_atomic(path, data)
    return lower, len(data)
