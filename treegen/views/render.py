"""Drawing a book into a file: DOT text (:mod:`treegen.views.dot`) laid out by Graphviz
(:mod:`treegen.views.graphviz`) in the format the file name asks for, written atomically."""

from __future__ import annotations

import os
from collections.abc import Sequence

from treegen.data import BookData
from treegen.errors import RenderError
from treegen.files.atomic import format_from_suffix, refuse_sources, write_atomic
from treegen.views.dot import DEFAULT_DEPTH, dot_source
from treegen.views.graphviz import FORMATS, run_dot

__all__ = ["SUFFIXES", "output_format", "render"]

SUFFIXES = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}


def output_format(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The format asked for, else the one the file suffix names, else SVG."""
    return format_from_suffix(path, fmt, SUFFIXES, FORMATS, default="svg", what="format",
                              hint="use .svg, .png, .pdf or .dot, or --format", error=RenderError)


def render(book: BookData, path: str | os.PathLike[str], fmt: str | None = None,
           depth: int | None = DEFAULT_DEPTH, start: Sequence[str] = (),
           pegs: bool | None = None, sources: Sequence[str | os.PathLike[str]] = ()) -> str:
    """Draw a book into a file; returns the format written. ``sources``, the files read, are
    never written over."""
    fmt = output_format(path, fmt)
    refuse_sources(path, sources)
    write_atomic(path, run_dot(dot_source(book, depth, start, pegs=pegs), fmt), sources=sources)
    return fmt
