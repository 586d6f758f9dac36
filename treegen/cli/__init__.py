"""The ``treegen`` command: parses arguments and calls the library, nothing more."""
