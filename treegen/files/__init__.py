"""Files treegen writes and reads back: atomic writes that never replace what they should not
(atomic.py), a folder swapped in one step (folders.py), and the key that signs its own files
(signing.py)."""
