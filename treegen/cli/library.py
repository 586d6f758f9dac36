"""``treegen books``: rebuild the book library in ``books/`` and its index."""

from __future__ import annotations

import os
import sys
import time

import click

from treegen import book as books
from treegen.cli.support import jobs_for, say
from treegen.player import HARD_MODES


@click.group(name="books")
def library_group() -> None:
    """The strategy book library: every preset game with every strategy, pictures and an index.

    \b
    Examples:
      treegen books rebuild books
      treegen books rebuild books --only 'mastermind-*' --force
      treegen books certify books
      treegen books index books
    """


def _library_folder(folder: str) -> str:
    """The folder as the user wrote it, tidied: the index's commands name it that way."""
    return os.path.normpath(folder)


@library_group.command(name="rebuild")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Rebuild books that are up to date too.")
@click.option("--only", default=None, metavar="PATTERN",
              help="Only the books whose name matches a shell pattern (comma-separated for several).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="optimal: worker processes [default: all cores].")
@click.option("--dry-run", is_flag=True, help="Only say which books are out of date, and why.")
def library_rebuild(folder: str, force: bool, only: str | None, jobs: int | None,
                    dry_run: bool) -> None:
    """Build every book of the library that is out of date, draw its picture, and rewrite the index.

    A book is up to date when its file records the game and strategy parameters of its entry and
    its picture is stamped with that very file and this treegen version.

    \b
    Examples:
      treegen books rebuild books
      treegen books rebuild books --only bulls-and-cows-optimal-all
      treegen books rebuild books --only 'mastermind-*,*-entropy-*' --force
    """
    from treegen import library
    folder = _library_folder(folder)
    tasks = library.tasks(folder, force=force, only=only)
    width = len(str(len(tasks)))
    built = 0
    for number, task in enumerate(tasks, 1):
        prefix = f"[{number:>{width}}/{len(tasks)}] {task.entry.name}"
        if task.reason is None:
            say(f"{prefix}: up to date")
            continue
        if dry_run:
            say(f"{prefix}: {task.reason}; would {'build' if task.book else 'draw'} it")
            continue
        start = time.monotonic()
        try:
            result = library.update(task, folder, jobs=jobs_for(jobs))
        except KeyboardInterrupt:
            say(f"\ninterrupted: {task.entry.name} was not written; the {built} book"
                       f"{'s' if built != 1 else ''} built before it are kept", err=True)
            sys.exit(130)
        seconds = time.monotonic() - start
        built += result is not None
        what = f"built: {books.summary(result)}" if result is not None else "picture drawn"
        say(f"{prefix}: {task.reason}; {what} ({seconds:.1f} s)")
    if not dry_run:
        say(f"wrote {library.write_index(folder, folder)}")


@library_group.command(name="index")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
def library_index(folder: str) -> None:
    """Regenerate the library's README.md (the table of books) from the books in FOLDER.

    \b
    Example:
      treegen books index books
    """
    from treegen import library
    folder = _library_folder(folder)
    say(f"wrote {library.write_index(folder, folder)}")


@library_group.command(name="certify")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
@click.option("--only", default=None, metavar="PATTERN",
              help="Only the books whose name matches a shell pattern (comma-separated for several).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes checking the premises of a grafted book's certificate (its "
                   "records' class certificates).")
def library_certify(folder: str, only: str | None, jobs: int) -> None:
    """Write and check the certificates the library's books and records lack, and the manifest.

    Every book that claims a bound (the optimal books, a bounded search's book, a grafted book)
    gets a certificate beside it, and every proven class of an opening's record one in the
    record's folder; each is checked by the independent checker as it is written, and
    certificates.json records its size and the seconds it took to write and to check. A
    grafted book's certificate is checked premise by premise: stopped, the same command goes on
    from the premises checked.

    \b
    Examples:
      treegen books certify books
      treegen books certify books --only 'mastermind-*'
    """
    from treegen import library
    from treegen.library.certificates import certify_library
    folder = _library_folder(folder)
    certify_library(folder, library.select(only), say, jobs)
    say(f"wrote {library.write_index(folder, folder)}")


@library_group.command(name="package")
@click.argument("folder", default="books", type=click.Path(file_okay=False))
def library_package(folder: str) -> None:
    """Pack the preset games' proven optimal books of FOLDER into treegen's package (compressed,
    with their small certificates and a manifest of digests), so an install plays from them.

    \b
    Examples:
      treegen books package books
    """
    from treegen import presets
    target = presets.default_folder()
    for file in presets.pack(_library_folder(folder), target):
        say(f"wrote {os.path.join(target, file)}")


@library_group.command(name="installed")
@click.option("--to", "folder", default=None, type=click.Path(file_okay=False),
              help="Write the books and their certificates into this folder, as plain files.")
def library_installed(folder: str | None) -> None:
    """The proven optimal books installed with treegen, each checked against its digest.

    `treegen next` and `treegen play --game` use them; --to writes them out, so that `treegen
    verify BOOK --certificate CERT` checks their claims again.

    \b
    Examples:
      treegen books installed
      treegen books installed --to proven && treegen verify proven/mastermind-optimal-all.json \\
        --certificate proven/mastermind-optimal-all.cert
    """
    from treegen import presets
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
        for file in presets.unpack(folder):
            say(f"wrote {os.path.join(folder, file)}")
        return
    found = presets.manifest()
    for (game, hard), name in sorted(presets.PRESET_BOOKS.items()):
        entry = found.get(name)
        if entry is None:
            continue
        data = books.loads(presets.read(name).decode("utf-8"), name)
        size = entry.certificate_bytes
        rests = ", resting on its records' certificates" if "grafted" in data["strategy"] else ""
        proof = "certificate installed" if entry.shipped_certificate else \
            f"certificate not installed ({_size(size)}{rests})"
        say(f"{game}{' ' + HARD_MODES[hard].flag if hard else ''}: {name}, "
            f"first {data['strategy']['first']}, total {data['stats']['total']}, "
            f"{data['stats']['average']:.4f} a secret, max {data['stats']['max']}; {proof}")


def _size(size: int) -> str:
    return f"{size / 2**20:.1f} MiB" if size >= 2**20 else f"{size / 2**10:.1f} KiB"
