/* treegen site: the code-maker page (maker.html). The person guesses; treegen.Codemaker
 * (codemaker.js) answers. Reads window.TREEGEN_BOOK (book-data.js) as untrusted data: every text
 * from it goes into the page as text, never as markup. No dependencies. */
(function () {
  "use strict";
  var data = window.TREEGEN_BOOK;
  var lib = window.treegen;
  if (!data || !lib || !lib.Codemaker) return;
  var game = data.book.game;
  var limit = Number.isInteger(data.limit) && data.limit > 0 ? data.limit : null;
  var storageKey = "treegen-maker:" + data.name;
  var FIRST = 60;  // candidates shown before "show all"
  var maker = null;
  var message = { text: "", kind: "" };
  var listed = 0;  // how many candidates the list shows (0: closed)

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /** A code as the site shows it: pegs in their colours with the symbols, or plain text. */
  function code(text) {
    var span = el("span", data.pegs ? "code pegs" : "code");
    span.setAttribute("data-code", text);
    if (!data.pegs) {
      span.textContent = text;
      return span;
    }
    span.title = text;
    Array.from(text).forEach(function (c) {
      var peg = el("span", "peg");
      var colour = data.pegs[c];
      if (typeof colour === "string" && /^#[0-9a-fA-F]{3,8}$/.test(colour)) peg.style.background = colour;
      peg.title = c;
      span.appendChild(peg);
    });
    span.appendChild(el("span", "symbols", text));
    return span;
  }

  /** An answer as the game shows it: Wordle's tiles on the guess's letters, black and white pegs
   * as small circles (Mastermind's), else its text. */
  function answer(guess, key) {
    var rule = lib.ruleOf(game);
    if (rule.blackAndWhite) return pegs(rule.format(key), key);
    if (!rule.tiles) return el("b", "", rule.format(key));
    var names = { G: "green", Y: "yellow", ".": "grey" }, letters = lib.symbolsOf(guess);
    var tiles = el("span", "tiles");
    tiles.title = key;
    Array.from(key).forEach(function (t, i) { tiles.appendChild(el("span", "tile " + names[t], letters[i])); });
    return tiles;
  }

  /** Black and white pegs ("BBW"; "none") as small circles, their letters for screen readers. */
  function pegs(written, key) {
    var box = el("span", "answer-pegs");
    box.title = written + " (" + key + ")";
    box.setAttribute("aria-label", written);
    box.style.display = "inline-flex";
    box.style.gap = "3px";
    box.style.alignItems = "center";
    box.style.verticalAlign = "middle";
    if (!/^[BW]+$/.test(written)) {
      box.appendChild(el("b", "", written));
      return box;
    }
    Array.from(written).forEach(function (peg) {
      var dot = el("span", "answer-peg " + (peg === "B" ? "black" : "white"));
      dot.setAttribute("data-peg", peg);
      dot.style.display = "inline-block";
      dot.style.width = dot.style.height = "0.8em";
      dot.style.borderRadius = "50%";
      dot.style.border = "1px solid #333";
      dot.style.background = peg === "B" ? "#111" : "#fff";
      box.appendChild(dot);
    });
    return box;
  }

  function plural(n, word) {
    return n.toLocaleString("en-US") + " " + word + (n === 1 ? "" : word === "guess" ? "es" : "s");
  }

  function mode() {
    var checked = document.querySelector("input[name=mode]:checked");
    return checked ? checked.value : "random";
  }

  function save() {
    try {
      window.sessionStorage.setItem(storageKey, JSON.stringify({
        adversarial: maker.adversarial, seed: maker.seed, guesses: maker.moves.map(function (m) { return m[0]; })
      }));
    } catch (e) { /* storage may be off: a reload then starts a new game */ }
  }

  /** A game: {adversarial, seed}, and guesses to replay (a reload keeps the game). */
  function start(options, guesses) {
    maker = new lib.Codemaker(game, { adversarial: options.adversarial, seed: options.seed, limit: limit });
    (guesses || []).forEach(function (g) {
      try { maker.answer(g); } catch (e) { /* a stored guess that no longer counts: skipped */ }
    });
    document.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.checked = radio.value === (maker.adversarial ? "adversarial" : "random");
    });
    $("maker-seed").value = maker.seed === null ? "" : String(maker.seed);
    $("maker-seed").disabled = maker.adversarial;
    listed = 0;
    message = { text: "", kind: "" };
    show();
  }

  function restore() {
    var stored = null, query = new URLSearchParams(window.location.search);
    try { stored = JSON.parse(window.sessionStorage.getItem(storageKey) || "null"); } catch (e) { stored = null; }
    var seed = parseInt(query.get("seed") || "", 10), asked = null;
    if (query.get("mode") === "adversarial") asked = { adversarial: true, seed: null };
    else if (Number.isSafeInteger(seed) && seed >= 0) asked = { adversarial: false, seed: seed };
    if (stored && typeof stored === "object" && Array.isArray(stored.guesses)) {
      var guesses = stored.guesses.filter(function (g) { return typeof g === "string"; });
      var safe = Number.isSafeInteger(stored.seed) && stored.seed >= 0 ? stored.seed : null;
      var same = !asked || (asked.adversarial === (stored.adversarial === true) && asked.seed === safe);
      if (same) return start({ adversarial: stored.adversarial === true, seed: safe === null ? undefined : safe }, guesses);
    }
    return start(asked ? { adversarial: asked.adversarial, seed: asked.seed === null ? undefined : asked.seed } :
      { adversarial: false });
  }

  function newGame() {
    var typed = parseInt($("maker-seed").value.trim(), 10);
    var adversarial = mode() === "adversarial";
    var fresh = !adversarial && Number.isSafeInteger(typed) && typed >= 0 && typed !== maker.seed;
    start({ adversarial: adversarial, seed: fresh ? typed : undefined });
    $("maker-guess").focus();
  }

  function show() {
    var over = maker.done, n = maker.moves.length;
    var status = $("maker-status");
    status.textContent = over ? "" : "Guess " + (n + 1) + (limit ? " of " + limit : "") +
      (maker.adversarial ? " · against the adversary" : " · seed " + maker.seed +
        " (the same seed, the same secret, as treegen challenge --seed " + maker.seed + ")");
    $("maker-guess").disabled = over;
    var msg = $("maker-message");
    msg.textContent = message.text;
    msg.className = message.kind;
    var history = $("maker-history");
    history.textContent = "";
    maker.moves.forEach(function (move, i) {
      var li = el("li");
      li.appendChild(el("span", "number", (i + 1) + "."));
      li.setAttribute("data-guess", move[0]);
      li.setAttribute("data-answer", move[1]);
      li.appendChild(code(move[0]));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(answer(move[0], move[1]));
      history.appendChild(li);
    });
    var end = $("maker-end");
    end.textContent = "";
    end.removeAttribute("data-outcome");
    if (over) {
      var secret = maker.reveal(), box = el("div", maker.won ? "solved" : "lost");
      end.setAttribute("data-outcome", maker.won ? "won" : "lost");
      end.setAttribute("data-secret", secret);
      var words = maker.won ? "Solved in " + plural(n, "guess") + ": the secret is " :
        maker.adversarial ? "Out of guesses. A secret that fits every answer (" + plural(maker.remaining(), "secret") +
          (maker.remaining() === 1 ? " fits" : " fit") + "): " : "Out of guesses: the secret was ";
      box.appendChild(document.createTextNode(words));
      box.appendChild(code(secret));
      end.appendChild(box);
    }
    showPossible();
    save();
  }

  function showPossible() {
    var out = $("maker-possible-list");
    out.textContent = "";
    if (!listed) return;
    var total = maker.remaining(), codes = maker.possible(listed);
    out.appendChild(el("p", "hint", plural(total, "secret") + (total === 1 ? " fits" : " fit") + " every answer so far" +
      (codes.length < total ? "; the first " + codes.length + ":" : ":")));
    var list = el("ul", "possible");
    codes.forEach(function (c) { var li = el("li"); li.appendChild(code(c)); list.appendChild(li); });
    out.appendChild(list);
    if (codes.length < total) {
      var all = el("button", "secondary", "Show all " + total.toLocaleString("en-US"));
      all.type = "button";
      all.id = "maker-possible-all";
      all.addEventListener("click", function () { listed = Infinity; showPossible(); });
      out.appendChild(all);
    }
  }

  function guess(event) {
    event.preventDefault();
    var input = $("maker-guess"), text = input.value.trim();
    if (!text) return;
    message = { text: "", kind: "" };
    try {
      maker.answer(text);
      input.value = "";
    } catch (error) {
      if (!(error instanceof lib.CodeError)) throw error;
      message = { text: error.message + " (not counted)", kind: "error" };
    }
    show();
    input.focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!$("maker-form")) return;
    $("maker-form").addEventListener("submit", guess);
    $("maker-new").addEventListener("click", newGame);
    document.querySelectorAll("input[name=mode]").forEach(function (radio) {
      radio.addEventListener("change", newGame);
    });
    $("maker-possible").addEventListener("click", function () {
      listed = listed ? 0 : FIRST;
      showPossible();
    });
    restore();
  });
})();
