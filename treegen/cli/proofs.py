"""``treegen certify``: certificates of what a book or a record of classes claims."""

from __future__ import annotations

from typing import Any

import click

from treegen.cli.support import SearchStatus, say
from treegen.settings import parse_size


@click.command()
@click.argument("source", type=click.Path(dir_okay=False, exists=True))
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="A book: the certificate file [default: BOOK with .cert for .json].")
@click.option("--memory", default=None, metavar="SIZE",
              help="Memory for the search's caches, e.g. 4G [default: half of what is available].")
def certify(source: str, output: str | None, memory: str | None) -> None:
    """Write the certificate of what a book or a record of classes claims.

    A book's claim (optimal, optimal after its first guess, or a bounded search's lower bound) is
    proven by an exact search that fails to beat it; a record's solved and bounded classes get
    the certificates they lack, beside the record, each checked as it is written. Check a book's
    with `treegen verify BOOK --certificate FILE`.

    \b
    Examples:
      treegen certify mastermind-optimal-all.json
      treegen certify muertos-y-heridos-first0123-classes.json
    """
    from treegen.search.records import FORMAT, read
    size = parse_size(memory, "--memory") if memory is not None else None
    if _is_record(source, FORMAT):
        from treegen.search.classes import certify_record
        read(source)  # a one-line error for a record of another version

        def told(entry: dict[str, Any]) -> None:
            bound = entry["cost"] if "cost" in entry else f"at least {entry['at_least']}"
            say(f"{entry['feedback']} ({entry['secrets']} secrets): {bound}, certificate "
                       f"written in {entry['seconds']} s, checked in {entry['check_seconds']} s")

        record = certify_record(source, size, told)
        say(f"{source}: {record['certified']} of {len(record['classes'])} classes "
                   f"certified; optimum after {record['first']} at least {record['lower_bound']}")
        return
    from treegen import book as books
    from treegen.files.atomic import refuse_sources
    from treegen.proofs import certify as write
    data = books.load(source)
    target = output or (source[:-5] if source.endswith(".json") else source) + ".cert"
    refuse_sources(target, (source,))
    searching = SearchStatus()
    written = write(data, target, size, searching)
    searching.close()
    say(f"wrote {target}: the certificate of {source} ({written:,} bytes)")


def _is_record(path: str, form: str) -> bool:
    """Whether a file says it is a record of classes (its first lines name the format)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(200)
    except OSError:
        return False
    return f'"format": "{form}"' in head
