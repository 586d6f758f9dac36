"""A site's book in parts: a large tree as small scripts the page loads when play reaches them.

A browser that loads a book of a million secrets as one script spends seconds and hundreds of
megabytes before the first guess. Instead the tree is cut into parts of at most ``budget`` nodes
(and the stubs of the parts below them):
``book-data.js`` holds the top part, and a subtree cut off is a *stub*, ``{"guess", "secrets",
"part": [file, index]}``, whose branches are subtree ``index`` of ``parts/<file>.js``, a script
that calls ``treegen.part(file, subtrees)``. Small subtrees cut off one after another share a
file, so files stay near ``budget`` nodes and few. The player (``player.js``) loads a part when the
game enters it and checks it against its stub.

Cutting keeps a node's largest branches apart first (bottom up, each node's uncut weight is then at
most ``budget``), and never cuts a leaf: a node with more leaves than ``budget`` stays whole. A
book of at most ``budget`` nodes is one part, the whole tree, as before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from treegen.data import Node
from treegen.views.tree import Size

__all__ = ["PART_NODES", "Parts", "split_tree"]

#: Nodes in one part at most (a part is then a few hundred kilobytes of script).
PART_NODES = 20_000


class Parts:
    """The tree cut into parts: the top part and the files of the others, as JSON-ready values."""

    def __init__(self, top: dict[str, Any], files: list[list[dict[str, Any]]]) -> None:
        self.top, self.files = top, files

    def scripts(self) -> Iterator[tuple[str, str]]:
        """``(file name, script)`` of each part file: it hands its subtrees to the page."""
        for number, subtrees in enumerate(self.files):
            text = json.dumps(subtrees, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
            yield f"{number}.js", f"treegen.part({number}, {text});\n"


def split_tree(tree: Node, sizes: dict[int, Size], budget: int = PART_NODES) -> Parts:
    """The tree in parts of at most ``budget`` nodes (a node's leaves aside); ``sizes`` as
    :func:`treegen.views.tree.measure` gives them, for the secrets each stub stands for."""
    if budget < 1:
        raise ValueError(f"a part needs room for a node, not {budget}")
    order: list[Node] = []  # depth first, the book's branch order
    stack = [tree]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(list(node["next"].values())))
    weight: dict[int, int] = {}
    cut: dict[int, Node] = {}
    for node in reversed(order):
        children = list(node["next"].values())
        total = 1 + sum(weight[id(child)] for child in children)
        if total > budget:
            inner = [child for child in children if child["next"]]
            for child in sorted(inner, key=lambda c: -weight[id(c)]):  # stable: book order on ties
                if total <= budget:
                    break
                cut[id(child)] = child
                total -= weight[id(child)]
        weight[id(node)] = total
    roots = [node for node in order if id(node) in cut]  # depth first: a parent's part comes first
    where: dict[int, tuple[int, int]] = {}
    files: list[list[dict[str, Any]]] = []
    filled = budget
    for root in roots:
        if filled + weight[id(root)] > budget:
            files.append([])
            filled = 0
        where[id(root)] = (len(files) - 1, len(files[-1]))
        files[-1].append({})  # filled below, once every part has its place
        filled += weight[id(root)]
    for root in roots:
        number, index = where[id(root)]
        files[number][index] = _part(root, cut, where, sizes)
    return Parts(_part(tree, cut, where, sizes), files)


def _part(top: Node, cut: dict[int, Node], where: dict[int, tuple[int, int]],
          sizes: dict[int, Size]) -> dict[str, Any]:
    """The part from ``top``: its nodes, and a stub in place of each subtree cut off below."""
    part: dict[str, Any] = {"guess": top["guess"], "next": {}}
    stack: list[tuple[Node, dict[str, Any]]] = [(top, part)]
    while stack:
        node, copy = stack.pop()
        for answer, child in node["next"].items():
            if id(child) in cut:
                copy["next"][answer] = {"guess": child["guess"], "secrets": sizes[id(child)].secrets,
                                        "part": list(where[id(child)])}
            else:
                copy["next"][answer] = inner = {"guess": child["guess"], "next": {}}
                stack.append((child, inner))
    return part
