"""Writing a book as its tree is built, so that a book of millions of secrets is never held whole.

The tree's text goes to an anonymous temporary file beside the target as the compiler decides each
node; once the stats are known the book is put together from the sections and that text and written
atomically. The bytes are those :func:`treegen.book.format.dumps` gives for the same book.
Standard library only, like the rest of the format.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from treegen.book.format import section_lines
from treegen.files.atomic import write_atomic

__all__ = ["TreeText", "save_streamed", "temporary_tree"]

#: Text gathered before it is written to the temporary file, and the size of a copied chunk.
CHUNK = 1 << 20


class TreeText:
    """A :class:`treegen.compiler.TreeSink` that writes the tree as compact JSON text, the book's
    ``tree`` line, to a binary file."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._parts: list[str] = []
        self._size = 0
        self._first: list[bool] = []  # per open node: no child written yet
        self.nodes = 0
        self.first = ""  # the root's guess

    def enter(self, key: str | None, guess: str) -> None:
        if self._first:
            text = ("" if self._first[-1] else ",") + _quoted(key) + ":"
            self._first[-1] = False
        else:
            text, self.first = "", guess
        text += '{"guess":' + _quoted(guess) + ',"next":{'
        self._first.append(True)
        self._add(text)
        self.nodes += 1

    def leave(self) -> None:
        self._first.pop()
        self._add("}}")

    def subtree(self, key: str | None, nodes: tuple[Sequence[str], Sequence[str | None],
                                                     Sequence[int]]) -> None:
        """A subtree whole (its guesses, the answers that lead to them, None for the first,
        and their levels, depth first), as :meth:`enter` and :meth:`leave` would write it node
        by node: a compiled walk hands back thousands at once."""
        guesses, answers, levels = nodes
        if not guesses:
            return
        self.enter(key, guesses[0])
        top = previous = levels[0]
        parts = []
        for guess, answer, level in zip(guesses[1:], answers[1:], levels[1:]):
            # a first child opens below its parent; a later one closes its elder siblings
            head = "" if level > previous else "}}" * (previous - level + 1) + ","
            parts.append(head + _quoted(answer) + ':{"guess":' + _quoted(guess) + ',"next":{')
            previous = level
        parts.append("}}" * (previous - top))
        self._add("".join(parts))
        self.nodes += len(guesses) - 1
        self.leave()

    def close(self) -> None:
        """Write what is gathered; the tree must be complete."""
        if self._first:
            raise ValueError("the tree is not complete: a node was entered and not left")
        self._flush()

    def _add(self, text: str) -> None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= CHUNK:
            self._flush()

    def _flush(self) -> None:
        self._out.write("".join(self._parts).encode())
        self._parts.clear()
        self._size = 0


def _quoted(text: str | None) -> str:
    """``text`` as JSON, as :func:`json.dumps` writes it: printable ASCII without quotes or
    backslashes (every code and answer of the preset games) needs only the quotes, and is
    written so, a tenth of the time per node."""
    if text is not None and text.isascii() and text.isprintable() and '"' not in text \
            and "\\" not in text:
        return '"' + text + '"'
    return json.dumps(text, ensure_ascii=False)


def save_streamed(path: str | os.PathLike[str], book: Mapping[str, Any], tree: IO[bytes],
                  sources: Sequence[str | os.PathLike[str]] = ()) -> None:
    """Write ``book`` (its sections; its tree is not read) with the tree text that :class:`TreeText`
    wrote to ``tree`` in place of its tree, atomically."""
    head, tail = section_lines(book)
    tree.seek(0)
    write_atomic(path, _chunks(head, tree, tail), sources=sources)


def temporary_tree(path: str | os.PathLike[str] | None) -> IO[bytes]:
    """An anonymous file for the tree's text of the book to be written at ``path`` (None: in the
    working folder): beside it where it can be (the same disk), else in the system's temporary
    folder. It disappears when closed, also when the build fails."""
    folder = os.path.dirname(os.fspath(path)) or "." if path is not None else "."
    try:
        return tempfile.TemporaryFile(dir=folder)
    except OSError:
        return tempfile.TemporaryFile()


def _chunks(head: str, tree: IO[bytes], tail: str) -> Iterator[bytes]:
    yield head.encode()
    while chunk := tree.read(CHUNK):
        yield chunk
    yield tail.encode()
