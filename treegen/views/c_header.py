"""A book as one C99 header: the tree as a bit-packed ``static const`` table and a few inline
functions to play it, for programs in C or anything that calls C, down to microcontrollers.

Tight packing, because the table is the whole cost on a small device: nodes are numbered
breadth-first, so the children of a node are consecutive and the child along edge ``e`` is node
``e + 1``; a node stores only its guess (the code's rank in the game, unranked to text at run time),
whether that guess may be the secret there, and its first edge; an edge stores only its feedback.
Every field is as wide as its largest value. A game of listed words keeps the book's own guesses as
a table of strings instead (a node holds its word's number there). The answer call follows the
game's rule: bulls and cows, bulls alone (black pegs), tiles as text (``"GY..Y"``), or Jotto's
count of shared letters. The C text is in ``c/book.h.in``, with the parts that differ by game in
``c/*.h.in`` beside it; a rule's answer call is ``c/answer_RULE.h.in``, whose first line is how
the header's comment shows the call, so a rule is one fragment here and nothing else.
"""

from __future__ import annotations

import math
import re
from collections import deque
from importlib import resources
from string import Template

from treegen.book.format import answer_key
from treegen.data import BookData, GameData, Node
from treegen.errors import CHeaderError
from treegen.player import brief, rule_of
from treegen.rules.game import Game
from treegen.views.encode import c_comment

#: Identifiers of the header start with this unless another prefix is given.
PREFIX = "tg"
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,30}")
_BYTES_PER_LINE = 16


def header_text(book: BookData, prefix: str = PREFIX) -> str:
    """The header's text: the same book and prefix always give the same bytes."""
    from treegen.version import __version__
    if not isinstance(prefix, str) or not _IDENTIFIER.fullmatch(prefix):
        raise CHeaderError(f"prefix {brief(prefix)} is not a C identifier of letters, digits and _ "
                           "(starting with a letter, at most 31)")
    game, symbols = book["game"], book["game"]["symbols"]
    length, repetition, rule = game["length"], game["repetition"], rule_of(game).name
    nodes, parents, answers = _breadth_first(book["tree"])
    words = list(dict.fromkeys(node["guess"] for node in nodes)) if "answers" in game else []
    if words:  # a listed game's guesses by their number in the header's own word table
        number = {word: i for i, word in enumerate(words)}
        ranks = [number[node["guess"]] for node in nodes]
    else:
        ranks = [_rank(node["guess"], symbols, repetition) for node in nodes]
    possible = _possible(game, nodes, parents, answers)
    keys = {key: i for i, key in enumerate(Game.from_dict(game).feedback_texts)}
    first: list[int] = []
    edges: list[int] = []
    for node in nodes:
        first.append(len(edges))
        edges.extend(keys[key] for key in node["next"])
    widths = [_width(max(ranks)), 1, _width(max(first))]
    feedback_bits = _width(max(edges, default=0))
    record = sum(widths)
    fields = [(value, width) for rank, flag, start in zip(ranks, possible, first)
              for value, width in zip((rank, flag, start), widths)]
    fields += [(number, feedback_bits) for number in edges]
    table = _pack(fields)
    if len(table) * 8 >= 2 ** 32:
        raise CHeaderError(f"the book is too large for a C header: {len(nodes)} nodes")
    depth = _depth(book["tree"])
    stats, strategy = book["stats"], book["strategy"]
    about = [f"game {game['name']}: symbols {symbols}, length {length}, "
             f"{'repeats allowed' if repetition else 'no repeats'}",
             f"strategy {strategy['name']} (pool {strategy['pool']}, first guess {strategy['first']})",
             f"{stats['secrets']} secrets, total {stats['total']} guesses, average {stats['average']}, "
             f"at most {stats['max']}",
             f"{len(nodes)} nodes; table {len(table)} bytes; exported by treegen {__version__}"]
    texts = [symbol.encode("utf-8") for symbol in symbols]
    values: dict[str, object] = {
        "p": prefix.lower(), "P": prefix.upper(),
        "about": "".join(f" * {c_comment(line)}\n" for line in about),
        "length": length, "symbols": len(symbols), "max_guesses": depth, "nodes": len(nodes),
        "table_bytes": len(table), "text_size": length * max(map(len, texts)) + 1,
        "symbol_text": ", ".join(_c_string(text) for text in texts),
        "blocks": ", ".join(f"{block}u" for block in _blocks(len(symbols), length, repetition)),
        "table": _c_bytes(table), "record_bits": record, "guess_bits": widths[0],
        "first_at": widths[0] + 1, "first_bits": widths[2], "edges_at": record * len(nodes),
        "feedback_bits": feedback_bits, "distinct": 0 if repetition else 1,
        "words": len(words), "word_text": ", ".join(_c_string(w.encode("utf-8")) for w in words),
    }
    kind = "word" if words else "rank"
    usage, api = answer_fragment(rule)
    parts = {"code_tables": _fragment(f"{kind}_tables"), "guess_body": _fragment(f"{kind}_guess"),
             "answer_api": api, "answer_usage": usage}
    source = Template(_fragment("book")).safe_substitute(parts)
    return Template(source).substitute(values)


def answer_fragment(rule: str) -> tuple[str, str]:
    """A rule's answer call: the line the header's comment shows it by, and its C text."""
    try:
        text = _fragment(f"answer_{rule}")
    except FileNotFoundError:
        raise CHeaderError(f"a C header cannot answer by rule {brief(rule)} yet: treegen has no "
                           "C answer call for it") from None
    usage, _, api = text.partition("\n")
    return usage, api


def _fragment(name: str) -> str:
    """A piece of the header's C text (``c/NAME.h.in``): the parts that differ by game and rule."""
    return resources.files("treegen.views").joinpath(f"c/{name}.h.in").read_text(encoding="utf-8")


def _breadth_first(tree: Node) -> tuple[list[Node], list[int], list[str]]:
    """The nodes in breadth-first order, each node's parent index (-1 at the root) and the answer
    that leads to it."""
    nodes, parents, answers = [tree], [-1], [""]
    queue = deque([0])
    while queue:
        at = queue.popleft()
        for key, child in nodes[at]["next"].items():
            queue.append(len(nodes))
            nodes.append(child)
            parents.append(at)
            answers.append(key)
    return nodes, parents, answers


def _possible(game: GameData, nodes: list[Node], parents: list[int], answers: list[str]
              ) -> list[int]:
    """1 where the node's guess is a secret that gives every answer on the way to it."""
    secrets = frozenset(game["answers"]) if "answers" in game else None
    flags = []
    for at, node in enumerate(nodes):
        guess, up = node["guess"], at
        fits = secrets is None or guess in secrets
        while fits and parents[up] >= 0:
            fits = answer_key(game, nodes[parents[up]]["guess"], guess) == answers[up]
            up = parents[up]
        flags.append(int(fits))
    return flags


def _depth(tree: Node) -> int:
    """Guesses on the longest path."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node["next"].values())
    return deepest


def _blocks(symbols: int, length: int, repetition: bool) -> list[int]:
    """How many codes share each choice at each position: the radices of a code's rank."""
    if repetition:
        return [symbols ** (length - 1 - i) for i in range(length)]
    return [math.perm(symbols - 1 - i, length - 1 - i) for i in range(length)]


def _rank(code: str, symbols: str, repetition: bool) -> int:
    """The code's place among the game's codes in dictionary order of symbol indices."""
    blocks = _blocks(len(symbols), len(code), repetition)
    left = list(symbols)
    rank = 0
    for block, symbol in zip(blocks, code):
        rank += left.index(symbol) * block
        if not repetition:
            left.remove(symbol)
    return rank


def _width(value: int) -> int:
    """Bits for values up to ``value``; at least one, so no field is empty."""
    bits = max(1, value.bit_length())
    if bits > 32:
        raise CHeaderError(f"the book is too large for a C header: a field needs {bits} bits")
    return bits


def _pack(fields: list[tuple[int, int]]) -> bytes:
    """The fields in a row of bits, least significant first."""
    out = bytearray()
    pending = bits = 0
    for value, width in fields:
        pending |= value << bits
        bits += width
        while bits >= 8:
            out.append(pending & 0xFF)
            pending >>= 8
            bits -= 8
    if bits or not out:
        out.append(pending)
    return bytes(out)


def _c_bytes(table: bytes) -> str:
    rows = (table[i:i + _BYTES_PER_LINE] for i in range(0, len(table), _BYTES_PER_LINE))
    return ",\n".join("    " + ", ".join(f"0x{byte:02x}" for byte in row) for row in rows)


def _c_string(text: bytes) -> str:
    """A C string literal of ``text``: letters and digits as they are, every other byte in octal,
    so no quote, backslash, trigraph or character set can change it."""
    return '"' + "".join(chr(c) if chr(c).isascii() and chr(c).isalnum() else f"\\{c:03o}"
                         for c in text) + '"'

