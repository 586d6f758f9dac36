"""The site's JavaScript: the player agrees with the Python one, and the pages work in Chromium."""

import functools
import http.server
import json
import shutil
import struct
import subprocess
import threading
import zlib
from importlib import resources

import pytest

from tests.helpers.ci import requires_binary
from treegen.api import build_book
from treegen.book.format import answer_key
from treegen.book.replay import game_codes
from treegen.player import Player, PlayerError, feedback_keys, solved_key
from treegen.rules.game import Game
from treegen.views.site import build_site
from treegen.views.tree import measure

PLAYER_JS = resources.files("treegen.views").joinpath("web", "player.js")
CHROMIUM_FLAGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]

NODE_SCRIPT = """
const treegen = require(process.argv[2]);
const input = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
const out = {games: [], paths: [], probes: []};
const player = new treegen.Player(input.book);
for (const secret of input.secrets) {
  player.reset();
  const moves = [];
  while (!player.solved) {
    const guess = player.guess, left = player.remaining();
    player.answer(treegen.score(guess, secret, input.book.game.rule || "pegs"));
    moves.push([guess, left]);
  }
  out.games.push(moves);
  out.paths.push(treegen.findPath(input.book, secret).map(m => m.guess));
}
for (const [before, answer] of input.probes) {
  player.reset();
  before.forEach(a => player.answer(a));
  try {
    out.probes.push(["ok", player.answer(answer), player.remaining(), player.history]);
  } catch (e) {
    out.probes.push([e.name, e instanceof treegen.PlayerError]);
  }
}
process.stdout.write(JSON.stringify(out));
"""

ANSWERS = ["1A2B", "12", "1 2", "1,2", "1;2", "1/2", "1-2", "1a2b", " 0A0B ", "0 0", "04", "0A4B",
           "2A2B", "4A0B", "3A1B", "5A0B", "-1 2", "1 -2", "xyz", "", "1A", "9", "123", "1A2", "A1B2",
           "4 0", "3A0B", "0A1B", "GY..Y", "gy--y", "GGGGY", "GGGG", "2A", "2", "5A", "G.Y", "...",
           "BWW", "b w w", "1B2W", "B1 W2", "2B", "W", "BBBW", "BBBBB", "BB", "b", "1B 2W 3", "BX",
           "1234567890A0B", "win", " WIN ", "won", "yes", "jotto", "!", "-", "none", "zero", "no",
           "3", " 2 ", "0", "03", "win!", "1 win"]


def python_games(book, secrets):
    player, games = Player(book), []
    for secret in secrets:
        player.reset()
        moves = []
        while not player.solved:
            guess, left = player.guess, player.remaining()
            player.answer(answer_key(book["game"], guess, secret))
            moves.append([guess, left])
        games.append(moves)
    return games


def python_probe(book, before, answer):
    player = Player(book)
    for a in before:
        player.answer(a)
    try:
        nxt = player.answer(answer)
    except PlayerError as exc:
        return [type(exc).__name__, True]
    return ["ok", nxt, player.remaining(), [list(h) for h in player.history]]


OTHER_GAMES = {
    "small": lambda: Game("ABCD", 3, True),
    "emoji": lambda: Game("\U0001F34E\U0001F34C\U0001F352\u00e9", 3, False),
    "black": lambda: Game("ABCD", 3, True, rule="black"),
    "tiles": lambda: Game("ABC", 3, True, rule="wordle"),
    "words": lambda: Game.of_words(["abbey", "cigar", "rebut", "sissy", "humph", "awake", "blush"],
                                   ["abbey", "cigar", "rebut", "sissy", "humph", "awake", "blush",
                                    "salet", "crane", "tares"]),
    "jotto": lambda: Game("ABCD", 3, True, rule="jotto"),
    "jotto-one": lambda: Game("ABCDE", 1, True, rule="jotto"),
    # anagrams among the answers: sharing every letter is not the win
    "jotto-words": lambda: Game.of_words(["least", "slate", "stale", "steal", "tales", "crane",
                                          "nacre", "caner", "cigar", "tesla"],
                                         ["least", "slate", "stale", "steal", "tales", "crane",
                                          "nacre", "caner", "cigar", "tesla", "salet", "trace"],
                                         rule="jotto"),
}


@requires_binary("node")
@pytest.mark.parametrize("name", ["mastermind_minimax", "bulls_simple", *OTHER_GAMES])
def test_javascript_and_python_players_agree_on_every_secret(name, request, tmp_path):
    """``emoji``: symbols beyond the Basic Multilingual Plane, two UTF-16 units each in JS; the
    other rules, and a game of listed words whose guesses are not all answers."""
    book = build_book(OTHER_GAMES[name](), "minimax" if name == "emoji" else "expected") \
        if name in OTHER_GAMES else request.getfixturevalue(name)
    secrets = game_codes(book["game"])
    first = book["tree"]["guess"]
    some = next(iter(book["tree"]["next"]))
    valid = feedback_keys(book["game"])
    absent = [a for a in valid if a not in book["tree"]["next"]]  # NoSuchBranch, or solved
    length = book["game"]["length"]
    impossible = ["G" * (length - 1) + "Y", f"{length + 1}A", str(length + 1)]  # tiles, black, Jotto
    probes = [[before, a] for before in ([], [some]) for a in ANSWERS + impossible + absent]
    (tmp_path / "input.json").write_text(json.dumps({"book": book, "secrets": secrets,
                                                     "probes": probes}))
    (tmp_path / "agree.js").write_text(NODE_SCRIPT)
    done = subprocess.run(["node", str(tmp_path / "agree.js"), str(PLAYER_JS),
                           str(tmp_path / "input.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    expected = python_games(book, secrets)
    assert len(js["games"]) == len(expected) == len(secrets)
    for secret, mine, theirs in zip(secrets, js["games"], expected):
        assert mine == theirs, secret
        assert mine[-1][0] == secret and mine[0] == [first, len(secrets)]
    assert js["paths"] == [[guess for guess, _ in game] for game in expected]
    kinds = set()
    for (before, answer), outcome in zip(probes, js["probes"]):
        assert outcome == python_probe(book, before, answer), (before, answer)
        kinds.add(outcome[0])
    unseen = {"NoSuchBranch"} if set(absent) - {solved_key(book["game"])} else set()
    assert {"ok", "MalformedAnswer", "ImpossibleAnswer"} | unseen <= kinds


# -- in Chromium -------------------------------------------------------------------------------

def png_pixels(data):
    """Decode an 8-bit RGB(A), non-interlaced PNG (what Chromium writes) into rows of pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.setdefault(kind, []).append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    assert depth == 8 and colour in (2, 6) and interlace == 0
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks[b"IDAT"]))
    stride, rows, prev = width * step, [], bytearray(width * step)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = prev[i], prev[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([bytes(line[i:i + 3]) for i in range(0, stride, step)])
        prev = line
    return rows


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served(tmp_path):
    """The site of a Mastermind book served by a plain HTTP server on a free local port."""
    book = build_book("mastermind", "minimax")
    other = build_book("mastermind", "simple")
    build_site([("mm", book), ("mm-simple", other)], tmp_path / "site", depth=2)
    handler = functools.partial(QuietHandler, directory=str(tmp_path / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path / "site", book
    server.shutdown()
    server.server_close()


@requires_binary("chromium")
@requires_binary("dot")
def test_browse_click_through_the_tree_and_play_a_game(served, tmp_path):
    from playwright.sync_api import sync_playwright
    base, folder, book = served
    sizes = measure(book["tree"], book["game"])
    # the biggest subtree at each of the first two levels: both continue on their own pages
    first = max(book["tree"]["next"], key=lambda a: sizes[id(book["tree"]["next"][a])].secrets)
    node = book["tree"]["next"][first]
    second = max(node["next"], key=lambda a: sizes[id(node["next"][a])].secrets)
    secret = "6543"
    expected = [guess for guess, _ in python_games(book, [secret])[0]]
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                    args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/index.html")
        page.click('a.book-link[href="mm/index.html"]')
        page.wait_for_url("**/mm/index.html")
        page.click(f'[id="t-{first}"] a:visible, [id="c-{first}"] > a.answer:visible')
        page.wait_for_url(f"**/mm/n-{first}.html")
        page.click(f'[id="t-{first}-{second}"] a:visible, [id="c-{first}-{second}"] > a.answer:visible')
        page.wait_for_url(f"**/mm/n-{first}-{second}.html")
        assert page.get_attribute("body", "data-page") == f"{first}-{second}"
        assert page.locator(".crumbs a").count() == 2

        guesses, undone = [], False
        page.fill("#play-answer", "3A1B")
        page.press("#play-answer", "Enter")
        assert "impossible" in page.text_content("#play-message")
        assert page.get_attribute("#play-message", "class") == "error"
        for _ in range(2 * len(expected) + 2):  # bounded: a stuck page fails instead of hanging
            if page.locator("#play-guess .solved").count():
                break
            guess = page.get_attribute("#play-guess .code", "data-code")
            guesses.append(guess)
            page.fill("#play-answer", answer_key(book["game"], guess, secret))
            page.press("#play-answer", "Enter")
            if len(guesses) == 2 and not undone:  # undo once: the same guess comes back
                undone = True
                page.click("#play-undo")
                assert page.get_attribute("#play-guess .code", "data-code") == guess
                guesses.pop()
        assert guesses == expected
        assert page.get_attribute("#play-guess .solved .code", "data-code") == secret
        assert page.locator("#play-history li").count() == len(expected)

        page.fill("#find-secret", secret)
        page.press("#find-secret", "Enter")
        assert page.locator("#find-result .moves li").count() == len(expected)
        shot = tmp_path / "page.png"
        page.screenshot(path=str(shot))

        # the same pages work straight from the file system (no server, file://)
        page.goto((folder / "mm" / "index.html").as_uri())
        assert page.get_attribute("#play-guess .code", "data-code") == book["tree"]["guess"]
        browser.close()
    assert errors == []
    rows = png_pixels(shot.read_bytes())
    colours = {pixel for row in rows[::4] for pixel in row[::4]}
    background = max(colours, key=lambda c: sum(row[::4].count(c) for row in rows[::4]))
    busy = sum(pixel != background for row in rows[::4] for pixel in row[::4])
    assert len(colours) > 50 and busy > 0.05 * len(rows[::4]) * len(rows[0][::4])
