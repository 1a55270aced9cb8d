"""Wargame rules knowledge base: load rule YAML, check predicates, render a bilingual site."""
