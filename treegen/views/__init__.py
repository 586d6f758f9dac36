"""What a book looks like: DOT pictures and Graphviz (dot.py, graphviz.py, render.py), the static
site (site.py, web/), graph files and the C header (export.py, c_header.py, c/)."""
