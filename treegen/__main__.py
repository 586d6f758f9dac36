"""``python -m treegen`` runs the command line."""

from .entry import main

main()
