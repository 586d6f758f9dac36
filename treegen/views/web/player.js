/* treegen player: play from a strategy book (format v1) in a browser or in Node, no dependencies.
 *
 * Mirrors treegen.player.Player: look up the guess, read the answer, follow the branch. Answers are
 * checked in three steps (readable, possible in the game, possible at this point of the book) and a
 * refused answer leaves the player as it was.
 *
 *   const player = new treegen.Player(book);
 *   player.guess;            // "1122"
 *   player.answer("1A1B");   // the next guess, or null when the answer is all-correct
 *
 * A game's rule says how answers are given, as in treegen.player: "pegs" (1A2B), "black" (2A) or
 * "wordle" (tiles GY..Y); a game may list its "answers" (the secrets) and "guesses".
 *
 * A classic script (it works from file://, where module scripts do not) that defines the global
 * `treegen`, and a CommonJS module for Node.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.treegen = Object.assign(root.treegen || {}, api);
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var AB = /^\s*(-?\d{1,9})\s*[aA]\s*(-?\d{1,9})\s*[bB]\s*$/;
  var PAIR = /^\s*(-?\d{1,9})\s*(?:[,;/]|\s|-)\s*(-?\d{1,9})\s*$/;
  var DIGITS = /^\s*(\d)(\d)\s*$/;
  // Mastermind's black and white pegs: a letter a peg (BWW), or counts (1B2W, B1 W2)
  var PEG_LETTERS = /^\s*[bBwW](?:\s*[bBwW]){0,39}\s*$/;
  var PEG_COUNTS = /^\s*(?:(\d{1,2})\s*[bB]|[bB]\s*(\d{1,2}))?\s*,?\s*(?:(\d{1,2})\s*[wW]|[wW]\s*(\d{1,2}))?\s*$/;
  var BLACK = /^\s*(\d{1,2})\s*[aA]?\s*$/;
  var BLACK_PEGS = /^\s*([bB]+)\s*$/;
  var TILES = { G: "G", g: "G", "2": "G", "\u{1F7E9}": "G", Y: "Y", y: "Y", "1": "Y", "\u{1F7E8}": "Y",
    ".": ".", "-": ".", _: ".", x: ".", X: ".", "0": ".", "\u2B1B": ".", "\u2B1C": "." };

  /** Base of every answer (or request) the player refuses; its state is then unchanged. */
  class PlayerError extends Error {
    get name() { return this.constructor.label; }
  }
  PlayerError.label = "PlayerError";
  /** The answer cannot be read as a feedback. */
  class MalformedAnswer extends PlayerError {}
  MalformedAnswer.label = "MalformedAnswer";
  /** No secret of any game of this size gives this answer (e.g. a+b larger than the length). */
  class ImpossibleAnswer extends PlayerError {}
  ImpossibleAnswer.label = "ImpossibleAnswer";
  /** The answer is valid for the game, but no secret gives it after the answers so far. */
  class NoSuchBranch extends PlayerError {}
  NoSuchBranch.label = "NoSuchBranch";

  function show(text) {
    return typeof text === "string" ? JSON.stringify(text) : String(text);
  }

  /** "1A2B", "12", "1 2", "1,2" or [1, 2] -> [1, 2], refusing answers no secret gives. */
  function parseFeedback(text, length) {
    var a, b, match;
    if (Array.isArray(text) && text.length === 2 && text.every(Number.isInteger)) {
      a = text[0];
      b = text[1];
    } else if (typeof text === "string" && PEG_LETTERS.test(text)) {
      a = (text.match(/[bB]/g) || []).length;
      b = (text.match(/[wW]/g) || []).length;
    } else {
      match = typeof text === "string" ? (AB.exec(text) || PAIR.exec(text) || DIGITS.exec(text)) : null;
      var counted = typeof text === "string" && !match ? PEG_COUNTS.exec(text) : null;
      if (match) {
        a = parseInt(match[1], 10);
        b = parseInt(match[2], 10);
      } else if (counted && (counted[1] || counted[2] || counted[3] || counted[4])) {
        a = parseInt(counted[1] || counted[2] || "0", 10);
        b = parseInt(counted[3] || counted[4] || "0", 10);
      } else {
        throw new MalformedAnswer("cannot read answer " + show(text) + ": write it as 1A2B, 12, '1 2', " +
          "1,2 or in black and white pegs, BWW or 1B2W");
      }
    }
    if (a < 0 || b < 0) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: counts cannot be negative");
    }
    if (a + b > length) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: " + a + "+" + b +
        " exceeds the " + length + " positions");
    }
    if (a === length - 1 && b === 1) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: with " + a +
        " in place the last symbol cannot be elsewhere");
    }
    return [a, b];
  }

  /** The symbols of a code: by code point, as Python counts them (a string's length counts
   * UTF-16 units, two for a symbol beyond the Basic Multilingual Plane). */
  function symbolsOf(code) {
    return Array.from(code);
  }

  /** [a, b] of a guess against a secret: a in place, b common symbols elsewhere. */
  function feedback(guessText, secretText) {
    var guess = symbolsOf(guessText), secret = symbolsOf(secretText);
    var a = 0, common = 0, counts = {}, i, c;
    for (i = 0; i < guess.length; i++) {
      if (guess[i] === secret[i]) a++;
      counts[guess[i]] = (counts[guess[i]] || 0) + 1;
    }
    for (i = 0; i < secret.length; i++) {
      c = secret[i];
      if (counts[c] > 0) {
        counts[c]--;
        common++;
      }
    }
    return [a, common - a];
  }

  function formatFeedback(fb) {
    return fb[0] + "A" + fb[1] + "B";
  }

  function ruleOf(game) {
    return (game && game.rule) || "pegs";
  }

  /** The answer to a guess when the secret is secretText under a rule, as books key it. */
  function score(guessText, secretText, rule) {
    if (rule === "wordle") {
      var guess = symbolsOf(guessText), secret = symbolsOf(secretText), left = {}, tiles = [], i;
      for (i = 0; i < guess.length; i++) {
        if (guess[i] !== secret[i]) left[secret[i]] = (left[secret[i]] || 0) + 1;
      }
      for (i = 0; i < guess.length; i++) {
        if (guess[i] === secret[i]) {
          tiles.push("G");
        } else if (left[guess[i]] > 0) {
          left[guess[i]]--;
          tiles.push("Y");
        } else {
          tiles.push(".");
        }
      }
      return tiles.join("");
    }
    var fb = feedback(guessText, secretText);
    return rule === "black" ? fb[0] + "A" : formatFeedback(fb);
  }

  /** Every answer some secret can give in a game, all-correct included, in index order. */
  function answerKeys(game) {
    var length = game.length, rule = ruleOf(game), keys = [], a, b;
    if (rule === "black") {
      for (a = 0; a <= length; a++) keys.push(a + "A");
      return keys;
    }
    if (rule === "wordle") {
      keys = [""];
      for (a = 0; a < length; a++) {
        keys = [].concat.apply([], keys.map(function (k) { return [k + ".", k + "Y", k + "G"]; }));
      }
      return keys.filter(function (k) {
        return !(k.split("G").length - 1 === length - 1 && k.indexOf("Y") >= 0);
      });
    }
    for (a = 0; a <= length; a++) {
      for (b = 0; a + b <= length; b++) {
        if (!(a === length - 1 && b === 1)) keys.push(a + "A" + b + "B");
      }
    }
    return keys;
  }

  function solvedKey(game) {
    var rule = ruleOf(game);
    return rule === "black" ? game.length + "A" : rule === "wordle" ? "G".repeat(game.length) :
      game.length + "A0B";
  }

  /** Any spelling of an answer of the game's rule -> its canonical key, refusing answers no
   * secret gives. */
  function parseAnswer(text, game) {
    var rule = ruleOf(game), length = game.length, match;
    if (rule === "pegs") return formatFeedback(parseFeedback(text, length));
    if (rule === "black") {
      match = typeof text === "string" ? BLACK.exec(text) : null;
      var pegs = typeof text === "string" && !match ? BLACK_PEGS.exec(text) : null;
      if (!match && !pegs) throw new MalformedAnswer("cannot read answer " + show(text) + ": write it as 2A, 2 or BB");
      var count = match ? parseInt(match[1], 10) : pegs[1].length;
      if (count > length) {
        throw new ImpossibleAnswer("answer " + show(text) + " is impossible: more than the " + length + " positions");
      }
      return count + "A";
    }
    var tiles = typeof text === "string" ? Array.from(text).filter(function (c) { return !/\s/.test(c); })
      .map(function (c) { return TILES[c] || "?"; }).join("") : "?";
    if (tiles.indexOf("?") >= 0 || tiles.length !== length) {
      throw new MalformedAnswer("cannot read answer " + show(text) + ": write " + length +
        " tiles of G (green), Y (yellow) and . (grey), e.g. " + "GY..Y".slice(0, length));
    }
    if (tiles.split("G").length - 1 === length - 1 && tiles.indexOf("Y") >= 0) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: with every other letter in place the last one cannot be elsewhere");
    }
    return tiles;
  }

  /** The tree as {guess, next: Map, count, possible} with the secrets still possible per node.
   * `path` ([guess, key] pairs) leads to the tree's top from the book's root: a part of a book in
   * parts starts below it. A stub {guess, secrets, part: [file, index]} stands for a subtree of
   * another part: its node has `next` null and `part`, `path` and the count its stub gives. */
  function compile(tree, game, path0) {
    var length = game.length, rule = ruleOf(game), solved = solvedKey(game);
    var keys = new Set(answerKeys(game)), secrets = game.answers ? new Set(game.answers) : null;
    var order = [], stack = [[tree, null, null, path0 || []]], item, raw, node, path, key, branches, stub;
    while (stack.length) {
      item = stack.pop();
      raw = item[0];
      path = item[3];
      stub = !!raw && item[1] !== null && raw.part !== undefined;
      if (!raw || typeof raw.guess !== "string" || symbolsOf(raw.guess).length !== length ||
          (stub ? !isStub(raw) : typeof raw.next !== "object" || raw.next === null)) {
        throw new PlayerError("malformed book tree: every node needs a guess of length " + length + " and \"next\"");
      }
      node = { guess: raw.guess, next: stub ? null : new Map(), count: stub ? raw.secrets : 0, possible: true };
      order.push([node, item[1], item[2]]);
      if (stub || Object.keys(raw.next).length) {  // a leaf is its own secret; a guess is one if it fits
        node.possible = (!secrets || secrets.has(raw.guess)) && path.every(function (step) {
          return score(step[0], raw.guess, rule) === step[1];
        });
      }
      if (stub) {
        node.part = raw.part;
        node.path = path;
        continue;
      }
      branches = Object.keys(raw.next);
      for (var i = branches.length - 1; i >= 0; i--) {
        key = branches[i];
        if (!keys.has(key) || key === solved) {
          throw new PlayerError("malformed book tree: branch " + show(key) + " after " + raw.guess + " is not a possible feedback");
        }
        stack.push([raw.next[key], node, key, path.concat([[raw.guess, key]])]);
      }
    }
    // Children before parents: a node's secrets are its children's plus its own guess if possible.
    for (var j = order.length - 1; j >= 0; j--) {
      node = order[j][0];
      if (node.next !== null) node.count += node.possible ? 1 : 0;
      if (order[j][1] !== null) {
        order[j][1].count += node.count;
      }
    }
    // Map insertion in the book's branch order (the walk above visits them in that order).
    for (var k = 1; k < order.length; k++) {
      order[k][1].next.set(order[k][2], order[k][0]);
    }
    return order[0][0];
  }

  function isStub(raw) {
    return raw.next === undefined && Number.isInteger(raw.secrets) && raw.secrets > 0 &&
      Array.isArray(raw.part) && raw.part.length === 2 && raw.part.every(function (n) {
        return Number.isInteger(n) && n >= 0;
      });
  }

  /** The branches of a stub's node from its part: checked against the stub, which it replaces. */
  function expand(node, subtree, game) {
    var whole = compile(subtree, game, node.path);
    if (whole.guess !== node.guess || whole.count !== node.count) {
      throw new PlayerError("malformed book part " + node.part.join(".") + ": it is not the subtree of " +
        node.guess + " with " + node.count + " secrets");
    }
    node.next = whole.next;
  }

  /** The state of one game played from a book: where we are in the tree and how we got there.
   * A book in parts (a site's large book) needs `options.load`, ([file, index]) -> a promise of
   * that part's subtree; the player loads a part when the game enters it (see ready()). */
  function Player(book, options) {
    if (!(this instanceof Player)) return new Player(book, options);
    var length = book && book.game && book.game.length;
    if (!Number.isInteger(length) || length < 1 || !book.tree) {
      throw new PlayerError("not a treegen book: it needs \"game\" (with a positive \"length\") and \"tree\"");
    }
    this.book = book;
    this.game = book.game;
    this.length = length;
    this._load = (options && options.load) || null;
    this._solvedKey = solvedKey(book.game);
    this._root = compile(book.tree, book.game);
    this.reset();
  }

  Object.defineProperties(Player.prototype, {
    /** The code to play now, or null once the secret is found. */
    guess: { get: function () { return this._solved ? null : this._path[this._path.length - 1].guess; } },
    solved: { get: function () { return this._solved; } },
    /** Whether the answer to the guess can be taken now: false while its part is loading. */
    loaded: { get: function () { return this._solved || this._path[this._path.length - 1].next !== null; } },
    /** The [guess, feedback] pairs so far, feedback written canonically ("1A2B"). */
    history: { get: function () { return this._history.map(function (h) { return h.slice(); }); } },
    /** The answers that lead from the root to the current node (the all-correct one excluded). */
    path: { get: function () { return this._keys.slice(); } }
  });

  /** A promise of the guess, once the answer to it can be taken (its part of the book loaded). */
  Player.prototype.ready = function () {
    var node = this._solved ? null : this._path[this._path.length - 1];
    if (!node || node.next !== null) return Promise.resolve(this.guess);
    return loadPart(node, this._load, this.game).then(function () { return node.guess; });
  };

  function loadPart(node, load, game) {
    if (!node.loading) {
      if (!load) {
        return Promise.reject(new PlayerError("this book is in parts: the player needs a way to load them"));
      }
      node.loading = Promise.resolve().then(function () { return load(node.part); }).then(function (subtree) {
        expand(node, subtree, game);
      });
      node.loading.catch(function () { node.loading = null; });  // a failed load may be tried again
    }
    return node.loading;
  }

  /** How many secrets of the book are still possible (1 once solved). */
  Player.prototype.remaining = function () {
    return this._solved ? 1 : this._path[this._path.length - 1].count;
  };

  /** An answer in canonical form ("1A2B", "2A", "GY..Y"), refusing unreadable or impossible ones. */
  Player.prototype.parse = function (text) {
    return parseAnswer(text, this.game);
  };

  /** Follow the branch of the answer; the next guess, or null if it is all-correct. Entering a
   * part of the book not loaded starts loading it: wait for ready() before the next answer. */
  Player.prototype.answer = function (text) {
    if (this._solved) {
      throw new PlayerError("the game is already solved: undo() or reset() to play on");
    }
    var key = this.parse(text);
    var node = this._path[this._path.length - 1];
    if (node.next === null) {
      throw new PlayerError("the part of the book after " + node.guess + " is still loading: wait for ready()");
    }
    var child = node.next.get(key);
    if (child !== undefined) {
      this._path.push(child);
      this._keys.push(key);
      this._history.push([node.guess, key]);
      if (child.next === null && this._load) loadPart(child, this._load, this.game).catch(function () {});
      return child.guess;
    }
    if (key === this._solvedKey) {
      if (node.possible) {
        this._solved = true;
        this._history.push([node.guess, key]);
        return null;
      }
      throw new NoSuchBranch("answer " + key + " is impossible at this point: " + node.guess +
        " cannot be the secret" + this._after());
    }
    throw new NoSuchBranch("answer " + key + " to " + node.guess +
      " is impossible at this point: no secret gives it" + this._after());
  };

  /** Take back the last answer; returns the guess to play again. */
  Player.prototype.undo = function () {
    if (!this._history.length) {
      throw new PlayerError("nothing to undo");
    }
    this._history.pop();
    if (this._solved) {
      this._solved = false;
    } else {
      this._path.pop();
      this._keys.pop();
    }
    return this._path[this._path.length - 1].guess;
  };

  /** Back to the first guess. */
  Player.prototype.reset = function () {
    this._path = [this._root];
    this._keys = [];
    this._history = [];
    this._solved = false;
    return this._root.guess;
  };

  Player.prototype._after = function () {
    if (!this._history.length) return "";
    return " after " + this._history.map(function (h) { return h[0] + "=" + h[1]; }).join(", ");
  };

  /** Every secret of a game in enumeration order (lexicographic in the symbol string; a listed
   * game's answers as listed). */
  function gameCodes(game) {
    if (game.answers) return game.answers.slice();
    var symbols = symbolsOf(game.symbols), length = game.length, codes = [], code = [], used = {};
    function extend(position) {
      if (position === length) {
        codes.push(code.join(""));
        return;
      }
      for (var i = 0; i < symbols.length; i++) {
        var s = symbols[i];
        if (!game.repetition && used[s]) continue;
        used[s] = true;
        code.push(s);
        extend(position + 1);
        code.pop();
        used[s] = false;
      }
    }
    extend(0);
    return codes;
  }

  /** Why no secret fits a history: the earliest answer whose change lets some secret fit. */
  function diagnose(game, history) {
    var rule = ruleOf(game), fits = null, alone = {}, codes = gameCodes(game);
    codes.forEach(function (code) {
      var wrong = -1;
      for (var i = 0; i < history.length; i++) {
        if (score(history[i][0], code, rule) !== history[i][1]) {
          if (wrong >= 0) return;
          wrong = i;
        }
      }
      if (wrong < 0) {
        if (fits === null) fits = code;
      } else {
        (alone[wrong] = alone[wrong] || []).push(code);
      }
    });
    if (fits !== null) {
      return "the book does not cover secret " + fits + ", which gives all these answers; it is not a complete treegen book";
    }
    var suspects = Object.keys(alone).map(Number);
    if (!suspects.length) {
      return "more than one answer must be wrong: undo or restart";
    }
    var index = Math.min.apply(null, suspects);
    var guess = history[index][0], key = history[index][1], seen = new Set();
    alone[index].forEach(function (code) { seen.add(score(guess, code, rule)); });
    var better = answerKeys(game).filter(function (k) { return seen.has(k); });
    var options = better.slice(0, 4).join(" or ") + (better.length > 4 ? " or ..." : "");
    if (index === history.length - 1) {
      return "check this answer: " + options + " would fit your earlier answers";
    }
    return "your answer " + key + " to guess " + (index + 1) + " (" + guess + ") is probably wrong: with " +
      options + " instead, some secret fits; undo back to it";
  }

  /** Why a text is not a code of the game, or null when it is one. */
  function checkCode(game, text) {
    if (game.guesses) {
      return game.guesses.indexOf(String(text).trim()) >= 0 ? null :
        show(text) + " is not one of the " + game.guesses.length + " guesses of the game";
    }
    var code = symbolsOf(String(text).trim()), symbols = symbolsOf(game.symbols);
    if (code.length !== game.length) {
      return "code " + show(text) + " has " + code.length + " symbols; " + game.name + " codes have " + game.length;
    }
    for (var i = 0; i < code.length; i++) {
      if (symbols.indexOf(code[i]) < 0) {
        return "code " + show(text) + " uses " + show(code[i]) + ", which is not one of the symbols " + game.symbols;
      }
    }
    if (!game.repetition && new Set(code).size !== code.length) {
      return "code " + show(text) + " repeats a symbol, which " + game.name + " does not allow";
    }
    return null;
  }

  /** The moves the book plays against a secret: [{guess, answer, path}], the last one all-correct.
   * A book in parts: findPathAsync. */
  function findPath(book, secret) {
    var moves = [], node = walk(book, secret, book.tree, moves);
    if (node !== null) {
      throw new PlayerError("this book is in parts: find the secret with findPathAsync");
    }
    return moves;
  }

  /** findPath for a book in parts, loading them with `load` as Player does: a promise of the moves. */
  function findPathAsync(book, secret, load) {
    var moves = [];
    function from(node) {
      var stub = walk(book, secret, node, moves);
      if (stub === null) return Promise.resolve(moves);
      if (!load) return Promise.reject(new PlayerError("this book is in parts: findPathAsync needs a way to load them"));
      return Promise.resolve().then(function () { return load(stub.part); }).then(function (subtree) {
        var path = moves.map(function (m) { return [m.guess, m.answer]; }).slice(0, -1);
        var checked = { guess: stub.guess, next: null, count: stub.secrets, part: stub.part, path: path };
        expand(checked, subtree, book.game);  // refuses a part that is not the stub's subtree
        moves.pop();
        return from(subtree);
      });
    }
    return from(book.tree);
  }

  /** Moves from `node` on, appended to `moves`; null once solved, else the stub reached. */
  function walk(book, secret, node, moves) {
    var solved = solvedKey(book.game), rule = ruleOf(book.game), key;
    var path = moves.length ? moves[moves.length - 1].path.concat([moves[moves.length - 1].answer]) : [];
    for (;;) {
      if (node.part !== undefined && node.next === undefined) {
        moves.push({ guess: node.guess, answer: null, path: path.slice() });
        return node;
      }
      key = score(node.guess, secret, rule);
      moves.push({ guess: node.guess, answer: key, path: path.slice() });
      if (key === solved) return null;
      if (!Object.prototype.hasOwnProperty.call(node.next, key)) {
        throw new NoSuchBranch("the book has no branch for secret " + secret + ": " + node.guess +
          " scores " + key + " there");
      }
      path.push(key);
      node = node.next[key];
    }
  }

  return {
    Player: Player,
    PlayerError: PlayerError,
    MalformedAnswer: MalformedAnswer,
    ImpossibleAnswer: ImpossibleAnswer,
    NoSuchBranch: NoSuchBranch,
    parseFeedback: parseFeedback,
    parseAnswer: parseAnswer,
    answerKeys: answerKeys,
    solvedKey: solvedKey,
    score: score,
    feedback: feedback,
    formatFeedback: formatFeedback,
    gameCodes: gameCodes,
    diagnose: diagnose,
    checkCode: checkCode,
    symbolsOf: symbolsOf,
    findPath: findPath,
    findPathAsync: findPathAsync
  };
});
