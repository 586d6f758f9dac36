"""Compiled writing of the proof's tape (its layout: :mod:`treegen.search.tape`)."""

from __future__ import annotations

import numpy as np

from treegen.search.kernels import Array, compiled
from treegen.search.tape import CLAIM_WORDS, ENTRY_WORDS, HEADER, MASK_SYMBOLS, NO_SYMMETRY


@compiled
def new_tape(words: int) -> Array:
    """An empty tape with room for ``words`` words (it grows as needed); ``words`` 0 gives the
    empty array that tells the search to write no proof."""
    if words <= 0:
        return np.empty(0, dtype=np.int64)
    tape = np.zeros(max(words, HEADER + 64), dtype=np.int64)
    tape[0] = HEADER
    return tape


@compiled
def add_entry(entries: Array, count: int, guess: int, feedback: int, child: int
              ) -> tuple[Array, int]:
    """Append an entry to a claim's entries being gathered; returns them (grown) and the count."""
    if count == len(entries):
        more = np.empty((2 * len(entries), ENTRY_WORDS), dtype=np.int64)
        more[:count] = entries[:count]
        entries = more
    entries[count, 0], entries[count, 1], entries[count, 2] = guess, feedback, child
    return entries, count + 1


@compiled
def write_claim(tape: Array, bound: int, depth: int, used: int, present: int, entries: Array,
                count: int) -> tuple[Array, int]:
    """Write a claim with its ``count`` entries; returns the tape (grown) and the claim's offset."""
    at = tape[0]
    need = at + CLAIM_WORDS + ENTRY_WORDS * count
    if need > len(tape):
        more = np.zeros(max(2 * len(tape), need + 1024), dtype=np.int64)
        more[:at] = tape[:at]
        tape = more
    tape[at], tape[at + 1], tape[at + 2], tape[at + 3], tape[at + 4] = \
        bound, depth, used, present, count
    tape[at + CLAIM_WORDS:need] = entries[:count].ravel()
    tape[0] = need
    return tape, at


@compiled
def symbol_mask(flags: Array) -> int:
    """The symbols marked in ``flags`` as a bit mask (:data:`NO_SYMMETRY` past MASK_SYMBOLS)."""
    if len(flags) > MASK_SYMBOLS:
        return NO_SYMMETRY
    mask = 0
    for s in range(len(flags)):
        if flags[s]:
            mask |= 1 << s
    return mask


@compiled
def present_mask(codes: Array, cands: Array) -> int:
    """The symbols the codes of ``cands`` hold, as a bit mask."""
    if codes.shape[0] == 0:
        return 0
    mask = 0
    for j in range(len(cands)):
        for p in range(codes.shape[1]):
            mask |= 1 << np.int64(codes[cands[j], p])
    return mask


@compiled
def cut(tape: Array, root: int) -> tuple[Array, Array, Array]:
    """The claims ``root`` stands on, numbered root first and each before the claims it names
    (depth first), as rows (offset, bound, depth, used, present, entries); their entries as rows
    (guess, feedback, claim number), each claim's in order of guess and feedback; and
    where each claim's entries start. Marks the tape's claims as it goes (it is of no further
    use)."""
    rows = np.empty((64, 6), dtype=np.int64)
    stack = np.empty(64, dtype=np.int64)
    stack[0], top, count, total = root, 1, 0, 0
    while top > 0:
        top -= 1
        at = stack[top]
        if tape[at + 4] < 0:  # numbered already
            continue
        if count == len(rows):
            more = np.empty((2 * len(rows), 6), dtype=np.int64)
            more[:count] = rows[:count]
            rows = more
        entries = tape[at + 4]
        rows[count, 0], rows[count, 1], rows[count, 2] = at, tape[at], tape[at + 1]
        rows[count, 3], rows[count, 4], rows[count, 5] = tape[at + 2], tape[at + 3], entries
        tape[at + 3], tape[at + 4] = count, -entries - 1
        count += 1
        total += entries
        if top + entries > len(stack):
            deeper = np.empty(2 * (top + entries), dtype=np.int64)
            deeper[:top] = stack[:top]
            stack = deeper
        for e in range(entries - 1, -1, -1):
            child = tape[at + CLAIM_WORDS + ENTRY_WORDS * e + 2]
            if tape[child + 4] >= 0:
                stack[top] = child
                top += 1
    rows = rows[:count]
    out = np.empty((total, ENTRY_WORDS), dtype=np.int64)
    starts = np.zeros(count + 1, dtype=np.int64)
    for k in range(count):
        at, entries = rows[k, 0], rows[k, 5]
        first = starts[k]
        keys = np.empty(entries, dtype=np.int64)
        for e in range(entries):
            word = at + CLAIM_WORDS + ENTRY_WORDS * e
            keys[e] = (tape[word] << 16) | tape[word + 1]
        order = np.argsort(keys, kind="mergesort")
        for e in range(entries):
            word = at + CLAIM_WORDS + ENTRY_WORDS * order[e]
            child = tape[word + 2]
            out[first + e, 0], out[first + e, 1] = tape[word], tape[word + 1]
            out[first + e, 2] = tape[child + 3]
        starts[k + 1] = first + entries
    return rows, out, starts
