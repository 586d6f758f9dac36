"""Every code block of the README runs as a test: the fresh-machine commands, the command-line
session (each command run, its output compared line for line), the Python examples."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import test_api
import test_player

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

#: The section of each code block, in order, and the test that runs it.
BLOCKS = {
    "Fresh machine": ["test_the_fresh_machine_commands_install_this_package_and_build",
                      "test_the_fresh_machine_test_command_is_the_ci_script"],
    "Command line": ["test_the_command_line_session_runs_as_shown"],
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
            assert any(hasattr(m, name) for m in (here, test_api, test_player)), (section, name)


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
    assert block("Fresh machine", 1).strip() == "bash .ci/run"
    script = ROOT / ".ci" / "run"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0  # it parses
    assert "python3 -m pytest -q" in script.read_text(encoding="utf-8")
    assert "The test command itself is `python3 -m pytest -q`" in README


def test_the_command_line_session_runs_as_shown(tmp_path):
    session = block("Command line")
    commands = re.split(r"^\$ ", session, flags=re.M)[1:]
    assert len(commands) >= 4
    for chunk in commands:
        line, _, shown = chunk.partition("\n")
        words = shlex.split(line)
        assert words[0] == "treegen"
        out = subprocess.run([sys.executable, "-m", "treegen", *words[1:]], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, (line, out.stderr)
        assert out.stdout.splitlines() == shown.splitlines(), line
