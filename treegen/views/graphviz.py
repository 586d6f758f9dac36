"""Running Graphviz: DOT text to SVG, PNG or PDF through its ``dot`` program, and its version.

Kept apart from the DOT text (:mod:`treegen.views.dot`), which needs no Graphviz at all.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence

from treegen.errors import RenderError, unknown

__all__ = ["FORMATS", "INSTALL_HINT", "graphviz_version", "run_dot", "svg_pages"]

FORMATS = ("svg", "png", "pdf", "dot")
INSTALL_HINT = ("Graphviz's dot program is not installed: install Graphviz (apt install graphviz, "
                "brew install graphviz, or https://graphviz.org/download/); --format dot works "
                "without it")


def run_dot(source: str, fmt: str) -> bytes:
    """Lay out DOT text with Graphviz's ``dot`` (through the ``graphviz`` package)."""
    if fmt == "dot":
        return source.encode("utf-8")
    if fmt not in FORMATS:
        raise RenderError(unknown("format", fmt, FORMATS))
    import graphviz
    try:
        data: bytes = graphviz.pipe("dot", fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        raise RenderError(INSTALL_HINT) from None
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        raise RenderError(f"Graphviz failed: {detail[0] if detail else exc}") from None
    if fmt == "pdf":
        # Cairo stamps the time into PDFs; a fixed date of the same length keeps the xref offsets.
        data = re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:19700101000000", data)
    return data


def svg_pages(sources: Sequence[str]) -> list[str]:
    """SVG of many graphs from one ``dot`` run: starting the program once per page costs more."""
    if not sources:
        return []
    text = run_dot("".join(sources), "svg").decode("utf-8")
    pages = ["<?xml" + part for part in text.split("<?xml")[1:]]
    if len(pages) != len(sources):
        raise RenderError(f"Graphviz returned {len(pages)} pictures for {len(sources)} graphs")
    return pages


def graphviz_version() -> str:
    """The installed Graphviz version (``dot -V``), which the layout of a picture depends on."""
    if shutil.which("dot") is None:
        raise RenderError(INSTALL_HINT)
    result = subprocess.run(["dot", "-V"], capture_output=True, text=True, check=False)
    match = re.search(r"version (\S+)", result.stderr + result.stdout)
    return match.group(1) if match else "unknown"
