/* treegen site pages: the "find a secret" box, the player panel and node highlighting.
 * Reads window.TREEGEN_BOOK (book-data.js) and uses treegen.Player (player.js); no dependencies. */
(function () {
  "use strict";
  var data = window.TREEGEN_BOOK;
  var lib = window.treegen;
  if (!data || !lib) return;
  var book = data.book;
  var pages = new Set(data.pages);
  var storageKey = "treegen-play:" + data.name;

  function $(id) { return document.getElementById(id); }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }[c];
    });
  }

  function codeHtml(code) {
    var attr = " data-code=\"" + escapeHtml(code) + "\"";
    if (!data.pegs) return "<span class=\"code\"" + attr + ">" + escapeHtml(code) + "</span>";
    var dots = Array.from(code).map(function (c) {
      return "<span class=\"peg\" style=\"background:" + data.pegs[c] + "\" title=\"" + escapeHtml(c) + "\"></span>";
    }).join("");
    return "<span class=\"code pegs\"" + attr + " title=\"" + escapeHtml(code) + "\">" + dots + "</span>";
  }

  function key(path) { return path.length ? path.join("-") : "root"; }

  /** The page that shows a node: the deepest page that starts at the node or above it. */
  function pageFor(path) {
    for (var n = path.length; n > 0; n--) {
      var prefix = path.slice(0, n);
      if (pages.has(key(prefix))) return "n-" + key(prefix) + ".html";
    }
    return "index.html";
  }

  function linkTo(path) { return pageFor(path) + "#t-" + key(path); }

  function highlight(paths) {
    Array.prototype.forEach.call(document.querySelectorAll(".picture g.hl"), function (g) {
      g.classList.remove("hl");
    });
    var first = null;
    paths.forEach(function (path) {
      var g = document.getElementById("t-" + key(path));
      if (g) {
        g.classList.add("hl");
        first = first || g;
      }
    });
    return first;
  }

  /** Scroll the picture (not the window) so that a node is in the middle of it. */
  function centre(g) {
    var picture = document.querySelector(".picture");
    if (!picture || !g) return;
    var frame = picture.getBoundingClientRect(), box = g.getBoundingClientRect();
    picture.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
    picture.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : word === "guess" ? "es" : "s"); }

  // -- find a secret -------------------------------------------------------------------------

  function find(event) {
    event.preventDefault();
    var text = $("find-secret").value.trim(), out = $("find-result");
    var problem = text ? lib.checkCode(book.game, text) : "type a secret code first";
    if (problem) {
      out.innerHTML = "<p class=\"error\">" + escapeHtml(problem) + "</p>";
      return;
    }
    var moves;
    try {
      moves = lib.findPath(book, text);
    } catch (error) {
      out.innerHTML = "<p class=\"error\">" + escapeHtml(error.message) + "</p>";
      return;
    }
    var items = moves.map(function (move) {
      return "<li><a href=\"" + linkTo(move.path) + "\">" + codeHtml(move.guess) + "</a> <b>" +
        move.answer + "</b></li>";
    });
    out.innerHTML = "<ol class=\"moves\">" + items.join("") + "</ol><p class=\"ok\">found in " +
      plural(moves.length, "guess") + "</p>";
    centre(highlight(moves.map(function (m) { return m.path; })));
  }

  // -- the player ----------------------------------------------------------------------------

  var player = new lib.Player(book);
  var message = { text: "", kind: "" };

  function save() {
    try {
      window.sessionStorage.setItem(storageKey, JSON.stringify(player.history.map(function (h) { return h[1]; })));
    } catch (e) { /* storage may be off; the game just does not follow you across pages */ }
  }

  function restore() {
    try {
      var answers = JSON.parse(window.sessionStorage.getItem(storageKey) || "[]");
      answers.forEach(function (answer) { player.answer(answer); });
    } catch (e) {
      player.reset();
    }
  }

  function show() {
    var guess = $("play-guess");
    if (player.solved) {
      var history = player.history;
      guess.innerHTML = "<div class=\"solved\">Solved in " + plural(history.length, "guess") +
        ": your secret is " + codeHtml(history[history.length - 1][0]) + "</div>";
    } else {
      guess.innerHTML = "<span class=\"number\">guess " + (player.history.length + 1) + "</span>" +
        codeHtml(player.guess) + "<span class=\"left\">" + plural(player.remaining(), "secret") +
        " possible</span>";
    }
    $("play-answer").disabled = player.solved;
    $("play-undo").disabled = !player.history.length;
    $("play-where").href = linkTo(player.path);
    var msg = $("play-message");
    msg.textContent = message.text;
    msg.className = message.kind;
    $("play-history").innerHTML = player.history.map(function (h) {
      return "<li>" + codeHtml(h[0]) + " <b>" + h[1] + "</b></li>";
    }).join("");
    save();
  }

  function answer(event) {
    event.preventDefault();
    var input = $("play-answer"), text = input.value.trim();
    if (!text) return;
    message = { text: "", kind: "" };
    try {
      player.answer(text);
      input.value = "";
    } catch (error) {
      if (!(error instanceof lib.PlayerError)) throw error;
      message = { text: error.message, kind: "error" };
      if (error instanceof lib.NoSuchBranch) {
        var key = player.parse(text);
        message.text += "\n" + lib.diagnose(book.game, player.history.concat([[player.guess, key]]));
      }
    }
    show();
    input.focus();
  }

  function undo() {
    message = { text: "", kind: "" };
    try { player.undo(); } catch (error) { message = { text: error.message, kind: "error" }; }
    show();
  }

  function reset() {
    message = { text: "", kind: "" };
    player.reset();
    show();
    $("play-answer").focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    if ($("find-form")) $("find-form").addEventListener("submit", find);
    if ($("play-form")) {
      restore();
      $("play-form").addEventListener("submit", answer);
      $("play-undo").addEventListener("click", undo);
      $("play-reset").addEventListener("click", reset);
      show();
    }
    // Show the node the link pointed at, else this page's own node (big pictures scroll).
    var target = window.location.hash.slice(1), g = null;
    if (target.indexOf("t-") === 0) {
      g = document.getElementById(target);
      if (g) g.classList.add("hl");
    }
    centre(g || document.getElementById("t-" + document.body.getAttribute("data-page")));
  });
})();
