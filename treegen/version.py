"""treegen's version, at the bottom of the layers: books, records, checkpoints and certificates
name the treegen that wrote them, and the search must not reach up to the package's front for it."""

__version__ = "0.1.0"
