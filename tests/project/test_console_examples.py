"""Every console example of README.md and docs/*.md prints what it shows.

A ```console block is a session: each ``$ treegen ...`` line is run, in order, in a fresh folder
of its own, and what it prints (standard output and error together) must be the lines shown under
it, line by line (trailing spaces aside); a line ``...`` stands for any number of lines the
example leaves out. A command that shows ``Error: ...`` must fail, every other must succeed.

Markers, an HTML comment on the line before the block (invisible on the rendered page):

- ``<!-- not run: WHY -->`` keeps a block out of the run (a build of minutes, an interactive
  session); it must say why, and its commands must still parse (the commands and options exist).
- ``<!-- with books/NAME ... -->`` copies those files of the library into the folder first, for an
  example that starts from a book it does not build.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import click
import pytest

from treegen.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
MARKER = re.compile(r"<!--\s*(not run|with)\b:?\s*(.*?)\s*-->", re.S)


class Block(NamedTuple):
    path: Path
    line: int
    marker: str  # "", "not run" or "with"
    argument: str  # why it is not run, or the files it starts with
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    def commands(self) -> list[tuple[str, list[str]]]:
        """(command line, the lines it shows) of each ``$`` line."""
        found: list[tuple[str, list[str]]] = []
        for line in self.text.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                assert found, f"{self.name}: output before the first command"
                found[-1][1].append(line)
        return found


def console_blocks() -> list[Block]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) != "console":
                continue
            before = text[:match.start()].rstrip().rsplit("\n", 1)[-1]
            marker = MARKER.fullmatch(before.strip())
            found.append(Block(path, text.count("\n", 0, match.start()) + 1,
                               marker.group(1) if marker else "", marker.group(2) if marker else "",
                               match.group(2)))
    return found


BLOCKS = console_blocks()
RUN = [b for b in BLOCKS if b.marker != "not run"]
NOT_RUN = [b for b in BLOCKS if b.marker == "not run"]


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, a shown ``...`` standing for any lines."""
    if not shown:
        return not printed
    if shown[0].strip() == "...":
        return any(matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and shown[0].rstrip() == printed[0].rstrip() and matches(shown[1:], printed[1:])


def treegen_words(line: str) -> list[str]:
    words = shlex.split(line)
    assert words[0] == "treegen", line
    return words[1:]


def test_the_examples_are_found():
    assert len(RUN) >= 10 and NOT_RUN
    assert any(b.path.name == "README.md" for b in RUN)


@pytest.mark.parametrize("block", RUN, ids=lambda b: b.name)
def test_a_console_example_prints_what_it_shows(block, tmp_path):
    for name in block.argument.split() if block.marker == "with" else []:
        shutil.copy(ROOT / name, tmp_path / Path(name).name)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "80", "LINES": "24"}
    for line, shown in block.commands():
        out = subprocess.run([sys.executable, "-m", "treegen", *treegen_words(line)], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             text=True, env=env, timeout=120)
        printed = out.stdout.splitlines()
        fails = any(s.startswith("Error: ") for s in shown)
        assert (out.returncode != 0) == fails, (block.name, line, out.stdout)
        assert matches(shown, printed), (
            f"{block.name}: $ {line}\n--- shown\n" + "\n".join(shown) + "\n--- printed\n" + out.stdout)


@pytest.mark.parametrize("block", NOT_RUN, ids=lambda b: b.name)
def test_an_example_not_run_says_why_and_parses(block):
    assert len(block.argument.split()) >= 3, f"{block.name}: say why it is not run"
    for line, _ in block.commands():
        words = treegen_words(line)
        command: click.Command = main
        with main.make_context("treegen", list(words), resilient_parsing=True) as ctx:
            rest = unparsed(ctx)
            while isinstance(command, click.Group) and rest:
                name, found, rest = command.resolve_command(ctx, rest)
                assert found is not None, line
                command = found
                ctx = command.make_context(name, list(rest), parent=ctx, resilient_parsing=True)
                if isinstance(command, click.Group):
                    rest = unparsed(ctx)
        known = {o for p in command.params for o in (*p.opts, *p.secondary_opts)}
        options = [w.partition("=")[0] for w in rest if w.startswith("-") and w != "--"]
        assert set(options) <= known, (block.name, line, set(options) - known)


def unparsed(ctx: click.Context) -> list[str]:
    """A group's words left for its subcommand (``protected_args`` is deprecated from click 8.2)."""
    fields = vars(ctx)
    return [*fields.get("_protected_args", fields.get("protected_args", [])), *ctx.args]


def test_the_markers_are_where_they_act():
    """A marker that is not right before a console block would be ignored silently."""
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for match in MARKER.finditer(text):
            after = text[match.end():].lstrip("\n")
            assert after.startswith("```console"), (path.name, match.group(0))


def test_every_command_example_is_a_console_block():
    """A ``$ treegen`` line in a block of another language would escape the run."""
    for path in DOCUMENTS:
        for match in FENCE.finditer(path.read_text(encoding="utf-8")):
            if match.group(1) != "console":
                assert not re.search(r"^\$ treegen", match.group(2), re.M), (path.name, match.group(0)[:60])
