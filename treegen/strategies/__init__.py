"""Strategies: given what is still possible, which code to guess next."""
