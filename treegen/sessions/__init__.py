"""Terminal sessions: playing from a book (play.py), treegen as the codemaker (challenge.py), and
the partition table (partitions.py)."""
