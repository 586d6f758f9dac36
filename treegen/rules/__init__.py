"""The rules of a game: its codes and feedback (game.py), every guess scored against every secret
(scoring.py, kept on disk by table_cache.py), and the symmetries that make guesses equivalent
(symmetry.py)."""
