"""The book library in books/: complete, verified, reproducible byte for byte, and indexed."""

import json
import os
import re
import shlex
import shutil
from dataclasses import replace
from importlib import resources

import jsonschema
import pytest

from tests.helpers.ci import IN_CI, requires_binary
from treegen import __version__, library
from treegen import book as books
from treegen.book.replay import verify
from treegen.errors import LibraryError
from treegen.library import certificates, sources
from treegen.proofs import book_claim, judge
from treegen.rules.game import Game
from treegen.search.facts import facts_folder
from treegen.search.options import SearchOptions
from treegen.views.graphviz import graphviz_version

BOOKS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "books")
#: Every book of the library is committed (a missing one fails its tests, never skips them).
COMMITTED = sorted(e.name for e in library.entries())
BY_NAME = {e.name: e for e in library.entries()}

#: Books rebuilt in the tests: each takes at most about a second here (Mastermind's optimal book and
#: Wordle's heuristic books a few seconds), as do the optimal books of games up to 1,000 codes.
#: Muertos y Heridos books take 1.5 to 4 s each and the optimal books of the larger games from 8 s
#: to minutes; they are verified, not rebuilt.
QUICK = [e.name for e in library.entries()
         if e.game.name in ("mastermind", "bulls-and-cows", "wordle") and e.name not in library.SLOW] \
    + ["muertos-y-heridos-random-seed0-consistent"] \
    + [e.name for e in library.entries() if e.game.name == "custom" and e.secrets <= 1000]


def committed(name):
    return books.load(os.path.join(BOOKS, name + ".json"))


def read_bytes(path):
    with open(path, "rb") as fh:
        return fh.read()


@pytest.fixture(scope="module")
def index():
    """The index as the library writes it: made once for the tests that read it (each making
    reads every record and book, and checks the quick certificates again)."""
    return library.index_text(BOOKS, "books")


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(resources.files("treegen.book").joinpath("schema.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


# -- what is committed ------------------------------------------------------------------------

def test_every_book_of_the_library_is_committed():
    missing = [e.book_file for e in library.entries()
               if not os.path.exists(os.path.join(BOOKS, e.book_file))]
    assert missing == []


def test_the_folder_holds_only_library_files():
    expected = {"README.md", library.TIMES_FILE, *library.opening_files(), certificates.MANIFEST,
                certificates.IGNORED}
    expected |= {file[:-len(".json")] + ".certificates" for file in library.opening_files()}
    # a campaign's class left mid-search: its checkpoint goes on from any machine
    expected |= {file + ".checkpoint" for file in library.opening_files()}
    for entry in library.entries():
        cert = certificates.certificate_file(entry)
        expected |= {entry.book_file, entry.picture_file, cert, facts_folder(cert)}
    assert set(os.listdir(BOOKS)) <= expected


# -- certificates -----------------------------------------------------------------------------

MANIFEST = certificates.manifest(BOOKS)
CLAIMING = [e.name for e in library.entries() if book_claim(committed(e.name)) is not None]


def test_the_library_has_books_that_claim_bounds():
    assert "mastermind-optimal-all" in CLAIMING and len(CLAIMING) >= 20


#: The frontier's books whose certificates, hours to write and to check, are still being written
#: (``treegen books certify books``): until then the index says their claim is the search's word.
#: None today.
BEING_CERTIFIED: set[str] = set()


@pytest.mark.parametrize("name", CLAIMING)
def test_every_claim_of_the_library_has_its_certificate(name):
    """Every bound a book of the library claims has a certificate of that very book, proving
    that bound and scoped as the book's claim is; committed when small, and then whole. Until
    a frontier book's is done, the index says that its claim is the search's word."""
    from treegen.library.index import UNCERTIFIED
    entry, data = BY_NAME[name], committed(name)
    item = MANIFEST["books"].get(name)
    if item is None:
        assert name in BEING_CERTIFIED, f"{name} claims a bound without a certificate"
        rows = [line for line in read_bytes(os.path.join(BOOKS, "README.md")).decode().splitlines()
                if f"]({entry.book_file})" in line]
        assert rows and all(UNCERTIFIED in row for row in rows)
        return
    assert item["book_sha256"] == library.file_digest(os.path.join(BOOKS, entry.book_file))
    bound, first = book_claim(data)
    assert item["bound"] >= bound and item["first"] in (None, first)
    assert item["bytes"] <= certificates.COMMIT_BYTES or not item["committed"]
    path = os.path.join(BOOKS, item["file"])
    if item["committed"]:
        assert library.file_digest(path) == item["sha256"]
    else:
        assert f"/{item['file']}" in read_bytes(os.path.join(BOOKS, certificates.IGNORED)).decode()


#: Books proven by the certificate of another (a depth-limited book by its game's optimum).
BORROWED = [name for name, item in MANIFEST["books"].items()
            if name in BY_NAME and item["file"] != certificates.certificate_file(BY_NAME[name])]


def test_a_depth_limited_book_at_the_optimum_borrows_its_game_s_certificate():
    """5 x 6 within 6 guesses totals the optimum without a limit: its claim rests on that book's
    certificate, which the index names, with that book's times."""
    assert "custom-123456-5-rep-optimal-depth6-all" in BORROWED
    rows = read_bytes(os.path.join(BOOKS, "README.md")).decode().splitlines()
    for name in BORROWED:
        item, entry = MANIFEST["books"][name], BY_NAME[name]
        other = entry.name.replace(f"-depth{entry.max_depth}", "")
        assert entry.max_depth is not None and item["file"] == f"{other}.cert"
        assert item["sha256"] == MANIFEST["books"][other]["sha256"]
        row = next(line for line in rows if line.startswith(f"| [{name}]("))
        assert item["file"] in row and "that book's" in row


#: Certificates the tests check again: those that take seconds (the others were checked where
#: they were written, with the time the index gives).
QUICK_CERTIFICATES = [name for name, item in MANIFEST["books"].items() if certificates.quick(item)]


def test_the_quick_certificates_cover_the_small_games():
    for name in ("mastermind-optimal-all", "mastermind-hard-optimal-all",
                 "custom-123456-3-rep-optimal-all", "custom-12345-4-rep-optimal-all"):
        assert name in QUICK_CERTIFICATES


@pytest.mark.parametrize("name", QUICK_CERTIFICATES)
def test_a_quick_certificate_is_checked_again_and_proves_its_book(name):
    from treegen.certificate import check
    item = MANIFEST["books"][name]
    proven = check(os.path.join(BOOKS, item["file"]))  # the checker itself, remembering nothing
    lines, problems = judge(committed(name), proven)
    assert problems == [] and proven.bound == item["bound"]
    assert lines and ("optimal" in lines[0])


def test_a_grafted_book_s_check_counts_its_premises():
    grafted = [e for e in library.entries() if e.grafted is not None]
    assert grafted
    for entry in grafted:
        item = MANIFEST["books"][entry.name]
        classes = [c for file in entry.record_files
                   for c in MANIFEST["records"][file[:-len(".json")]].values()]
        assert item["premises_check_seconds"] == round(sum(c["check_seconds"] for c in classes), 1)
        assert not certificates.quick(item)  # its own check takes seconds; its premises hours
    item = {"committed": True, "check_seconds": 3.0}
    assert certificates.quick(item) and certificates.quick({**item, "premises_check_seconds": 7.0})
    for resting in (7.1, None, True, "1"):  # too slow, or not timed here: not checked again
        assert not certificates.quick({**item, "premises_check_seconds": resting})


def test_every_certified_class_of_a_record_is_in_the_manifest():
    from treegen.search.records import load_record
    for file in library.opening_files():
        record = load_record(os.path.join(BOOKS, file),
                             elsewhere=certificates.checked_elsewhere(BOOKS))
        listed = MANIFEST["records"].get(file[:-len(".json")], {})
        for entry in record["classes"]:
            if "certificate" not in entry:
                continue
            item = listed[entry["feedback"]]
            assert item["sha256"] == entry["certificate"]["sha256"] and entry["certified"]
            assert entry["checked_here"] == certificates.quick(item)


def test_every_certificate_and_premise_is_committed_and_none_passes_the_split():
    """Every claim of the library can be checked from the repository alone: each certificate the
    manifest lists is committed, so is every premise it names and theirs in turn (each the file
    of the SHA-256 named), no file of the folder passes the size a split keeps certificates under,
    and the ignore list names none."""
    import hashlib

    from treegen.certificate import read_header
    from treegen.settings import COMMIT_BYTES
    items = [*MANIFEST["books"].values(),
             *(item for classes in MANIFEST["records"].values() for item in classes.values())]
    todo = [(os.path.join(BOOKS, *item["file"].split("/")), item["sha256"]) for item in items]
    assert all(item["committed"] for item in items) and todo
    seen = set()
    while todo:
        path, sha256 = todo.pop()
        data = read_bytes(path)
        assert hashlib.sha256(data).hexdigest() == sha256, path
        if path in seen:
            continue
        seen.add(path)
        header, _ = read_header(data)
        todo += [(os.path.join(os.path.dirname(path), *p["file"].split("/")), p["sha256"])
                 for p in header.get("premises", [])]
    ignored = [line for line in read_bytes(os.path.join(BOOKS, certificates.IGNORED)).decode()
               .splitlines() if line.strip() and not line.startswith("#")]
    assert ignored == []
    sizes = [os.path.getsize(os.path.join(where, name))
             for where, _, names in os.walk(BOOKS) for name in names]
    assert max(sizes) <= COMMIT_BYTES and len(seen) > len(items)


def test_library_covers_every_game_and_strategy():
    names = {e.name for e in library.entries()}
    for game in library.GAMES:
        assert {f"{game}-simple-consistent", f"{game}-random-seed0-consistent"} <= names
        for heuristic in library.HEURISTICS:
            assert f"{game}-{heuristic}-all" in names
    assert {"mastermind-optimal-all", "bulls-and-cows-optimal-all"} <= names
    for symbols, length, repetition in library.OPTIMAL_SIZES:
        assert library.Entry(Game(symbols, length, repetition), "optimal", "all").name in names


def test_other_sizes_are_named_and_built_by_their_rules():
    entry = next(e for e in library.entries() if e.name == "custom-1234567-4-rep-optimal-all")
    assert entry.game == Game("1234567", 4, True) and entry.secrets == 2401
    assert entry.command() == ("treegen build --symbols 1234567 --length 4 --repetition "
                               "--strategy optimal --pool all -o books/custom-1234567-4-rep-optimal-all.json")
    bc3 = next(e for e in library.entries() if e.name == "custom-0123456789-3-norep-optimal-all")
    assert "--no-repetition" in bc3.command()


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_book_verifies_and_matches_the_schema(name, validator):
    data = committed(name)
    assert verify(data) == []
    errors = [e.message for e in validator.iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_book_is_its_entry_and_named_as_treegen_build_names_it(name):
    data, entry = committed(name), BY_NAME[name]
    assert books.file_name(data, forced_first=entry.first is not None) == entry.book_file
    if entry.first is not None:  # a book held to an opening opens with it
        assert data["strategy"]["first"] == entry.first == data["tree"]["guess"]
    game, strategy = entry.parameters()
    assert data["game"] == game
    recorded = {k: v for k, v in data["strategy"].items() if k != "first"}
    assert library.requested(recorded) == strategy
    if "width" in recorded or "grafted" in recorded:  # found besides what was asked
        assert recorded["lower_bound"] <= data["stats"]["total"]
        assert recorded["optimal"] is (recorded["lower_bound"] == data["stats"]["total"])
    else:
        assert recorded == strategy


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_book_and_picture_are_up_to_date(name):
    assert library.stale(BY_NAME[name], BOOKS) == library.Task(BY_NAME[name], None)


@pytest.mark.parametrize("game, heuristic", [(game, heuristic) for game in library.GAMES
                                             for heuristic in library.CONSISTENT_DIFFERS[game]])
def test_consistent_pool_books_differ_from_all_pool_books(game, heuristic):
    """The library lists a consistent-pool book only because its tree is another one."""
    assert committed(f"{game}-{heuristic}-all")["tree"] != \
        committed(f"{game}-{heuristic}-consistent")["tree"]


@pytest.mark.parametrize("name", sorted(library.PUBLISHED))
def test_books_reproduce_the_published_figures(name):
    stats = committed(name)["stats"]
    assert library.PUBLISHED[name].matches(stats), (stats, library.PUBLISHED[name])


def test_published_figures_are_compared_to_the_digits_given():
    figure = library.Published("somewhere", average=5.31, max=8)
    assert figure.matches({"total": 26781, "secrets": 5040, "max": 8})       # 5.3137
    assert not figure.matches({"total": 26781, "secrets": 5040, "max": 7})
    assert not figure.matches({"total": 26424, "secrets": 5040, "max": 8})   # 5.2429
    average_only = library.Published("somewhere", average=4.676)
    assert average_only.matches({"total": 11228, "secrets": 2401, "max": 9})  # 4.67638
    assert not average_only.matches({"total": 11229, "secrets": 2401, "max": 6})  # 4.67680
    assert str(average_only) == "average 4.676 (somewhere)"
    assert str(library.Published("Knuth 1976", total=5801)) == "total 5801 (Knuth 1976)"


# -- reproducible -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", [n for n in QUICK if n in COMMITTED])
def test_quick_books_rebuild_byte_identical(name):
    rebuilt = BY_NAME[name].build(jobs=1)
    assert books.dumps(rebuilt) == read_bytes(os.path.join(BOOKS, name + ".json")).decode("utf-8")


@pytest.mark.parametrize("name", ["mastermind-minimax-all", "bulls-and-cows-random-seed0-consistent"])
def test_the_listed_command_writes_the_committed_file(name, run, tmp_path):
    os.mkdir(tmp_path / "books")
    words = shlex.split(BY_NAME[name].command("books"))
    assert words[0] == "treegen"
    result = run(*words[1:])
    assert result.exit_code == 0, result.output
    assert read_bytes(tmp_path / "books" / f"{name}.json") == read_bytes(
        os.path.join(BOOKS, f"{name}.json"))


def test_index_is_generated_from_the_books(index):
    with open(os.path.join(BOOKS, "README.md"), encoding="utf-8") as fh:
        assert fh.read() == index


def test_index_lists_each_book_with_its_figures_and_command(index):
    text = index
    for name in COMMITTED:
        stats, entry = committed(name)["stats"], BY_NAME[name]
        row = next(line for line in text.splitlines() if f"]({entry.book_file})" in line)
        cells = [c.strip() for c in row.strip("|").split("|")]
        # a claim without its certificate yet is not called proven
        assert cells[4:6] == [str(stats["total"]),
                              library.lower_text(committed(name), name not in BEING_CERTIFIED)]
        assert cells[7:9] == [f"{stats['average']:.4f}", str(stats["max"])]
        assert cells[-1] == f"`{entry.command('books')}`"
        assert f"[svg]({entry.picture_file})" in cells[-2]
        if name in library.PUBLISHED:
            assert cells[10] == str(library.PUBLISHED[name])
        elif name in library.BEFORE:  # the optimum is said only of a book proven optimal
            said, grafted = library.BEFORE[name], committed(name)["strategy"].get("grafted")
            if grafted and len(grafted["classes"]) < len(json.loads(read_bytes(os.path.join(
                    BOOKS, BY_NAME[name].record_file)))["classes"]):  # its record has classes left
                said = said.replace(sources.PROVEN_BY_RECORDS, sources.PARTLY_GRAFTED)
            elif committed(name)["strategy"].get("optimal") is not True:
                said = said.replace(sources.PROVEN_BY_RECORDS, sources.NOT_YET_PROVEN)
            assert cells[10] == said
        lower = committed(name)["strategy"].get("lower_bound")
        if committed(name)["strategy"].get("optimal"):
            said = "proven optimal" if name not in BEING_CERTIFIED else "optimal"
            assert cells[5] == (said if lower is None else f"{lower} ({said})")
        elif lower is not None:
            assert cells[5].startswith(f"{lower} (at most {stats['total'] - lower} above")


@requires_binary("dot")
@pytest.mark.parametrize("name", COMMITTED)
def test_committed_picture_is_redrawn_identically(name):
    path = os.path.join(BOOKS, name + ".svg")
    stamp = library.picture_stamp(path)
    assert stamp is not None and stamp[0] == __version__
    if stamp[1] != graphviz_version():
        # CI runs the Graphviz the pictures are drawn with: there a mismatch is a failure
        message = f"picture drawn with Graphviz {stamp[1]}, not {graphviz_version()}"
        if IN_CI:
            pytest.fail(message + ": redraw the library's pictures with CI's Graphviz")
        pytest.skip(message)
    book_path = os.path.join(BOOKS, name + ".json")
    assert stamp[2] == library.file_digest(book_path)
    assert library.picture(books.load(book_path), stamp[2]) == read_bytes(path)


@requires_binary("dot")
def test_same_book_gives_the_same_picture_bytes_in_another_process(mastermind_minimax, tmp_path):
    """Drawn by another interpreter with another hash seed: the same bytes, stamped."""
    import subprocess
    import sys
    (tmp_path / "book.json").write_text(books.dumps(mastermind_minimax))
    code = ("import sys; from treegen import book; from treegen import library; "
            "sys.stdout.buffer.write(library.picture(book.load(sys.argv[1]), '0' * 64))")
    drawn = subprocess.run([sys.executable, "-c", code, str(tmp_path / "book.json")],
                           capture_output=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": "12345"}).stdout
    assert drawn == library.picture(mastermind_minimax, "0" * 64)
    text = drawn.decode("utf-8")
    assert "Generated by graphviz" not in text
    assert f"<!-- treegen {__version__}; Graphviz {graphviz_version()}; book sha256 " \
           f"{'0' * 64} -->" in text
    assert text.count("<svg") == 1


# -- choosing books ---------------------------------------------------------------------------

def test_only_selects_by_shell_pattern():
    assert [e.name for e in library.select("mastermind-optimal-all")] == ["mastermind-optimal-all"]
    assert [e.name for e in library.select("mastermind-optimal-all.json")] == \
        ["mastermind-optimal-all"]
    chosen = {e.name for e in library.select("mastermind-m*, *-parts-all")}
    assert chosen == {"mastermind-minimax-all", "mastermind-minimax-consistent",
                      "bulls-and-cows-parts-all", "mastermind-parts-all",
                      "muertos-y-heridos-parts-all", "wordle-parts-all", "wordle-hard-parts-all",
                      "wordle-hints-parts-all", "jotto-parts-all"}
    with pytest.raises(LibraryError, match="matches no book"):
        library.select("chess-*")


# -- the command ------------------------------------------------------------------------------

@requires_binary("dot")
def test_rebuild_builds_then_skips_then_forces(run, tmp_path):
    result = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all")
    assert result.exit_code == 0, result.output
    assert "[1/1] mastermind-minimax-all: not built yet; built: mastermind minimax" in result.output
    for suffix in (".json", ".svg"):
        assert read_bytes(tmp_path / "lib" / f"mastermind-minimax-all{suffix}") == \
            read_bytes(os.path.join(BOOKS, f"mastermind-minimax-all{suffix}"))
    index = (tmp_path / "lib" / "README.md").read_text()
    assert index == library.index_text(str(tmp_path / "lib"), "lib")
    assert "not built yet" in index and "--only bulls-and-cows-optimal-all" in index

    recorded = library.build_times(str(tmp_path / "lib"))
    assert list(recorded) == ["mastermind-minimax-all"]
    assert recorded["mastermind-minimax-all"]["sha256"] == \
        library.file_digest(str(tmp_path / "lib" / "mastermind-minimax-all.json"))
    row = next(line for line in index.splitlines() if "(mastermind-minimax-all.json)" in line)
    assert re.fullmatch(r"\d+\.\d s \(\d+ MiB\)", [c.strip() for c in row.strip("|").split("|")][11])
    assert recorded["mastermind-minimax-all"]["peak_bytes"] > 10 * 2 ** 20  # a process's own peak

    again = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all")
    assert "mastermind-minimax-all: up to date" in again.output

    forced = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all", "--force")
    assert "mastermind-minimax-all: forced; built" in forced.output


@requires_binary("dot")
def test_rebuild_tells_stale_books_from_stale_pictures(run, tmp_path, mastermind_minimax):
    folder = tmp_path / "lib"
    assert run("books", "rebuild", "lib", "--only", "mastermind-minimax-all").exit_code == 0
    book_path = folder / "mastermind-minimax-all.json"

    # The same book written differently: only the picture is drawn again.
    book_path.write_text(json.dumps(mastermind_minimax))
    result = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all")
    assert "picture of another build; picture drawn" in result.output
    assert library.picture_stamp(str(folder / "mastermind-minimax-all.svg"))[2] == \
        library.file_digest(str(book_path))

    # Another strategy under this name: rebuilt.
    other = {**mastermind_minimax, "strategy": {**mastermind_minimax["strategy"], "pool": "consistent"}}
    book_path.write_text(json.dumps(other))
    result = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all")
    assert "built with other parameters; built" in result.output

    # A picture stamped by another treegen version: the book is rebuilt too.
    svg = folder / "mastermind-minimax-all.svg"
    svg.write_text(svg.read_text().replace(f"<!-- treegen {__version__};", "<!-- treegen 0.0.1;"))
    result = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all", "--dry-run")
    assert "built by treegen 0.0.1; would build it" in result.output
    result = run("books", "rebuild", "lib", "--only", "mastermind-minimax-all")
    assert "built by treegen 0.0.1; built" in result.output
    assert read_bytes(book_path) == read_bytes(os.path.join(BOOKS, "mastermind-minimax-all.json"))

    # An unreadable file is rebuilt as well.
    book_path.write_text("{")
    assert library.stale(BY_NAME["mastermind-minimax-all"], str(folder)).reason.startswith(
        "unreadable")


def test_a_book_held_to_an_opening_is_stale_when_it_opens_otherwise(tmp_path):
    held = next(e for e in library.entries() if e.first is not None)
    assert held.name.endswith(f"-all-first{held.first}") and held.arguments()[-2:] == \
        ["--first", held.first]
    data = committed(held.name)
    shutil.copy(os.path.join(BOOKS, held.picture_file), tmp_path / held.picture_file)
    books.save(data, tmp_path / held.book_file)
    assert library.stale(held, str(tmp_path)).reason is None  # the library's book is current
    # the same strategy from its own first guess, under the held book's name: not that book
    unheld = committed(replace(held, first=None).name)
    books.save(unheld, tmp_path / held.book_file)
    assert library.stale(held, str(tmp_path)).reason == "built with other parameters"


def test_rebuild_with_an_unknown_pattern_is_a_one_line_error(run):
    result = run("books", "rebuild", "lib", "--only", "chess-*")
    assert result.exit_code == 1
    assert result.output.startswith("Error: --only 'chess-*' matches no book")
    assert len(result.output.strip().splitlines()) == 1


def test_rebuild_interrupted_keeps_what_was_built(run, tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(library, "update", interrupted)
    result = run("books", "rebuild", "lib", "--only", "mastermind-simple-consistent")
    assert result.exit_code == 130
    assert "mastermind-simple-consistent was not written" in result.output
    assert not (tmp_path / "lib" / "mastermind-simple-consistent.json").exists()


def test_a_solved_opening_s_search_and_check_times_add_up_its_classes():
    from treegen.library.index import record_times
    record = {"total": 100, "classes": [{"feedback": "1A0B", "seconds": 3600.0},
                                        {"feedback": "0A1B", "seconds": 125.5}]}
    checks = {"1A0B": {"check_seconds": 60.0}, "0A1B": {"check_seconds": 61.5}}
    assert record_times(record, checks) == (
        "Its classes took 1 h 2 min of search in all, and their certificates, with the facts "
        "they rest on, 2 min 2 s of check (`certificates.json` lists each).")
    for bad in (None, True, -1.0, "60"):  # a class not timed, or timed nonsense: no check time
        said = record_times(record, {**checks, "0A1B": {"check_seconds": bad}})
        assert said == "Its classes took 1 h 2 min of search in all."
    assert record_times({**record, "total": None}, checks) == ""  # an opening still open


def test_the_index_times_each_solved_opening_from_its_record_and_the_manifest(index):
    from treegen.search.records import duration_text, load_record
    listed = certificates.manifest(BOOKS)["records"]
    elsewhere = certificates.checked_elsewhere(BOOKS)  # the hours-long checks are not repeated
    timed = 0
    for stem, classes in listed.items():
        record = load_record(os.path.join(BOOKS, stem + ".json"), elsewhere=elsewhere)
        if record["total"] is None:
            continue
        searched = duration_text(round(sum(e["seconds"] for e in record["classes"]), 1))
        checked = duration_text(round(sum(c["check_seconds"] for c in classes.values()), 1))
        assert (f"Its classes took {searched} of search in all, and their certificates, with the "
                f"facts they rest on, {checked} of check") in index, stem
        timed += 1
    assert timed >= 2  # Muertos y Heridos after 0123, 5 of 9 after 12345


def test_a_complete_record_bounds_its_game_from_above(tmp_path):
    """A record with every class solved is a strategy (its classes' trees, replayed on reading):
    where it beats the game's books, the index's bracket closes on it. Here 5 x 7 after 11223,
    85,645, beside entropy's book held to that opening alone (86,379), without the book its
    record's trees are grafted into."""
    from treegen.library.index import first_guesses_text
    from treegen.search.records import load_record, record_name
    game, first = next((game, first) for game, first in library.OPENINGS
                       if game.symbols == "1234567" and first == "11223")
    held = BY_NAME[library.Entry(game, "entropy", "all", first=first).name]
    shutil.copy(os.path.join(BOOKS, held.book_file), tmp_path)
    record = load_record(os.path.join(BOOKS, record_name(game, first)),
                         elsewhere=certificates.checked_elsewhere(BOOKS))
    text = "\n".join(first_guesses_text(str(tmp_path), game, {first: record}))
    assert record["total"] < committed(held.name)["stats"]["total"]
    assert f"and {record['total']} (the record after {first}, its classes' trees)" in text
    grafted = next(e for e in library.entries() if e.game == game and e.grafted == first)
    shutil.copy(os.path.join(BOOKS, grafted.book_file), tmp_path)  # a book reaching it
    text = "\n".join(first_guesses_text(str(tmp_path), game, {first: record}))
    assert f"and {record['total']} (the best book's total)" in text


def test_index_command_writes_the_table(run, tmp_path):
    os.mkdir(tmp_path / "lib")
    books.save(committed("mastermind-parts-all"), tmp_path / "lib" / "mastermind-parts-all.json")
    result = run("books", "index", "lib/")
    assert result.exit_code == 0 and result.output == f"wrote {os.path.join('lib', 'README.md')}\n"
    text = (tmp_path / "lib" / "README.md").read_text()
    row = next(line for line in text.splitlines() if "(mastermind-parts-all.json)" in line)
    assert "| 1123 | 5668 |  |  | 4.3735 |" in row and "[svg]" not in row
    assert "`treegen build --game mastermind --strategy parts --pool all -o " \
           "lib/mastermind-parts-all.json`" in row
    assert text.count("| not built yet |") == len(library.entries()) - 1


def test_build_time_is_shown_only_for_the_file_it_was_measured_on(tmp_path):
    entry = BY_NAME["mastermind-parts-all"]
    path = tmp_path / entry.book_file
    books.save(committed(entry.name), path)
    assert library.time_text(str(tmp_path), entry, library.build_times(str(tmp_path))) == ""
    library.record_time(str(tmp_path), entry, 754.4, 2, library.file_digest(str(path)))
    library.record_time(str(tmp_path), BY_NAME["mastermind-optimal-all"], 2.04, 1, "0" * 64)
    assert library.time_text(str(tmp_path), entry, library.build_times(str(tmp_path))) == \
        "12 min 34 s (2 jobs)"
    library.record_time(str(tmp_path), entry, 0.84, None, library.file_digest(str(path)))
    assert library.time_text(str(tmp_path), entry, library.build_times(str(tmp_path))) == "0.8 s"
    library.record_time(str(tmp_path), entry, 754.4, 2, library.file_digest(str(path)))
    times = library.build_times(str(tmp_path))
    assert sorted(times) == ["mastermind-optimal-all", "mastermind-parts-all"]
    assert library.time_text(str(tmp_path), entry, times) == "12 min 34 s (2 jobs)"
    row = next(line for line in library.index_text(str(tmp_path)).splitlines()
               if f"({entry.book_file})" in line)
    assert "| 12 min 34 s (2 jobs) |" in row
    library.record_time(str(tmp_path), entry, 9000.0, 2, library.file_digest(str(path)), 61 * 2 ** 20)
    assert library.time_text(str(tmp_path), entry, library.build_times(str(tmp_path))) == \
        "2 h 30 min (2 jobs, 61 MiB)"
    library.record_time(str(tmp_path), entry, 754.4, 2, library.file_digest(str(path)))
    times = library.build_times(str(tmp_path))
    path.write_text(json.dumps(committed(entry.name)))      # the same book, other bytes
    assert library.time_text(str(tmp_path), entry, times) == ""
    (tmp_path / library.TIMES_FILE).write_text("[not a record")
    assert library.build_times(str(tmp_path)) == {}


def test_index_of_a_missing_folder_is_an_error(run):
    result = run("books", "index", "nowhere")
    assert result.exit_code == 1 and result.output.startswith("Error: nowhere is not a folder")


def test_a_book_without_the_library_picture_needs_only_a_picture(tmp_path):
    entry = BY_NAME["mastermind-minimax-all"]
    books.save(committed(entry.name), tmp_path / entry.book_file)
    assert library.stale(entry, str(tmp_path)) == library.Task(entry, "picture missing")
    (tmp_path / entry.picture_file).write_text("<svg/>")
    assert library.stale(entry, str(tmp_path)) == \
        library.Task(entry, "picture not drawn by the library")
    assert library.stale(entry, str(tmp_path), force=True).book


def test_the_before_column_never_calls_a_computed_figure_published(index):
    for name, text in library.BEFORE.items():
        assert name not in library.PUBLISHED and "published" not in text.replace(
            "first published optimum, as far as we know", "").replace("no published total found", "")
        assert "computed here" in text
        if "first published optimum" in text:
            assert committed(name)["strategy"]["optimal"] is True
    for source in library.SOURCES_CHECKED:
        assert f"- {source}" in index


RECORD_BOOKS = [n for n in library.BEFORE if "muertos-y-heridos" in n]


def test_there_is_a_record_book():
    assert RECORD_BOOKS


@pytest.mark.parametrize("name", RECORD_BOOKS)
def test_a_record_book_beats_every_known_total_and_states_its_bound(name, index):
    entry = BY_NAME[name]
    data = committed(name)
    assert verify(data) == []
    total, lower = data["stats"]["total"], data["strategy"]["lower_bound"]
    assert total < 56195 and 0 < lower <= total  # mmstrat's entropy: the best before it
    assert data["strategy"]["width"] == entry.width and data["strategy"]["exact_below"] == entry.exact_below
    assert f"--width {entry.width} --exact-below {entry.exact_below}" in entry.base.command()
    row = next(line for line in index.splitlines() if f"]({entry.book_file})" in line)
    assert (f"{lower} (at most {total - lower} above the optimum)" in row) == (lower < total)
    # "the optimum" is said, by the index and by the book itself, only where the records of every
    # first guess, read and checked again for the index, prove it
    proven = f"**the optimum of muertos-y-heridos is {total}**" in index
    assert ("**the optimum**" in row) == proven and ("**best known**" in row) != proven
    assert data["strategy"]["optimal"] is proven and (lower == total) is proven
    assert (f"{lower} (proven optimal)" in row) is proven


@pytest.mark.parametrize("name", [e.name for e in library.entries() if e.grafted is not None])
def test_a_grafted_book_is_its_base_with_every_proven_class_of_its_record(name):
    from treegen.search.first_guesses import first_guesses, game_lower_bound
    from treegen.search.records import load_record
    entry = BY_NAME[name]
    data, base = committed(name), committed(entry.base.name)
    elsewhere = certificates.checked_elsewhere(BOOKS)
    record = load_record(os.path.join(BOOKS, entry.record_file), elsewhere=elsewhere)
    solved = sorted(e["feedback"] for e in record["classes"] if "cost" in e)
    proven = sorted(e["feedback"] for e in record["classes"] if "cost" in e and e.get("certified"))
    assert data["strategy"]["grafted"] == {"first": entry.grafted, "classes": solved,
                                           "certified": proven}
    assert verify(data) == [] and data["stats"]["total"] <= base["stats"]["total"]
    # the bound is the base book's or, above it, the least any first guess can reach by the
    # records of the library's openings (derived again here)
    records = [load_record(os.path.join(BOOKS, f), elsewhere=elsewhere) for f in entry.record_files]
    game_bound = game_lower_bound(first_guesses(entry.game, records))
    assert data["strategy"]["lower_bound"] == max(base["strategy"].get("lower_bound", 0), game_bound)
    assert entry.record_files[0] == entry.record_file and len(set(entry.record_files)) == len(
        [first for game, first in library.OPENINGS if game == entry.game])
    assert entry.command() == (f"treegen graft books/{entry.base.book_file} "
                               + " ".join(f"books/{f}" for f in entry.record_files)
                               + f" -o books/{entry.book_file}")


@pytest.mark.parametrize("size", sorted(library.DEPTH_FLOORS))
def test_depth_floor_is_met_by_a_book_and_quick_ones_are_proven_again(size):
    """The index's "fewest guesses" is a book that meets it and a proof that one fewer fails:
    proofs that take seconds are re-derived here, the others give their command."""
    from treegen.api import build_book
    from treegen.errors import ImpossibleError
    floor = library.DEPTH_FLOORS[size]
    game = Game(*size)
    optimum = committed(library.Entry(game.named(), "optimal", "all").name)["stats"]
    within = optimum if optimum["max"] == floor.depth else \
        committed(library.Entry(game.named(), "optimal", "all", max_depth=floor.depth).name)["stats"]
    assert within["max"] == floor.depth and within["total"] >= optimum["total"]
    assert floor.depth in library.DEPTH_LIMITS.get(size, ()) or optimum["max"] == floor.depth
    if floor.cpu_seconds <= 5:
        with pytest.raises(ImpossibleError):
            build_book(game, "optimal", search=SearchOptions(max_depth=floor.depth - 1, jobs=1))
