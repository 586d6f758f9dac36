"""Text from a book, encoded for the languages treegen generates and for the terminal. A book's
names are free text (a game or strategy may be called anything), so each generator encodes them
for its language rather than filtering: nothing a name holds can end a comment, open a tag, break
a file, or drive the terminal that shows it."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["c_comment", "html_text", "terminal_text", "xml_text"]

#: What a line of a C comment may hold as it is: nothing that can end the comment, start one,
#: splice lines (a backslash, or the trigraph ??/ of strict C), or be read another way by a
#: compiler's character set.
_C_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,:;()+-=_'")
#: Characters XML 1.0 cannot hold at all, not even as a character reference.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def c_comment(line: str) -> str:
    """A line for a C comment: every character outside a plain set written as its code point,
    ``<U+005C>`` for a backslash."""
    return "".join(c if c in _C_PLAIN else f"<U+{ord(c):04X}>" for c in line)


def xml_text(text: str) -> str:
    """Text for an XML writer, which escapes markup itself: a character XML cannot hold is written
    as its code point, ``\\u0001``."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def html_text(text: str) -> str:
    """Text for HTML or for Graphviz's HTML-like labels (XML): markup escaped, characters XML
    cannot hold written as code points."""
    import html  # with its table of entities, a millisecond of every command's start

    return html.escape(xml_text(text), quote=True)


def terminal_text(text: str) -> str:
    """Text for a terminal: every control or format character but the newline (escape sequences,
    bell, carriage return, the bidirectional overrides, line separators) written as its code point,
    ``\\x1b`` or ``\\u202e``, so that it is shown, never obeyed."""
    return "".join(c if c == "\n" or not _commands_terminal(c) else
                   (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}") for c in text)


def _commands_terminal(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")
