"""The exact search and everything it needs: compiled kernels, bounds, the cache of solved sets,
checkpoints, the bounded search for games too large to solve outright, and openings solved class
by class. It never knows where its tasks run: it hands them to an executor through the seam of
:mod:`treegen.run.seam`."""
