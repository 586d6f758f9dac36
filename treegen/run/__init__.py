"""Executors: where the search's tasks run. The seam (seam.py) is all the search sees; local
worker processes (local.py) and Ray tasks (ray.py) implement it."""
