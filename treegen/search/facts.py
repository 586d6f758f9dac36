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

The same naming keeps certificates small enough to commit: a certificate that would pass ``split``
bytes names its largest classes as premises too, instead of holding their proofs (the facts its
search kept, or certificates cut from its proof there and then), and a premise past the split
names its own in turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from treegen.data import History
from treegen.errors import CertificateError
from treegen.rules.game import Game
from treegen.search.certificate_file import Claim, certificate_bytes, cut_certificate
from treegen.search.proof_log import ProofLog
from treegen.search.tape import CLAIM_WORDS, ENTRY_WORDS, PREMISE

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
        #: The classes cut off into certificates of their own past the split, by history, each
        #: with its claim on the tape.
        self.cut: dict[History, tuple[Reference, int]] = {}
        #: The SHA-256 of the premises each certificate kept names, by its SHA-256.
        self.names: dict[str, list[str]] = {}

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
        data, names = self._cut(Claim(self.game, fact.bound, fact.history, None, self.max_depth),
                                proof, claim, list(self.used))
        ref = self._keep(fact, data, names)
        self.kept = [kept for kept in self.kept if kept[0].history != history]  # searched anew
        if named:
            proof.premise(history, fact.bound, depth, len(self.used))
            self.used.append((fact, ref))
        else:
            self.kept.append((fact, ref, claim, len(data)))

    def certificate(self, claim: Claim, proof: ProofLog, root: int) -> bytes:
        """The certificate of ``claim`` as the claim at ``root`` proves it, naming the facts taken
        up as premises, and past ``split`` bytes its largest classes too (see :meth:`_cut`)."""
        if claim.first is not None:  # its first claim speaks of one guess: written whole
            return certificate_bytes(claim, proof.tape, root, proof.symmetries, self.premises())
        return self._cut(claim, proof, root, self.used)[0]

    def _cut(self, claim: Claim, proof: ProofLog, at: int, used: list[tuple[Fact, Reference]]
             ) -> tuple[bytes, list[str]]:
        """The certificate of ``claim`` as the claim at ``at`` proves it, naming the facts of
        ``used`` it reaches as premises, and the SHA-256 of each it names. While it would pass
        ``split`` bytes, its largest classes are named as well, as many at a time as should bring
        it under, each a certificate of its own cut the same way (so a class's certificate past
        the split names the classes below it in turn); ``used`` gains those named. The tape is
        left as it was."""
        data, named = cut_certificate(claim, proof.tape, at, proof.symmetries,
                                      self._listed(used))
        if self.split is None or len(data) <= self.split:
            return data, _digests(named)
        left = sorted(self._classes(claim, proof, at), key=lambda c: (-len(c[3]), c[2]))
        left.reverse()  # the largest last, taken first
        changed: list[tuple[int, int]] = []  # each word changed and what it held
        try:
            while len(data) > self.split and left:
                over, gained, before = len(data) - self.split, 0, len(changed)
                while left and gained < over:
                    word, child, history, whole = left.pop()
                    ref = self._reference(proof, child, history, whole)
                    if ref is None:
                        continue
                    fact = Fact(history, int(proof.tape[child]), False)
                    standing = proof.standing(fact.bound, int(proof.tape[child + 1]), len(used))
                    used.append((fact, ref))
                    changed.append((word, int(proof.tape[word])))
                    proof.tape[word] = standing
                    gained += len(whole)
                smaller, fewer = cut_certificate(claim, proof.tape, at, proof.symmetries,
                                                 self._listed(used))
                if len(changed) == before or len(smaller) >= len(data):
                    # premises cost more header than the proofs they replace: undone
                    for word, child in reversed(changed[before:]):
                        proof.tape[word] = child
                    del used[len(used) - (len(changed) - before):]
                    del changed[before:]
                    break
                data, named = smaller, fewer
        finally:
            for word, child in reversed(changed):  # the tape as the search left it
                proof.tape[word] = child
        return data, _digests(named)

    def _classes(self, claim: Claim, proof: ProofLog, at: int
                 ) -> list[tuple[int, int, History, bytes]]:
        """The classes the claim at ``at`` names a claim of its own for, which a certificate may
        name as premises instead: (the entry's word naming the claim, the claim, the class's
        history, its certificate cut whole)."""
        count = int(proof.tape[at + CLAIM_WORDS - 1])
        found = []
        for k in range(count):
            word = at + CLAIM_WORDS + ENTRY_WORDS * k
            guess, feedback, child = (int(w) for w in proof.tape[word:word + ENTRY_WORDS])
            if child < 0 or int(proof.tape[child + 2]) == PREMISE:
                continue
            history = (*claim.history, (guess, feedback))
            inside = Claim(self.game, int(proof.tape[child]), history, None, self.max_depth)
            try:
                whole = certificate_bytes(inside, proof.tape, child, proof.symmetries)
            except CertificateError:  # it names premises below its own classes: stays inside
                continue
            found.append((word + 2, child, history, whole))
        return found

    def _reference(self, proof: ProofLog, at: int, history: History, whole: bytes
                   ) -> Reference | None:
        """Where the certificate of the class after ``history``, proven by the claim at ``at``,
        is: the fact kept for it, else its certificate (``whole``, split in turn past the split)
        kept. None where another fact of that class stands in the way (a file of its own already
        has its place)."""
        bound = int(proof.tape[at])
        for fact, ref, claim, _ in self.kept:
            if fact.history == history:
                return ref if claim == at and fact.bound == bound else None
        if history in self.known or any(fact.history == history for fact, _ in self.used):
            return None
        if history in self.cut:
            ref, claim = self.cut[history]
            return ref if claim == at else None
        fact = Fact(history, bound, False)
        data, names = (whole, []) if self.split is None or len(whole) <= self.split else \
            self._cut(Claim(self.game, bound, history, None, self.max_depth), proof, at, [])
        ref = self._keep(fact, data, names)
        self.cut[history] = (ref, at)
        return ref

    def _keep(self, fact: Fact, data: bytes, names: list[str]) -> Reference:
        ref = self.keep(fact, data)
        self.names[ref["sha256"]] = names
        return ref

    def files(self) -> set[str]:
        """The SHA-256 of every fact's certificate the last one cut rests on: its premises, and
        theirs in turn."""
        found: set[str] = set()
        todo = [str(premise["sha256"]) for premise in self.premises()]
        while todo:
            sha256 = todo.pop()
            if sha256 not in found:
                found.add(sha256)
                todo += self.names.get(sha256, [])
        return found

    def costs(self) -> dict[History, int]:
        """The exact costs the facts taken up and kept say, by history."""
        return {fact.history: fact.bound
                for fact, _ in (*self.known.values(), *self.used, *(k[:2] for k in self.kept))
                if fact.exact}

    def premises(self) -> list[dict[str, object]]:
        """The facts taken up as a certificate's header names its premises, by number."""
        return self._listed(self.used)

    def _listed(self, used: Sequence[tuple[Fact, Reference]]) -> list[dict[str, object]]:
        """Facts as a certificate's header names its premises, by number."""
        codes, texts = self.game.code_strings, self.game.feedback_texts
        return [{"file": ref["file"], "sha256": ref["sha256"],
                 "history": [[codes[g], texts[f]] for g, f in fact.history], "bound": fact.bound}
                for fact, ref in used]


def _digests(premises: list[dict[str, object]]) -> list[str]:
    return [str(premise["sha256"]) for premise in premises]

