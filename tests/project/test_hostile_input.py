"""Bad input gets one line and a non-zero exit: hostile books, answers, settings and strategies."""

import copy
import json
import shutil
import subprocess
import sys
import textwrap
import tracemalloc
import unicodedata

import pytest

from tests.helpers.ci import IN_CI, requires_binary
from treegen import book as books
from treegen.api import build_book
from treegen.book.replay import verify
from treegen.errors import BookError, GameError, RenderError
from treegen.player import Player, PlayerError, check_book
from treegen.rules.game import Game
from treegen.search.options import SearchOptions
from treegen.sessions.play import make_player, session
from treegen.settings import SettingError, parse_size
from treegen.views.dot import dot_source

READERS = [["verify"], ["stats"], ["stats", "--json"], ["play", "--secret", "1234"],
           ["render", "--format", "dot", "-o", "out.dot"], ["export", "-o", "out.graphml"],
           ["site", "-o", "site"]]


def one_line_error(result):
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def small_book():
    return build_book(Game("ABC", 2, True), "minimax")


def book_text(change):
    data = small_book()
    change(data)
    return json.dumps(data, ensure_ascii=True)


HOSTILE_BOOKS = [
    ("huge total", book_text(lambda b: b["stats"].update(total=0)).replace(
        '"total": 0', '"total": 1' + "0" * 5000), "not a treegen book"),
    ("NaN", book_text(lambda b: b["stats"].update(average=0.5)).replace("0.5", "NaN"),
     "NaN is not a number"),
    ("Infinity", book_text(lambda b: b["stats"].update(average=0.5)).replace("0.5", "1e999"),
     "out of range"),
    ("surrogate", book_text(lambda b: b["strategy"].update(name="\ud800x")),
     "strategy holds text that is not valid Unicode"),
    ("surrogate symbol", book_text(lambda b: b["game"].update(name="\udfff")),
     "game holds text that is not valid Unicode"),
    ("histogram ²", book_text(lambda b: b["stats"].update(histogram={"²": 9})), "stats.histogram"),
    ("histogram deep", book_text(lambda b: b["stats"].update(histogram={"99999999999999999999": 9})),
     "stats.histogram"),
    ("histogram deeper than the tree", book_text(lambda b: b["stats"].update(histogram={"9": 9})),
     "counts secrets at depth 9; the tree has 4 levels"),
    ("version true", book_text(lambda b: b.update(version=True)), "unsupported book format version True"),
    ("version 1.0", book_text(lambda b: b.update(version=1.0)), "unsupported book format version 1.0"),
    ("arabic digits", book_text(lambda b: b["tree"]["next"].update({"٠A١B": b["tree"]["next"]["0A0B"]})),
     "is not a feedback like 1A2B"),
    ("leading zero", book_text(lambda b: b["tree"]["next"].update({"00A1B": b["tree"]["next"]["0A0B"]})),
     "is not a feedback like 1A2B"),
    ("length 2000", book_text(lambda b: b["game"].update(length=2000)), "length must be between 1 and 20"),
    ("300 symbols", book_text(lambda b: b["game"].update(symbols="".join(map(chr, range(256, 556))))),
     "at most 256 symbols"),
]


#: Problems in sections play does not read: the loader refuses them, the standalone player plays on.
NOT_PLAYED = {"surrogate", "surrogate symbol", "histogram ²", "histogram deep",
              "histogram deeper than the tree"}


@pytest.mark.parametrize("name, text, words", HOSTILE_BOOKS, ids=[case[0] for case in HOSTILE_BOOKS])
def test_hostile_books_are_refused_in_one_line_by_every_reader(run, tmp_path, name, text, words):
    """``name`` is the test's id: the texts are long."""
    (tmp_path / "b.json").write_text(text, encoding="utf-8")
    with pytest.raises(BookError, match=words):
        books.load(tmp_path / "b.json")
    if name in NOT_PLAYED:
        assert Player.from_file(tmp_path / "b.json").remaining() == 9
    else:
        with pytest.raises(PlayerError, match=words):
            Player.from_file(tmp_path / "b.json")
    for command in READERS:
        line = one_line_error(run(command[0], "b.json", *command[1:]))
        assert words.split()[0] in line, (command, line)


def test_the_player_and_the_loader_apply_one_contract(mastermind_minimax):
    """The same verdict on Python-built books too (no JSON parser in between): what the player
    refuses the loader refuses, and the loader alone refuses bad sections that play does not use."""
    unplayable = [dict(mastermind_minimax, version=True), dict(mastermind_minimax, version=2),
                  dict(mastermind_minimax, tree={"guess": "1127", "next": {}}),
                  dict(mastermind_minimax, game={**mastermind_minimax["game"], "repetition": 1})]
    for case in unplayable:
        problem = check_book(case)
        assert problem is not None and books.check(case) == problem
        with pytest.raises(PlayerError, match="not a usable treegen book"):
            Player(case)
    stats = mastermind_minimax["stats"]
    playable = [dict(mastermind_minimax, stats={**stats, "average": float("nan")}),
                dict(mastermind_minimax, stats={**stats, "total": 10 ** 5000}),
                dict(mastermind_minimax, strategy={**mastermind_minimax["strategy"], "seed": 10 ** 5000}),
                dict(mastermind_minimax, strategy={**mastermind_minimax["strategy"], "first": "1199"})]
    for case in playable:
        assert check_book(case) is None and books.check(case) is not None
        assert Player(case).remaining() == 1296


def test_huge_answers_are_refused_not_crashed(mastermind_minimax):
    player = Player(mastermind_minimax)
    for answer in ("1" * 5000 + "A0B", "1" * 5000 + ",0", (10 ** 5000, 0), "٣A٠B"):
        with pytest.raises(PlayerError):
            player.answer(answer)
    assert player.history == []


def test_play_session_survives_huge_answers(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("play", "mm.json", input="1" * 5000 + "A0B\nquit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "cannot read answer" in result.output


def test_more_than_256_symbols_are_refused_in_one_line(run):
    symbols = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 300))
    for rule in ("--repetition", "--no-repetition"):
        line = one_line_error(run("build", "--symbols", symbols, "--length", "1", rule))
        assert "at most 256 symbols, not 300" in line


def test_site_and_render_handle_what_the_loader_accepts(tmp_path):
    data = small_book()
    data["stats"]["histogram"] = {}
    assert books.check(data) is None
    # a game named mastermind with 12 symbols: drawn as text (there are 10 peg colours)
    wide = build_book(Game("ABCDEFGHIJKL", 1, True), "minimax")
    wide["game"]["name"] = "mastermind"
    assert books.check(wide) is None and "&#9679;" not in dot_source(wide)
    with pytest.raises(RenderError, match="pegs come in 10 colours"):
        dot_source(wide, pegs=True)


@requires_binary("dot")
def test_a_site_of_a_book_with_an_empty_histogram(tmp_path):
    from treegen.views.site import build_site
    data = small_book()
    data["stats"]["histogram"] = {}
    wide = build_book(Game("ABCDEFGHIJKL", 1, True), "minimax")
    wide["game"]["name"] = "mastermind"
    build_site([("empty", data), ("wide", wide)], tmp_path / "site")
    assert (tmp_path / "site" / "index.html").exists()


def test_the_player_validates_before_it_builds_anything():
    game = {"name": "custom", "symbols": "AB", "length": 2000, "repetition": True}
    data = books.make_book(game, {"name": "x", "pool": "all", "first": "A" * 2000},
                           {"guess": "A" * 2000, "next": {}}, [1])
    tracemalloc.start()
    with pytest.raises(PlayerError, match="length must be between 1 and 20"):
        Player(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5 * 2 ** 20


def huge_game_book():
    game = {"name": "custom", "symbols": "0123456789", "length": 12, "repetition": True}
    return books.make_book(game, {"name": "x", "pool": "all", "first": "0" * 12},
                           {"guess": "0" * 12, "next": {"0A0B": {"guess": "1" * 12, "next": {}}}},
                           [1, 2])


def test_verify_refuses_a_game_too_large_for_memory(run, tmp_path):
    with pytest.raises(GameError, match="1,000,000,000,000 codes and needs about"):
        verify(huge_game_book())
    books.save(huge_game_book(), tmp_path / "huge.json")
    assert "needs about" in one_line_error(run("verify", "huge.json"))


def test_play_does_not_rescore_a_game_too_large_for_memory():
    """No file of such a game is read (every reader refuses it), but a book held in memory is
    played, and an impossible answer is not rescored over 10^12 codes."""
    said: list[str] = []
    answers = iter(["0A0B", "0A1B", "quit"])
    session(make_player(huge_game_book()), lambda prompt: next(answers), said.append)
    assert any("cannot look for the mistyped answer" in line for line in said)


def test_jobs_are_clamped_to_the_processors(run):
    from treegen.registry import make_strategy
    from treegen.run.local import usable_cores
    assert make_strategy("optimal", search=SearchOptions(jobs=10000)).executor.jobs == usable_cores()
    result = run("build", "--symbols", "ABC", "--length", "2", "--no-repetition", "-s", "optimal",
                 "--jobs", "10000")
    assert result.exit_code == 0, result.output
    assert f"--jobs 10000 is more than the {usable_cores()} processor" in result.output


@pytest.mark.parametrize("body, words", [
    ("raise GeneratorExit", "failed at the start of the game: GeneratorExit"),
    ("class Odd(BaseException): pass\n    raise Odd('strange')", "Odd: strange"),
    ("import sys\n    sys.exit(3)", "it called sys.exit(3)"),
])
def test_a_strategy_that_raises_anything_is_reported_as_its_failure(run, tmp_path, body, words):
    (tmp_path / "bad_strategy_mod.py").write_text(f"def choose(state):\n    {body}\n")
    sys.modules.pop("bad_strategy_mod", None)
    try:
        line = one_line_error(run("build", "-g", "mastermind", "-s", "bad_strategy_mod:choose"))
    finally:
        sys.modules.pop("bad_strategy_mod", None)
    assert words in line


def test_a_strategy_module_that_exits_while_importing(run, tmp_path):
    (tmp_path / "exits_on_import.py").write_text("import sys\nsys.exit(4)\n")
    line = one_line_error(run("build", "-g", "mastermind", "-s", "exits_on_import:x"))
    assert "cannot import module 'exits_on_import'" in line and "sys.exit(4)" in line


def test_user_strategy_in_the_current_folder_imports_from_the_installed_command(tmp_path):
    command = shutil.which("treegen")
    if command is None:
        if IN_CI:
            pytest.fail("the treegen command is not installed")
        pytest.skip("the treegen command is not installed")
    (tmp_path / "mystrategy.py").write_text("def last(state):\n    return state.codes[-1]\n")
    out = subprocess.run([command, "build", "--game", "mastermind", "--strategy", "mystrategy:last"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "mastermind-mystrategy-last-all.json").exists()


@pytest.mark.parametrize("text, size", [("1000000", 10 ** 6), ("10G", 10 << 30), ("512M", 512 << 20),
                                        ("1.5GiB", 3 << 29), ("800kB", 800_000), ("2 GB", 2 * 10 ** 9)])
def test_sizes(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["abc", "10X", "-5", "", "1e9", "G", "1" * 100, "5i"])
def test_bad_sizes(text):
    with pytest.raises(SettingError, match="is not a size"):
        parse_size(text, "TREEGEN_MEMORY_LIMIT")


def test_a_bad_memory_limit_is_one_line(run, monkeypatch):
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", "abc")
    assert "TREEGEN_MEMORY_LIMIT='abc' is not a size" in one_line_error(run("build", "-g", "mastermind"))
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", "10G")
    assert run("build", "-g", "mastermind").exit_code == 0
    monkeypatch.setenv("TREEGEN_MEMORY_LIMIT", "100K")
    assert "needs about" in one_line_error(run("build", "-g", "muertos-y-heridos"))


def test_stats_json_is_strict_json(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    result = run("stats", "--json", "mm.json")

    def refuse(name):
        raise ValueError(name)

    assert json.loads(result.output, parse_constant=refuse)[0]["total"] == 5801


def test_deep_trees_are_walked_in_linear_time(tmp_path):
    """A chain of 200,000 levels built in Python: quadratic work (copying the path at every level)
    would take hours; each reader must finish in seconds."""
    script = textwrap.dedent("""
        import sys
        from treegen import book as books
        from treegen.player import Player, check_book
        from treegen.views.tree import measure
        from treegen.book.replay import verify
        game = {"name": "custom", "symbols": "01", "length": 2, "repetition": True}
        node = {"guess": "11", "next": {}}
        for _ in range(200_000):
            node = {"guess": "00", "next": {"0A0B": node}}
        data = books.make_book(game, {"name": "chain", "pool": "all", "first": "00"}, node, [1, 2])
        assert check_book(data) is None
        assert Player(data).remaining() == 2
        assert measure(node, game)[id(node)].secrets == 2
        print(verify(data)[0])
        from treegen.book.replay import verify_file
        from treegen.sessions.play import make_player
        from treegen.book.writer import TreeText, save_streamed
        from treegen.player import tree_events
        with open(sys.argv[1] + ".tree", "w+b") as held:  # written node by node, as built
            text = TreeText(held)
            for event in tree_events(node):
                text.enter(*event) if event else text.leave()
            text.close()
            save_streamed(sys.argv[1], data, held)
        print(verify_file(sys.argv[1])[1][0])
        assert books.load_sections(sys.argv[1])["stats"] == data["stats"]
        assert make_player(books.open_book(sys.argv[1])).remaining() == 2
    """)
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "chain.json")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # verify reports the missing branches, from the book held and from its file; it does not hang
    assert out.stdout.count("secret 01") == 2


TERMINAL_ATTACK = "x\x1b]0;PWNED\x07\x1b[2J\x1b[31mRED\r\u202e\u2028\x9b"


def test_a_book_s_names_never_drive_the_terminal(run, tmp_path, mastermind_minimax):
    """Names are free text: what a terminal obeys (OSC titles, bell, carriage return, CSI, the
    bidirectional override, C1 controls) is shown as code points by every command that prints
    them, never sent."""
    book = copy.deepcopy(mastermind_minimax)
    book["game"]["name"] = book["strategy"]["name"] = TERMINAL_ATTACK
    books.save(book, tmp_path / "evil.json")
    broken = copy.deepcopy(book)
    broken["strategy"]["first"] = TERMINAL_ATTACK  # a problem that quotes the file's text
    books.save(broken, tmp_path / "broken.json")
    outputs = [run("verify", "evil.json"), run("stats", "evil.json", "evil.json"),
               run("play", "evil.json", "--secret", "1234"),
               run("play", "evil.json", input="?\nquit\n"), run("verify", "broken.json"),
               run("stats", "--json", "evil.json")]
    for result in outputs:
        text = result.output
        assert not [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl")], \
            repr(text)
    assert "\\x1b]0;PWNED\\x07" in outputs[0].output and "\\u202e" in outputs[1].output
    assert outputs[4].exit_code == 1
