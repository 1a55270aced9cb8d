"""Render every page of one language from the validated knowledge base, in memory."""

from __future__ import annotations

import json
from html import escape as html_escape
import posixpath
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from . import markup
from .i18n.translate import FUZZY, MISSING, Text, Translations
from .model import KnowledgeBase, Rule
from .words import in_words

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATUS_ORDER = ("rules-as-written", "interpretation", "translation-note")


@dataclass
class Page:
    """One generated page: its path under the language's docs folder and its Markdown."""

    path: str
    content: str
    kind: str = "page"


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
    if rel == "./":
        rel = "./"
    return rel + (f"#{anchor}" if anchor else "")


def md_escape(text: str) -> Markup:
    """Text safe inside a Markdown heading or front matter-free line: HTML and Markdown both neutralised."""
    return markup.as_text(text)


def rule_url(key: str) -> str:
    return f"{key}/"


@dataclass
class Links:
    """Who refers to whom: back-links between rules and the rules that use each term."""

    rule_backlinks: dict = field(default_factory=lambda: defaultdict(set))
    term_users: dict = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def of(cls, kb: KnowledgeBase) -> "Links":
        from .validate import text_fields

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


class Renderer:
    """Turns the knowledge base into the Markdown pages of one language."""

    def __init__(self, kb: KnowledgeBase, tr: Translations, languages: list[dict], status=None):
        self.kb = kb
        self.tr = tr
        self.lang = tr.lang
        self.languages = languages
        self.links = Links.of(kb)
        self.status = status
        self.env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True, extensions=["jinja2.ext.i18n"],
                               comment_start_string="{#-#", comment_end_string="#-#}")  # Markdown uses {#id}
        # Jinja marks translated strings safe; ours are data, so they are escaped (for HTML and Markdown:
        # many land in headings) before it sees them.
        self.env.install_gettext_callables(lambda text: markup.pattern_as_text(tr.gettext(text)),
                                           lambda one, many, n: markup.pattern_as_text(tr.ngettext(one, many, n)),
                                           newstyle=True)
        self.env.filters["md"] = md_escape
        self.env.globals.update(lang=self.lang, kb=kb, r=self, zip=zip)
        self._states: set = set()
        self._from = ""

    # ---------------------------------------------------------------- texts
    def text(self, context: str, source: str, source_lang: str) -> Text:
        result = self.tr.text(context, source, source_lang)
        self._states.add(result.state)
        return result

    def plain(self, context: str, source: str, source_lang: str) -> str:
        """Words only (for titles, tooltips, search metadata)."""
        return markup.strip_markup(self.text(context, source, source_lang).value, self._shown)

    def html(self, context: str, source: str, source_lang: str) -> Markup:
        """A text rendered as escaped HTML with links, marked when it is not in the page's language."""
        result = self.text(context, source, source_lang)
        body = markup.render_inline(result.value, self._link)
        if result.state == MISSING:
            return Markup('<span class="kb-untranslated" lang="{}" title="{}">{}</span>').format(
                result.lang, self.tr.gettext("Not translated yet: shown in the original language"), Markup(body))
        return Markup(body)

    def _shown(self, reference: markup.Reference) -> str:
        return self._title_of(reference)

    def _field_of(self, reference: markup.Reference, term_field: str, other_field: str) -> str:
        """One text of the page a reference points to, in this language."""
        if reference.kind == "term":
            term = self.kb.terms[reference.item_id]
            return self._quiet_plain(f"term:{term.id}:{term_field}", getattr(term, term_field), self.kb.term_lang(term))
        if reference.kind == "concept":
            concept = self.kb.concepts[reference.item_id]
            return self._quiet_plain(f"concept:{concept.id}:{other_field}", getattr(concept, other_field), concept.lang)
        rule = self.kb.rules[reference.rule_key]
        return self._quiet_plain(f"{rule.key}:{other_field}", getattr(rule, other_field), rule.lang)

    def _title_of(self, reference: markup.Reference) -> str:
        return self._field_of(reference, "term", "title")

    def _quiet_plain(self, context, source, source_lang) -> str:
        # Names of other pages do not make this page fuzzy.
        return markup.strip_markup(self.tr.text(context, source, source_lang).value)

    def _tip_of(self, reference: markup.Reference) -> str:
        if reference.kind in ("rule", "clause"):
            return f"{self._title_of(reference)} — {self._field_of(reference, 'meaning', 'summary')}"
        return self._field_of(reference, "meaning", "summary")

    def target_url(self, reference: markup.Reference) -> str:
        if reference.kind == "term":
            return f"glossary/#{reference.item_id}"
        if reference.kind == "concept":
            return f"concepts/{reference.item_id}/"
        url = rule_url(reference.rule_key)
        return url + (f"#{reference.clause_id}" if reference.clause_id else "")

    def _link(self, reference: markup.Reference):
        href = relative_url(self._from, self.target_url(reference))
        words = reference.shown or self._title_of(reference)
        return href, words, self._tip_of(reference)

    def ref(self, target: str, shown: str | None = None) -> Markup:
        """A link to a target written as in `see_also`."""
        reference = markup.Reference(f"[[{target}]]", target, shown)
        href, words, tip = self._link(reference)
        return Markup('<a class="kb-ref kb-ref--{}" href="{}" data-kb-tip="{}">{}</a>').format(
            reference.kind, href, tip, words)

    def url(self, to: str) -> str:
        return relative_url(self._from, to)

    def title(self, rule: Rule) -> str:
        return self.plain(f"{rule.key}:title", rule.title, rule.lang)

    def system_name(self, system_id: str) -> str:
        system = self.kb.systems[system_id]
        return self.plain(f"{system_id}:name", system.name, system.lang)

    def reference(self, target: str) -> markup.Reference:
        return markup.Reference(f"[[{target}]]", target, None)

    def kind_label(self, declared) -> str:
        """What kind of value an argument or result is, in the page's language."""
        _ = self.tr.gettext
        labels = {
            "bool": _("yes or no"), "int": _("whole number"), "number": _("number"),
            "inches": _("distance in inches"), "mm": _("millimetres"), "degrees": _("angle in degrees"),
            "dice": _("dice rolled (list of results)"), "point": _("point [x, y] in inches"),
            "points": _("list of points [x, y] in inches"), "size": _("base size [width, depth] in mm"),
            "text": _("text"), "list": _("list"), "bools": _("list of yes/no"),
            "ints": _("list of whole numbers"), "any": _("any value"),
        }
        if declared.type == "choice":
            label = _("one of: %(values)s") % {"values": ", ".join(str(v) for v in declared.values)}
        else:
            label = labels[declared.type]
        return _("%(kind)s, or none") % {"kind": label} if declared.nullable else label

    def words(self, kind, value):
        return in_words(kind, value, self.tr)

    def code(self, source: str) -> Markup:
        return Markup(highlight(source.rstrip("\n"), PythonLexer(), HtmlFormatter(cssclass="highlight")))

    def json_attr(self, value) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    def diagram(self, rule: Rule, example) -> Markup:
        """The SVG figure drawn from a worked example's data, or "" (generator/diagrams.py)."""
        from .diagrams import diagram

        return diagram(self, rule, example)

    # ---------------------------------------------------------------- pages
    def _render(self, template: str, path: str, **context) -> Page:
        self._from = page_url(path)
        self._states = set()
        body = self.env.get_template(template).render(page_path=path, **context)
        meta = dict(context.pop("meta", {}))
        _ = self.tr.gettext
        if FUZZY in self._states or MISSING in self._states:
            meta["kb_banner"] = (_("Parts of this translation may be out of date: the original text has changed "
                                   "since it was translated.") if FUZZY in self._states else
                                 _("Parts of this page are not translated yet and are shown in the original language."))
            source_lang = meta.get("kb_source_lang")
            if source_lang and source_lang != self.lang:
                meta["kb_banner_link"] = "../" * (page_url(path).count("/") + 1) + f"{source_lang}/{page_url(path)}"
                meta["kb_banner_link_text"] = _("Read the original")
        # The theme prints title and description without escaping them: they are escaped here, once.
        for key in ("title", "description"):
            if key in meta:
                meta[key] = html_escape(str(meta[key]), quote=True)
        front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=True, width=1000) if meta else ""
        content = (f"---\n{front}---\n\n" if front else "") + body
        return Page(path, content, template)

    def rule_page(self, rule: Rule) -> Page:
        path = f"{rule.key}.md"
        source_url = f"../../{rule.lang}/{rule.key}/"
        meta = {"title": self._quiet_plain(f"{rule.key}:title", rule.title, rule.lang),
                "description": self._quiet_plain(f"{rule.key}:summary", rule.summary, rule.lang),
                "kb_source_lang": rule.lang}
        backlinks = sorted(self.links.rule_backlinks.get(rule.key, ()))
        clarified = defaultdict(list)
        for clarification in rule.clarifications:
            for clause in clarification.clauses:
                clarified[clause].append(clarification)
        return self._render("rule.md", path, rule=rule, system=self.kb.systems[rule.system], meta=meta,
                            backlinks=backlinks, clarified=clarified, source_url=source_url,
                            statuses=STATUS_ORDER)

    def pages(self) -> list[Page]:
        pages = [self._render("home.md", "index.md", meta={"title": self.tr.gettext("Rules knowledge base")})]
        for system_id in sorted(self.kb.systems):
            pages.append(self._render("system.md", f"{system_id}/index.md", system_id=system_id,
                                      system=self.kb.systems[system_id],
                                      rules=self.kb.rules_of(system_id),
                                      meta={"title": self._quiet_plain(f"{system_id}:name",
                                                                       self.kb.systems[system_id].name,
                                                                       self.kb.systems[system_id].lang)}))
            for rule in self.kb.rules_of(system_id):
                pages.append(self.rule_page(rule))
        pages.append(self._render("glossary.md", "glossary.md", links=self.links,
                                  meta={"title": self.tr.gettext("Glossary")}))
        pages.append(self._render("clarifications.md", "clarifications.md", statuses=STATUS_ORDER,
                                  meta={"title": self.tr.gettext("Clarifications")}))
        pages.append(self._render("a-z.md", "a-z.md", meta={"title": self.tr.gettext("Rules A–Z")}))
        for concept_id in sorted(self.kb.concepts):
            concept = self.kb.concepts[concept_id]
            pages.append(self._render("concept.md", f"concepts/{concept_id}.md", concept=concept,
                                      meta={"title": self._quiet_plain(f"concept:{concept_id}:title",
                                                                       concept.title, concept.lang)}))
        if self.status is not None:
            pages.append(self._render("status.md", "status.md", status=self.status,
                                      meta={"title": self.tr.gettext("Translation status")}))
        return pages

    def alphabetical(self) -> list[tuple[str, str, Rule]]:
        """(sort key, shown title, rule) for every rule, sorted for this language."""
        entries = [(self._quiet_plain(f"{r.key}:title", r.title, r.lang), r) for r in self.kb.rules.values()]
        return sorted(((t.casefold().replace("ё", "е"), t, r) for t, r in entries), key=lambda e: (e[0], e[2].key))

    def nav(self) -> list:
        """The site navigation: sections only, so its size does not grow with the number of rules."""
        _ = lambda text: html_escape(self.tr.gettext(text), quote=True)  # the theme prints nav titles raw
        items = [{_("Home"): "index.md"}]
        items.append({_("Systems"): [{html_escape(self._quiet_plain(f"{s}:name", self.kb.systems[s].name,
                                                                      self.kb.systems[s].lang)): f"{s}/index.md"}
                                     for s in sorted(self.kb.systems)]})
        if self.kb.concepts:
            items.append({_("Concepts"): [{html_escape(self._quiet_plain(f"concept:{c}:title", self.kb.concepts[c].title,
                                                                         self.kb.concepts[c].lang)): f"concepts/{c}.md"}
                                          for c in sorted(self.kb.concepts)]})
        items.append({_("Rules A–Z"): "a-z.md"})
        items.append({_("Glossary"): "glossary.md"})
        items.append({_("Clarifications"): "clarifications.md"})
        if self.status is not None:
            items.append({_("Translation status"): "status.md"})
        return items
