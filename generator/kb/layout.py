"""Where the knowledge base lives in a checkout: the folder and file names of rules, systems, glossary and concepts."""

from __future__ import annotations

from .texts import term_key

RULES_DIR = "rules"
SYSTEM_FILE = "_system.yaml"  # one per system folder: its id, language, name and book
CONCEPTS_DIR = "concepts"  # rules/concepts/: comparison pages, not a system
GLOSSARY_FILE = "glossary.yaml"  # rules/glossary.yaml
ALL_TERMS = term_key("*")  # the origin key marking the whole glossary unloaded
