"""The site's URL scheme, in one place: where each page lives, and links between pages.

Every language is a folder (`/en/`, `/ru/`) holding the same pages at the same paths, so a page's
address within its language is the same everywhere and a link to another language only swaps the
first folder. Pages use MkDocs' directory URLs (`t9a/scout.md` is served at `t9a/scout/`); links
inside the site are relative, so the site works under any prefix. Anchors are the ids the rule
pages give clauses (`#placement`), examples (`#example-<id>`), clarifications
(`#clarification-<id>`), predicates (`#predicate-<name>`) and ask panels (`#ask-<name>?<scenario>`).
Rule keys, clause ids and argument code names are the stable parts: they never change once published.
"""

from __future__ import annotations

import posixpath


def page_url(path: str) -> str:
    """The address MkDocs gives a page file (directory URLs): t9a/scout.md -> t9a/scout/."""
    if path.endswith("index.md"):
        return path[: -len("index.md")]
    return path[: -len(".md")] + "/" if path.endswith(".md") else path


def relative_url(from_url: str, to_url: str) -> str:
    """A link from one page address to another, relative so the site works under any prefix."""
    target, _, anchor = to_url.partition("#")
    base = posixpath.dirname(from_url.rstrip("/") + "/x") if from_url else ""
    rel = posixpath.relpath(target or ".", base or ".") if target else posixpath.relpath(".", base or ".")
    if target.endswith("/") or not target:
        rel = rel.rstrip("/") + "/"
    return rel + (f"#{anchor}" if anchor else "")


def rule_url(key: str, clause_id: str | None = None) -> str:
    """A rule page within its language (`t9a/scout/`), optionally at one clause."""
    return f"{key}/" + (f"#{clause_id}" if clause_id else "")


def term_url(term_id: str) -> str:
    return f"glossary/#{term_id}"


def concept_url(concept_id: str) -> str:
    return f"concepts/{concept_id}/"


def site_url(lang: str, url: str) -> str:
    """A page's address from the site's root, as the JSON export and the catalogs' comments give it."""
    return f"/{lang}/{url}"


def other_language(from_url: str, lang: str) -> str:
    """A relative link from a page to the same page in another language."""
    return "../" * (from_url.count("/") + 1) + f"{lang}/{from_url}"

