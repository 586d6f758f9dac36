"""The proven optimal books that come with treegen, one per preset game and hard mode, so that an
installed treegen plays and advises from them offline, from any folder.

They are the library's own books (``books/``), packed by ``treegen books package`` into this
package compressed (xz), with a manifest naming each file's SHA-256 over its uncompressed bytes;
the certificates small enough to ship (:data:`CERTIFICATE_BYTES`) come too, so that ``treegen
verify`` can check the claim again (``treegen books installed --to FOLDER`` writes them out). A
file is checked against the manifest whenever it is read: a damaged or swapped one is refused, never
used. A test holds the packed copies equal to ``books/``.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import re
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

from treegen.data import BookData
from treegen.errors import BookError, GameError, PathError
from treegen.files.atomic import write_atomic
from treegen.player import HARD_MODES, brief
from treegen.rules.game import Game

if TYPE_CHECKING:
    from treegen.api import Book

#: The book of each preset game, by (game, hard mode): the proven optimum within the guesses the
#: game allows (Wordle's six: its hard modes' unlimited optima need eight and seven), certified by
#: the library's checker. Muertos y Heridos' is its bounded search's book with every class of its
#: first guess solved exactly and grafted in, proven optimal by the records of every first guess.
PRESET_BOOKS: dict[tuple[str, str], str] = {
    ("bulls-and-cows", ""): "bulls-and-cows-optimal-all",
    ("mastermind", ""): "mastermind-optimal-all",
    ("mastermind", "strict"): "mastermind-hard-optimal-all",
    ("muertos-y-heridos", ""): "muertos-y-heridos-optimal-width3-below200-first0123-grafted-all",
    ("wordle", ""): "wordle-optimal-all",
    ("wordle", "strict"): "wordle-hard-optimal-depth6-all",
    ("wordle", "hints"): "wordle-hints-optimal-depth6-all",
}
MANIFEST = "manifest.json"
#: Certificates up to this size are shipped beside their books; a larger one is named only, as is
#: a grafted book's, which rests on its records' certificates (megabytes).
CERTIFICATE_BYTES = 300 * 1024
#: The most bytes an installed file may announce, or a manifest hold.
MOST_BYTES = 64 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,199}\Z")


@dataclass(frozen=True)
class Installed:
    """One installed book: its name in the library, its file's SHA-256 and size, and its
    certificate's (``certificate_sha256`` None: not shipped, ``certificate_bytes`` its size)."""

    name: str
    sha256: str
    bytes: int
    certificate_sha256: str | None
    certificate_bytes: int
    #: Whether the library's checker checked that certificate against this very book.
    certified: bool

    @property
    def shipped_certificate(self) -> bool:
        return self.certificate_sha256 is not None


def _folder() -> Any:
    return resources.files(__name__)


def manifest() -> dict[str, Installed]:
    """The installed books by name, from the manifest, every field checked."""
    try:
        raw = (_folder() / MANIFEST).read_bytes()
    except OSError as exc:
        raise BookError(f"the installed books' manifest cannot be read: {exc}") from None
    if len(raw) > MOST_BYTES:
        raise BookError("the installed books' manifest is too large")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise BookError(f"the installed books' manifest is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != 1 or not isinstance(data.get("books"), dict):
        raise BookError("the installed books' manifest is not treegen's (format 1, books)")
    found = {}
    for name, entry in data["books"].items():
        problem = _entry_problem(name, entry)
        if problem:
            raise BookError(f"the installed books' manifest: {problem}")
        found[name] = Installed(name, entry["sha256"], entry["bytes"],
                                entry["certificate_sha256"], entry["certificate_bytes"],
                                entry["certified"])
    return found


def _entry_problem(name: object, entry: object) -> str | None:
    if not isinstance(name, str) or not _NAME.match(name):
        return f"{brief(name)} is not a book's name"
    if not isinstance(entry, dict):
        return f"{name}: not a mapping"
    cert = entry.get("certificate_sha256")
    for key in ("bytes", "certificate_bytes"):
        size = entry.get(key)
        if type(size) is not int or not 0 <= size <= MOST_BYTES:
            return f"{name}: {key} is not a size up to {MOST_BYTES}"
    if not isinstance(entry.get("sha256"), str) or not _SHA256.match(entry["sha256"]):
        return f"{name}: sha256 is not a SHA-256"
    if cert is not None and (not isinstance(cert, str) or not _SHA256.match(cert)):
        return f"{name}: certificate_sha256 is not a SHA-256"
    if type(entry.get("certified")) is not bool:
        return f"{name}: certified is not true or false"
    return None


def read(name: str, certificate: bool = False) -> bytes:
    """An installed book's bytes (or its certificate's), uncompressed and checked against the
    manifest: a damaged or swapped file is a one-line BookError."""
    entry = manifest().get(name)
    if entry is None:
        raise BookError(f"no installed book is named {brief(name)}")
    digest, size = (entry.certificate_sha256, entry.certificate_bytes) if certificate else \
        (entry.sha256, entry.bytes)
    what = f"the installed {'certificate' if certificate else 'book'} {name}"
    if digest is None:
        raise BookError(f"{what} is not installed ({entry.certificate_bytes} bytes: "
                        "treegen books certify writes it again)")
    try:
        packed = (_folder() / _file(name, certificate)).read_bytes()
    except OSError as exc:
        raise BookError(f"{what} cannot be read: {exc.strerror or exc}") from None
    try:
        unpacker = lzma.LZMADecompressor(lzma.FORMAT_XZ)
        text = unpacker.decompress(packed, max_length=size + 1)
    except lzma.LZMAError as exc:
        raise BookError(f"{what} is damaged ({exc}): reinstall treegen") from None
    if len(text) != size or not unpacker.eof or unpacker.unused_data:
        raise BookError(f"{what} is damaged (not the {size} bytes its manifest names): "
                        "reinstall treegen")
    if hashlib.sha256(text).hexdigest() != digest:
        raise BookError(f"{what} is damaged (its SHA-256 is not its manifest's): reinstall treegen")
    return text


def _file(name: str, certificate: bool) -> str:
    return f"{name}.cert.xz" if certificate else f"{name}.json.xz"


def name_for(game: Game) -> str | None:
    """The installed book of ``game``, a preset or one of its hard modes (None for any other)."""
    return PRESET_BOOKS.get((game.name, game.hard or ""))


def book_data(game: Game) -> BookData | None:
    """The installed book of ``game``, read and checked, or None when it has none (another game
    under a preset's name, such as Wordle with other lists, has none either)."""
    from treegen import book as books
    name = name_for(game)
    if name is None:
        return None
    data = books.loads(read(name).decode("utf-8"), f"the installed book {name}")
    if Game.from_dict(data["game"]).identity() != game.identity():
        return None
    return data


def load_preset(game: Game | str, hard: bool | str = False) -> Book:
    """The proven optimal book of a preset game that comes with treegen (``hard``: True or
    "strict" for its hard mode, "hints" for Wordle's), read offline and checked against its
    digest."""
    from dataclasses import replace

    from treegen.api import Book
    if isinstance(game, str):
        game = Game.preset(game)
    if not isinstance(game, Game):
        raise GameError(f"game must be a Game or a preset's name, not {brief(game)}")
    if hard is not False:
        game = replace(game, hard=cast(str, hard))  # the game checks the mode (True: strict)
    data = book_data(game)
    if data is None:
        presets = ", ".join(f"{g}{' ' + HARD_MODES[h].flag if h else ''}" for g, h in PRESET_BOOKS)
        raise GameError(f"treegen comes with no book of {game.title}; it has books of {presets}")
    return Book(data)


def pack(library: str | os.PathLike[str], folder: str | os.PathLike[str]) -> list[str]:
    """Write the preset books of ``library`` (a ``books/`` folder) into ``folder`` compressed,
    their small certificates too, and the manifest; returns the files written. A book whose
    certificate the library's manifest does not record as checked against it is refused."""
    library = os.fspath(library)
    try:
        with open(os.path.join(library, "certificates.json"), encoding="utf-8") as fh:
            checked = json.load(fh)["books"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PathError(f"{library}: no manifest of certificates ({exc})") from None
    books: dict[str, Any] = {}
    written = []
    for name in sorted(PRESET_BOOKS.values()):
        text = _read_library(library, f"{name}.json")
        digest = hashlib.sha256(text).hexdigest()
        cert = checked.get(name) if isinstance(checked, dict) else None
        if not isinstance(cert, dict) or cert.get("book_sha256") != digest:
            raise BookError(f"{name}: the library records no certificate checked against this book")
        size = cert.get("bytes")
        if type(size) is not int or size < 0:
            raise BookError(f"{name}: the library's manifest gives its certificate no size")
        entry = {"sha256": digest, "bytes": len(text), "certificate_sha256": None,
                 "certificate_bytes": size, "certified": True}
        files = [(_file(name, False), text)]
        if size <= CERTIFICATE_BYTES and cert.get("committed") and not _grafted(text):
            proof = _read_library(library, str(cert.get("file")))
            entry["certificate_sha256"] = hashlib.sha256(proof).hexdigest()
            entry["certificate_bytes"] = len(proof)
            files.append((_file(name, True), proof))
        for file, content in files:
            write_atomic(os.path.join(folder, file), lzma.compress(content, preset=9))
            written.append(file)
        books[name] = entry
    text_ = json.dumps({"format": 1, "books": books}, indent=1, sort_keys=True) + "\n"
    write_atomic(os.path.join(folder, MANIFEST), text_)
    return [*written, MANIFEST]


def _grafted(text: bytes) -> bool:
    try:
        strategy = json.loads(text).get("strategy")
    except (ValueError, AttributeError):
        raise BookError("a preset book of the library is not a book") from None
    return isinstance(strategy, dict) and "grafted" in strategy


def _read_library(library: str, file: str) -> bytes:
    try:
        with open(os.path.join(library, os.path.basename(file)), "rb") as fh:
            return fh.read(MOST_BYTES + 1)
    except OSError as exc:
        raise PathError(f"{library}/{file}: {exc.strerror or exc}") from None


def unpack(folder: str | os.PathLike[str]) -> list[str]:
    """Write every installed book, and each certificate shipped, into ``folder`` as plain files
    (``treegen verify BOOK --certificate CERT`` reads them); returns their names."""
    written = []
    for name, entry in sorted(manifest().items()):
        files = [(f"{name}.json", read(name))]
        if entry.shipped_certificate:
            files.append((f"{name}.cert", read(name, certificate=True)))
        for file, content in files:
            write_atomic(os.path.join(folder, file), content)
            written.append(file)
    return written


def default_folder() -> str:
    """This package's folder, where ``pack`` writes by default."""
    return os.path.dirname(os.path.abspath(__file__))
