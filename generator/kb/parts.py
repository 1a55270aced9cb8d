"""Parts of the knowledge base: the rules under a path, the rules a rule names, the rules that may name it.

Used by partial loading (`check FILE`, `check rules/wap/`) and by `make serve`'s reload of one rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Collection, Optional

from .layout import CONCEPTS_DIR, RULES_DIR, SYSTEM_FILE
from .markup import references
from .model import KnowledgeBase
from .texts import reference_texts


def referenced(kb: KnowledgeBase, keys: Collection[str]) -> set[str]:
    """Rule keys ("system/rule") and "concept:id" keys that the given rules point at."""
    found = set()
    for key in keys:
        rule = kb.rules.get(key)
        if rule is None:
            continue
        targets = list(rule.see_also)
        for _path, text in reference_texts(rule):
            targets.extend(reference.target for reference in references(text))
        for target in targets:
            head = target.split("#")[0]
            found.add(head)
    return found


def referring(kb: KnowledgeBase, keys: Collection[str]) -> set[str]:
    """The rules that may refer to one of `keys` (their see_also or a text names it; a cheap superset)."""
    found = set()
    for key, rule in kb.rules.items():
        # One search per key in all of a rule's texts at once: a key holds no line break, so no match spans two.
        texts = "\n".join([text for _path, text in reference_texts(rule) if text] + list(rule.see_also))
        if any(wanted in texts for wanted in keys):
            found.add(key)
    return found


def rules_under(root: Path, path: Path) -> Optional[set[str]]:
    """The rule keys whose files lie under `path` (a folder or file in rules/); None if `path` is not in rules/."""
    root = Path(root).resolve()
    rules_dir = root / RULES_DIR
    target = Path(path).absolute()
    try:
        inside = target.relative_to(rules_dir)
    except ValueError:
        try:
            inside = target.resolve().relative_to(rules_dir)
        except ValueError:
            return None
    parts = inside.parts
    if parts and parts[0] == CONCEPTS_DIR:
        return set()
    keys = set()
    for system in sorted(p for p in rules_dir.iterdir() if p.is_dir() and p.name != CONCEPTS_DIR):
        if parts and parts[0] != system.name:
            continue
        for rule_file in system.glob("*.yaml"):
            if rule_file.name == SYSTEM_FILE:
                continue
            if len(parts) < 2 or rule_file.name == parts[1] or rule_file.stem == parts[1]:
                keys.add(f"{system.name}/{rule_file.stem}")
    return keys
