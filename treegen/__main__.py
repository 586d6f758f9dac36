"""``python -m treegen`` runs the command line."""

from .cli import main

main(prog_name="treegen")
