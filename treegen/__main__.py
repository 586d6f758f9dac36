"""``python -m treegen`` runs the command line."""

from treegen.cli.entry import main

main()
