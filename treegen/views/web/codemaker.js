/* treegen code-maker: the computer keeps a secret and the person guesses, as `treegen challenge`.
 *
 *   const maker = new treegen.Codemaker(book.game, {seed: 7});      // a secret drawn from the seed
 *   const maker = new treegen.Codemaker(book.game, {adversarial: true});
 *   maker.answer("crane");   // "..YG." (or a CodeError: not a guess, refused by hard mode; not counted)
 *
 * The seed draws the secret as Python's random.Random(seed).randrange(size) does (MT19937), so a
 * seed gives the same secret as `treegen challenge --seed`. The adversary answers each guess with
 * the feedback whose class of still-possible secrets is largest, ties to the feedback first in the
 * game's feedback order, and at the end shows the first secret that fits every answer.
 * Needs player.js and live.js; a classic script (global `treegen`) and a CommonJS module.
 */
(function (root, factory) {
  "use strict";
  var lib = root.treegen || (typeof require === "function" ?
    Object.assign({}, require("./player.js"), require("./live.js")) : {});
  var api = factory(lib);
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.treegen = Object.assign(root.treegen || {}, api);
  }
})(typeof self !== "undefined" ? self : this, function (lib) {
  "use strict";

  /** A guess that is not a move: not a code of the game, refused by hard mode, or too late. */
  class CodeError extends Error {
    get name() { return "CodeError"; }
  }

  // -- Python's random.Random(seed).randrange(n): MT19937 seeded by init_by_array -------------

  function MersenneTwister(seed) {
    var mt = new Uint32Array(624), i, j, k, key = [];
    var rest = Math.abs(Math.floor(seed));
    do {  // the seed's 32-bit words, least significant first
      key.push(rest % 4294967296);
      rest = Math.floor(rest / 4294967296);
    } while (rest > 0);
    mt[0] = 19650218;
    for (i = 1; i < 624; i++) mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
    i = 1; j = 0;
    for (k = Math.max(624, key.length); k; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      i++; j++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (k = 623; k; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      i++;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.mt = mt;
    this.at = 624;
  }

  MersenneTwister.prototype.next32 = function () {
    var mt = this.mt, y, i;
    if (this.at >= 624) {
      for (i = 0; i < 624; i++) {
        y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff);
        mt[i] = mt[(i + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.at = 0;
    }
    y = mt[this.at++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  };

  /** random.Random(seed).randrange(n) for 0 < n < 2**32. */
  function randrange(seed, n) {
    var twister = new MersenneTwister(seed), bits = n.toString(2).length, r;
    do { r = twister.next32() >>> (32 - bits); } while (r >= n);
    return r;
  }

  /** A fresh seed, as treegen challenge draws one: 0 <= seed < 2**32. */
  function newSeed() {
    var c = typeof crypto !== "undefined" && crypto.getRandomValues ? crypto : null;
    return c ? c.getRandomValues(new Uint32Array(1))[0] : Math.floor(Math.random() * 4294967296);
  }

  // -- the code-maker --------------------------------------------------------------------------

  /** options: {adversarial, seed, limit}; limit: the most guesses (null: no limit). */
  function Codemaker(game, options) {
    if (!(this instanceof Codemaker)) return new Codemaker(game, options);
    options = options || {};
    this.model = lib.model(game);
    this.game = game;
    this.adversarial = !!options.adversarial;
    this.limit = Number.isInteger(options.limit) && options.limit > 0 ? options.limit : null;
    this.seed = null;
    this.secret = null;
    if (!this.adversarial) {
      this.seed = Number.isSafeInteger(options.seed) && options.seed >= 0 ? options.seed : newSeed();
      this.secret = randrange(this.seed, this.model.size);
    }
    this.candidates = lib.consistent(this.model, []);
    this.moves = [];
    this._states = [];
  }

  Object.defineProperties(Codemaker.prototype, {
    won: { get: function () { return this.moves.length > 0 && this.moves[this.moves.length - 1][1] === this.model.keys[this.model.solved]; } },
    lost: { get: function () { return !this.won && this.limit !== null && this.moves.length >= this.limit; } },
    done: { get: function () { return this.won || this.lost; } }
  });

  /** A typed guess as the game's code, or a CodeError saying why it is not one. */
  Codemaker.prototype.read = function (text) {
    var code = lib.normalize(this.model, text);
    var problem = lib.codeProblem(this.model, code, String(text).trim());
    if (problem) throw new CodeError(problem);
    return code;
  };

  /** The answer to a guess (its canonical text); a CodeError leaves the game as it was. */
  Codemaker.prototype.answer = function (text) {
    if (this.done) throw new CodeError("the game is over: start a new game");
    var m = this.model, code = this.read(text), g = m.index.get(code);
    var problem = lib.hardProblem(m, this.moves, code);
    if (problem) throw new CodeError(problem);
    var f;
    if (this.adversarial) {
      var sizes = lib.counts(m, g, this.candidates), largest = -1;
      for (var i = 0; i < sizes.length; i++) if (sizes[i] > largest) { largest = sizes[i]; f = i; }
    } else {
      f = m.fb(g, this.secret);
    }
    this._states.push(this.candidates);
    this.candidates = lib.filter(m, this.candidates, g, f);
    this.moves.push([code, m.keys[f]]);
    return m.keys[f];
  };

  /** How many secrets fit every answer so far. */
  Codemaker.prototype.remaining = function () { return this.candidates.length; };

  /** The secrets that fit every answer so far, in the game's order (at most `most`). */
  Codemaker.prototype.possible = function (most) {
    var m = this.model, out = [], n = Math.min(most === undefined ? Infinity : most, this.candidates.length);
    for (var i = 0; i < n; i++) out.push(m.codes[this.candidates[i]]);
    return out;
  };

  /** The secret, or for the adversary the first secret that fits every answer. */
  Codemaker.prototype.reveal = function () {
    return this.model.codes[this.secret !== null ? this.secret : this.candidates[0]];
  };

  return { Codemaker: Codemaker, CodeError: CodeError, randrange: randrange, newSeed: newSeed };
});
