"""Nothing lost: what treegen writes goes through symlinks, into pipes and devices, never over a file it
read, never over a read-only file, and leaves no temporary file behind."""

import os
import stat
import sys
import threading

import pytest

from treegen import book as books
from treegen.errors import SiteError, WriteError
from treegen.files import atomic as files
from treegen.files import folders
from treegen.views.site import build_site


def leftovers(folder):
    return sorted(name for name in os.listdir(folder) if name.startswith(".treegen-"))


def test_a_symlink_is_written_through_to_its_target(run, tmp_path):
    (tmp_path / "target.json").write_text("old")
    os.symlink("target.json", tmp_path / "link.json")
    assert run("build", "-g", "mastermind", "-o", "link.json").exit_code == 0
    assert os.path.islink(tmp_path / "link.json")
    assert books.load(tmp_path / "target.json")["game"]["name"] == "mastermind"
    os.symlink("new.json", tmp_path / "dangling.json")
    assert run("build", "-g", "mastermind", "-o", "dangling.json").exit_code == 0
    assert os.path.islink(tmp_path / "dangling.json") and (tmp_path / "new.json").is_file()
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not os.path.exists("/dev/null") or not stat.S_ISCHR(os.stat("/dev/null").st_mode),
                    reason="no /dev/null character device")
def test_a_character_device_is_written_into_not_replaced(run):
    result = run("build", "-g", "mastermind", "-o", "/dev/null")
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_pipe_is_written_into(run, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        result = run("build", "-g", "mastermind", "-o", "pipe")
    finally:
        reader.join(30)
        if reader.is_alive():  # the build never opened the pipe: let the reader go
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            reader.join(5)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert books.loads(received[0].decode())["stats"]["total"] == 5801


def test_a_pipe_nobody_reads_is_refused_at_once(run, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    result = run("build", "-g", "mastermind", "-o", "pipe")
    assert result.exit_code == 1 and "a pipe that nobody reads" in result.output


def test_a_read_only_file_or_a_folder_is_not_replaced(run, tmp_path):
    target = tmp_path / "ro.json"
    target.write_text("keep me")
    target.chmod(0o444)
    result = run("build", "-g", "mastermind", "-o", "ro.json")
    assert result.exit_code == 1 and "read-only" in result.output
    assert target.read_text() == "keep me"
    (tmp_path / "folder").mkdir()
    with pytest.raises(WriteError, match="it is a folder"):
        files.write_atomic(tmp_path / "folder", "x")


def test_replacing_keeps_the_files_permissions(tmp_path):
    target = tmp_path / "b.json"
    target.write_text("old")
    target.chmod(0o600)
    files.write_atomic(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o600


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch,
                                                                        mastermind_minimax):
    target = tmp_path / "b.json"
    target.write_text("previous")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        books.save(mastermind_minimax, target)
    assert target.read_text() == "previous" and leftovers(tmp_path) == []


def test_temporary_files_of_dead_processes_are_removed_by_the_next_write(tmp_path):
    dead = 2 ** 22 + 12345  # above the kernel's largest pid: no such process
    stale = tmp_path / f".treegen-{dead}-abc.tmp"
    stale.write_text("half a book")
    alive = tmp_path / f".treegen-{os.getpid()}-xyz.tmp"
    alive.write_text("being written")
    files.write_atomic(tmp_path / "b.json", "{}")
    assert leftovers(tmp_path) == [alive.name]


def test_render_and_export_never_write_over_their_input(run, tmp_path, mastermind_minimax):
    books.save(mastermind_minimax, tmp_path / "mm.json")
    original = (tmp_path / "mm.json").read_bytes()
    os.link(tmp_path / "mm.json", tmp_path / "hard.dot")
    os.symlink("mm.json", tmp_path / "soft.dot")
    for args in (["render", "mm.json", "--format", "dot", "-o", "mm.json"],
                 ["render", "mm.json", "--format", "dot", "-o", "hard.dot"],
                 ["render", "mm.json", "-o", "soft.dot"],
                 ["export", "mm.json", "-o", "mm.json", "--format", "graphml"]):
        result = run(*args)
        assert result.exit_code == 1 and "never writes over a file it reads" in result.output, args
    books.save(mastermind_minimax, tmp_path / "b.svg")
    result = run("render", "b.svg")  # the default output, b.svg, is the book itself
    assert result.exit_code == 1 and "never writes over a file it reads" in result.output
    assert (tmp_path / "mm.json").read_bytes() == original
    assert books.load(tmp_path / "b.svg") == mastermind_minimax


def test_a_site_never_replaces_a_folder_that_holds_its_input(tmp_path, mastermind_minimax):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / ".treegen-site").write_text("treegen site\n")
    books.save(mastermind_minimax, tmp_path / "site" / "mm.json")
    with pytest.raises(SiteError, match=r"inside .* which the new site replaces"):
        build_site([("mm", mastermind_minimax)], tmp_path / "site",
                   sources=[tmp_path / "site" / "mm.json"])
    assert (tmp_path / "site" / "mm.json").exists()


def test_default_names_of_games_with_other_symbols_never_collide(run):
    names = set()
    for symbols in ("éàü", "😀😁😂", "_-.", "ABC"):
        result = run("build", "--symbols", symbols, "--length", "2", "--repetition")
        assert result.exit_code == 0, result.output
        names.add(result.output.split()[1].rstrip(":"))
    assert len(names) == 4 and "custom-ABC-2-rep-minimax-all.json" in names


# -- replacing a whole folder ------------------------------------------------------------------

def make_folder(path, text):
    path.mkdir()
    (path / "page.html").write_text(text)


def test_a_folder_is_swapped_in_one_step(tmp_path, monkeypatch):
    make_folder(tmp_path / "site", "old")
    make_folder(tmp_path / "new", "new")
    seen = []
    real_rmtree = folders.shutil.rmtree

    def watch(path, *args, **kwargs):  # by the time the old folder is removed, the new one is there
        seen.append((tmp_path / "site" / "page.html").read_text())
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(folders.shutil, "rmtree", watch)
    folders.swap(str(tmp_path / "new"), str(tmp_path / "site"))
    assert (tmp_path / "site" / "page.html").read_text() == "new"
    assert seen == ["new"] and sorted(os.listdir(tmp_path)) == ["site"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_on_linux_the_two_folders_are_exchanged_by_one_system_call(tmp_path):
    make_folder(tmp_path / "a", "a")
    make_folder(tmp_path / "b", "b")
    assert folders._exchange(str(tmp_path / "a"), str(tmp_path / "b"))
    assert (tmp_path / "a" / "page.html").read_text() == "b"
    assert (tmp_path / "b" / "page.html").read_text() == "a"


def test_a_process_killed_mid_swap_never_leaves_the_site_missing(tmp_path, monkeypatch):
    """Without an exchange call the old folder is moved aside first; killed right after that, the
    next run puts it back."""
    make_folder(tmp_path / "site", "old")
    make_folder(tmp_path / "new", "new")
    monkeypatch.setattr(folders, "_exchange", lambda a, b: False)
    real_rename = os.rename
    calls = []

    def killed_on_second_rename(a, b):
        calls.append(a)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_rename(a, b)

    monkeypatch.setattr(folders.os, "rename", killed_on_second_rename)
    monkeypatch.setattr(files, "pid_alive", lambda pid: False)  # as seen by the next process
    with pytest.raises(KeyboardInterrupt):
        folders.swap(str(tmp_path / "new"), str(tmp_path / "site"))
    monkeypatch.setattr(folders.os, "rename", real_rename)
    assert not (tmp_path / "site").exists()
    folders.recover(str(tmp_path))
    assert (tmp_path / "site" / "page.html").read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["new", "site"]


def test_staging_folders_of_dead_processes_are_cleaned_up(tmp_path):
    dead = 2 ** 22 + 12345
    make_folder(tmp_path / f".treegen-site-{dead}-abc", "half")
    make_folder(tmp_path / f".treegen-site-{os.getpid()}-def", "mine, still running")
    folders.recover(str(tmp_path))
    assert os.listdir(tmp_path) == [f".treegen-site-{os.getpid()}-def"]


def test_leftovers_that_are_links_or_files_are_removed_and_never_followed(tmp_path):
    """A link under a staging name of a dead process is removed, not followed: moving back what
    an "old" link points to would empty a folder of the user's."""
    dead = 2 ** 22 + 12345
    precious = tmp_path / "precious"
    make_folder(precious, "the user's")
    site = tmp_path / "site"
    site.mkdir()
    (site / f".treegen-old-{dead}-abc").symlink_to(precious)
    (site / f".treegen-site-{dead}-def").symlink_to(precious)
    (site / f".treegen-site-{dead}-ghi").write_text("a file")
    folders.recover(str(site))
    assert os.listdir(site) == []
    assert os.listdir(precious) == ["page.html"] and (precious / "page.html").read_text() == "the user's"
