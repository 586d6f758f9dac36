"""The CLI reference, ``docs/cli.md``, generated from the commands' own ``--help``.

Generated rather than written so that it cannot drift: a test compares the file with what this
module makes. Regenerate it with ``python -m treegen.cli.reference docs/cli.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import click

from treegen.files.atomic import write_atomic

_HEAD = """# Command-line reference

Generated from `treegen --help` and the help of every command by
`python -m treegen.cli.reference docs/cli.md`; a test checks that it is current.
"""


def _commands(group: click.Group, ctx: click.Context, path: list[str]) -> Iterator[tuple[list[str], str]]:
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        sub = click.Context(command, info_name=name, parent=ctx, terminal_width=100, max_content_width=100)
        yield [*path, name], command.get_help(sub)
        if isinstance(command, click.Group):
            yield from _commands(command, sub, [*path, name])


def markdown() -> str:
    """The reference: the group's help, then each command's, in name order."""
    from treegen.cli.main import main

    ctx = click.Context(main, info_name="treegen", terminal_width=100, max_content_width=100,
                        **main.context_settings)
    parts = [_HEAD, "## treegen\n", "```text\n" + main.get_help(ctx) + "\n```\n"]
    for path, text in _commands(main, ctx, ["treegen"]):
        parts.append(f"## {' '.join(path)}\n")
        parts.append("```text\n" + text + "\n```\n")
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.exit("usage: python -m treegen.cli.reference FILE")
    write_atomic(args[0], markdown().encode())


if __name__ == "__main__":
    main()
