"""Drawing a book into a file: DOT text (:mod:`treegen.views.dot`) laid out by Graphviz
(:mod:`treegen.views.graphviz`) in the format the file name asks for, written atomically."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal

from treegen.data import BookData
from treegen.errors import RenderError
from treegen.files.atomic import format_from_suffix, refuse_sources, write_atomic
from treegen.views.dot import dot_source, fitting_depth
from treegen.views.graphviz import FORMATS, run_dot
from treegen.views.tree import Size

__all__ = ["DPI_RANGE", "SUFFIXES", "output_format", "picture_depth", "render"]

SUFFIXES = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}


def output_format(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The format asked for, else the one the file suffix names, else SVG."""
    return format_from_suffix(path, fmt, SUFFIXES, FORMATS, default="svg", what="format",
                              hint="use .svg, .png, .pdf or .dot, or --format", error=RenderError)


#: Resolution limits of ``--dpi``: Graphviz's default is 96; beyond 1200 a picture of a few
#: hundred nodes takes gigabytes.
DPI_RANGE = (10, 1200)


def render(book: BookData, path: str | os.PathLike[str], fmt: str | None = None,
           depth: int | Literal["auto"] | None = "auto", start: Sequence[str] = (),
           pegs: bool | None = None, sources: Sequence[str | os.PathLike[str]] = (),
           dpi: int | None = None, sizes: dict[int, Size] | None = None) -> str:
    """Draw a book into a file; returns the format written. ``depth`` "auto" draws up to
    :data:`~treegen.views.dot.DEFAULT_DEPTH` levels, fewer where a level would be too wide to read
    (:func:`~treegen.views.dot.fitting_depth`); None draws everything. ``dpi`` sets a PNG's
    resolution. ``sources``, the files read, are never written over. ``sizes``: the nodes'
    sizes where they are known (a book's top read by :func:`treegen.views.top.top_of`)."""
    fmt = output_format(path, fmt)
    if dpi is not None and (isinstance(dpi, bool) or not isinstance(dpi, int)
                            or not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]):
        raise RenderError(f"dpi must be a whole number from {DPI_RANGE[0]} to {DPI_RANGE[1]}, "
                          f"not {dpi!r}")
    refuse_sources(path, sources)
    levels = picture_depth(book, depth, start, sizes)
    source = dot_source(book, levels, start, pegs=pegs, sizes=sizes)
    if dpi is not None and fmt == "png":
        source = source.replace("digraph book {\n", f"digraph book {{\n  graph [dpi={dpi}];\n", 1)
    write_atomic(path, run_dot(source, fmt), sources=sources)
    return fmt


def picture_depth(book: BookData, depth: int | Literal["auto"] | None,
                  start: Sequence[str] = (), sizes: dict[int, Size] | None = None) -> int | None:
    """The levels a picture draws: ``depth`` itself, or for "auto" the most that read well."""
    if depth == "auto":
        return fitting_depth(book, start, sizes=sizes)
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
        raise RenderError(f"depth must be a number of levels, 'auto' or None, not {depth!r}")
    return depth
