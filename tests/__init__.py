"""The tests, in folders that mirror the package's; what they share is in helpers/."""
