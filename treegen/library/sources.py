"""What was known of the library's books before them: the figures others published for the same
game and strategy, the best computed before where none is, and the sources searched before calling
an optimum the first published one. The index sets them beside treegen's totals."""

from __future__ import annotations

from dataclasses import dataclass

from treegen.data import Stats

__all__ = ["BEFORE", "NOT_YET_PROVEN", "PARTLY_GRAFTED", "PROVEN_BY_RECORDS", "PUBLISHED",
           "SOURCES_CHECKED", "Published"]


@dataclass(frozen=True)
class Published:
    """A figure published for the same game and strategy, to set beside ours, as the source gives
    it: a total of guesses over all secrets, or an average (rounded) and a maximum."""

    source: str
    total: int | None = None
    average: float | None = None
    max: int | None = None

    def __str__(self) -> str:
        figure = (f"total {self.total}" if self.total is not None
                  else f"average {self.average}" if self.max is None
                  else f"average {self.average}, max {self.max}")
        return f"{figure} ({self.source})"

    def matches(self, stats: Stats) -> bool:
        """Whether a book's stats give the published figure (an average to the digits published,
        and the maximum when one is published)."""
        if self.total is not None:
            return stats["total"] == self.total
        digits = len(str(self.average).partition(".")[2])
        return bool(round(stats["total"] / stats["secrets"], digits) == self.average
                    and (self.max is None or stats["max"] == self.max))


_GUESS_NUM = "编程拾遗：猜数字游戏, 2024"

#: Published results of the same strategies, keyed by book name. Heuristic results depend on the
#: first guess, the pool and the tie-break, so a published figure is listed only where the source
#: played the strategy as treegen does (and every one of them matches).
PUBLISHED = {
    "bulls-and-cows-simple-consistent": Published(_GUESS_NUM, average=5.56, max=9),
    "bulls-and-cows-entropy-consistent": Published(_GUESS_NUM, average=5.31, max=8),
    "bulls-and-cows-optimal-all": Published("Tanaka 1996", total=26274),
    "mastermind-simple-consistent": Published("Shapiro 1983", total=7471),
    "mastermind-minimax-all": Published("Knuth 1976", total=5801),
    "mastermind-expected-all": Published("Irving 1978", total=5696),
    "mastermind-entropy-all": Published("Neuwirth 1982", total=5722),
    "mastermind-parts-all": Published("Kooi 2005", total=5668),
    "mastermind-optimal-all": Published("Koyama & Lai 1993", total=5625),
    "custom-1234567-4-rep-optimal-all": Published("Ville 2013", average=4.676),
    "wordle-optimal-all": Published("Selby 2022", total=7920),
    "wordle-hints-optimal-depth6-all": Published("Selby 2022", total=8122),
}


#: What the index says of a grafted book the records prove optimal, of one they do not yet (the
#: records' classes not all certified): the search's word only, and of one whose record has
#: classes left to solve, which keep the base book's trees.
PROVEN_BY_RECORDS = "**the optimum**, proven by the records of every first guess below"
NOT_YET_PROVEN = ("**best known**: the optimum by the search, by the records of every first guess "
                  "below, proven once every class of theirs is certified")
PARTLY_GRAFTED = ("**best known**: the book it is grafted onto, with the classes its record has "
                  "solved so far swapped in; the classes left keep that book's trees")

#: What was known before a book where no published figure is: the claim the book makes, and the
#: best figure we could find or compute before it, labelled with where it comes from (a figure
#: of mmstrat, the C++ solver of fancidev/mastermind, comes from running it here:
#: ``mmstrat -S -r RULES -s STRATEGY``). "First published optimum" is said only after the sources
#: listed in the index found none (see ``SOURCES_CHECKED``).
BEFORE = {
    "custom-123456789-4-rep-optimal-all":
        "**first published optimum, as far as we know**; before: total 34921, mmstrat's "
        "entropy strategy (computed here, `-r p4c9r`)",
    "custom-123456-5-rep-optimal-all":
        "**first published optimum, as far as we know**; before: total 37089, mmstrat's "
        "entropy strategy (computed here, `-r p5c6r`)",
    "custom-12345678-5-norep-optimal-all":
        "**first published optimum, as far as we know**; before: total 34652, mmstrat's "
        "entropy strategy (computed here, `-r p5c8n`)",
    "mastermind-hard-optimal-all":
        "no published total found for this rule (every guess a possible secret); before: total "
        "5701, the best heuristic here that guesses only possible secrets (parts, pool "
        "consistent, computed here); mmstrat's `-po`, which draws each guess from the secrets "
        "possible one guess earlier (a looser rule), finds 5629 (computed here, `-r mm -s "
        "optimal -po`)",
    "wordle-hard-optimal-all":
        "no published total found for this rule (every guess a word that could still be the "
        "answer); Selby's solver, computed here with it (`wordle -U -g10 -w salet`: its "
        "\"ultrahard\" mode), finds 8119 for SALET too; Selby's hard-mode figure, SALET 8122 "
        "(2022), is for the NYT's looser rule within six guesses (`--hints`, below)",
    "wordle-hard-optimal-depth6-all":
        "no published total found for this rule; Selby's solver, computed here with it within six "
        "guesses (`wordle -U -w salet`), finds 8125 for SALET too; Selby's hard-mode figure, "
        "SALET 8122 (2022), is for the NYT's looser rule (`--hints`, below)",
    "wordle-hints-optimal-all":
        "no published total found without a limit on guesses (Selby's figures for this rule are "
        "within six); Selby's solver, computed here with it (`wordle -H -g10 -w salet`), finds "
        "8116 for SALET too",
    "custom-1234567-5-rep-entropy-all-first11223":
        "below the totals we compared with: 86412, the entropy book of mikemag/Mastermind with "
        "the same first guess (its results of 2023); 86557, mmstrat's entropy strategy (computed "
        "here, `-r p5c7r`); Ville 2013's upper bounds for other sizes were not read",
    "custom-1234567-5-rep-entropy-first11223-grafted-all":
        "**best known**, and the optimum after 11223, proven by its record below (every class "
        "solved and certified); before: 86379, treegen's entropy book with the same first guess; "
        "86412, the entropy book of mikemag/Mastermind (its results of 2023); 86557, mmstrat's "
        "entropy strategy (computed here, `-r p5c7r`)",
    "muertos-y-heridos-optimal-width3-below200-first0123-grafted-all":
        f"{PROVEN_BY_RECORDS}; no published total found; before: total 56195, mmstrat's entropy "
        "strategy (computed here, `-r p4c10r`)",
    "custom-123456789-5-norep-entropy-first12345-grafted-all":
        f"{PROVEN_BY_RECORDS}; **first published optimum, as far as we know**; before: total "
        "82495, mmstrat's entropy strategy (computed here, `-r p5c9n`)",
}

#: Where we looked for published optima before calling one first, as the index lists them.
SOURCES_CHECKED = (
    "Knuth 1976, Irving 1978, Neuwirth 1982, Koyama & Lai 1993 (Mastermind and its strategies)",
    "Kooi 2005 (most parts) and Pepperdine 2007 (Bulls and Cows, cited by the Muertos y Heridos "
    "source document)",
    "Ville 2013, arXiv:1305.1010 (the optimum of 4 pegs x 7 colours, whose average 4.676 this "
    "library reproduces, and optima or upper bounds of other sizes: its abstract was read, not its "
    "full table)",
    "the documentation and book of fancidev/mastermind (the mmstrat solver)",
    "searches of public web pages, code and documentation for optima of 4 x 9, 5 x 6 and 4 x 10 "
    "with repeats, and of 5 of 8 and 5 of 9 without",
    "Selby 2022, alex1770/wordle and its notes \"The best strategies for Wordle\" (Wordle with its "
    "original lists: SALET first, total 7920, optimal over every first guess)",
    "the hard-mode results of alex1770/wordle (hard.top101.proven, results_hard_*: the NYT's rule, "
    "greens kept and green or yellow letters used again, within six guesses; none for the rule "
    "where every guess could be the answer, which its program plays as -U)",
)
