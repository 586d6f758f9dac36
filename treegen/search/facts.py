"""Facts: what a proof search has settled about the classes below the set it proves a bound of,
kept as it goes so that a search stopped on one machine goes on on another without searching them
again.

A fact says that the secrets left after a few more steps (guesses and their answers) need at least
``bound`` guesses; ``exact`` adds that the search found a tree of that cost. Each is proven by a
certificate of its own, cut from the search's tape once the class is settled (a class whose search
wrote fewer than ``words`` words of proof is not worth a file: it is searched again; counted in
words, not seconds, the facts a piece keeps are the same on every machine). A later search of the
same set takes each fact in place of searching its class, and the certificate it cuts names the
fact's certificate as a premise (docs/certificate-format.md). So a fact needs no machine's key: one
that lies makes the certificate that uses it fail its check, and is never believed.

Facts nest as the search's top levels do: a class searched level by level (too large for one
compiled call) keeps facts of its own classes, so that a piece killed inside it loses only the
class then searched. Only a certificate's first claim may name a premise, so a class whose search
took up facts becomes a fact itself, whatever its size: its certificate names them, and the one
above names it (each certificate's premises lie in the folder named after it).

The same naming keeps certificates small enough to commit: a class's certificate that would pass
``split`` bytes names the facts its own search kept as premises too, instead of holding their
proofs, and those facts stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from treegen.data import History
from treegen.rules.game import Game
from treegen.search.certificate_file import Claim, certificate_bytes
from treegen.search.proof_log import ProofLog
from treegen.search.tape import CLAIM_WORDS, ENTRY_WORDS

__all__ = ["FACT_FILE", "Fact", "Facts", "Reference", "fact_file", "fact_place", "facts_folder"]

#: Where a fact's certificate is: its file, relative to the folder of the certificate that names
#: it, and its SHA-256.
Reference = dict[str, str]


@dataclass(frozen=True)
class Fact:
    """The secrets left after ``history`` need at least ``bound`` guesses (exactly that many when
    ``exact``: a tree of that cost was found)."""

    history: History
    bound: int
    exact: bool


def facts_folder(certificate: str) -> str:
    """The name of the folder, beside a certificate, of the facts it names as premises: the
    certificate's own name without its ``.cert``, so that the two are found together."""
    return certificate[:-len(".cert")] if certificate.endswith(".cert") else certificate + ".facts"


#: The file of a fact's certificate as :func:`fact_place` names it (and, without ``.cert``,
#: the folder of the facts below it).
FACT_FILE = re.compile(r"[0-9]+-[0-9]+\.cert")


def fact_place(below: str, steps: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    """Where a fact's certificate is kept, as the parts of its path from the folder of the
    certificate it lies below (whose facts' folder is ``below``), by its ``steps`` below that
    one's class (indices): a folder for each step before the last (the folder of that class's
    facts), then the last step's file."""
    names = [f"{guess}-{feedback}" for guess, feedback in steps]
    return (below, *names[:-1], f"{names[-1]}.cert")


def fact_file(below: str, steps: Sequence[tuple[int, int]]) -> str:
    """A fact's certificate as the certificate that names it names it, relative to that one's
    folder: the certificate it lies below for a fact one step below, else the fact's just above."""
    return "/".join(fact_place(below, steps)[-2:])


class Facts:
    """The facts of one proof search of the set after ``root``: those taken up (``known``, each
    with where its certificate is) and those it keeps (``keep`` writes a fact's certificate and
    says where), for each class whose search wrote ``words`` words of proof or more (just below
    the root only, without ``deep``: where no search goes on from them, only the certificate's
    split names them); with ``split``, the size above which the certificate names those it kept
    as premises."""

    def __init__(self, game: Game, max_depth: int | None, root: History,
                 known: Sequence[tuple[Fact, Reference]],
                 keep: Callable[[Fact, bytes], Reference], words: int,
                 split: int | None = None, deep: bool = True) -> None:
        self.game, self.max_depth, self.root = game, max_depth, root
        self.known = {fact.history: (fact, ref) for fact, ref in known
                      if len(fact.history) > len(root) and fact.history[:len(root)] == root}
        self.keep, self.words, self.split, self.deep = keep, words, split, deep
        #: The facts named as premises, by premise number: those taken up, then any kept.
        self.used: list[tuple[Fact, Reference]] = []
        #: The facts kept, each with its claim on the tape and its certificate's size.
        self.kept: list[tuple[Fact, Reference, int, int]] = []

    def recall(self, proof: ProofLog, history: History, budget: int, depth: int) -> int | None:
        """The cost of the class after ``history`` within ``budget`` (-1: over it) as a fact
        settles it, its claim on the tape standing for the fact's certificate; None when no fact
        settles it (it is searched)."""
        found = self.known.get(history)
        if found is None:
            return None
        fact = found[0]
        if fact.bound > budget:
            cost = -1
        elif fact.exact:
            cost = fact.bound
        else:  # a bound within the budget says nothing of the cost
            return None
        proof.premise(history, fact.bound, depth, len(self.used))
        self.used.append(found)
        return cost

    def begin(self, proof: ProofLog) -> tuple[int, int]:
        """Where the tape and the premises stand as a class's search begins (for :meth:`settled`)."""
        return int(proof.tape[0]), len(self.used)

    def settled(self, proof: ProofLog, history: History, budget: int, depth: int, cost: int,
                began: tuple[int, int]) -> None:
        """After the class after ``history`` was searched from ``began`` (cost -1: over its
        budget): keep it as a fact if its search wrote enough proof, or took up facts (then it
        stands as a premise in the claims above it)."""
        if len(history) <= len(self.root) or history[:len(self.root)] != self.root:
            return
        words, used = began
        named = len(self.used) > used
        if not named and (int(proof.tape[0]) - words < self.words or
                          (not self.deep and len(history) > len(self.root) + 1)):
            return
        claim = proof.of(history)
        if claim < 0:  # level filling alone showed it: nothing to keep
            return
        fact = Fact(history, cost if cost >= 0 else budget + 1, cost >= 0)
        data = certificate_bytes(Claim(self.game, fact.bound, fact.history, None, self.max_depth),
                                 proof.tape, claim, proof.symmetries, self.premises())
        ref = self.keep(fact, data)
        if named:
            proof.premise(history, fact.bound, depth, len(self.used))
            self.used.append((fact, ref))
        else:
            self.kept.append((fact, ref, claim, len(data)))

    def certificate(self, claim: Claim, proof: ProofLog, root: int) -> bytes:
        """The certificate of ``claim`` as the claim at ``root`` proves it, naming the facts taken
        up as premises; and, while it would pass ``split`` bytes, the largest of the facts kept
        as well, as many at a time as should bring it under (those the root's own entries name:
        a fact's claim shared deeper stays whole where it is)."""
        data = certificate_bytes(claim, proof.tape, root, proof.symmetries, self.premises())
        left = sorted(self.kept, key=lambda kept: (-kept[3], kept[0].history))
        while self.split is not None and len(data) > self.split and left:
            over, named, undo = len(data) - self.split, 0, []
            while left and named < over:
                fact, ref, at, size = left.pop(0)
                changed = self._name(proof, root, fact, ref, at)
                if changed:
                    undo += changed
                    named += size
            smaller = certificate_bytes(claim, proof.tape, root, proof.symmetries, self.premises())
            if len(smaller) >= len(data):  # premises cost more header than their proofs: undone
                for word, child in reversed(undo):
                    proof.tape[word] = child
                del self.used[len(self.used) - len(undo):]
                break
            data = smaller
        return data

    def _name(self, proof: ProofLog, root: int, fact: Fact, ref: Reference, at: int
              ) -> list[tuple[int, int]]:
        """Point the root's entry for a kept fact at a premise claim standing for its certificate;
        the word changed and what it held, none where the root names another claim for it."""
        count = int(proof.tape[root + CLAIM_WORDS - 1])
        entries = proof.tape[root + CLAIM_WORDS:root + CLAIM_WORDS + ENTRY_WORDS * count]
        if len(fact.history) != len(self.root) + 1:  # below another class: not the root's
            return []
        guess, feedback = fact.history[-1]
        named = np.flatnonzero((entries[0::ENTRY_WORDS] == guess) &
                               (entries[1::ENTRY_WORDS] == feedback) &
                               (entries[2::ENTRY_WORDS] == at))
        if len(named) != 1 or int(proof.tape[at]) != fact.bound:
            return []
        standing = proof.premise(fact.history, fact.bound, int(proof.tape[at + 1]), len(self.used))
        self.used.append((fact, ref))
        word = root + CLAIM_WORDS + ENTRY_WORDS * int(named[0]) + 2
        proof.tape[word] = standing
        return [(word, at)]

    def costs(self) -> dict[History, int]:
        """The exact costs the facts taken up and kept say, by history."""
        return {fact.history: fact.bound
                for fact, _ in (*self.known.values(), *self.used, *(k[:2] for k in self.kept))
                if fact.exact}

    def premises(self) -> list[dict[str, object]]:
        """The facts taken up as a certificate's header names its premises, by number."""
        codes, texts = self.game.code_strings, self.game.feedback_texts
        return [{"file": ref["file"], "sha256": ref["sha256"],
                 "history": [[codes[g], texts[f]] for g, f in fact.history], "bound": fact.bound}
                for fact, ref in self.used]
