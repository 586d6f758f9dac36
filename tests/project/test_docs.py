"""The documentation hangs together: a short README with a table of contents, every document in
docs/ listed in it, and every relative link (file and heading) leading somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCUMENTS = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def headings(path: Path) -> set[str]:
    """The anchors GitHub gives a file's headings (code blocks apart)."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    found = set()
    for line in text.splitlines():
        if m := re.match(r"#+ (.*)", line):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


def test_the_readme_is_short_and_has_a_table_of_contents():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= 20_000
    assert "## Contents" in text
    contents = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    for anchor in re.findall(r"\]\(#([^)]+)\)", contents):
        assert anchor in headings(README), anchor


def test_every_document_is_listed_in_the_readme():
    text = README.read_text(encoding="utf-8")
    for path in (ROOT / "docs").glob("*.md"):
        assert f"](docs/{path.name})" in text, path.name


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(document):
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        name, _, anchor = target.partition("#")
        path = (document.parent / name).resolve() if name else document
        assert path.exists(), f"{document.name}: {target}"
        if anchor:
            assert anchor in headings(path), f"{document.name}: {target}"


def test_every_promise_names_tests_that_exist():
    """docs/promises.md says which tests check each promise: the files and functions must exist."""
    text = (ROOT / "docs" / "promises.md").read_text(encoding="utf-8")
    tests = ROOT / "tests"
    sources = {p.name: p.read_text(encoding="utf-8") for p in tests.rglob("test_*.py")}
    files = set(re.findall(r"`(test_\w+\.py)`", text))
    assert files and files <= set(sources), files - set(sources)
    for name in set(re.findall(r"`(test_\w+)`", text)):
        assert any(f"def {name}(" in source for source in sources.values()), name


def test_the_architecture_names_every_module():
    """docs/architecture.md is where a newcomer finds a module: every one is named there."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    unnamed = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "treegen").rglob("*.py"))
               if path.name != "__init__.py" and f"`{path.name}`" not in text]
    assert unnamed == []
