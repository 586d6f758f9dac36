"""A user's mypy sees treegen's types: the package ships py.typed and the install (mypy is in the
test extra) is visible to it."""

import subprocess
import sys
import textwrap

USER_SCRIPT = textwrap.dedent("""\
    import treegen

    book: treegen.Book = treegen.build("mastermind", "minimax")
    moves: list[tuple[str, str]] = book.moves("3632")
    feedback: str = treegen.score("1122", "3632")
    player: treegen.Player = book.player()
    guess: str | None = player.guess
    table: str = treegen.compare([book])

    def mine(state: treegen.State) -> str:
        return state.codes[0]

    treegen.build("mastermind", mine)
    """)


def test_mypy_strict_accepts_a_user_script_outside_the_checkout(tmp_path):
    (tmp_path / "user.py").write_text(USER_SCRIPT, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                             "user.py"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_wrong_use_is_caught_by_the_users_mypy(tmp_path):
    (tmp_path / "user.py").write_text('import treegen\nn: int = treegen.score("1122", "3632")\n',
                                      encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                             "user.py"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1 and "incompatible types in assignment" in result.stdout.lower()
