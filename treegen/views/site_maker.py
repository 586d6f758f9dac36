"""The code-maker page of a book (``maker.html``): the computer keeps a secret of the book's game
and the person guesses, as ``treegen challenge`` plays it, computed in the page
(``assets/codemaker.js`` and ``assets/maker.js``): a secret drawn from a seed (the same seed gives
the same secret as ``treegen challenge --seed``), or the adversary, which keeps as many secrets
possible as it can and always answers consistently. Hard mode, Wordle's six guesses and the list
of the secrets still possible are on the page."""

from __future__ import annotations

from treegen.data import GameData
from treegen.notation import game_title
from treegen.player import hard_mode_of, rule_of
from treegen.rules.game import GUESS_LIMITS
from treegen.views.encode import html_text
from treegen.views.site_html import SiteBook, _book_title, _head, _top_bar

__all__ = ["MAKER_PAGE", "guess_limit", "maker_page"]

MAKER_PAGE = "maker.html"


def guess_limit(game: GameData) -> int | None:
    """The most guesses a person has against the code-maker: the game's own limit (Wordle's six,
    as ``treegen challenge`` keeps it), else none."""
    return GUESS_LIMITS.get(game["name"])


def _secret_words(game: GameData) -> str:
    if "answers" in game:
        return f"one of the {len(game['answers']):,} answers of {html_text(game_title(game))}"
    kind = "repeats allowed" if game["repetition"] else "no repeats"
    return (f"{game['length']} symbols from {html_text(game['symbols'])}, {kind} "
            f"({html_text(game_title(game))})")


def maker_page(entry: SiteBook) -> str:
    book = entry.book
    game = book["game"]
    rule = rule_of(game)
    mode = hard_mode_of(game)
    limit = guess_limit(game)
    cased = any(c.lower() != c.upper() for c in game["symbols"])
    rules = [f"I keep a secret: {_secret_words(game)}. Type a guess; I answer "
             f"{html_text(rule.short)}.{' Upper or lower case, as you like.' if cased else ''}"]
    if mode is not None:
        rules.append(f"Hard mode: {html_text(mode.describe)}; I refuse a guess that does not, and it does "
                     "not count.")
    if limit:
        rules.append(f"You have {limit} guesses; when they are all wrong I show the secret.")
    example = game["answers"][0] if "answers" in game else game["symbols"][:game["length"]]
    return (_head(f"{_book_title(book)} · you guess · treegen", "../")
            + '<body class="maker">\n' + _top_bar(book, "../", here="you guess")
            + '<main class="wide maker-main">\n<section class="card" id="maker">\n'
            + f"<h1>You guess: {html_text(game_title(game))}</h1>\n"
            + f'<p class="hint">{" ".join(rules)}</p>\n'
            + '<fieldset class="mode"><legend>My secret</legend>\n'
              '<label><input type="radio" name="mode" value="random" checked> a random secret'
              '</label>\n<label><input type="radio" name="mode" value="adversarial"> adversarial: '
              "I pick none, and answer each guess so as to keep as many secrets possible as I can "
              "(the largest class; ties to the first answer in the game's order), always "
              "consistently</label>\n"
              '<div class="row"><label for="maker-seed">seed</label><input id="maker-seed" '
              'inputmode="numeric" autocomplete="off" spellcheck="false" title="the same seed, '
              'the same secret (as treegen challenge --seed)"><button type="button" '
              'id="maker-new">New game</button></div>\n</fieldset>\n'
            + '<p id="maker-status" class="status"></p>\n'
              '<form id="maker-form" autocomplete="off">\n'
              '<div class="row"><input id="maker-guess" name="guess" placeholder="your guess, e.g. '
              f'{html_text(example)}" spellcheck="false" autocapitalize="off" aria-label="your guess">'
              '<button type="submit">Guess</button></div>\n</form>\n'
              '<p id="maker-message" role="status"></p>\n'
              '<ol id="maker-history" class="moves"></ol>\n'
              '<div id="maker-end" aria-live="polite"></div>\n'
              '<div class="row buttons"><button type="button" id="maker-possible" '
              'class="secondary">What is still possible?</button></div>\n'
              '<div id="maker-possible-list"></div>\n'
              "</section>\n</main>\n"
            + '<script src="book-data.js"></script>\n<script src="../assets/player.js"></script>\n'
              '<script src="../assets/live.js"></script>\n<script src="../assets/codemaker.js">'
              '</script>\n<script src="../assets/maker.js"></script>\n</body>\n</html>\n')
