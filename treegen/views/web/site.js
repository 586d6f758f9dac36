/* treegen site pages: the picture (fitted to its frame, zoom and pan) or the grid of a node's many
 * answers, the "find a secret" box, the player panel, and the paths both light in the tree.
 * Reads window.TREEGEN_BOOK (book-data.js) and uses treegen.LivePlayer (offbook.js: the book's
 * player, which goes on computing live when the answers leave the book); no dependencies. */
(function () {
  "use strict";
  var data = window.TREEGEN_BOOK;
  var lib = window.treegen;
  if (!data || !lib) return;
  var book = data.book;
  var pages = new Set(data.pages);
  var storageKey = "treegen-play:" + data.name;
  var findKey = "treegen-find:" + data.name;

  function $(id) { return document.getElementById(id); }

  // -- a book in parts (treegen.views.site_parts): parts/N.js hands its subtrees to treegen.part --

  var partFiles = {}, arrived = {};
  lib.part = function (number, subtrees) { arrived[number] = subtrees; };

  /** The subtree [file, index] of a book in parts: its file is loaded as a script (which works
   * from file:// too) once, and again after a failure. */
  function loadPart(part) {
    var number = part && part[0], index = part && part[1];
    if (!Number.isInteger(number) || number < 0 || !Number.isInteger(index) || index < 0) {
      return Promise.reject(new lib.PlayerError("malformed book: a part is named by two counts, not " +
        JSON.stringify(part)));
    }
    if (!partFiles[number]) {
      partFiles[number] = new Promise(function (resolve, reject) {
        var script = document.createElement("script"), name = "parts/" + number + ".js";
        script.src = name;
        script.onload = function () {
          if (Array.isArray(arrived[number])) resolve(arrived[number]);
          else reject(new lib.PlayerError(name + " is not a part of this book"));
        };
        script.onerror = function () { reject(new lib.PlayerError("cannot load " + name + " of this book")); };
        document.head.appendChild(script);
      });
      partFiles[number].catch(function () { delete partFiles[number]; });
    }
    return partFiles[number].then(function (subtrees) {
      if (index >= subtrees.length) throw new lib.PlayerError("parts/" + number + ".js has no part " + index);
      return subtrees[index];
    });
  }

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
    return "<span class=\"code pegs\"" + attr + " title=\"" + escapeHtml(code) + "\">" + dots +
      "<span class=\"symbols\">" + escapeHtml(code) + "</span></span>";
  }

  function key(path) { return path.length ? path.join("-") : "root"; }

  /** An answer as the game shows it: Wordle's tiles on the guess's letters, else its text. */
  function answerHtml(guess, answer) {
    var rule = lib.ruleOf(book.game);
    if (!rule.tiles) return "<b>" + escapeHtml(rule.format(answer)) + "</b>";
    var names = { G: "green", Y: "yellow", ".": "grey" }, letters = lib.symbolsOf(guess);
    return "<span class=\"tiles\" title=\"" + escapeHtml(answer) + "\">" + Array.from(answer).map(function (t, i) {
      return "<span class=\"tile " + names[t] + "\">" + escapeHtml(letters[i]) + "</span>";
    }).join("") + "</span>";
  }

  /** The page that shows a node: the deepest page that starts at the node or above it. */
  function pageFor(path) {
    for (var n = path.length; n > 0; n--) {
      var prefix = path.slice(0, n);
      if (pages.has(key(prefix))) return "n-" + key(prefix) + ".html";
    }
    return "index.html";
  }

  /** A link to where a node is drawn. The fragment names no element, so following it does not
   * scroll the page: the script marks the node instead. */
  function linkTo(path) { return pageFor(path) + "#node-" + key(path); }

  /** Mark the nodes of ``paths`` and the answers leading to them with ``cls`` (and only them),
   * in the picture and in its cards (ids c- and a-). */
  function light(paths, cls) {
    var marked = ".picture g." + cls + ", .branches ." + cls + ", h1." + cls;
    Array.prototype.forEach.call(document.querySelectorAll(marked), function (g) {
      g.classList.remove(cls);
    });
    var last = null;
    paths.forEach(function (path) {
      ["t-", "f-", "c-", "a-"].forEach(function (prefix) {
        var node = prefix === "t-" || prefix === "c-";
        var g = path.length || node ? document.getElementById(prefix + key(path)) : null;
        if (g) {
          g.classList.add(cls);
          if (prefix === "t-") last = g;
        }
      });
    });
    return last;
  }

  function prefixes(path) {
    var out = [];
    for (var n = 0; n <= path.length; n++) out.push(path.slice(0, n));
    return out;
  }

  // -- the picture: fitted to its frame on arrival, zoom with the wheel or buttons, drag to pan --

  var view = null;

  function setBox(box) {
    view.box = box;
    view.svg.setAttribute("viewBox", box.map(function (v) { return v.toFixed(2); }).join(" "));
  }

  function zoom(factor, cx, cy) {
    var b = view.box, w = b[2] * factor, h = b[3] * factor;
    if (w < view.full[2] / 40 || w > view.full[2] * 4) return;  // bounded both ways
    if (cx === undefined) { cx = b[0] + b[2] / 2; cy = b[1] + b[3] / 2; }
    setBox([cx - (cx - b[0]) * factor, cy - (cy - b[1]) * factor, w, h]);
  }

  function userPoint(clientX, clientY) {
    var m = view.svg.getScreenCTM();
    if (!m) return [view.box[0], view.box[1]];
    var p = view.svg.createSVGPoint();
    p.x = clientX; p.y = clientY;
    p = p.matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  /** Bring a node into the middle of the frame, at a scale where it can be read. */
  function centre(g) {
    if (!view || !g) return;
    var r = g.getBoundingClientRect(), frame = view.svg.getBoundingClientRect();
    if (r.width === 0 || frame.width === 0) return;
    var c = userPoint(r.left + r.width / 2, r.top + r.height / 2);
    var readable = frame.width;  // about one unit (1/72 inch) per pixel
    var w = Math.min(view.box[2], readable), h = view.box[3] * w / view.box[2];
    setBox([c[0] - w / 2, c[1] - h / 2, w, h]);
  }

  /** The smallest text a label may be drawn at, in CSS pixels: a picture that would only fit its
   * frame smaller is shown as cards instead (the same levels, text at its own size). */
  var READABLE = 11;

  /** "fit": the whole drawing, but a small one is not blown up past 1.5 times its size. */
  function fitted(svg) {
    var vb = svg.viewBox.baseVal, full = [vb.x, vb.y, vb.width, vb.height];
    var most = 1.5, wide = svg.clientWidth / most, high = svg.clientHeight / most;
    if (wide > full[2] && high > full[3]) {
      full = [full[0] - (wide - full[2]) / 2, full[1] - (high - full[3]) / 2, wide, high];
    }
    return full;
  }

  /** Show the picture or its cards; the picture is fitted to its frame whenever it is shown. */
  function showView(which) {
    var picture = document.querySelector(".picture"), cards = document.querySelector(".picture ~ .branches");
    if (!picture || !cards) return;
    picture.hidden = which !== "picture";
    cards.hidden = which === "picture";
    if (which === "picture" && view) {
      view.full = fitted(view.svg);
      setBox(view.full.slice());
    }
  }

  /** Whether the fitted picture draws its smallest label at a readable size. */
  function readable() {
    var m = view.svg.getScreenCTM(), smallest = Infinity;
    view.svg.querySelectorAll("text").forEach(function (t) {
      var size = parseFloat(t.getAttribute("font-size"));
      if (size > 0 && size < smallest) smallest = size;
    });
    return !m || smallest === Infinity || smallest * Math.abs(m.a) >= READABLE;
  }

  var chosen = false;  // once the visitor picks the picture or the cards, the page keeps it

  /** The picture when it fits its frame readably, else the cards: on arrival and on a resize. */
  function choose() {
    if (chosen || !view || !document.querySelector(".picture ~ .branches")) return;
    showView("picture");
    if (!readable()) showView("cards");
  }

  function setUpPicture() {
    var picture = document.querySelector(".picture"), svg = picture && picture.querySelector("svg");
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal) return;
    view = { svg: svg, full: fitted(svg), box: null };
    setBox(view.full.slice());
    document.querySelectorAll("[data-view]").forEach(function (button) {
      button.addEventListener("click", function () {
        chosen = true;
        showView(button.getAttribute("data-view"));
      });
    });
    choose();
    window.addEventListener("resize", choose);
    picture.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom");
        if (how === "fit") setBox(view.full.slice());
        else zoom(how === "in" ? 1 / 1.5 : 1.5);
      });
    });
    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      var p = userPoint(event.clientX, event.clientY);
      zoom(event.deltaY > 0 ? 1.2 : 1 / 1.2, p[0], p[1]);
    }, { passive: false });
    var drag = null, moved = false;
    svg.addEventListener("pointerdown", function (event) {
      drag = { x: event.clientX, y: event.clientY, box: view.box.slice() };
      moved = false;
    });
    svg.addEventListener("pointermove", function (event) {
      if (!drag) return;
      var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 5) return;
      if (!moved) svg.setPointerCapture(event.pointerId);
      moved = true;
      var m = svg.getScreenCTM(), scale = m ? m.a : 1;
      setBox([drag.box[0] - dx / scale, drag.box[1] - dy / scale, drag.box[2], drag.box[3]]);
    });
    function end() { drag = null; }
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // a drag is not a click: it must not follow the link it started on
    svg.addEventListener("click", function (event) {
      if (moved) { event.preventDefault(); event.stopPropagation(); moved = false; }
    }, true);
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : word === "guess" ? "es" : "s"); }

  // -- find a secret -------------------------------------------------------------------------

  function remember(name, value) {
    try {
      if (value) window.sessionStorage.setItem(name, value);
      else window.sessionStorage.removeItem(name);
    } catch (e) { /* storage may be off: nothing follows you across pages then */ }
  }

  function recall(name) {
    try { return window.sessionStorage.getItem(name) || ""; } catch (e) { return ""; }
  }

  var finding = 0;  // the last search asked: an earlier one that ends later is not shown

  /** Show the path of the secret typed; it stays shown on the pages its links lead to. */
  function find(event) {
    if (event) event.preventDefault();
    var text = $("find-secret").value.trim(), out = $("find-result");
    var problem = text ? lib.checkCode(book.game, text) : "type a secret code first";
    remember(findKey, problem ? "" : text);
    if (problem) {
      out.innerHTML = "<p class=\"error\">" + escapeHtml(problem) + "</p>";
      light([], "hl");
      return;
    }
    var asked = ++finding;
    out.innerHTML = "<p>finding " + escapeHtml(text) + "…</p>";
    lib.findPathAsync(book, text, loadPart).then(function (moves) {
      if (asked !== finding) return;
      var items = moves.map(function (move) {
        return "<li><a href=\"" + linkTo(move.path) + "\">" + codeHtml(move.guess) + "</a> " +
          answerHtml(move.guess, move.answer) + "</li>";
      });
      out.innerHTML = "<ol class=\"moves\">" + items.join("") + "</ol><p class=\"ok\">found in " +
        plural(moves.length, "guess") + "</p>";
      light(moves.map(function (m) { return m.path; }), "hl");
    }, function (error) {
      if (asked !== finding) return;
      out.innerHTML = "<p class=\"error\">" + escapeHtml(error.message) + "</p>";
    });
  }

  // -- the player ----------------------------------------------------------------------------

  var options = { load: loadPart };
  var player = lib.LivePlayer ? new lib.LivePlayer(book, options) : new lib.Player(book, options);
  var message = { text: "", kind: "" };

  function save() {
    try {
      window.sessionStorage.setItem(storageKey, JSON.stringify(player.history.map(function (h) { return h[1]; })));
    } catch (e) { /* storage may be off; the game just does not follow you across pages */ }
  }

  /** The game played on an earlier page, answer by answer as each part of the book is loaded. */
  function restore() {
    var answers;
    try {
      answers = JSON.parse(window.sessionStorage.getItem(storageKey) || "[]");
    } catch (e) {
      answers = [];
    }
    if (!Array.isArray(answers)) answers = [];
    return answers.reduce(function (done, answer) {
      return done.then(function () {
        player.answer(answer);
        return player.ready();
      });
    }, player.ready()).catch(function () { player.reset(); });
  }

  /** After a move: the answer box waits while the next part of the book loads. */
  function settle() {
    if (player.loaded) return;
    player.ready().then(show, function (error) {
      message = { text: error.message, kind: "error" };
      show();
    });
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
    var live = $("play-live");
    if (live) {
      live.textContent = player.offBook ? liveWords(player.live) : "";
      live.hidden = !player.offBook;
    }
    $("play-answer").disabled = player.solved || !player.loaded;
    $("play-undo").disabled = !player.history.length;
    $("play-where").href = linkTo(player.path);
    var msg = $("play-message");
    msg.textContent = message.text;
    msg.className = message.kind;
    $("play-history").innerHTML = player.history.map(function (h) {
      return "<li>" + codeHtml(h[0]) + " " + answerHtml(h[0], h[1]) + "</li>";
    }).join("");
    light(player.history.length ? prefixes(player.path) : [], "pl");
    save();
  }

  /** What the player says once the answers have left the book: how it chooses now. */
  function liveWords(info) {
    if (!info) return "Off the book: the rest was computed live.";
    var count = function (n) { return n.toLocaleString("en-US"); };
    var how = info.strategy + (info.own ? " (the book's strategy)" : "") + ", one step ahead";
    if (info.scope === "few") {
      return "Off the book: your answers left its tree, so I compute each guess live. With " +
        count(info.candidates) + " secrets possible, I guess one that tells them all apart.";
    }
    var over = info.scope === "whole" ?
      (info.pool === "consistent" ? "the " + count(info.guesses) + " possible secrets as guesses" :
        "all " + count(info.guesses) + " allowed guesses") + " against the " + count(info.candidates) + " possible secrets" :
      info.scope === "candidates" ?
        "only the " + count(info.candidates) + " possible secrets as guesses (every guess would be slow)" :
        "the " + count(info.candidates) + " possible secrets as guesses, against a sample of " + count(info.sample) +
        " of them (the whole look-ahead would be slow)";
    return "Off the book: your answers left its tree, so I compute each guess live: " + how + ", over " + over + ".";
  }

  function answer(event) {
    event.preventDefault();
    var input = $("play-answer"), text = input.value.trim();
    if (!text) return;
    message = { text: "", kind: "" };
    try {
      player.answer(text);
      input.value = "";
      settle();
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
    settle();
  }

  function reset() {
    message = { text: "", kind: "" };
    player.reset();
    show();
    $("play-answer").focus();
  }

  /** Scroll the grid of cards (only it, not the page) so that ``card`` is in its middle. */
  function middle(card) {
    var grid = card.closest(".grid");
    if (!grid) return;
    var r = card.getBoundingClientRect(), frame = grid.getBoundingClientRect();
    grid.scrollTop += r.top - frame.top - Math.max(0, (grid.clientHeight - r.height) / 2);
  }

  /** A grid of answers: in the book's order, or the answers that leave most secrets first. */
  function setUpGrid() {
    var grid = document.querySelector(".branches .grid");
    if (!grid) return;
    document.querySelectorAll(".branches [data-sort]").forEach(function (button) {
      button.addEventListener("click", function () {
        var by = button.getAttribute("data-sort");
        var cards = Array.prototype.slice.call(grid.children);
        cards.sort(function (a, b) {
          var order = +a.getAttribute("data-order") - +b.getAttribute("data-order");
          return by === "secrets" ? (+b.getAttribute("data-secrets") - +a.getAttribute("data-secrets")) || order : order;
        });
        cards.forEach(function (card) { grid.appendChild(card); });
        document.querySelectorAll(".branches [data-sort]").forEach(function (other) {
          other.setAttribute("aria-pressed", String(other === button));
        });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUpPicture();
    setUpGrid();
    if ($("find-form")) {
      $("find-form").addEventListener("submit", find);
      var kept = recall(findKey);
      if (kept) {
        $("find-secret").value = kept;
        find(null);
      }
    }
    if ($("play-form")) {
      $("play-form").addEventListener("submit", answer);
      $("play-undo").addEventListener("click", undo);
      $("play-reset").addEventListener("click", reset);
      restore().then(show);
    }
    // The whole picture is in view; a link to a node marks it.
    var target = window.location.hash.slice(1);
    if (target.indexOf("node-") === 0) {
      ["t-", "c-"].forEach(function (prefix) {
        var g = document.getElementById(prefix + target.slice(5)), cards = g && g.closest(".branches");
        if (g) g.classList.add("at");
        if (cards && !cards.hidden) middle(g);
      });
    }
  });
})();
