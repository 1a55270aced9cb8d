"""The template API of one page: its address, the translation state of its texts, and the helpers
templates call as `r.*` (texts, links, values in words, the ask panels, diagrams, code).

A `PageScope` is made for each page the builder renders and dropped after it, so nothing a page
sets (its address, whether a text fell back to the source language) leaks into the next page.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from ..i18n.translate import MISSING, Text
from ..kb import markup, urls
from ..kb.answers import answer_key
from ..kb.model import STATUSES, Rule
from ..kb.texts import Translatable, declared_parts
from . import diagrams, values
from .ask import AskPanel, ask_groups, compiled_predicates, words_json

# Predicate code is highlighted as Python. One lexer and formatter for every snippet: a new HtmlFormatter builds its
# stylesheet tables each time (a twentieth of a rule page's rendering); neither keeps anything between two snippets.
_PYTHON = PythonLexer()
# A Russian indirect question asks with «ли» after its first word or two («Может ли…», «Считается ли…») or opens
# with a question word («Какие модели…», «В каком порядке…»); a noun phrase («Дополнительный модификатор…») does not.
_ASKS_WITH_LI = re.compile(r"^\W*(?:\w+(?:\s+\w+)?\s+ли\b|(?:\w+\s+)?(?:как\w*|сколько|кто|что|когда|где|куда|"
                           r"чей|чья|чьё|чьи)\b)", re.IGNORECASE)
_HIGHLIGHTED = HtmlFormatter(cssclass="highlight")

class PageScope:
    """What the templates of one page see as `r`."""

    def __init__(self, site, from_url: str):  # site: the pages.Renderer of the page's language
        self.site, self.kb, self.tr = site, site.kb, site.tr
        self.resolver = site.resolver
        self.from_url = from_url
        self.states: set = set()  # translation states of the texts shown on this page

    # ---------------------------------------------------------------- texts
    # A text is named by its owner (rule, system, term, concept) and field: `r.html(rule, "clause", clause.id)`;
    # generator/kb/texts.py owns the message ids, and an unknown field raises texts.UnknownText.
    def t(self, owner, *field) -> Translatable:
        """The source text of `owner`'s `field` (its context, source words and language)."""
        return self.site.texts.get(owner, *field)

    def text(self, owner, *field) -> Text:
        """One text in the page's language, counted towards the page's translation state."""
        source = self.t(owner, *field)
        result = self.tr.text(source.context, source.source, source.lang)
        self.states.add(result.state)
        return result

    def plain(self, owner, *field) -> str:
        """Words only (for titles, tooltips, search metadata)."""
        return markup.strip_markup(self.text(owner, *field).value, self.resolver.title_of)

    def html(self, owner, *field) -> Markup:
        """A text rendered as escaped HTML with links, marked when it is not in the page's language."""
        result = self.text(owner, *field)
        body = markup.render_inline(result.value, lambda reference: self.resolver.link(self.from_url, reference))
        if result.state == MISSING:
            return Markup('<span class="kb-untranslated" lang="{}" title="{}">{}</span>').format(
                result.lang, self.tr.gettext("Not translated yet: shown in the original language"), Markup(body))
        return Markup(body)

    def phrase(self, owner, *field) -> Markup:
        """A text as HTML with its code spans and emphasis but no links: for inside a link or a label."""
        result = self.text(owner, *field)
        body = Markup(markup.render_unlinked(result.value, self.resolver.title_of))
        if result.state == MISSING:
            return Markup('<span class="kb-untranslated" lang="{}">{}</span>').format(result.lang, body)
        return body

    def question_heading(self, rule: Rule, predicate_name: str) -> str:
        """A predicate's summary as a heading: an indirect question («Может ли модель …», "Whether …") loses its
        full stop, and one that asks with «ли» gets its question mark, as a heading of a rulebook would."""
        words = str(self.plain(rule, "predicate", predicate_name)).rstrip()
        if not words.endswith("."):
            return words
        words = words[:-1].rstrip()
        return words + "?" if _ASKS_WITH_LI.search(words) else words

    def status_label(self, status: str) -> str:
        return self.tr.gettext(STATUSES[status])

    def title(self, rule: Rule) -> str:
        return self.plain(rule, "title")

    def system_name(self, system_id: str) -> Markup:
        """A system's name as HTML, its words in another language marked with it (not for attributes)."""
        return self.phrase(self.kb.systems[system_id], "name")

    @staticmethod
    def quoted(words, lang: str) -> Markup:
        """Words that stand as the source writes them (a section heading, an edition), marked with its language."""
        return Markup('<span lang="{}">{}</span>').format(lang, words)

    def code(self, source: str) -> Markup:
        return Markup(highlight(source.rstrip("\n"), _PYTHON, _HIGHLIGHTED))

    # ---------------------------------------------------------------- links
    def url(self, to: str) -> str:
        return urls.relative_url(self.from_url, to)

    def reference(self, target: str) -> markup.Reference:
        return markup.Reference(f"[[{target}]]", target, None)

    def target_url(self, reference: markup.Reference) -> str:
        return self.resolver.target_url(reference)

    def ref(self, target: str, shown: str | None = None) -> Markup:
        """A link to a target written as in `see_also`."""
        reference = markup.Reference(f"[[{target}]]", target, shown)
        href, words, tip = self.resolver.link(self.from_url, reference)
        # What Markup.format would make (every value escaped), at a third of its cost: a page has many links.
        return Markup(f'<a class="kb-ref kb-ref--{escape(reference.kind)}" href="{escape(href)}" '
                      f'data-kb-tip="{escape(tip)}">{escape(words)}</a>')

    def shares_title(self, rule: Rule) -> bool:
        """Whether another rule has this rule's title in the page's language (see `listed`)."""
        return rule.key in self.site.shared_titles

    def listed(self, target: str) -> Markup:
        """A link in a list of links (See also, Referred to by, a term's rules): a rule whose title another rule
        shares is followed by its system's name, as the A–Z list does for every rule."""
        link = self.ref(target)
        key = target.split("#", 1)[0]
        if key not in self.site.shared_titles:
            return link
        return link + Markup(" <small>(") + self.system_name(key.split("/", 1)[0]) + Markup(")</small>")

    def alphabetical(self):
        return self.site.alphabetical()

    def glossary_terms(self) -> list:
        """The glossary's terms in the alphabetical order of their names in this language (ё as е)."""
        return sorted(self.kb.terms.values(),
                      key=lambda term: (str(self.plain(term, "term")).casefold().replace("ё", "е"), term.id))

    # ------------------------------------------------------- declared values
    @staticmethod
    def _declared(rule: Rule, predicate_name: str, argument_name=None):
        predicate = rule.predicate(predicate_name)
        if argument_name is None:
            return predicate.returns
        return next(a for a in predicate.args if a.name == argument_name)

    def choice_labels(self, rule: Rule, predicate_name: str, argument_name=None) -> dict:
        """A choice's value -> label in the page's language (empty for other types)."""
        declared = self._declared(rule, predicate_name, argument_name)
        field = declared_parts(predicate_name, argument_name)
        for name in declared.labels or {}:  # labels count towards the page's translation state
            self.text(rule, *field, "value", name)
        return values.choice_labels(declared, self.t(rule, *field).context, self.tr, rule.lang)

    def kind_label(self, rule: Rule, predicate_name: str, argument_name=None) -> str:
        """What kind of value an argument (or, without a name, the result) is, in the page's language."""
        declared = self._declared(rule, predicate_name, argument_name)
        shown = list(self.choice_labels(rule, predicate_name, argument_name).values())
        return values.kind_label(declared, self.tr, shown)

    def value(self, rule: Rule, predicate_name: str, argument_name, value) -> Markup:
        """One argument's (or, with argument_name None, the result's) value in words, choices by their label."""
        declared = self._declared(rule, predicate_name, argument_name)
        labels = self.choice_labels(rule, predicate_name, argument_name)
        shown = values.in_words(declared.type, value, self.tr, lambda v: labels.get(str(v), str(v)))
        if argument_name is not None:
            return shown
        # A result reads as its declared answer («Можно», «2 дополнительные раны») when the rule gives one.
        field = declared_parts(predicate_name)
        for key in declared.answers or {}:  # answers count towards the page's translation state
            self.text(rule, *field, "answer", answer_key(key))
        return values.answer_words(declared, value, self.tr, self.t(rule, *field).context, rule.lang, shown) or shown

    def meaning(self, rule: Rule, predicate_name: str, argument_name=None) -> Markup:
        return self.phrase(rule, *declared_parts(predicate_name, argument_name))

    def given(self, rule: Rule, example) -> Markup:
        """An example's given values as a short phrase in the page's language: «нет · 17,9 дюйма · Лес».

        Each value carries its argument's meaning as a tooltip and for screen readers (the meanings
        are the panel's field labels too), so the phrase stays one line.
        """
        predicate = rule.predicate(example.predicate)
        parts = [Markup('<span class="kb-given__item" title="{}"><span class="kb-given__meaning">{}: </span>{}</span>').format(
            self.plain(rule, *declared_parts(predicate.name, argument.name)),
            self.meaning(rule, predicate.name, argument.name),
            self.value(rule, predicate.name, argument.name, example.given.get(argument.name)))
            for argument in predicate.args]
        return Markup(" · ").join(parts)

    @staticmethod
    def clause_number(rule: Rule, clause_id: str) -> int:
        return [clause.id for clause in rule.clauses].index(clause_id) + 1

    # ------------------------------------------------------- panels and figures
    @staticmethod
    def ask_groups(rule: Rule) -> list:
        """The rule's predicates in groups asked by one form (those that share arguments; generator/render/ask.py)."""
        return ask_groups(rule)

    def ask(self, rule: Rule, predicates: list) -> Markup:
        """The "Ask this rule" form of a group of predicates (generator/render/ask.py)."""
        panel = AskPanel(rule, predicates, self.tr, self.phrase, self.plain, lambda c: self.clause_number(rule, c))
        return panel.markup()

    def ask_assets(self, rule: Rule) -> Markup:
        """The panel's words, style, script and compiled predicates: only on a page that has predicates."""
        if not rule.predicates:
            return Markup("")
        # The runtime and the compiled predicates run before ask.js (deferred, so after the page is parsed).
        scripts = Markup('<link rel="stylesheet" href="{}"><script src="{}"></script><script src="{}"></script>').format(
            self.url("assets/ask.css"), self.url("assets/javascripts/kb-runtime.js"),
            self.url("assets/javascripts/kb-values.js"))
        return (words_json(self.tr) + scripts + compiled_predicates(rule)
                + Markup('<script src="{}" defer></script>').format(self.url("assets/ask.js")))

    def diagrams(self, rule: Rule, predicate_name: str) -> Markup:
        """The collapsed figures drawn from a predicate's worked examples, or "" (generator/diagrams/)."""
        context = diagrams.Context(self.tr, self.site.probe,
                                   lambda p, a, v: self.choice_labels(rule, p, a).get(str(v), str(v)))

        def name(example):
            return self.html(rule, "example", example.id), self.plain(rule, "example", example.id)

        return diagrams.figures(context, rule, predicate_name, name)
