"""Links between pages: who refers to whom (back-links), and where a reference points with its words."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .. import markup, urls
from ..i18n.translate import Translations
from ..model import KnowledgeBase


@dataclass
class Links:
    """Who refers to whom: back-links between rules and the rules that use each term."""

    rule_backlinks: dict = field(default_factory=lambda: defaultdict(set))
    term_users: dict = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def of(cls, kb: KnowledgeBase) -> "Links":
        from ..validate import text_fields

        links = cls()
        for rule in kb.rules.values():
            targets = [markup.Reference("", target, None) for target in rule.see_also]
            for _path, text in text_fields(rule):
                targets.extend(markup.references(text))
            for reference in targets:
                if reference.kind in ("rule", "clause") and reference.rule_key != rule.key:
                    links.rule_backlinks[reference.rule_key].add(rule.key)
                elif reference.kind == "term":
                    links.term_users[reference.item_id].add(rule.key)
        return links


class LinkResolver:
    """Where a reference points (within the language) and the words and preview it is shown with.

    Names of other pages are looked up quietly: they do not change the translation state of the
    page that links to them.
    """

    def __init__(self, kb: KnowledgeBase, tr: Translations):
        self.kb, self.tr = kb, tr

    def quiet_plain(self, context: str, source: str, source_lang: str) -> str:
        return markup.strip_markup(self.tr.text(context, source, source_lang).value)

    def field_of(self, reference: markup.Reference, term_field: str, other_field: str) -> str:
        """One text of the page a reference points to, in this language."""
        if reference.kind == "term":
            term = self.kb.terms[reference.item_id]
            return self.quiet_plain(f"term:{term.id}:{term_field}", getattr(term, term_field), self.kb.term_lang(term))
        if reference.kind == "concept":
            concept = self.kb.concepts[reference.item_id]
            return self.quiet_plain(f"concept:{concept.id}:{other_field}", getattr(concept, other_field), concept.lang)
        rule = self.kb.rules[reference.rule_key]
        return self.quiet_plain(f"{rule.key}:{other_field}", getattr(rule, other_field), rule.lang)

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
