"""Lower bounds of a set the checker derives itself: each guess's one-step bound (level filling
of its classes) and a class's one-step floor (the least one-step bound of any guess on it)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np

from treegen.certificate.rules import INFINITE, Rules, levels, within

#: Floors kept for classes met again.
KEPT = 1 << 20
#: Under many answers, sets up to this size have their classes counted by comparing answers,
#: larger ones by marking them.
PAIRWISE = 64
#: Answers sorted at a time when a claim's classes are gathered (:meth:`Floors.grouped`).
SORTED_AT_ONCE = 1 << 22
#: Answers scored at a time for the kernels where the game keeps no score table.
SCORED_AT_ONCE = 1 << 24


def _kernels() -> Any:
    """The compiled kernels, loaded at first use (``python -m treegen.certificate.native``
    builds them while this package is imported)."""
    from treegen.certificate.native import load
    return load()


def _key(sub: np.ndarray, later: np.ndarray | None, depth: int, widest: int) -> bytes:
    """What a class's floor depends on, in a few bytes: its secrets, the guesses allowed there
    (hashed: in hard mode they can be thousands), the depth and the branching."""
    key = hashlib.blake2b(np.ascontiguousarray(sub, dtype=np.int64).tobytes(), digest_size=32)
    if later is not None:
        key.update(b"|" + np.ascontiguousarray(later, dtype=np.int64).tobytes())
    key.update(f"|{depth}|{widest}".encode())
    return key.digest()


class Floors:
    """One-step bounds and floors in one game, with level filling kept by branching and depth."""

    def __init__(self, rules: Rules) -> None:
        self.game, self.nfb = rules, len(rules.answers)
        self.every = np.arange(len(rules.codes))
        self.levels: dict[tuple[int, int], np.ndarray] = {}
        self.known: dict[bytes, int] = {}

    def counts(self, scores: np.ndarray) -> np.ndarray:
        """Class sizes: for each guess (a column of answers), how many secrets give each answer."""
        counts: np.ndarray = _kernels().answer_counts(np.ascontiguousarray(scores, dtype=np.uint8),
                                                      self.nfb)
        return counts

    def values(self, counts: np.ndarray, tried: np.ndarray, cands: np.ndarray,
                level: np.ndarray) -> np.ndarray:
        """Each guess's one-step bound on the set; a guess that splits nothing off counts as
        infinite."""
        n = len(cands)
        costs = level[counts]
        costs[:, self.game.solved] = 0
        values = n + costs.sum(axis=1)
        values[~within(tried, cands) & (counts.max(axis=1) == n)] = INFINITE
        out: np.ndarray = values
        return out

    def bounds(self, scores: np.ndarray, tried: np.ndarray, cands: np.ndarray,
               level: np.ndarray) -> np.ndarray:
        """:meth:`values` straight from the answers (a column per guess). On a set of a few
        secrets and many answers, each class is measured by sorting the guess's answers, which
        costs the set's size rather than the number of answers."""
        n = len(cands)
        if n * 6 >= self.nfb:
            return self.values(self.counts(scores), tried, cands, level)
        ordered = np.sort(scores.T, axis=1)
        place = np.arange(n)
        start = np.ones(ordered.shape, dtype=bool)
        start[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        size = place + 1 - np.maximum.accumulate(np.where(start, place, 0), axis=1)
        last = np.ones(ordered.shape, dtype=bool)  # a class's last secret counts it
        last[:, :-1] = start[:, 1:]
        costs = np.where(last & (ordered != self.game.solved), level[size], 0)
        values: np.ndarray = n + costs.sum(axis=1)
        values[~within(tried, cands) & (size[:, -1] == n)] = INFINITE
        return values

    def suffice(self, cands: np.ndarray, allowed: np.ndarray | None, depth: int, bound: int
                ) -> bool:
        """Whether every guess allowed at the set reaches ``bound`` at once, judged by the count
        of its classes alone (see :meth:`even`). Most claims are of a few secrets and name no
        class; this passes them without counting class sizes. False says only that the full
        count is needed."""
        pool = allowed if allowed is not None else self.every
        classes = self._classes(self.game.score(pool, cands)[None])[0]
        mine = np.zeros(self.nfb + 1, dtype=np.int64)  # the set's own guesses, by classes made
        np.add.at(mine, classes[np.searchsorted(pool, cands[within(cands, pool)])], 1)
        others = np.bincount(classes, minlength=self.nfb + 1) - mine
        level = self.level(int(classes.max()), depth - 1 if depth > 0 else -1)
        outside, inside = self.even(len(cands), level)
        return bool(min(outside[others > 0].min(initial=INFINITE),
                        inside[mine > 0].min(initial=INFINITE)) >= bound)

    def even(self, n: int, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A lower bound on a guess's one-step bound on n secrets from the number of classes it
        makes, for a guess outside the set and for one in it. Level filling is convex in the
        number of secrets, so p classes cost at least p classes as even as can be; while it
        costs 2s - 1 for every size s up to n, the bound is exact."""
        parts = np.arange(self.nfb + 1)

        def split(m: int) -> np.ndarray:
            even, extra = np.divmod(m, np.maximum(parts, 1))
            cost: np.ndarray = n + (parts - extra) * level[even] + extra * level[even + 1]
            return cost

        outside = split(n)
        outside[1] = INFINITE  # one class outside the set: the guess splits nothing
        return outside, split(n - 1)

    def widest(self, cands: np.ndarray, pool: np.ndarray) -> int:
        """The most classes other than the solved one any allowed guess makes of the set: no
        set below it splits into more."""
        most = 0
        step = max(1, (1 << 24) // max(1, len(cands)))
        for lo in range(0, len(pool), step):
            counts = self.counts(self.game.score(pool[lo:lo + step], cands))
            counts[:, self.game.solved] = 0
            most = max(most, int((counts > 0).sum(axis=1).max()))
        return most

    def floors(self, subs: list[np.ndarray], laters: list[np.ndarray | None], depth: int,
               widest: int) -> np.ndarray:
        """The one-step floor of each class: the least one-step bound any guess allowed there
        reaches on it. One class recurs under many guesses and claims, so each floor is kept,
        by the class, its allowed guesses, the depth and the branching (:data:`KEPT` at most)."""
        if depth == 0:
            return np.full(len(subs), INFINITE, dtype=np.int64)
        keys = [_key(sub, later, depth, widest) for sub, later in zip(subs, laters)]
        out = np.array([self.known.get(key, -1) for key in keys], dtype=np.int64)
        new = np.flatnonzero(out < 0)
        if len(new):
            out[new] = self._floors([subs[k] for k in new], [laters[k] for k in new], depth,
                                    widest)
            if len(self.known) + len(new) > KEPT:
                self.known.clear()
            self.known.update((keys[k], int(out[k])) for k in new)
        return out

    def grouped(self, cands: np.ndarray, scores: np.ndarray, rows: np.ndarray,
                answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The classes (``rows[k]``, ``answers[k]``) of the set ``cands`` (``scores``: a column of
        answers a guess): their secrets one class after another, each class ascending, and
        their sizes. One sort a guess, in blocks of a few million secrets, rather than a pass
        over the set for each class."""
        sizes = np.zeros(len(rows), dtype=np.int64)
        if len(rows) == 0:
            return np.empty(0, dtype=np.int64), sizes
        used, which = np.unique(rows, return_inverse=True)
        n = len(cands)
        parts = []
        step = max(1, SORTED_AT_ONCE // max(1, n))
        for lo in range(0, len(used), step):
            block = scores[:, used[lo:lo + step]].T  # a row of answers a guess
            order = np.argsort(block, axis=1, kind="stable")
            counts = self.counts(block.T)
            starts = np.cumsum(counts, axis=1) - counts
            mine = np.flatnonzero((which >= lo) & (which < lo + step))
            row, answer = which[mine] - lo, answers[mine]
            size = counts[row, answer]
            sizes[mine] = size
            first = np.repeat(starts[row, answer] - (np.cumsum(size) - size), size)
            at = first + np.arange(int(size.sum()))
            parts.append((mine, cands[order[np.repeat(row, size), at]]))
        if len(parts) == 1:
            return parts[0][1], sizes
        ends = np.cumsum(sizes)
        flat = np.empty(int(ends[-1]), dtype=cands.dtype)
        for mine, members in parts:  # blocks of rows in the order the classes were asked
            size = sizes[mine]
            to = np.repeat(ends[mine] - size - (np.cumsum(size) - size), size)
            flat[to + np.arange(len(members))] = members
        return flat, sizes

    def lower(self, flat: np.ndarray, sizes: np.ndarray, depth: int, widest: int
              ) -> tuple[np.ndarray, np.ndarray]:
        """A lower bound on the one-step floor of each class (secrets ``flat``, one class after
        another, of ``sizes``), outside hard mode, at the cost of its own secrets as guesses
        (n^2 answers), and whether it is the floor: the best of those guesses is, unless a guess
        outside the class beats it, and none outside reaches less than level filling from the
        second guess on. Classes are many and small here, so none is looked up or kept: that
        cost more than counting them."""
        if depth == 0:
            return np.full(len(sizes), INFINITE, dtype=np.int64), np.ones(len(sizes), dtype=bool)
        level = self.level(widest, depth - 1 if depth > 0 else -1)
        outside = self.level(widest, depth)[sizes + 1] - 1
        inside = self._inside_flat(flat, sizes, level)
        sure = inside <= outside
        low = np.where(sure, inside, outside)
        return np.maximum(low, self.level(widest, depth)[sizes]), sure

    def _floors(self, subs: list[np.ndarray], laters: list[np.ndarray | None], depth: int,
                widest: int) -> np.ndarray:
        """The floors counted: guesses in the class first. A guess outside it finds none of it at
        once, so reaches at least level filling from the second guess on, and is scored only when
        the class's own guesses do not all reach that."""
        level = self.level(widest, depth - 1 if depth > 0 else -1)
        sizes = np.array([len(sub) for sub in subs], dtype=np.int64)
        outside = self.level(widest, depth)[sizes + 1] - 1
        if laters[0] is not None:  # hard mode: each class has guesses of its own
            return np.array([self._floor_of(sub, later if later is not None else self.every,
                                            level, cap)
                             for sub, later, cap in zip(subs, laters, outside)], dtype=np.int64)
        best = self._inside(subs, sizes, level)
        wide = np.flatnonzero(best > outside)
        if len(wide):
            best[wide] = np.minimum(best[wide], self._everyone(
                [subs[k] for k in wide], sizes[wide], level))
        return best

    def _everyone(self, subs: list[np.ndarray], sizes: np.ndarray, level: np.ndarray
                  ) -> np.ndarray:
        """The least one-step bound of every guess on each class: the bound from each guess's
        count of classes (:meth:`even`), and where that is not exact, the guesses whose bound is
        below the best found counted in full (compiled: :mod:`treegen.certificate.floor_kernels`)."""
        most = int(sizes.max())
        outside = np.zeros((most + 1, self.nfb + 1), dtype=np.int64)
        inside = np.zeros_like(outside)
        for size in np.unique(sizes):
            outside[size], inside[size] = self.even(int(size), level)
        return self._by_rows(_kernels().least_bounds, np.concatenate(subs), sizes, level,
                             outside, inside)

    def _by_rows(self, kernel: Callable[..., np.ndarray], flat: np.ndarray, sizes: np.ndarray,
                 *args: np.ndarray) -> np.ndarray:
        """A kernel's value for each class given one after another in ``flat``, read from the
        score table where the game keeps one, else from the answers of a few million (secret,
        guess) pairs scored at a time."""
        flat = np.ascontiguousarray(flat, dtype=np.int64)
        sizes = np.ascontiguousarray(sizes, dtype=np.int64)
        solved, answers = self.game.solved, self.nfb
        if self.game.table is not None:
            return kernel(self.game.table, flat, flat, sizes, solved, answers, *args)
        out = np.empty(len(sizes), dtype=np.int64)
        ends = np.cumsum(sizes)
        step = max(1, SCORED_AT_ONCE // len(self.every))
        lo = 0
        while lo < len(sizes):
            start = int(ends[lo - 1]) if lo else 0
            hi = max(lo + 1, int(np.searchsorted(ends, start + step, side="right")))
            members = flat[start:int(ends[hi - 1])]
            block = np.ascontiguousarray(self.game.score(self.every, members))
            out[lo:hi] = kernel(block, np.arange(len(members), dtype=np.int64), members,
                                sizes[lo:hi], solved, answers, *args)
            lo = hi
        return out

    def _classes(self, block: np.ndarray) -> np.ndarray:
        """How many classes other than the solved one each guess (last axis) makes of each set
        (first axis) whose answers (middle axis) ``block`` holds."""
        if self.nfb <= 64:  # a bit per answer, or-ed in one secret at a time: no 3-D temporary
            kind = np.uint16 if self.nfb <= 16 else np.uint32 if self.nfb <= 32 else np.uint64
            masks = np.zeros((block.shape[0], block.shape[2]), dtype=kind)
            bits = np.empty_like(masks)
            for j in range(block.shape[1]):
                np.left_shift(kind(1), block[:, j], out=bits, dtype=kind)
                masks |= bits
            masks &= ~kind(1 << self.game.solved)
            count: np.ndarray = np.bitwise_count(masks).astype(np.int64)
            return count
        return self._distinct(block) if block.shape[1] <= PAIRWISE else self._present(block)

    def _present(self, block: np.ndarray) -> np.ndarray:
        """:meth:`_classes` of many secrets under many answers (Wordle's 243, where a set of
        answers takes four 64-bit words): each answer a guess gets is marked in a table of
        guesses by answers, one set at a time."""
        sets, _, guesses = block.shape
        base = np.arange(guesses, dtype=np.int32) * self.nfb
        count = np.empty((sets, guesses), dtype=np.int64)
        for s in range(sets):
            seen = np.zeros(guesses * self.nfb, dtype=bool)
            seen[(block[s] + base).ravel()] = True
            table = seen.reshape(guesses, self.nfb)
            count[s] = np.count_nonzero(table, axis=1) - table[:, self.game.solved]
        return count

    def _distinct(self, block: np.ndarray) -> np.ndarray:
        """:meth:`_classes` of a few secrets under many answers: each secret's answer is compared
        with those before it, a row of every guess at a time."""
        count = np.full((block.shape[0], block.shape[2]), min(1, block.shape[1]), dtype=np.int64)
        for j in range(1, block.shape[1]):
            new = block[:, j] != block[:, 0]
            for i in range(1, j):
                new &= block[:, j] != block[:, i]
            count += new
        count -= (block == self.game.solved).any(axis=1)
        out: np.ndarray = count
        return out

    def _inside(self, subs: list[np.ndarray], sizes: np.ndarray, level: np.ndarray) -> np.ndarray:
        """The least one-step bound of each class's own secrets as guesses."""
        return self._inside_flat(np.concatenate(subs), sizes, level)

    def _inside_flat(self, flat: np.ndarray, sizes: np.ndarray, level: np.ndarray) -> np.ndarray:
        """:meth:`_inside` of classes given one after another in ``flat`` (compiled)."""
        return self._by_rows(_kernels().inside_bounds, flat, sizes, level)

    def _floor_of(self, sub: np.ndarray, pool: np.ndarray, level: np.ndarray, cap: int) -> int:
        """One class's floor over the guesses ``pool``: its own secrets first, the others only
        when those do not all reach ``cap`` (-1: all at once)."""
        inside = sub[within(sub, pool)]
        best = INFINITE
        if len(inside):
            best = int(self.bounds(self.game.score(inside, sub), inside, sub, level).min())
        if best <= cap:
            return best
        others = pool[~within(pool, sub)]
        step = max(1, (1 << 24) // max(1, len(sub)))
        for lo in range(0, len(others), step):
            chunk = others[lo:lo + step]
            best = min(best, int(self.bounds(self.game.score(chunk, sub), chunk, sub, level).min()))
        return best

    def level(self, widest: int, depth: int) -> np.ndarray:
        """Level filling of every set size up to the game's secrets and one more."""
        key = (widest, depth)
        if key not in self.levels:
            if len(self.levels) * 8 * (self.game.secrets + 2) > self.game.memory // 8:
                self.levels.clear()  # one a branching and depth: kept while they fit
            self.levels[key] = levels(widest, depth, self.game.secrets + 1)
        return self.levels[key]


