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
 * A game's rule says how answers are given, as in treegen.player: "pegs" (1A2B), "black" (2A),
 * "wordle" (tiles GY..Y) or "jotto" (3, the letters in common; win); each is an entry of RULES,
 * which every script of the site reads. A game may list its "answers" (the secrets) and "guesses".
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
  var JOTTO = /^\s*(\d{1,2})\s*$/;
  // every spelling of nothing in common (no pegs, no letters shared, every tile grey), as
  // treegen.player.NOTHING
  var NOTHING = ["", "-", "none", "no", "zero", "0", "nothing"];
  var JOTTO_FOUND = ["win", "won", "yes", "jotto", "!"];
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

  function nothing(text) {
    return typeof text === "string" && NOTHING.indexOf(text.trim().toLowerCase()) >= 0;
  }

  /** "1A2B", "12", "1 2", "1,2" or [1, 2] -> [1, 2]; pegs BWW, 1B2W; nothing as -, none, 0 or
   * nothing at all. A count of B alone ("2B") is black pegs with `pegs` (a game whose players
   * speak pegs), else refused. Answers no secret gives are refused. */
  function parseFeedback(text, length, pegs) {
    var a, b, match;
    if (Array.isArray(text) && text.length === 2 && text.every(Number.isInteger)) {
      a = text[0];
      b = text[1];
    } else if (nothing(text)) {
      a = 0;
      b = 0;
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
        if (!(counted[3] || counted[4]) && !pegs) {  // "2B": two cows in aAbB; never guess
          var black = counted[1] || counted[2];
          throw new MalformedAnswer("answer " + show(text) + " is ambiguous: write 0A" + black + "B for " +
            black + " symbol" + (black !== "1" ? "s" : "") + " elsewhere, or " + black + "A0B for " + black + " in place");
        }
        a = parseInt(counted[1] || counted[2] || "0", 10);
        b = parseInt(counted[3] || counted[4] || "0", 10);
      } else {
        throw new MalformedAnswer("cannot read answer " + show(text) + ": write " +
          (pegs ? "BWW, 2B1W, 1A2B" : "1A2B") + ", 12, '1 2'" + (pegs ? "" : ", BWW, 2B1W") + ", or - for none");
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

  /** The branches of the live scorer (live.js) a rule names as its kernel, as treegen.player's
   * KERNELS: symbols counted in place and in common (the answer read off the counts by
   * `counted`), in place only, a tile a position. */
  var COUNTS = 0, IN_PLACE = 1, TILES_KERNEL = 2;

  function inPlace(guessText, secretText) {
    var guess = symbolsOf(guessText), secret = symbolsOf(secretText), a = 0;
    for (var i = 0; i < guess.length; i++) if (guess[i] === secret[i]) a++;
    return a;
  }

  function wordleTiles(guessText, secretText) {
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

  function parseBlack(text, length) {
    if (nothing(text)) return "0A";
    var match = typeof text === "string" ? BLACK.exec(text) : null;
    var pegs = typeof text === "string" && !match ? BLACK_PEGS.exec(text) : null;
    if (!match && !pegs) throw new MalformedAnswer("cannot read answer " + show(text) + ": write 2A, 2 or BB, or - for none");
    var count = match ? parseInt(match[1], 10) : pegs[1].length;
    if (count > length) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: more than the " + length + " positions");
    }
    return count + "A";
  }

  function parseTiles(text, length) {
    if (nothing(text)) return ".".repeat(length);  // nothing in the word: every tile grey
    var tiles = typeof text === "string" ? Array.from(text).filter(function (c) { return !/\s/.test(c); })
      .map(function (c) { return TILES[c] || "?"; }).join("") : "?";
    if (tiles.indexOf("?") >= 0 || tiles.length !== length) {
      throw new MalformedAnswer("cannot read answer " + show(text) + ": write " + length +
        " tiles of G (green), Y (yellow) and . (grey), e.g. " + "GY..Y".slice(0, length) +
        ", or none for every tile grey");
    }
    if (tiles.split("G").length - 1 === length - 1 && tiles.indexOf("Y") >= 0) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: with every other letter in place the last one cannot be elsewhere");
    }
    return tiles;
  }

  function parseJotto(text, length) {
    var said = typeof text === "string" ? text.trim().toLowerCase() : null;
    if (JOTTO_FOUND.indexOf(said) >= 0) return "win";
    if (NOTHING.indexOf(said) >= 0) return "0";
    var match = typeof text === "string" ? JOTTO.exec(text) : null;
    if (!match) {
      throw new MalformedAnswer("cannot read answer " + show(text) + ": write the number of letters " +
        "in common (0, 3, ...; - or none for 0), or win");
    }
    var count = parseInt(match[1], 10);
    if (count > length || !RULES.jotto.possible(String(count), length)) {
      throw new ImpossibleAnswer("answer " + show(text) + " is impossible: a guess of " + length +
        " letters shares at most " + (length - (length === 1 ? 1 : 0)) + " with a secret it is not");
    }
    return String(count);
  }

  function range(n) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(i);
    return out;
  }

  function same(key) { return key; }
  function always() { return true; }

  /** The rules of feedback by name, as treegen.player.RULES: what an answer looks like
   * (`example`), how people are told to give it (`how`, `short`, other spellings `also`; *...*
   * marks what to type), whether
   * answers are a tile a position (`tiles`), the live scorer's branch (`kernel`), what each index of
   * a score table stands for (`indexed`, impossible answers among them; `possible` says which),
   * the solved answer, how a secret answers a guess (`score`), any spelling read (`parse`) and an
   * answer as people read it (`format`); a rule of counts reads its answer off `counted`. Every
   * script of the site reads a rule here: a new rule is one entry. */
  var RULES = {
    pegs: {
      name: "pegs", notation: "aAbB", example: "1A2B", tiles: false, blackAndWhite: false, kernel: COUNTS,
      how: "Answer each guess with *aAbB*: a = right symbols in the right place, b = right " +
        "symbols elsewhere (1A2B, 12, '1 2' and 1,2 all work; - or 0 for nothing in common).",
      short: "aAbB (a in the right place, b elsewhere)",
      also: "Black and white pegs work too: *BBW*, *2B1W*.",
      indexed: function (length) {
        var keys = [];
        for (var a = 0; a <= length; a++) for (var b = 0; a + b <= length; b++) keys.push(a + "A" + b + "B");
        return keys;
      },
      possible: function (key, length) { return key !== (length - 1) + "A1B"; },
      solved: function (length) { return length + "A0B"; },
      score: function (guess, secret) { return formatFeedback(feedback(guess, secret)); },
      parse: function (text, length) { return formatFeedback(parseFeedback(text, length, false)); },
      format: same,
      counted: function (here, elsewhere) { return here + "A" + elsewhere + "B"; }
    },
    black: {
      name: "black", notation: "aA", example: "2A", tiles: false, blackAndWhite: false, kernel: IN_PLACE,
      how: "Answer each guess with *aA*: a = right symbols in the right place (2A, 2 and BB work; " +
        "- or 0 for none).",
      short: "aA (a in the right place)",
      also: "",
      indexed: function (length) { return range(length + 1).map(function (a) { return a + "A"; }); },
      possible: always,
      solved: function (length) { return length + "A"; },
      score: function (guess, secret) { return inPlace(guess, secret) + "A"; },
      parse: parseBlack,
      format: same,
      counted: null
    },
    wordle: {
      name: "wordle", notation: "tiles", example: "GY..Y", tiles: true, blackAndWhite: false, kernel: TILES_KERNEL,
      how: "Answer each guess with its tiles: *G* = green (right letter, right place), *Y* = " +
        "yellow (in the word elsewhere), *.* = grey (not in it, or not again), e.g. GY..Y.",
      short: "with tiles (G green: in place, Y yellow: elsewhere, . grey: not in it)",
      also: "",
      indexed: function (length) {
        var keys = [""];  // base 3, most significant first: grey 0, yellow 1, green 2
        for (var i = 0; i < length; i++) {
          keys = [].concat.apply([], keys.map(function (k) { return [k + ".", k + "Y", k + "G"]; }));
        }
        return keys;
      },
      possible: function (key, length) {
        return !(key.split("G").length - 1 === length - 1 && key.indexOf("Y") >= 0);
      },
      solved: function (length) { return "G".repeat(length); },
      score: wordleTiles,
      parse: parseTiles,
      format: same,
      counted: null
    },
    jotto: {
      name: "jotto", notation: "count", example: "3", tiles: false, blackAndWhite: false, kernel: COUNTS,
      how: "Answer each guess with the number of letters it shares with your secret, counted " +
        "with repeats (crane against cigar: 3), and *win* when it is your secret.",
      short: "with the letters in common (win: it is the secret)",
      also: "",
      indexed: function (length) { return range(length + 1).map(String).concat(["win"]); },
      possible: function (key, length) { return !(key === String(length) && length === 1); },
      solved: function () { return "win"; },
      score: function (guess, secret) {
        if (guess === secret) return "win";
        var fb = feedback(guess, secret);
        return String(fb[0] + fb[1]);
      },
      parse: parseJotto,
      format: same,
      counted: function (here, elsewhere, length) { return here === length ? "win" : String(here + elsewhere); }
    }
  };

  /** How answers are written for people, by name, as treegen.player.NOTATIONS: each rule as
   * itself, and the other ways a game's players may speak a rule (scored, keyed and stored as
   * the rule, shown and read their way): Mastermind's black and white pegs. */
  var NOTATIONS = {};
  Object.keys(RULES).forEach(function (name) { NOTATIONS[RULES[name].notation] = RULES[name]; });
  NOTATIONS["black-white"] = Object.assign({}, RULES.pegs, {
    notation: "black-white", blackAndWhite: true,
    how: "Answer each guess with black and white pegs: *B* for each right colour in place, *W* " +
      "for each right colour elsewhere (BBW, 2B1W; - or none for no pegs).",
    short: "with black and white pegs (B: a right colour in place, W: a right colour elsewhere)",
    also: "Counts work too: *1A2B* (1 black, 2 white), *12*.",
    parse: function (text, length) { return formatFeedback(parseFeedback(text, length, true)); },
    format: function (key) {
      var match = /^(\d+)A(\d+)B$/.exec(key);
      if (!match) return key;
      return "B".repeat(parseInt(match[1], 10)) + "W".repeat(parseInt(match[2], 10)) || "none";
    }
  });
  /** The games whose players speak another notation than their rule's own, by the name books
   * give them, as treegen.player.GAME_NOTATIONS. */
  var GAME_NOTATIONS = { mastermind: "black-white" };

  /** `rule` in the notation of the game of this name, or as itself, as treegen.player.spoken. */
  function spoken(rule, gameName) {
    var named = typeof gameName === "string" && Object.prototype.hasOwnProperty.call(GAME_NOTATIONS, gameName) ?
      GAME_NOTATIONS[gameName] : "";
    var notation = Object.prototype.hasOwnProperty.call(NOTATIONS, named) ? NOTATIONS[named] : rule;
    return notation.name === rule.name ? notation : rule;
  }

  /** The hard modes, as treegen.player.HARD_MODES: what a book's "hard" holds (`written`), what
   * a mode asks of a guess (`describe`) and how a message says a guess breaks it (`breaks`), the
   * live test it names (`kernel`: the same answer, read from the scores, or the hints kept, letter
   * by letter) and whether a guess may follow another answered `key` (`allows`). */
  var SAME_ANSWER = 0, HINTS_KEPT = 1;
  var HARD_MODES = {
    strict: {
      name: "strict", written: true, kernel: SAME_ANSWER,
      describe: "every guess must fit every answer so far", breaks: "does not fit",
      allows: function (rule, asked, key, guess) { return rule.score(asked, guess) === key; }
    },
    hints: {
      name: "hints", written: "hints", kernel: HINTS_KEPT,
      describe: "every guess keeps the greens in place and uses every green or yellow letter again",
      breaks: "does not keep the hints of",
      allows: function (rule, asked, key, guess) {
        var a = symbolsOf(asked), k = Array.from(key), g = symbolsOf(guess), marked = [], i;
        for (i = 0; i < a.length; i++) {
          if (k[i] === "G" && g[i] !== a[i]) return false;
          if (k[i] !== ".") marked.push(a[i]);
        }
        return marked.every(function (letter) {
          return g.filter(function (c) { return c === letter; }).length >=
            marked.filter(function (c) { return c === letter; }).length;
        });
      }
    }
  };

  /** A game's hard mode as its book writes it ("hard": false, true or a mode's name), or null. */
  function hardModeOf(game) {
    var written = game ? game.hard : undefined;
    for (var name in HARD_MODES) {
      if (written === HARD_MODES[name].written) return HARD_MODES[name];
    }
    return null;
  }

  /** The rule of this name; a PlayerError naming the rules there are otherwise. */
  function findRule(name) {
    if (typeof name === "string" && Object.prototype.hasOwnProperty.call(RULES, name)) return RULES[name];
    throw new PlayerError("rule must be one of " + Object.keys(RULES).join(", ") + ", not " + show(name));
  }

  /** A game's rule of feedback (pegs unless it says otherwise), in the notation its players
   * speak (spoken): answers keyed as the rule keys them, shown and read their way. */
  function ruleOf(game) {
    return spoken(findRule(game && game.rule !== undefined ? game.rule : "pegs"), game && game.name);
  }

  /** Every answer of a rule in index order, those no secret gives left out. */
  function ruleKeys(rule, length) {
    return rule.indexed(length).filter(function (key) { return rule.possible(key, length); });
  }

  /** The answer to a guess when the secret is secretText under a rule (its name), as books key it. */
  function score(guessText, secretText, rule) {
    return findRule(rule === undefined ? "pegs" : rule).score(guessText, secretText);
  }

  /** Every answer some secret can give in a game, all-correct included, in index order. */
  function answerKeys(game) {
    return ruleKeys(ruleOf(game), game.length);
  }

  function solvedKey(game) {
    return ruleOf(game).solved(game.length);
  }

  /** Any spelling of an answer of the game's rule -> its canonical key, refusing answers no
   * secret gives. */
  function parseAnswer(text, game) {
    return ruleOf(game).parse(text, game.length);
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
          return rule.score(step[0], raw.guess) === step[1];
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
    this.rule = ruleOf(book.game);
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

  /** An answer in canonical form ("1A2B", "2A", "GY..Y", "3"), refusing unreadable or impossible ones. */
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
      throw new NoSuchBranch("answer " + this.rule.format(key) + " is impossible at this point: " + node.guess +
        " cannot be the secret" + this._after());
    }
    throw new NoSuchBranch("answer " + this.rule.format(key) + " to " + node.guess +
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
    var rule = this.rule;
    return " after " + this._history.map(function (h) { return h[0] + "=" + rule.format(h[1]); }).join(", ");
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
        if (rule.score(history[i][0], code) !== history[i][1]) {
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
    alone[index].forEach(function (code) { seen.add(rule.score(guess, code)); });
    var better = answerKeys(game).filter(function (k) { return seen.has(k); }).map(rule.format);
    var options = better.slice(0, 4).join(" or ") + (better.length > 4 ? " or ..." : "");
    if (index === history.length - 1) {
      return "check this answer: " + options + " would fit your earlier answers";
    }
    return "your answer " + rule.format(key) + " to guess " + (index + 1) + " (" + guess + ") is probably wrong: with " +
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
      key = rule.score(node.guess, secret);
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
    RULES: RULES,
    NOTATIONS: NOTATIONS,
    GAME_NOTATIONS: GAME_NOTATIONS,
    spoken: spoken,
    KERNELS: { COUNTS: COUNTS, IN_PLACE: IN_PLACE, TILES: TILES_KERNEL },
    HARD_MODES: HARD_MODES,
    HARD_KERNELS: { SAME_ANSWER: SAME_ANSWER, HINTS_KEPT: HINTS_KEPT },
    hardModeOf: hardModeOf,
    findRule: findRule,
    ruleOf: ruleOf,
    ruleKeys: ruleKeys,
    gameCodes: gameCodes,
    diagnose: diagnose,
    checkCode: checkCode,
    symbolsOf: symbolsOf,
    findPath: findPath,
    findPathAsync: findPathAsync
  };
});
