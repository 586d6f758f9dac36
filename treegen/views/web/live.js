/* treegen live: a game's codes and answers computed in the page, for the code-maker page and for
 * the player once it leaves its book. No dependencies; uses treegen.score (player.js) for texts.
 *
 *   const model = treegen.model(book.game);   // every guess in number order, scored as numbers
 *   model.fb(guess, secret);                  // the answer's index in the game's feedback order
 *   treegen.choose(model, candidates, history, {name: "entropy", pool: "all"}, hard);
 *
 * Number order and feedback order are treegen's (treegen.rules.game): a listed game's answers
 * first, then its other guesses; feedbacks in the order of their rule's `indexed` (player.js's
 * RULES: (a, b) by a then b, aA by a, tiles as base-3 numbers, Jotto's counts then win), scored
 * by the branch its `kernel` names. The choice of a guess follows
 * treegen.strategies.heuristics exactly, tie-break included, as long as the look-ahead is whole
 * (see MAX_PAIRS).
 */
(function (root, factory) {
  "use strict";
  var api = factory(root.treegen || (typeof require === "function" ? require("./player.js") : {}));
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.treegen = Object.assign(root.treegen || {}, api);
  }
})(typeof self !== "undefined" ? self : this, function (lib) {
  "use strict";

  /** The most (guess, secret) pairs one live choice scores: under a fifth of a second. Beyond it
   * the guesses are the candidates only, and beyond that they are scored against an evenly
   * spaced sample of the candidates. */
  var MAX_PAIRS = 3000000;
  var HEURISTICS = ["minimax", "expected", "parts", "entropy"];

  /** Every feedback a game's scores index, in index order (impossible ones among them). */
  function indexedKeys(game) {
    return lib.ruleOf(game).indexed(game.length);
  }

  var cache = typeof WeakMap === "function" ? new WeakMap() : null;

  /** A game's guesses as numbers: codes in number order, the first `size` the secrets. */
  function model(game) {
    if (cache && cache.has(game)) return cache.get(game);
    var codes;
    if (game.answers) {
      var answers = new Set(game.answers);
      codes = game.answers.concat(game.guesses.filter(function (w) { return !answers.has(w); }));
    } else {
      codes = lib.gameCodes(game);
    }
    var symbols = lib.symbolsOf(game.symbols), at = new Map(), length = game.length, i, j;
    symbols.forEach(function (s, k) { at.set(s, k); });
    var sym = new Uint8Array(codes.length * length), index = new Map();
    for (i = 0; i < codes.length; i++) {
      var code = lib.symbolsOf(codes[i]);
      for (j = 0; j < length; j++) sym[i * length + j] = at.get(code[j]);
      index.set(codes[i], i);
    }
    var keys = indexedKeys(game), rule = lib.ruleOf(game);
    var m = {
      game: game, rule: rule, length: length, codes: codes, sym: sym, index: index, keys: keys,
      size: game.answers ? game.answers.length : codes.length, nfb: keys.length,
      symbols: symbols, hard: lib.hardModeOf(game), solved: keys.indexOf(lib.solvedKey(game)),
      keyIndex: new Map(keys.map(function (k, n) { return [k, n]; })),
      count: new Int32Array(symbols.length)
    };
    m.fb = KERNELS[rule.kernel](m);
    if (cache) cache.set(game, m);
    return m;
  }

  /** The live scorer of each rule's kernel (lib.KERNELS): (m) -> fb(g, s), the index of the
   * answer of secret s to guess g in the game's feedback order. */
  var KERNELS = {};

  KERNELS[lib.KERNELS.IN_PLACE] = function (m) {
    return function (g, s) {
      var sym = m.sym, n = m.length, a = 0, gi = g * n, si = s * n;
      for (var i = 0; i < n; i++) if (sym[gi + i] === sym[si + i]) a++;
      return a;
    };
  };

  /** A rule of counts: the symbols in place (a) and the others in common (b), read as the rule's
   * answer through a table made from its `counted`, as treegen.rules.scoring.feedback_index. */
  KERNELS[lib.KERNELS.COUNTS] = function (m) {
    var n = m.length, lut = new Int32Array((n + 1) * (n + 1)).fill(-1), a, b;
    for (a = 0; a <= n; a++) {
      for (b = 0; a + b <= n; b++) lut[a * (n + 1) + b] = m.keyIndex.get(m.rule.counted(a, b, n));
    }
    return function (g, s) {
      var sym = m.sym, count = m.count, here = 0, common = 0, gi = g * n, si = s * n, i;
      for (i = 0; i < n; i++) {
        if (sym[gi + i] === sym[si + i]) here++;
        count[sym[si + i]]++;
      }
      for (i = 0; i < n; i++) {
        if (count[sym[gi + i]] > 0) { count[sym[gi + i]]--; common++; }
      }
      for (i = 0; i < n; i++) count[sym[si + i]] = 0;
      return lut[here * (n + 1) + common - here];
    };
  };

  KERNELS[lib.KERNELS.TILES] = function (m) {
    return function (g, s) {
      var sym = m.sym, n = m.length, count = m.count, gi = g * n, si = s * n, index = 0, i, c;
      for (i = 0; i < n; i++) if (sym[gi + i] !== sym[si + i]) count[sym[si + i]]++;
      for (i = 0; i < n; i++) {
        c = sym[gi + i];
        index *= 3;
        if (c === sym[si + i]) {
          index += 2;
        } else if (count[c] > 0) {
          count[c]--;
          index += 1;
        }
      }
      for (i = 0; i < n; i++) count[sym[si + i]] = 0;
      return index;
    };
  };

  /** A typed guess in the game's own case: a letter not among the symbols but whose other case
   * is (CRANE for crane). */
  function normalize(m, text) {
    var has = new Set(m.symbols);
    return lib.symbolsOf(String(text).trim()).map(function (c) {
      if (has.has(c)) return c;
      var lower = c.toLowerCase(), upper = c.toUpperCase();
      return has.has(lower) ? lower : has.has(upper) ? upper : c;
    }).join("");
  }

  /** Why a (normalized) code is not a guess of the game, as treegen's Game.validate_code says it,
   * or null. */
  function codeProblem(m, code, typed) {
    var game = m.game, shown = JSON.stringify(typed === undefined ? code : typed);
    var symbols = lib.symbolsOf(code), has = new Set(m.symbols);
    if (symbols.length !== m.length) {
      return "code " + shown + " has " + symbols.length + " symbols; " + game.name + " codes have " + m.length;
    }
    var bad = symbols.filter(function (c) { return !has.has(c); });
    if (bad.length) {
      return "code " + shown + " uses " + JSON.stringify(bad[0]) + ", which is not one of the symbols " + game.symbols;
    }
    if (!game.repetition && new Set(symbols).size !== symbols.length) {
      return "code " + shown + " repeats a symbol, which " + game.name + " does not allow";
    }
    if (!m.index.has(code)) {
      return JSON.stringify(code) + " is not one of the " + m.codes.length.toLocaleString("en-US") +
        " guesses the game allows";
    }
    return null;
  }

  /** Whether hard mode lets `code` follow `asked` answered `key` (treegen.book.format.hard_allows). */
  function hardAllows(m, asked, key, code) {
    return !m.hard || m.hard.allows(m.rule, asked, key, code);
  }

  /** Why hard mode refuses `code` after `moves` ([guess, key] texts), as treegen challenge says
   * it, or null. */
  function hardProblem(m, moves, code) {
    if (!m.hard) return null;
    for (var n = 0; n < moves.length; n++) {
      var guess = moves[n][0], key = moves[n][1];
      if (hardAllows(m, guess, key, code)) continue;
      return "hard mode: " + code + " " + m.hard.breaks + " guess " + (n + 1) + ", " + guess + " = " + key +
        " (" + m.hard.describe + "; " + code + " would give " + m.rule.score(guess, code) + ")";
    }
    return null;
  }

  /** How many of `cands` give each feedback to guess `g`. */
  function counts(m, g, cands, out) {
    out = out || new Int32Array(m.nfb);
    out.fill(0);
    for (var i = 0; i < cands.length; i++) out[m.fb(g, cands[i])]++;
    return out;
  }

  /** The candidates that give feedback index `f` to guess `g`, in order. */
  function filter(m, cands, g, f) {
    var kept = [];
    for (var i = 0; i < cands.length; i++) if (m.fb(g, cands[i]) === f) kept.push(cands[i]);
    return Int32Array.from(kept);
  }

  /** Every secret (index) that gives every [guess, key] of a history of texts. */
  function consistent(m, history) {
    var cands = new Int32Array(m.size);
    for (var i = 0; i < m.size; i++) cands[i] = i;
    history.forEach(function (h) {
      var g = m.index.get(h[0]), f = m.keyIndex.get(h[1]);
      cands = g === undefined || f === undefined ? new Int32Array(0) : filter(m, cands, g, f);
    });
    return cands;
  }

  // -- the live choice: treegen.strategies.heuristics, in the page ------------------------------

  var XLOGX = [0];
  function xlogx(s) {
    while (XLOGX.length <= s) XLOGX.push(XLOGX.length * Math.log(XLOGX.length));
    return XLOGX[s];
  }

  /** Lower is better: a heuristic's key of one guess's class sizes. */
  function key(name, sizes) {
    var value = 0, i, s;
    for (i = 0; i < sizes.length; i++) {
      s = sizes[i];
      if (!s) continue;
      if (name === "minimax") value = Math.max(value, s);
      else if (name === "expected") value += s * s;
      else if (name === "parts") value -= 1;
      else value += xlogx(s);
    }
    return value;
  }

  /** Entropy's exact comparison: the product of s^s over the classes (as treegen settles ties). */
  function sizePower(sizes) {
    var product = BigInt(1);
    for (var i = 0; i < sizes.length; i++) {
      if (sizes[i] > 1) product *= BigInt(sizes[i]) ** BigInt(sizes[i]);
    }
    return product;
  }

  /** Guesses hard mode allows after a history of [guess index, feedback index] (ascending). */
  function allowed(m, moves) {
    var out = [];
    for (var g = 0; g < m.codes.length; g++) {
      var ok = true;
      for (var n = 0; n < moves.length && ok; n++) {
        var asked = moves[n][0], f = moves[n][1];
        ok = m.hard.kernel === lib.HARD_KERNELS.SAME_ANSWER ? m.fb(asked, g) === f :
          hardAllows(m, m.codes[asked], m.keys[f], m.codes[g]);
      }
      if (ok) out.push(g);
    }
    return out;
  }

  /** The strategy the live player uses for a book: the book's own when it is one of the one-step
   * heuristics, else entropy over every guess. */
  function strategyOf(book) {
    var s = (book && book.strategy) || {};
    var name = HEURISTICS.indexOf(s.name) >= 0 ? s.name : "entropy";
    var pool = name === s.name && s.pool === "consistent" ? "consistent" : "all";
    return { name: name, pool: pool, own: name === s.name };
  }

  /** The next guess over `cands` (ascending secret indices) after `history` (texts): returns
   * {guess, scope, guesses, sample}. scope "few": a candidate that tells every candidate apart
   * (or one of two), as treegen takes it; "whole": every guess of the pool against every
   * candidate, exactly treegen's choice; "candidates": only the candidates as guesses (the pool
   * was too large); "sample": the candidates against an evenly spaced sample of them. */
  function choose(m, cands, history, strategy) {
    var result = { guess: cands[0], scope: "few", guesses: cands.length, sample: cands.length };
    if (cands.length <= 2) return result;
    if (cands.length <= m.nfb) {  // a candidate that splits the rest into singletons wins outright
      var seen = new Uint8Array(m.nfb);
      for (var c = 0; c < cands.length; c++) {
        seen.fill(0);
        var perfect = true;
        for (var d = 0; d < cands.length && perfect; d++) {
          var f = m.fb(cands[c], cands[d]);
          perfect = !seen[f];
          seen[f] = 1;
        }
        if (perfect) { result.guess = cands[c]; return result; }
      }
    }
    var guesses;
    if (strategy.pool === "consistent") {
      guesses = cands;
    } else if (m.hard) {
      guesses = allowed(m, history.map(function (h) { return [m.index.get(h[0]), m.keyIndex.get(h[1])]; }));
    } else {
      guesses = null;  // every guess
    }
    var total = guesses ? guesses.length : m.codes.length, against = cands;
    result.scope = "whole";
    if (total * cands.length > MAX_PAIRS && guesses !== cands) {
      guesses = cands;
      total = cands.length;
      result.scope = "candidates";
    }
    if (total * cands.length > MAX_PAIRS) {
      var step = Math.ceil(total * cands.length / MAX_PAIRS), sample = [];
      for (var k = 0; k < cands.length; k += step) sample.push(cands[k]);
      against = Int32Array.from(sample);
      result.scope = "sample";
    }
    result.guesses = total;
    result.sample = against.length;
    var sizes = new Int32Array(m.nfb), best = Infinity, keys = new Float64Array(total), i, g;
    for (i = 0; i < total; i++) {
      g = guesses ? guesses[i] : i;
      keys[i] = key(strategy.name, counts(m, g, against, sizes));
      if (keys[i] < best) best = keys[i];
    }
    var tied = [];
    if (strategy.name === "entropy") {  // floats shortlist, the exact product decides
      var limit = best + 1e-9 * Math.max(1, Math.abs(best)), near = [], powers = new Map(), winner = null;
      for (i = 0; i < total; i++) {
        if (keys[i] > limit) continue;
        g = guesses ? guesses[i] : i;
        var row = Array.from(counts(m, g, against, sizes)).filter(Boolean).sort(function (x, y) { return x - y; });
        var sig = row.join(",");
        if (!powers.has(sig)) powers.set(sig, sizePower(row));
        near.push([g, powers.get(sig)]);
        if (winner === null || powers.get(sig) < winner) winner = powers.get(sig);
      }
      near.forEach(function (n) { if (n[1] === winner) tied.push(n[0]); });
    } else {
      for (i = 0; i < total; i++) if (keys[i] === best) tied.push(guesses ? guesses[i] : i);
    }
    var possible = new Set(cands);
    result.guess = tied.find(function (t) { return possible.has(t); });
    if (result.guess === undefined) result.guess = tied[0];
    return result;
  }

  return {
    MAX_PAIRS: MAX_PAIRS,
    HEURISTICS: HEURISTICS,
    model: model,
    indexedKeys: indexedKeys,
    normalize: normalize,
    codeProblem: codeProblem,
    hardAllows: hardAllows,
    hardProblem: hardProblem,
    counts: counts,
    filter: filter,
    consistent: consistent,
    strategyOf: strategyOf,
    choose: choose
  };
});
