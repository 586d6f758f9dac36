"""A rule of feedback and a hard mode are each one entry of a table (``treegen.player.RULES``,
``treegen.player.HARD_MODES``): no other module branches on their names, so a new rule or mode
is an entry, not a hunt through the package. The certificate checker keeps its own copy of each
rule by design (it shares no code with treegen) and is not counted."""

from __future__ import annotations

import ast
from pathlib import Path

from treegen.player import HARD_MODES, RULES
from treegen.rules.game import PRESETS, WORD_PRESETS

PACKAGE = Path(__file__).resolve().parents[2] / "treegen"
#: The tables themselves, and the checker's own copy.
TABLES = {"player.py"}
OWN_COPY = "certificate"
NAMES = set(RULES) | set(HARD_MODES)
#: Names that are also preset games' (``"wordle"``): a branch on those counts only when it is
#: about a rule or a hard mode (``game.rule == "wordle"``, not ``game.name == "wordle"``).
GAME_NAMES = set(PRESETS) | set(WORD_PRESETS)


def offences(source: str) -> list[tuple[int, str]]:
    """Where a module compares a rule's or a hard mode's name, or keys a table of its own by
    them: (line, the code)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            sides += [e for c in sides if isinstance(c, (ast.Tuple, ast.List, ast.Set))
                      for e in c.elts]
            named = [c.value for c in sides if isinstance(c, ast.Constant) and c.value in NAMES]
            text = ast.unparse(node)
            if named and (any(n not in GAME_NAMES for n in named) or "rule" in text or
                          "hard" in text):
                found.append((node.lineno, text))
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if len(keys) >= 2 and keys <= NAMES and keys - GAME_NAMES:
                found.append((node.lineno, ast.unparse(node)[:80]))
    return found


def every_offence() -> dict[str, list[tuple[int, str]]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if str(relative) in TABLES or relative.parts[0] == OWN_COPY:
            continue
        found = offences(path.read_text(encoding="utf-8"))
        if found:
            out[str(relative)] = found
    return out


def test_no_module_branches_on_a_rule_or_a_hard_mode_by_name():
    assert every_offence() == {}


def test_the_check_finds_the_branches_it_forbids():
    """The check itself: each kind of branch it must catch, and what it must let pass."""
    caught = ['if game.rule == "pegs": pass', 'x = rule.name != "black"',
              'y = game.get("hard") == "hints"', 'USAGE = {"pegs": 1, "black": 2, "wordle": 3}',
              'if self.game.hard == "strict": pass', 'z = game.rule == "wordle"',
              'ok = hard not in (False, True, "strict", "hints")']
    for source in caught:
        assert offences(source), source
    passed = ['if game.name == "wordle": pass', 'LIMITS = {"wordle": 6}',
              'BEST = {"mastermind": "parts", "wordle": "parts"}']
    for source in passed:
        assert not offences(source), source
