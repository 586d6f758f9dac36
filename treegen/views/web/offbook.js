/* treegen off-book player: plays from a book while the answers follow it, and on from there with
 * a live one-step look-ahead (live.js) when they leave it (a book that does not cover every
 * secret), as long as some secret of the game fits every answer.
 *
 *   const player = new treegen.LivePlayer(book);   // treegen.Player's interface, and:
 *   player.offBook;      // true once the answers have left the book
 *   player.live;         // {strategy, scope, guesses, sample, candidates} of the last live choice
 *
 * A book in parts takes the options of treegen.Player ({load}); ready() and loaded as there.
 *
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

  function LivePlayer(book, options) {
    if (!(this instanceof LivePlayer)) return new LivePlayer(book, options);
    this.book = book;
    this.game = book.game;
    this.strategy = lib.strategyOf(book);
    this._book = new lib.Player(book, options);
    this._model = null;
    this._steps = null;  // off the book: [{guess, key, cands, info}], the last without a key yet
    this._solved = false;
  }

  Object.defineProperties(LivePlayer.prototype, {
    offBook: { get: function () { return this._steps !== null; } },
    guess: {
      get: function () {
        if (!this._steps) return this._book.guess;
        return this._solved ? null : this._last().guess;
      }
    },
    solved: { get: function () { return this._steps ? this._solved : this._book.solved; } },
    loaded: { get: function () { return this._steps !== null || this._book.loaded; } },
    history: {
      get: function () {
        var moves = this._book.history;
        if (this._steps) {
          this._steps.forEach(function (s) { if (s.key !== null) moves.push([s.guess, s.key]); });
        }
        return moves;
      }
    },
    /** The answers that lead from the root to the book's last node on this game's way. */
    path: { get: function () { return this._book.path; } },
    /** How the last guess off the book was chosen, or null on the book. */
    live: { get: function () { return this._steps && !this._solved ? this._last().info : null; } }
  });

  LivePlayer.prototype.model = function () {
    if (!this._model) this._model = lib.model(this.game);
    return this._model;
  };

  LivePlayer.prototype._last = function () { return this._steps[this._steps.length - 1]; };

  LivePlayer.prototype.remaining = function () {
    if (!this._steps) return this._book.remaining();
    return this._solved ? 1 : this._last().cands.length;
  };

  LivePlayer.prototype.parse = function (text) { return this._book.parse(text); };

  /** A promise of the guess once the answer to it can be taken (on the book: its part loaded). */
  LivePlayer.prototype.ready = function () {
    return this._steps ? Promise.resolve(this.guess) : this._book.ready();
  };

  /** The next guess off the book over `cands`, after `history`. */
  LivePlayer.prototype._step = function (cands, history) {
    var m = this.model(), choice = lib.choose(m, cands, history, this.strategy);
    return {
      guess: m.codes[choice.guess], key: null, cands: cands,
      info: { strategy: this.strategy.name, own: this.strategy.own, pool: this.strategy.pool,
        scope: choice.scope, guesses: choice.guesses, sample: choice.sample, candidates: cands.length }
    };
  };

  /** Follow the answer: the book's branch, else the secrets of the game that fit. */
  LivePlayer.prototype.answer = function (text) {
    if (this.solved) throw new lib.PlayerError("the game is already solved: undo() or reset() to play on");
    if (!this._steps) {
      try {
        return this._book.answer(text);
      } catch (error) {
        if (!(error instanceof lib.NoSuchBranch)) throw error;
        var key = this.parse(text), history = this._book.history.concat([[this._book.guess, key]]);
        var cands = lib.consistent(this.model(), history);
        if (!cands.length) throw error;
        this._steps = [{ guess: this._book.guess, key: null, cands: null, info: null }];
        return this._follow(key, cands, history);
      }
    }
    var m = this.model(), last = this._last(), k = this.parse(text);
    var kept = lib.filter(m, last.cands, m.index.get(last.guess), m.keyIndex.get(k));
    if (!kept.length) {
      var write = lib.ruleOf(this.game).format;  // answers as the game's players write them
      throw new lib.NoSuchBranch("answer " + write(k) + " to " + last.guess + " is impossible at this point: " +
        "no secret of the game gives it after " + this.history.map(function (h) { return h[0] + "=" + write(h[1]); }).join(", "));
    }
    return this._follow(k, kept, this.history.concat([[last.guess, k]]));
  };

  LivePlayer.prototype._follow = function (key, cands, history) {
    var last = this._last();
    last.key = key;
    if (key === lib.solvedKey(this.game)) {
      this._solved = true;
      return null;
    }
    this._steps.push(this._step(cands, history));
    return this._last().guess;
  };

  LivePlayer.prototype.undo = function () {
    if (!this._steps) return this._book.undo();
    if (!this._solved) this._steps.pop();
    this._solved = false;
    this._last().key = null;
    if (this._steps.length === 1) this._steps = null;  // back on the book, where it left it
    return this.guess;
  };

  LivePlayer.prototype.reset = function () {
    this._steps = null;
    this._solved = false;
    return this._book.reset();
  };

  return { LivePlayer: LivePlayer };
});
