"""A site's large book in parts: the cut (every part small, the stubs true, nothing lost), the
JavaScript player and finder loading the parts as the game enters them (in Node, against the
Python player on every secret, and refusing a part that is not its stub's), and a site in parts
played and searched in Chromium, from a server and from the file system."""

import copy
import json
import subprocess
from importlib import resources

import pytest

from tests.helpers.browsing import chromium, served, watched
from tests.helpers.ci import requires_binary
from tests.views.test_browser import python_games
from treegen.book.format import answer_key
from treegen.book.replay import game_codes
from treegen.views.site import build_site
from treegen.views.site_parts import split_tree
from treegen.views.tree import measure

WEB = resources.files("treegen.views").joinpath("web")


def node_count(tree):
    """The nodes of a part, its stubs aside."""
    stack, count = [tree], 0
    while stack:
        node = stack.pop()
        count += "next" in node
        stack.extend(node.get("next", {}).values())
    return count


def joined(parts):
    """The whole tree again from its parts, each stub checked against the subtree it stands for."""
    def resolve(node):
        for answer, child in list(node["next"].items()):
            if "part" in child:
                file, index = child["part"]
                subtree = copy.deepcopy(parts.files[file][index])
                assert subtree["guess"] == child["guess"]
                node["next"][answer] = resolve(subtree)
                stubs.append((child["secrets"], node["next"][answer]))
            else:
                resolve(child)
        return node
    stubs = []
    return resolve(copy.deepcopy(parts.top)), stubs


@pytest.mark.parametrize("budget", [1, 7, 40, 300])
def test_parts_are_small_and_join_into_the_book(mastermind_minimax, budget):
    book = mastermind_minimax
    sizes = measure(book["tree"], book["game"])
    parts = split_tree(book["tree"], sizes, budget)
    most = budget
    stack = [book["tree"]]
    while stack:  # a node keeps its leaves: a part holds them even beyond the budget
        node = stack.pop()
        most = max(most, 1 + sum(not child["next"] for child in node["next"].values()))
        stack.extend(node["next"].values())
    for part in [parts.top, *(p for file in parts.files for p in file)]:
        assert node_count(part) <= most
    assert all(sum(node_count(p) for p in file) <= max(budget, node_count(file[0])) for file in parts.files)
    tree, stubs = joined(parts)
    assert tree == book["tree"]
    assert stubs, "a book larger than a part is cut"
    rejoined = measure(tree, book["game"])
    assert all(secrets == rejoined[id(node)].secrets for secrets, node in stubs)


def test_a_book_within_a_part_is_one_part(mastermind_minimax):
    book = mastermind_minimax
    parts = split_tree(book["tree"], measure(book["tree"], book["game"]), node_count(book["tree"]))
    assert parts.files == [] and parts.top == book["tree"]
    assert list(parts.scripts()) == []


NODE_SCRIPT = r"""
const fs = require("fs"), vm = require("vm"), path = require("path");
const treegen = Object.assign({}, require(process.argv[2]), require(process.argv[3]),
                              require(process.argv[4]));
const folder = process.argv[5];
const data = vm.runInNewContext(fs.readFileSync(path.join(folder, "book-data.js"), "utf8") +
                                ";window.TREEGEN_BOOK", {window: {}});
const input = JSON.parse(fs.readFileSync(process.argv[6], "utf8"));
let loads = 0, fail = null;
function load(part) {
  loads++;
  const text = fs.readFileSync(path.join(folder, "parts", part[0] + ".js"), "utf8");
  let got = null;
  vm.runInNewContext(text, {treegen: {part: (n, subtrees) => { got = subtrees; }}});
  const subtree = JSON.parse(JSON.stringify(got[part[1]]));
  if (fail === "count" && subtree.next) delete subtree.next[Object.keys(subtree.next)[0]];
  if (fail === "throw") throw new Error("disk gone");
  return Promise.resolve(subtree);
}
(async () => {
  const out = {games: [], paths: [], loads: 0, refused: []};
  for (const Kind of [treegen.Player, treegen.LivePlayer]) {
    const player = new Kind(data.book, {load});
    const games = [];
    for (const secret of input.secrets) {
      player.reset();
      const moves = [];
      while (!player.solved) {
        await player.ready();
        const guess = player.guess, left = player.remaining();
        player.answer(treegen.score(guess, secret, data.book.game.rule || "pegs"));
        moves.push([guess, left]);
      }
      games.push(moves);
    }
    out.games.push(games);
  }
  for (const secret of input.secrets) {
    out.paths.push((await treegen.findPathAsync(data.book, secret, load)).map(m => [m.guess, m.answer]));
  }
  out.loads = loads;
  try { treegen.findPath(data.book, input.secrets[0]); } catch (e) { out.refused.push(e.name); }
  for (fail of ["count", "throw"]) {
    const player = new treegen.Player(data.book, {load});
    const stub = input.stub;
    player.answer(stub);
    out.refused.push(player.loaded);
    try { player.answer("0A0B"); } catch (e) { out.refused.push(e.name); }
    try { await player.ready(); out.refused.push("loaded"); } catch (e) { out.refused.push(e.message); }
    try { await treegen.findPathAsync(data.book, input.deep, load); out.refused.push("found"); }
    catch (e) { out.refused.push(e.message); }
    fail = null;  // the failure is not kept: the next try loads the part
    await player.ready();
    out.refused.push(player.loaded);
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e.stack); process.exit(1); });
"""


@requires_binary("node")
def test_javascript_players_load_the_parts_and_play_every_secret_as_python(mastermind_minimax, tmp_path):
    book = mastermind_minimax
    build_site([("mm", book)], tmp_path / "site", depth=2, part_nodes=25)
    folder = tmp_path / "site" / "mm"
    assert len(list((folder / "parts").iterdir())) > 10
    data = (folder / "book-data.js").read_text()
    assert '"part":[' in data and len(data) < 20_000
    secrets = game_codes(book["game"])
    expected = python_games(book, secrets)
    top = json.loads(data[data.index("{"):data.rindex("}") + 1])["book"]["tree"]
    stub = next(a for a, child in top["next"].items() if "part" in child)
    deep = next(s for s in secrets if answer_key(book["game"], top["guess"], s) == stub)
    (tmp_path / "input.json").write_text(json.dumps({"secrets": secrets, "stub": stub, "deep": deep}))
    (tmp_path / "parts.js").write_text(NODE_SCRIPT)
    done = subprocess.run(["node", str(tmp_path / "parts.js"), str(WEB / "player.js"), str(WEB / "live.js"),
                           str(WEB / "offbook.js"), str(folder), str(tmp_path / "input.json")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    js = json.loads(done.stdout)
    assert js["games"] == [expected, expected]
    assert js["paths"] == [[[g, answer_key(book["game"], g, s)] for g, _ in game]
                           for s, game in zip(secrets, expected)]
    assert js["loads"] > 0
    refused = js["refused"]
    assert refused[0] == "PlayerError"  # the synchronous finder does not walk a book in parts
    count, thrown = refused[1:6], refused[6:]
    assert count[:2] == [False, "PlayerError"] and "malformed book part" in count[2]
    assert "malformed book part" in count[3] and count[4] is True
    assert thrown[:2] == [False, "PlayerError"] and thrown[2] == thrown[3] == "disk gone"
    assert thrown[4] is True


@requires_binary("chromium")
@requires_binary("dot")
def test_a_site_in_parts_is_played_and_searched_in_the_browser(mastermind_minimax, tmp_path):
    book = mastermind_minimax
    folder = tmp_path / "site"
    build_site([("mm", book)], folder, depth=2, part_nodes=25)
    secret = "6543"
    expected = python_games(book, [secret])[0]
    with chromium() as browser, served(folder) as base:
        for start in (base + "/mm/index.html", (folder / "mm" / "index.html").as_uri()):
            with watched(browser) as page:
                page.goto(start)
                page.evaluate("window.sessionStorage.clear()")
                page.reload()
                guesses = []
                for _ in range(len(expected) + 2):
                    if page.locator("#play-guess .solved").count():
                        break
                    page.wait_for_selector("#play-answer:not([disabled])")
                    guess = page.get_attribute("#play-guess .code", "data-code")
                    left = page.text_content("#play-guess .left").split()[0]
                    guesses.append([guess, int(left.replace(",", ""))])
                    page.fill("#play-answer", answer_key(book["game"], guess, secret))
                    page.press("#play-answer", "Enter")
                assert guesses == expected
                assert page.get_attribute("#play-guess .solved .code", "data-code") == secret
                # the game goes on across pages: replayed there part by part
                page.goto(page.url)
                page.wait_for_selector("#play-guess .solved")
                page.fill("#find-secret", secret)
                page.press("#find-secret", "Enter")
                page.wait_for_selector("#find-result .ok")
                assert page.locator("#find-result .moves li").count() == len(expected)
