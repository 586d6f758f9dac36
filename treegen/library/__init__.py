"""The book library shipped in ``books/``: its catalogue, rebuild and index."""
