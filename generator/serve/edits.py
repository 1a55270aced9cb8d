"""What an edit of rules' own files touches: which rules, which files to read again, which pages to redo.

Decision (used by generator/serve/live.py): after an edit of rules' own files (their YAML or
per-rule catalogs) only those files are read again (`reprepare`); the rest of the knowledge base and
of the catalogs stays in memory, and what may depend on the edited rules is validated again (the
rules and translations that name them, the glossary and concepts). The pages that may show the
edit are the edited rules' own, the rule pages linked to or from them (`linked_rules`), and the
listing pages that show what changed of them (`listings_to_check`).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ..core.problems import InputError
from ..i18n.translate import chain
from ..kb.load import reload
from ..kb.texts import Texts
from ..render.links import Links
from ..site.build import Prepared, prepare


def edited_rules(changed: set[str]) -> set[str] | None:
    """The keys of the rules whose own files (YAML, per-rule catalogs) are all that changed; None otherwise."""
    keys = set()
    for path in changed:
        parts = PurePosixPath(path).parts
        if len(parts) == 3 and parts[0] == "rules" and parts[2].endswith(".yaml"):
            keys.add(f"{parts[1]}/{parts[2].removesuffix('.yaml')}")
        elif len(parts) == 5 and parts[0] == "translations" and parts[2] == "rules" and parts[4].endswith(".po"):
            keys.add(f"{parts[3]}/{parts[4].removesuffix('.po')}")
        else:
            return None
    return keys


def _rule_catalogs(changed: set[str]) -> dict[str, set[str]]:
    """Language -> the per-rule catalogs (names like "rules/wap/dodge") among the changed paths."""
    found: dict[str, set[str]] = {}
    for path in changed:
        parts = PurePosixPath(path).parts
        if parts[0] == "translations":
            found.setdefault(parts[1], set()).add(str(PurePosixPath(*parts[2:]).with_suffix("")))
    return found


def reprepare(previous: Prepared, changed: set[str]) -> Prepared:
    """`previous` with only the changed files read again, when they are existing rules' own files; else `prepare`.

    Raises InputError with every problem, like `prepare`.
    """
    keys = edited_rules(changed)
    catalogs = _rule_catalogs(changed)
    if (keys is None or not keys <= set(previous.kb.rules) or not set(catalogs) <= set(previous.translations)
            or not all((previous.root / path).is_file() for path in changed)):
        return prepare(previous.root)
    kb, problems = reload(previous.kb, keys)
    checked = kb if not problems else None  # as in `prepare`: references are checked against a clean load
    translations = {}
    for lang, old in previous.translations.items():
        fresh = translations[lang] = old.copy()
        for name in sorted(catalogs.get(lang, ())):
            fresh.read(name, problems, checked, {})
        if checked is not None:
            fresh.recheck(kb, keys, problems, skip=catalogs.get(lang, ()))
    if problems:
        raise InputError(problems)
    chain(translations, previous.languages)  # the copies lend their translations to each other, not the old ones
    return Prepared(previous.root, kb, previous.languages, translations, previous.config)


def linked_rules(links: Links, keys: set[str]) -> set[str]:
    """`keys` and every rule that links to one of them or that one of them links to (its back-links list)."""
    found = set(keys)
    for key, sources in links.rule_backlinks.items():
        if key in keys:
            found |= sources
        if sources & keys:
            found.add(key)
    return found


def _listed(kb, tr, links: Links, key: str) -> tuple:
    """What pages other than its own show of rule `key` in one language: (title and summary, its
    clarifications, the glossary terms it uses). Other rule pages show no more than the first."""
    rule, texts = kb.rules[key], Texts(kb)

    def text(*field):
        source = texts.get(rule, *field)
        return tr.text(source.context, source.source, source.lang)

    clarifications = [(c.id, c.status, tuple(c.clauses), text("clarification", c.id, "question"),
                       text("clarification", c.id, "answer")) for c in rule.clarifications]
    return (text("title"), text("summary"), rule.lang, rule.system), clarifications, links.terms_of(key)


SHOWN_BY = (None, "clarifications.md", "glossary.md")  # per part of `_listed`: the listing page it shows on (None: any)


def listings_to_check(before: Prepared, after: Prepared, links: tuple[Links, Links], keys: set[str], lang: str,
                      listings: set[str]) -> set[str]:
    """The listing pages (all pages but rule pages) of `lang` that may show what changed in the rules `keys`.

    The translation status page is always among them when there is one: any edit may change its counts.
    """
    found = {"status.md"} & listings
    for key in keys:
        old = _listed(before.kb, before.translations[lang], links[0], key)
        new = _listed(after.kb, after.translations[lang], links[1], key)
        for part, page in enumerate(SHOWN_BY):
            if old[part] != new[part]:
                if page is None:
                    return set(listings)
                found.add(page)
    return found
