"""Every code block of the README runs as a test: the fresh-machine commands, the command-line
session (run by test_console_examples.py with every console example of the documentation), the
Python examples."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests import test_api, test_player
from tests.project import test_console_examples

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: The section of each code block, in order, and the test that runs it.
BLOCKS = {
    "Fresh machine": ["test_the_fresh_machine_commands_install_this_package_and_build"],
    "Try it": [test_console_examples.test_a_console_example_prints_what_it_shows.__name__],
    "Running the tests": ["test_the_fresh_machine_test_command_is_the_ci_script"],
    "Python API": [test_api.test_readme_python_api_runs_as_written.__name__],
    "Embedding a book": [test_player.test_readme_embed_example_runs_as_written.__name__],
}


def blocks():
    """(section, language, text) of every fenced block."""
    found, section = [], None
    for match in re.finditer(r"^## ([^\n]+)$|^```(\w*)\n(.*?)^```$", README, re.M | re.S):
        if match.group(1):
            section = match.group(1).strip()
        else:
            found.append((section, match.group(2), match.group(3)))
    return found


def test_every_block_has_a_test_that_runs_it():
    sections = [section for section, _, _ in blocks()]
    assert sections == [s for s, tests in BLOCKS.items() for _ in tests]
    here = sys.modules[__name__]
    for section, tests in BLOCKS.items():
        for name in tests:
            modules = (here, test_api, test_console_examples, test_player)
            assert any(hasattr(m, name) for m in modules), (section, name)


def block(section, index=0):
    return [text for s, _, text in blocks() if s == section][index]


def test_the_fresh_machine_commands_install_this_package_and_build(tmp_path):
    install, _, command = block("Fresh machine").strip().partition(" && ")
    assert install == "pip install ."
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # tomllib is Python 3.11+
    name = re.search(r'^name = "([^"]+)"$', project, re.M).group(1)
    assert f"`{name}`" in README.split("## Fresh machine", 1)[1].split("\n## ", 1)[0]
    from importlib.metadata import distribution
    assert distribution(name).entry_points.select(group="console_scripts")["treegen"].value == \
        "treegen.cli.entry:main"
    words = shlex.split(command)
    assert words[0] == "treegen"
    out = subprocess.run([sys.executable, "-m", "treegen", *words[1:]], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.startswith("wrote bulls-and-cows-minimax-all.json")


def test_the_fresh_machine_test_command_is_the_ci_script():
    assert block("Running the tests").strip() == "bash .ci/run"
    script = ROOT / ".ci" / "run"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0  # it parses
    command = "python3 -m pytest -q -n auto --maxprocesses 4 --dist loadfile"
    assert command in script.read_text(encoding="utf-8")
    assert f"The test command itself is `{command}`" in README


def test_the_install_and_the_first_command_come_first():
    """A newcomer finds how to install and what to type within the first screen."""
    top = README.splitlines()[:30]
    assert "pip install . && treegen build --strategy minimax" in top
    assert any(line.startswith("$ treegen ") for line in top)


def test_the_try_it_session_is_run():
    session = [b for b in test_console_examples.RUN if b.path.name == "README.md"]
    assert [b.text for b in session] == [block("Try it")]
    commands = [line for line, _ in session[0].commands()]
    for shown in ("treegen next --game wordle", "treegen play --game mastermind", "treegen books installed",
                  "treegen games", "treegen site "):
        assert any(line.startswith(shown) for line in commands), shown


def test_the_embedding_example_reads_the_book_the_api_example_saves():
    api, embed = block("Python API"), block("Embedding a book")
    name = re.search(r'Player\.from_file\("([^"]+)"\)', embed).group(1)
    assert f'book.save("{name}")' in api
