"""Links between pages: who refers to whom (back-links), and where a reference points with its words."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..i18n.translate import MISSING, Translations
from ..kb import markup, urls
from ..kb.model import KnowledgeBase
from ..kb.texts import Texts, reference_texts


@dataclass
class Links:
    """Who refers to whom: back-links between rules and the rules that use each term."""

    rule_backlinks: dict = field(default_factory=lambda: defaultdict(set))
    term_users: dict = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def of(cls, kb: KnowledgeBase, previous: "Links | None" = None, edited: set[str] = frozenset()) -> "Links":
        """The links of `kb`; given the `previous` links of the same rules, only the `edited` rules are read again."""
        links = cls()
        if previous is None:
            for rule in kb.rules.values():
                links._add(rule)
            return links
        for mine, theirs in ((links.rule_backlinks, previous.rule_backlinks), (links.term_users, previous.term_users)):
            for target, sources in theirs.items():
                if sources - edited:
                    mine[target] = sources - edited
        for key in sorted(edited):
            links._add(kb.rules[key])
        return links

    def _add(self, rule) -> None:
        targets = [markup.Reference("", target, None) for target in rule.see_also]
        for _path, text in reference_texts(rule):
            targets.extend(markup.references(text))
        for reference in targets:
            if reference.kind in ("rule", "clause") and reference.rule_key != rule.key:
                self.rule_backlinks[reference.rule_key].add(rule.key)
            elif reference.kind == "term":
                self.term_users[reference.item_id].add(rule.key)

    def terms_of(self, key: str) -> set[str]:
        """The glossary terms rule `key` uses."""
        return {term for term, users in self.term_users.items() if key in users}


class LinkResolver:
    """Where a reference points (within the language) and the words and preview it is shown with.

    Names of other pages are looked up quietly: they do not change the translation state of the
    page that links to them.
    """

    def __init__(self, kb: KnowledgeBase, tr: Translations, texts: Texts | None = None):
        self.kb, self.tr = kb, tr
        self.texts = texts if texts is not None else Texts(kb)
        # (target, fields) -> words: a rule or term is linked from many pages; kb and tr never change under a resolver.
        self._fields: dict[tuple, str] = {}

    def quiet_plain(self, owner, *field) -> str:
        """Words only of one text (`texts.get(owner, *field)`), without counting it towards a page's state."""
        text = self.texts.get(owner, *field)
        return markup.strip_markup(self.tr.text(text.context, text.source, text.lang).value)

    def quiet_phrase(self, owner, *field) -> str:
        """One text as HTML without links, its words in another language marked, not counted towards a page's
        state: for the navigation and the header, which the theme prints raw."""
        text = self.texts.get(owner, *field)
        result = self.tr.text(text.context, text.source, text.lang)
        body = markup.render_unlinked(result.value, self.title_of)
        return f'<span lang="{result.lang}">{body}</span>' if result.state == MISSING else body

    def field_of(self, reference: markup.Reference, term_field: str, other_field: str) -> str:
        """One text of the page a reference points to, in this language."""
        key = (reference.target, term_field, other_field)
        if key not in self._fields:
            self._fields[key] = self._field_of(reference, term_field, other_field)
        return self._fields[key]

    def _field_of(self, reference: markup.Reference, term_field: str, other_field: str) -> str:
        if reference.kind == "term":
            return self.quiet_plain(self.kb.terms[reference.item_id], term_field)
        if reference.kind == "concept":
            return self.quiet_plain(self.kb.concepts[reference.item_id], other_field)
        return self.quiet_plain(self.kb.rules[reference.rule_key], other_field)

    def title_of(self, reference: markup.Reference) -> str:
        return self.field_of(reference, "term", "title")

    def tip_of(self, reference: markup.Reference) -> str:
        if reference.kind in ("rule", "clause"):
            return f"{self.title_of(reference)} — {self.field_of(reference, 'meaning', 'summary')}"
        return self.field_of(reference, "meaning", "summary")

    def target_url(self, reference: markup.Reference) -> str:
        if reference.kind == "term":
            return urls.term_url(reference.item_id)
        if reference.kind == "concept":
            return urls.concept_url(reference.item_id)
        return urls.rule_url(reference.rule_key, reference.clause_id)

    def link(self, from_url: str, reference: markup.Reference) -> tuple[str, str, str]:
        """(relative href, words to show, preview) of a reference on the page at `from_url`."""
        href = urls.relative_url(from_url, self.target_url(reference))
        return href, reference.shown or self.title_of(reference), self.tip_of(reference)
