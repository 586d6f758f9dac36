"""docs/cli.md is generated from the commands' --help: it must be what the generator makes now."""

from __future__ import annotations

from pathlib import Path

from treegen.cli import reference

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def test_the_cli_reference_is_current():
    assert DOCS.read_text(encoding="utf-8") == reference.markdown(), (
        "docs/cli.md is stale: run python -m treegen.cli.reference docs/cli.md")


def test_the_cli_reference_documents_every_command():
    text = DOCS.read_text(encoding="utf-8")
    for command in ("build", "verify", "stats", "classes", "graft", "play", "challenge", "partitions",
                    "render", "site", "export", "books rebuild", "books index"):
        assert f"## treegen {command}\n" in text
        assert f"Usage: treegen {command} " in text


def test_the_generator_writes_the_file(tmp_path):
    target = tmp_path / "cli.md"
    reference.main([str(target)])
    assert target.read_text(encoding="utf-8") == reference.markdown()
