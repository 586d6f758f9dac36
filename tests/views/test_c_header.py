"""The C header: compiled strictly, it plays every secret of real books to their exact totals, and
answers every move as the Python player does."""

import os
import random
import re
import select
import shutil
import subprocess
from pathlib import Path

import pytest

import treegen
from tests.helpers.ci import requires_binary
from treegen import book as books
from treegen.api import build_book
from treegen.book.replay import game_codes
from treegen.errors import CHeaderError
from treegen.player import ImpossibleAnswer, MalformedAnswer, NoSuchBranch, Player, PlayerError
from treegen.rules.game import Game
from treegen.views.c_header import header_text
from treegen.views.export import export

BOOKS = Path(__file__).resolve().parents[2] / "books"
EMBEDDING = Path(__file__).resolve().parents[2] / "docs" / "embedding.md"
STRICT = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O1"]
needs_cc = requires_binary("cc")

#: The test's own count of the symbols two codes share, each as often as both hold it.
COMMON = r"""
static int common_of(const char *guess, const char *secret)
{
    int i, j, common = 0, taken[TG_LENGTH] = {0};
    for (i = 0; i < TG_LENGTH; i++)
        for (j = 0; j < TG_LENGTH; j++)
            if (!taken[j] && guess[i] == secret[j]) {
                taken[j] = 1;
                common++;
                break;
            }
    return common;
}
"""

#: The scorer is the test's own; a command reads lines: "p SECRET" plays a secret from the start and
#: prints the final code and the number of guesses; "a A B" answers, "u" undoes, "s" starts again,
#: each printing the code returned and the guess then ("-" once solved).
DRIVER = r"""
#include <stdio.h>
#include "book.h"
""" + COMMON + r"""
static void score(const char *guess, const char *secret, int *bulls, int *cows)
{
    int i;
    *bulls = 0;
    for (i = 0; i < TG_LENGTH; i++)
        *bulls += guess[i] == secret[i];
    *cows = common_of(guess, secret) - *bulls;
}

int main(void)
{
    char line[256], text[TG_TEXT_SIZE], secret[64];
    int a, b, code = 0, guesses;
    tg_game game;
    tg_start(&game);
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "p %63s", secret) == 1) {
            tg_start(&game);
            for (guesses = 1;; guesses++) {
                score(tg_guess(&game, text), secret, &a, &b);
                if ((code = tg_answer(&game, a, b)) != TG_OK)
                    break;
            }
            printf("%d %d\n", code, guesses);
            continue;
        }
        if (sscanf(line, "a %d %d", &a, &b) == 2)
            code = tg_answer(&game, a, b);
        else if (line[0] == 'u')
            code = tg_undo(&game);
        else {
            tg_start(&game);
            code = TG_OK;
        }
        printf("%d %s\n", code, tg_guess(&game, text) ? text : "-");
    }
    return 0;
}
"""


#: A driver for the other rules: "p SECRET" plays a secret with the test's own scorer of the rule
#: (black pegs: the symbols in place; Wordle's tiles: greens, then yellows from the letters left;
#: Jotto: the symbols in common, TG_WIN for the secret itself); "t TEXT" answers with tiles as
#: typed, "j N" with a count and "w" with TG_WIN, "u" undoes; each prints the code returned and
#: the guess then; any other line starts again, silently.
RULE_DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "book.h"
#if defined(JOTTO)
""" + COMMON + r"""
#endif

static int answer(tg_game *game, const char *guess, const char *secret)
{
    int i, j;
#if defined(JOTTO)
    (void)i;
    (void)j;
    if (strcmp(guess, secret) == 0)
        return tg_answer(game, TG_WIN);
    return tg_answer(game, common_of(guess, secret));
#elif defined(TILES)
    char tiles[TG_LENGTH + 1];
    int taken[TG_LENGTH] = {0};
    for (i = 0; i < TG_LENGTH; i++) {
        tiles[i] = guess[i] == secret[i] ? 'G' : '.';
        taken[i] = guess[i] == secret[i];
    }
    tiles[TG_LENGTH] = '\0';
    for (i = 0; i < TG_LENGTH; i++)
        for (j = 0; tiles[i] != 'G' && j < TG_LENGTH; j++)
            if (!taken[j] && guess[i] == secret[j]) {
                taken[j] = 1;
                tiles[i] = 'Y';
                break;
            }
    return tg_answer(game, tiles);
#else
    int bulls = 0;
    (void)j;
    for (i = 0; i < TG_LENGTH; i++)
        bulls += guess[i] == secret[i];
    return tg_answer(game, bulls);
#endif
}

int main(void)
{
    char line[256], text[TG_TEXT_SIZE], secret[64], typed[64];
    int code = 0, guesses, count = 0;
    tg_game game;
    (void)count;
    tg_start(&game);
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "p %63s", secret) == 1) {
            tg_start(&game);
            for (guesses = 1;; guesses++)
                if ((code = answer(&game, tg_guess(&game, text), secret)) != TG_OK)
                    break;
            printf("%d %d\n", code, guesses);
#if defined(JOTTO)
        } else if (sscanf(line, "j %d", &count) == 1 || line[0] == 'w' || line[0] == 'u') {
            code = line[0] == 'j' ? tg_answer(&game, count) : line[0] == 'w' ?
                tg_answer(&game, TG_WIN) : tg_undo(&game);
            printf("%d %s\n", code, tg_guess(&game, text) ? text : "-");
#elif defined(TILES)
        } else if (sscanf(line, "t %63s", typed) == 1) {
            code = tg_answer(&game, typed);
            printf("%d %s\n", code, tg_guess(&game, text) ? text : "-");
#endif
        } else {
            (void)typed;
            tg_start(&game);
        }
    }
    return 0;
}
"""


def compile_program(folder: Path, header: str, main: str, name: str = "driver") -> Path:
    (folder / "book.h").write_text(header, encoding="utf-8")
    (folder / f"{name}.c").write_text(main, encoding="utf-8")
    program = folder / name
    done = subprocess.run(["cc", *STRICT, "-o", str(program), str(folder / f"{name}.c")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return program


def book_and_driver(name: str, folder: Path) -> tuple[dict, Path]:
    """A committed book and the driver compiled with its header."""
    book = books.load(BOOKS / f"{name}.json")
    return book, compile_program(folder, header_text(book), DRIVER)


def run(program: Path, commands: list[str]) -> list[str]:
    done = subprocess.run([str(program)], input="".join(f"{c}\n" for c in commands),
                          capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.splitlines()


@needs_cc
@pytest.mark.parametrize("name", ["mastermind-optimal-all", "bulls-and-cows-optimal-all",
                                  "muertos-y-heridos-entropy-all"])
def test_the_header_plays_every_secret_to_the_books_total_and_maximum(name, tmp_path):
    book, program = book_and_driver(name, tmp_path)
    secrets = game_codes(book["game"])
    lines = run(program, [f"p {secret}" for secret in secrets])
    assert len(lines) == len(secrets)
    codes, guesses = zip(*(map(int, line.split()) for line in lines))
    assert set(codes) == {1}  # TG_SOLVED, every one
    assert sum(guesses) == book["stats"]["total"]
    assert max(guesses) == book["stats"]["max"]


def driver_line(player: Player, move, impossible=(ImpossibleAnswer,)) -> str:
    """What a driver prints after ``move`` (the Python player's, returning the header's code:
    0, or 1 once solved): the header's code of a refusal (-1 impossible, -2 no such branch, -3
    already solved, -4 else) and the guess then."""
    try:
        code = move()
    except impossible:
        code = -1
    except NoSuchBranch:
        code = -2
    except PlayerError as exc:
        code = -3 if "solved" in str(exc) else -4
    return f"{code} {player.guess or '-'}"


def python_move(player: Player, command: str) -> str:
    """What the driver must print for ``command``, from the Python player."""
    def move():
        if command.startswith("a "):
            a, b = map(int, command.split()[1:])
            return 0 if player.answer((a, b)) is not None else 1
        if command == "u":
            player.undo()
        else:
            player.reset()
        return 0
    return driver_line(player, move)


def random_walk(player: Player, length: int, steps: int, seed: int) -> list[str]:
    """Answers of every kind: the ones the book has, valid ones it has not, impossible ones
    (negative, too many, (length-1, 1)), undos and restarts."""
    rng = random.Random(seed)
    commands = []
    for _ in range(steps):
        roll = rng.random()
        node = player._path[-1]
        if roll < 0.55 and node["next"] and not player.solved:
            key = rng.choice(sorted(node["next"]))
            a, b = key[:-1].split("A")
            commands.append(f"a {a} {b}")
        elif roll < 0.65:
            commands.append(f"a {length} 0")
        elif roll < 0.8:
            commands.append(f"a {rng.randint(-1, length + 1)} {rng.randint(-1, length + 1)}")
        elif roll < 0.85:
            commands.append(f"a {length - 1} 1")
        elif roll < 0.97:
            commands.append("u")
        else:
            commands.append("s")
        python_move(player, commands[-1])
    player.reset()
    return commands


@needs_cc
@pytest.mark.parametrize("name", ["mastermind-optimal-all", "bulls-and-cows-entropy-all",
                                  "muertos-y-heridos-entropy-all"])
def test_every_move_and_error_matches_the_python_player(name, tmp_path):
    book, program = book_and_driver(name, tmp_path)
    player = Player(book)
    commands = random_walk(player, book["game"]["length"], 4000, seed=len(name))
    expected = [python_move(player, command) for command in commands]
    assert len({line.split()[0] for line in expected}) == 6  # every result code is exercised
    assert run(program, commands) == expected


@needs_cc
def test_errors_leave_the_game_as_it_was(tmp_path):
    book, program = book_and_driver("mastermind-optimal-all", tmp_path)
    first, second = book["tree"]["guess"], book["tree"]["next"]["0A0B"]["guess"]
    lines = run(program, ["a 3 1", "a 5 0", "a -1 2", "a 2 3", "u", "a 0 0", "a 3 1", "u",
                          "a 4 0", "a 0 0", "u", "u"])
    assert lines == [f"-1 {first}"] * 4 + [f"-4 {first}", f"0 {second}", f"-1 {second}",
                                          f"0 {first}", "1 -", "-3 -", f"0 {first}", f"-4 {first}"]


@needs_cc
def test_symbols_any_text_and_two_books_with_their_own_prefixes_in_one_program(tmp_path):
    odd = build_book(Game('é"\\?', 3, True), "simple")  # quote, backslash, trigraph start, UTF-8
    other = build_book(Game("01", 2, False), "simple")
    (tmp_path / "odd.h").write_text(header_text(odd, "odd"), encoding="utf-8")
    (tmp_path / "two.h").write_text(header_text(other, "two"), encoding="utf-8")
    main = r"""
#include <stdio.h>
#include "odd.h"
#include "two.h"
int main(void)
{
    char text[ODD_TEXT_SIZE], digits[TWO_TEXT_SIZE];
    odd_game game;
    two_game pair;
    odd_start(&game);
    two_start(&pair);
    printf("%s %s\n", odd_guess(&game, text), two_guess(&pair, digits));
    printf("%d %d\n", odd_answer(&game, 0, 0), two_answer(&pair, 0, 2));
    printf("%s %s\n", odd_guess(&game, text), two_guess(&pair, digits));
    return 0;
}
"""
    (tmp_path / "main.c").write_text(main, encoding="utf-8")
    done = subprocess.run(["cc", *STRICT, "-o", str(tmp_path / "main"), str(tmp_path / "main.c")],
                          capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    out = subprocess.run([str(tmp_path / "main")], capture_output=True, check=True).stdout
    player, pair = Player(odd), Player(other)
    first = f"{player.guess} {pair.guess}"
    moved = [player.answer((0, 0)), pair.answer((0, 2))]
    assert out.decode("utf-8").splitlines() == [first, "0 0", " ".join(moved)]


@requires_binary("c++")
def test_the_header_is_valid_cplusplus_too(tmp_path):
    book = books.load(BOOKS / "mastermind-optimal-all.json")
    (tmp_path / "book.h").write_text(header_text(book))
    (tmp_path / "driver.cpp").write_text(DRIVER)
    done = subprocess.run(["c++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o",
                           str(tmp_path / "driver"), str(tmp_path / "driver.cpp")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = run(tmp_path / "driver", [f"p {secret}" for secret in game_codes(book["game"])])
    assert sum(int(line.split()[1]) for line in lines) == book["stats"]["total"]


@needs_cc
def test_a_header_included_in_two_files_and_unused_compiles_cleanly(tmp_path):
    (tmp_path / "book.h").write_text(header_text(books.load(BOOKS / "mastermind-optimal-all.json")))
    (tmp_path / "a.c").write_text('#include "book.h"\nint unused(void);\nint unused(void) { return 0; }\n')
    (tmp_path / "b.c").write_text('#include "book.h"\nint main(void)\n{\n    tg_game game;\n'
                                  "    tg_start(&game);\n    return tg_answer(&game, 0, 0);\n}\n")
    done = subprocess.run(["cc", *STRICT, "-o", str(tmp_path / "ab"), str(tmp_path / "a.c"),
                           str(tmp_path / "b.c")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert subprocess.run([str(tmp_path / "ab")]).returncode == 0  # TG_OK


@needs_cc
def test_the_documented_example_plays_through_a_pipe_one_prompt_at_a_time(tmp_path):
    """The example answers each prompt only after it has read it, as a program at the other end
    of a pipe would: without a flush after the prompt, both sides would wait for ever."""
    example = re.search(r"```c\n(.*?)```", EMBEDDING.read_text(encoding="utf-8"), re.S)
    assert example, "docs/embedding.md has a C example"
    book = books.load(BOOKS / "bulls-and-cows-optimal-all.json")
    program = compile_program(tmp_path, header_text(book), example.group(1), "example")
    secret, guesses = "7031", []
    with subprocess.Popen([str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as game:
        try:
            assert game.stdin is not None and game.stdout is not None
            while True:
                prompt = b""
                while not prompt.endswith(b"? ") and not prompt.endswith(b"solved\n"):
                    ready, _, _ = select.select([game.stdout], [], [], 30)
                    assert ready, f"no prompt after {prompt!r}: the example does not flush"
                    chunk = os.read(game.stdout.fileno(), 100)
                    assert chunk, f"the example ended after {prompt!r}"
                    prompt += chunk
                if prompt.endswith(b"solved\n"):
                    break
                guess = prompt.decode().split("?")[0].strip().split()[-1]
                guesses.append(guess)
                a, b = books.feedback(guess, secret)
                game.stdin.write(f"{a} {b}\n".encode())
                game.stdin.flush()
            game.stdin.close()
            assert game.wait(timeout=30) == 0
        finally:
            game.kill()
    player = Player(book)
    while not player.solved:
        player.answer(books.feedback(player.guess, secret))
    assert guesses == [h[0] for h in player.history]


def test_the_header_is_byte_identical_and_states_its_book_and_size(tmp_path):
    book = books.load(BOOKS / "bulls-and-cows-optimal-all.json")
    export(book, tmp_path / "a.h")
    export(book, tmp_path / "b.h", "c")
    text = (tmp_path / "a.h").read_bytes()
    assert text == (tmp_path / "b.h").read_bytes()
    assert treegen.load(BOOKS / "bulls-and-cows-optimal-all.json").c_header().encode() == text
    size = int(re.search(rb"#define TG_TABLE_BYTES (\d+)u", text).group(1))
    assert text.count(b"0x") == size
    head = text.split(b"*/")[0].decode()
    assert "bulls-and-cows" in head and "optimal" in head and "total 26274" in head
    assert f"table {size} bytes" in head and "treegen" in head


def test_bad_prefixes_are_refused(run, tmp_path):
    shutil.copy(BOOKS / "mastermind-optimal-all.json", tmp_path / "b.json")
    book = books.load(tmp_path / "b.json")
    for prefix in ("1tg", "tg\n", "tg\r\n", "", "t" * 32, None, 7):  # $ matched before a newline
        with pytest.raises(CHeaderError, match="not a C identifier"):
            header_text(book, prefix)
    for prefix in ("a-b", "tg\n"):
        result = run("export", tmp_path / "b.json", "-o", tmp_path / "b.h", "--prefix", prefix)
        assert result.exit_code != 0 and "not a C identifier" in result.output
        assert len(result.output.strip().splitlines()) == 1 and not os.path.exists(tmp_path / "b.h")


HOSTILE_NAMES = [
    "x*\\\n/ int injected(void) { return 42; } /*",     # backslash-newline splices */ together
    "x??/\n*/ int injected(void) { return 42; } /*",    # the same with a trigraph backslash
    "*/ int injected(void) { return 42; } /*",
    "/* nested comment start",
    "tab\there; form\ffeed; bell\x07; NUL-less \u2028 line separator",
]


@needs_cc
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_text_from_the_book_cannot_leave_the_headers_comment(tmp_path, name):
    """A game or strategy name reaches the header only inside its comment, encoded: whatever it
    holds, the strict build still passes and no code of the book author's is compiled."""
    book = build_book("mastermind", "minimax")
    book["game"]["name"] = name
    book["strategy"]["name"] = name
    assert treegen.verify(book) == []  # a book the verifier accepts
    header = header_text(book)
    comment = header.split("*/")[0]
    assert "injected" not in header.split("*/", 1)[1]
    assert all(c.isascii() and (c.isprintable() or c == "\n") for c in comment)
    assert "\\" not in comment and "??" not in comment and "/*" not in comment[2:]
    main = ('#include "book.h"\nint injected(void);\nint main(void)\n{\n    tg_game game;\n'
            "    tg_start(&game);\n    return tg_answer(&game, 0, 0);\n}\n")
    (tmp_path / "book.h").write_text(header, encoding="utf-8")
    (tmp_path / "main.c").write_text(main)
    done = subprocess.run(["cc", *STRICT, "-trigraphs", "-o", str(tmp_path / "main"),
                           str(tmp_path / "main.c")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert subprocess.run([str(tmp_path / "main")]).returncode == 0


def random_words(rule: str = "wordle") -> Game:
    """Words of seven letters, some of them anagrams of others; half of them the answers."""
    words = sorted({"".join(random.Random(i).choices("abcdefg", k=5)) for i in range(300)})
    return Game.of_words(words[::2], words, rule=rule)


RULE_GAMES = {
    "black": lambda: Game("ABCD", 4, True, rule="black"),
    "tiles": lambda: Game("ABCD", 4, True, rule="wordle"),
    "words": random_words,
    "jotto": lambda: Game("ABCDE", 3, True, rule="jotto"),
    "jotto-words": lambda: random_words("jotto"),
}
#: How the driver scores each game's rule.
DRIVER_RULE = {"black": "", "tiles": "#define TILES\n", "words": "#define TILES\n",
               "jotto": "#define JOTTO\n", "jotto-words": "#define JOTTO\n"}


@needs_cc
@pytest.mark.parametrize("name", sorted(RULE_GAMES))
def test_other_rules_and_word_games_play_every_secret_to_the_books_total(name, tmp_path):
    """Black pegs, Wordle's tiles and Jotto's counts on codes, and listed word games whose
    guesses are not all answers: the header holds the book's own words and answers in the rule's
    terms."""
    book = build_book(RULE_GAMES[name](), "optimal")
    header = header_text(book)
    main = DRIVER_RULE[name] + RULE_DRIVER
    program = compile_program(tmp_path, header, main)
    secrets = game_codes(book["game"])
    lines = run(program, [f"p {secret}" for secret in secrets])
    codes, guesses = zip(*(map(int, line.split()) for line in lines))
    assert set(codes) == {1} and len(lines) == len(secrets)
    assert sum(guesses) == book["stats"]["total"] and max(guesses) == book["stats"]["max"]
    if name == "words":
        assert "tg_word_" in header and book["tree"]["guess"] in header
        first = book["tree"]["guess"]
        key = next(iter(book["tree"]["next"]))
        child = book["tree"]["next"][key]["guess"]
        answered = run(program, ["s", f"t {key}", "s", f"t {key.lower()}", "s", "t GGGGY", "s",
                                 "t GGG", "s", "t xxxxx"])
        assert answered[:2] == [f"0 {child}", f"0 {child}"]
        assert answered[2:] == [f"-1 {first}"] * 3  # impossible or unreadable: nothing changes


def python_jotto(player: Player, command: str) -> str | None:
    """What the Jotto driver prints for ``command``, from the Python player (nothing when it
    starts again)."""
    if command == "s":
        player.reset()
        return None

    def move():
        if command == "u":
            player.undo()
            return 0
        said = "win" if command == "w" else command.split()[1]
        return 0 if player.answer(said) is not None else 1
    # C reads a number: one that is none is impossible
    return driver_line(player, move, (ImpossibleAnswer, MalformedAnswer))


@needs_cc
@pytest.mark.parametrize("game", [Game("ABCD", 3, True, rule="jotto"),
                                  Game("ABCDE", 1, True, rule="jotto")], ids=lambda g: g.slug)
def test_jotto_s_counts_and_win_are_answered_as_the_python_player_answers_them(game, tmp_path):
    """Every count the book has, counts it has not, impossible ones (negative, beyond the length,
    all the letters of a one-letter guess), the win where the guess may or may not be the secret,
    and undos: the header answers each as the Python player does, and an error changes nothing."""
    book = build_book(game, "optimal")
    program = compile_program(tmp_path, header_text(book), DRIVER_RULE["jotto"] + RULE_DRIVER)
    player, rng, commands = Player(book), random.Random(game.length), []
    for _ in range(3000):
        roll, node = rng.random(), player._path[-1]
        if roll < 0.5 and node["next"] and not player.solved:
            commands.append(f"j {rng.choice(sorted(node['next']))}")
        elif roll < 0.65:
            commands.append(f"j {rng.randint(-2, game.length + 2)}")
        elif roll < 0.8:
            commands.append("w")
        elif roll < 0.95:
            commands.append("u")
        else:
            commands.append("s")
        python_jotto(player, commands[-1])
    player.reset()
    expected = [line for line in map(lambda c: python_jotto(player, c), commands) if line]
    assert {line.split()[0] for line in expected} == {"0", "1", "-1", "-2", "-3", "-4"}
    assert run(program, commands) == expected
