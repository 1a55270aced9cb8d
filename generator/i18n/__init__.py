"""Translations: extract messages, keep catalogs up to date, check them, and look them up."""
