"""treegen: compile code-breaking strategies into complete decision trees ("strategy books")."""

__version__ = "0.1.0"
