import json
import os
import signal
import subprocess
import sys

import pytest

from treegen import book as books
from treegen.cli.main import main
from treegen.version import __version__

#: The checkout: a subprocess imports treegen from it.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_build_as_typed_writes_the_default_book(run, tmp_path):
    result = run("build", "--strategy", "minimax")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("wrote bulls-and-cows-minimax-all.json: ")
    book = books.load(tmp_path / "bulls-and-cows-minimax-all.json")
    assert book["game"]["name"] == "bulls-and-cows" and book["strategy"]["name"] == "minimax"
    assert f"total {book['stats']['total']}" in result.output


def test_two_builds_are_byte_identical(run, tmp_path):
    for out in ("a.json", "b.json"):
        assert run("build", "-g", "mastermind", "-s", "entropy", "-o", out).exit_code == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_build_custom_game_then_verify_and_stats(run, tmp_path):
    result = run("build", "--symbols", "ABCDE", "--length", "3", "--no-repetition", "-s", "parts")
    assert result.exit_code == 0
    name = "custom-ABCDE-3-norep-parts-all.json"
    assert (tmp_path / name).exists()
    result = run("verify", name)
    assert result.exit_code == 0 and result.output.startswith(f"ok {name}")
    run("build", "--symbols", "ABCDE", "--length", "3", "--no-repetition", "-s", "simple")
    result = run("stats", name, "custom-ABCDE-3-norep-simple-consistent.json")
    lines = result.output.splitlines()
    assert lines[0].split()[:5] == ["book", "game", "strategy", "pool", "first"]
    assert "parts" in lines[1] and "simple" in lines[2]
    rows = json.loads(run("stats", "--json", name).output)
    assert rows[0]["total"] == books.load(tmp_path / name)["stats"]["total"]


def test_verify_fails_on_a_tampered_book(run, tmp_path):
    run("build", "-g", "mastermind", "-s", "simple", "-o", "b.json")
    data = json.loads((tmp_path / "b.json").read_text())
    data["stats"]["max"] = 8
    (tmp_path / "b.json").write_text(json.dumps(data))
    result = run("verify", "b.json")
    assert result.exit_code == 1
    assert "stats.max says 8 but the tree gives 9" in result.output


def test_games_and_strategies_lists(run):
    out = run("games").output
    assert "bulls-and-cows" in out and "5040" in out and "moo" in out and "10000" in out
    out = run("strategies").output
    for name in ("simple", "random", "minimax", "expected", "entropy", "parts", "optimal",
                 "package.module:Name"):
        assert name in out


@pytest.mark.parametrize("command", main.list_commands(None))
def test_every_command_has_help_with_an_example(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output and f"treegen {command}" in result.output


@pytest.mark.parametrize("args, message", [
    (["build", "-g", "chess"], "unknown game 'chess'"),
    (["build", "-s", "best"], "unknown strategy 'best'"),
    (["build", "-s", "simple", "--pool", "all"], "only guesses consistent codes"),
    (["build", "-g", "mastermind", "--first", "1237"], "'7', which is not one of the symbols"),
    (["build", "--first", "1123"], "repeats a symbol"),
    (["build", "--symbols", "0123456789ABCDEF", "--length", "8", "--no-repetition"], "needs about"),
    (["build", "--symbols", "AAB", "--length", "2"], "repeat a symbol"),
    (["build", "-s", "nomodule_zz:x"], "cannot import module"),
    (["build", "-g", "mastermind", "-o", "no/such/dir/b.json"], "cannot write no/such/dir/b.json"),
    (["verify", "missing.json"], "cannot read missing.json"),
    (["stats", "missing.json"], "cannot read missing.json"),
    (["build", "-g", "mastermind", "-s", "optimal", "--max-depth", "99999999999999999999"],
     "max depth must be a whole number at most"),
    (["build", "-g", "mastermind", "-s", "optimal", "--memory", "99999999999999999999T"],
     "is more than any machine has"),
    (["build", "-g", "mastermind", "-s", "optimal", "--width", "99999999999999999999"],
     "width must be a whole number"),
])
def test_bad_input_gives_a_one_line_error(run, args, message):
    result = run(*args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["verify", "stats"])
@pytest.mark.parametrize("content, message", [
    ("{oops", "is not valid JSON"), ('{"format": "treegen-book", "version": 9}', "version 9 is newer"),
    ('{"name": "something else"}', "not a treegen book"),
])
def test_corrupt_books_on_every_reading_command(run, tmp_path, command, content, message):
    (tmp_path / "bad.json").write_text(content)
    result = run(command, "bad.json")
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_python_dash_m_runs_the_cli(tmp_path):
    out = subprocess.run([sys.executable, "-m", "treegen", "games"], capture_output=True, text=True,
                         cwd=tmp_path, check=True).stdout
    assert "mastermind" in out


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_shell_completion_scripts(shell):
    from click.testing import CliRunner
    result = CliRunner().invoke(main, [], prog_name="treegen", env={"_TREEGEN_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0 and "_TREEGEN_COMPLETE" in result.output
    assert f"{shell}_complete" in result.output


@pytest.mark.parametrize("words, cword, expected", [
    ("treegen bu", 1, "build"),
    ("treegen build --game mas", 3, "mastermind"),
    ("treegen build --strategy opt", 3, "optimal"),
    ("treegen play --se", 2, "--secret"),
])
def test_shell_completion_completes_commands_games_and_strategies(words, cword, expected):
    from click.testing import CliRunner
    env = {"_TREEGEN_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(cword)}
    result = CliRunner().invoke(main, [], prog_name="treegen", env=env)
    assert f"plain,{expected}" in result.output.splitlines()


# -- the optimal search's engine --------------------------------------------------------------

def test_engine_ray_without_ray_says_in_one_line_how_to_install_it(run, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as when it is not installed
    result = run("build", "-g", "mastermind", "-s", "optimal", "--engine", "ray")
    assert result.exit_code == 1
    assert result.output == ("Error: --engine ray needs Ray: pip install 'ray[default]>=2.9' (or, in a "
                             "treegen checkout, pip install '.[ray]')\n")
    assert os.listdir(".") == []


def test_a_ray_client_address_is_refused_in_one_line(run):
    result = run("build", "-g", "mastermind", "-s", "optimal", "--engine", "ray", "--address",
                 "ray://head:10001")
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert "Ray Client addresses (ray://) are not supported" in result.output


@pytest.mark.parametrize("words, problem", [
    (["-s", "optimal", "--address", "auto"], "--address joins a Ray cluster: add --engine ray"),
    (["-s", "optimal", "--engine", "ray", "--address", "auto", "-j", "2"],
     "--jobs does not apply with --address"),
    (["-s", "minimax", "--resume"], "apply to --strategy optimal only"),
    (["-s", "minimax", "--address", "auto"], "--address joins a Ray cluster: add --engine ray"),
    (["-s", "minimax", "--engine", "ray", "--address", "auto", "-j", "2"],
     "--jobs does not apply with --address"),
    (["-s", "optimal", "--engine", "spark"], "Invalid value for '--engine'"),
])
def test_engine_options_out_of_place_are_usage_errors(run, words, problem):
    result = run("build", "-g", "mastermind", *words)
    assert result.exit_code == 2 and problem in result.output
    assert os.listdir(".") == []


def test_a_depth_limit_beyond_the_number_of_codes_costs_nothing(run, tmp_path):
    """--max-depth 20000 once took 2.9 GB of bound tables: a limit of as many guesses as the game
    has codes is no limit, so the search runs as without one."""
    # a process of its own that reports its own peak (VmHWM: a forked child's ru_maxrss starts
    # from what the process that started it held)
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc/self/status to read a process's peak memory from")
    peak = tmp_path / "peak"
    code = ("import atexit\n"
            "def peak():\n"
            "    with open('/proc/self/status') as fh:\n"
            "        hwm = next(line for line in fh if line.startswith('VmHWM'))\n"
            f"    open({str(peak)!r}, 'w').write(hwm.split()[1])\n"
            "atexit.register(peak)\n"
            "main()\n")
    limited = _executable(code, ["build", "-g", "mastermind", "-s", "optimal", "--max-depth",
                                 "20000", "-o", "a.json"], tmp_path)
    assert limited.returncode == 0, limited.stderr
    assert run("build", "-g", "mastermind", "-s", "optimal", "-o", "b.json").exit_code == 0
    a, b = (json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json"))
    assert a["tree"] == b["tree"] and a["strategy"]["max_depth"] == 20000
    assert int(peak.read_text()) < 1 << 20  # KiB: under 1 GiB


def _executable(code, args, folder):
    """``code`` run in a process of its own after the ``treegen`` executable's ``main`` is
    imported with ``args`` as its command line."""
    head = f"import sys\nsys.argv = ['treegen', *{args!r}]\nfrom treegen.cli.entry import main\n"
    return subprocess.run([sys.executable, "-c", head + code], cwd=folder, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": ROOT})


def test_the_executable_sets_aside_what_it_loads_and_leaves_the_collector_on(tmp_path):
    """The objects of loading numpy, click and treegen are frozen out of the collector's reach
    (it went through them again and again, a tenth of a small build): what a command makes is
    still collected."""
    code = ("import gc\n"
            "try:\n"
            "    main()\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(gc.isenabled(), gc.get_freeze_count() > 10_000)\n")
    done = _executable(code, ["--version"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["True", "True"]


@pytest.mark.parametrize("args, message", [
    (["build", "--game", "mastremind"], "Error: unknown game 'mastremind'; did you mean 'mastermind'?"),
    (["build", "--strategy", "minmax"], "Error: unknown strategy 'minmax'; did you mean 'minimax'?"),
    (["build", "--strategy", "entrophy"], "did you mean 'entropy'?"),
    (["build", "--game", "muertos"], "did you mean 'muertos-y-heridos'?"),
    (["partitions", "--after", "0123=0A1B,4567"],
     "Error: move '4567' has no =FEEDBACK: write each move as GUESS=FEEDBACK"),
])
def test_typos_get_a_suggestion_and_a_missing_feedback_is_named(run, args, message):
    result = run(*args)
    assert result.exit_code != 0 and message in result.output
    assert "did you mean" not in run("build", "--game", "chess").output  # nothing close: no guess


def test_render_from_names_a_missing_feedback(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("render", "mm.json", "--from", "1122=1A0B,1344", "-o", "x.svg")
    assert result.exit_code != 0
    assert "move '1344' has no =FEEDBACK" in result.output
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("command", [["play", "BOOK"], ["challenge", "--game", "mastermind"]])
def test_ctrl_c_in_an_interactive_session_exits_130(tmp_path, mastermind_minimax, command):
    """Ctrl-C is sent once the session waits for its first answer (read from its output: no
    sleep), and ends the command as an interrupt, not as a finished game."""
    books.save(mastermind_minimax, tmp_path / "mm.json")
    args = [str(tmp_path / "mm.json") if a == "BOOK" else a for a in command]
    process = subprocess.Popen([sys.executable, "-m", "treegen", *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = ""
        while not seen.endswith(": "):  # the first prompt
            char = process.stdout.read(1)
            assert char, f"the session ended before asking: {seen!r}"
            seen += char
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and "interrupted" in err


def test_a_verbose_build_off_a_terminal_logs_its_progress(run, monkeypatch):
    """A long build run into a log says how far it got, so a projection can be made from it."""
    from treegen.cli.support import BuildProgress
    monkeypatch.setattr(BuildProgress, "EVERY", 0.0)
    out = run("build", "--game", "mastermind", "-s", "minimax", "-v", "-o", "b.json").output
    lines = [line for line in out.splitlines() if "secrets placed" in line]
    assert lines and lines[-1].startswith("mastermind minimax: 1,296 of 1,296 secrets placed")
    quiet = run("build", "--game", "mastermind", "-s", "minimax", "-o", "c.json").output
    assert "secrets placed" not in quiet


def test_the_progress_shows_while_no_secret_is_placed_yet(monkeypatch, capsys):
    """A huge game's first guesses take minutes before the first secret is placed: the clock
    shows the bar (or the log's line) all the same. The clock is driven by hand here."""
    from treegen.cli.support import BuildProgress
    monkeypatch.setattr(BuildProgress, "TICK", 1e9)
    monkeypatch.setattr(BuildProgress, "EVERY", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    shown = BuildProgress(823_543, "7 x 7 minimax")
    try:
        shown.start -= 60
        shown.tick()
        assert shown.bar is not None and shown.done == 0
        shown(5)
        assert shown.bar.pos == 5
    finally:
        shown.close()
    assert "7 x 7 minimax" in capsys.readouterr().err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    logged = BuildProgress(823_543, "7 x 7 minimax", lines=True)
    try:
        logged.tick()
    finally:
        logged.close()
    assert "7 x 7 minimax: 0 of 823,543 secrets placed" in capsys.readouterr().err


def test_the_version_is_treegen_s_own(run):
    result = run("--version")
    assert result.exit_code == 0 and result.output == f"treegen, version {__version__}\n"


def test_a_build_loads_no_command_it_does_not_run(tmp_path):
    """The commands of play, drawing, the library and certificates are found when asked for:
    a build in a fresh process imports none of their modules."""
    probe = ("import sys\nfrom treegen.cli.main import main\n"
             "main(['build', '-g', 'mastermind', '-s', 'simple', '-o', sys.argv[1]], "
             "standalone_mode=False)\n"
             "print(sorted(m for m in sys.modules if m.startswith(('treegen.cli.', "
             "'treegen.views.compare'))))\n")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "book.json")], check=True,
                         capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "['treegen.cli.main', 'treegen.cli.support']"
