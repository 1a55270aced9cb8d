"""Catalog files: reading and writing .po strictly, plural forms, merging with sources; knows nothing of rules."""
