"""The page builder: every page of one language, as Markdown with front matter, and the navigation."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property
from html import escape as html_escape
from pathlib import Path

import yaml
from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..i18n.translate import FUZZY, MISSING, Translations
from ..kb import markup, urls
from ..kb.model import STATUSES, KnowledgeBase, Rule
from ..kb.texts import Texts, context
from . import diagrams, rawhtml
from .links import LinkResolver, Links
from .scope import PageScope

TEMPLATES = Path(__file__).resolve().parent / "templates"
# libyaml's writer where PyYAML has it: the same front matter, in a fifth of the time.
FRONT_MATTER_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per process, found again by name and checked against their source.

    Each Renderer has its own Jinja environment (its gettext is the language's); `make serve` makes
    two per edit, and compiling the templates again took longer than rendering the edited page.
    MkDocs makes a new environment for the theme's templates in every build of every language; the
    hooks give it this cache too (a build in the same process compiles nothing again). A template is
    found by its name and file path, so the theme's and ours never meet. Jinja stores the source's checksum
    with the code and compiles again when a template changed.
    """

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()
# A system with more rules than this lists them in the navigation under their titles' first letters: a page
# then carries its own letter's rules and one link per other letter (navigation.prune), not every rule of its
# system, which would make the system's list most of the weight of each of its pages.
NAV_LETTERS_ABOVE = 40
# The most rules one group of a large system's navigation holds: a letter with more (many titles share a first
# letter, or a prefix: «Правило …») is cut into runs of at most this many, in order. Every page of a group renders
# the whole group, so this bounds the navigation's share of a page; and a rule stays two taps from its system's page
# (its group, then itself) however large the system grows.
NAV_GROUP_MOST = 40


@dataclass
class Page:
    """One generated page: its path under the language's docs folder and its Markdown."""

    path: str
    content: str


class Renderer:
    """Turns the knowledge base into the Markdown pages of one language (one PageScope per page)."""

    def __init__(self, kb: KnowledgeBase, tr: Translations, languages: list[dict], status=None,
                 links: Links | None = None):
        self.kb, self.tr, self.lang, self.status = kb, tr, tr.lang, status
        self.links = links if links is not None else Links.of(kb)  # pass one Links to share it across languages
        self.texts = Texts(kb)  # the translatable texts, asked for by owner and field
        self.resolver = LinkResolver(kb, tr, self.texts)
        self.probe = diagrams.Probe()  # predicate limits the diagrams read, kept for this renderer only
        self.env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True,
                               undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, bytecode_cache=COMPILED,
                               keep_trailing_newline=True, extensions=["jinja2.ext.i18n"],
                               comment_start_string="{#-#", comment_end_string="#-#}")  # Markdown uses {#id}
        # Jinja marks translated strings safe; ours are data, so they are escaped (for HTML and Markdown:
        # many land in headings) before it sees them.
        self._escaped: dict[str, Markup] = {}  # a UI message as a pattern safe in HTML and Markdown, made once
        self._messages: dict[str, Markup] = {}  # a UI message without variables, as _gettext returns it
        self.env.install_gettext_callables(self._pattern,
                                           lambda one, many, n: markup.pattern_as_text(tr.ngettext(one, many, n)),
                                           newstyle=True)
        # `_` and `gettext` once more, the same but faster (ngettext stays Jinja's): see _gettext.
        self.env.globals["_"] = self.env.globals["gettext"] = self._gettext
        self.env.filters["md"] = markup.as_text  # text safe in a Markdown heading: HTML and Markdown neutralised
        self.env.globals.update(lang=self.lang, kb=kb, zip=zip)

    def _pattern(self, message: str) -> Markup:
        """A UI message in this language, escaped as a pattern (its %(name)s kept), once per renderer."""
        if message not in self._escaped:
            self._escaped[message] = markup.pattern_as_text(self.tr.gettext(message))
        return self._escaped[message]

    def _gettext(self, message: str, **variables) -> Markup:
        """Jinja's newstyle gettext under autoescape (the escaped words as Markup, always %-formatted, the
        variables escaped), each message escaped once: a rule page asks for the same few dozen ~57 times."""
        if variables:
            return self._pattern(message) % variables
        if message not in self._messages:
            self._messages[message] = self._pattern(message) % {}
        return self._messages[message]

    def _quiet_plain(self, owner, *field) -> str:
        return self.resolver.quiet_plain(owner, *field)

    def _titled(self, owner, field: str) -> dict:
        """A page's title, and as HTML for the header (generator/site/hooks.py) when some of its words are in
        another language and must say so."""
        title, marked = self._quiet_plain(owner, field), self.resolver.quiet_phrase(owner, field)
        return {"title": title, "kb_title_html": marked} if "<span lang=" in marked else {"title": title}

    # ---------------------------------------------------------------- one page
    def _render(self, template: str, path: str, **context) -> Page:
        scope = PageScope(self, urls.page_url(path))
        # Its raw HTML blocks marked, so Markdown stashes them without parsing them (generator/render/rawhtml.py).
        body = rawhtml.mark(self.env.get_template(template).render(page_path=path, r=scope, **context))
        meta = dict(context.pop("meta", {}))
        meta.update(self._banner(scope.states, path, meta.get("kb_source_lang")))
        # The theme prints title and description without escaping them: they are escaped here, once.
        for key in ("title", "description"):
            if key in meta:
                meta[key] = html_escape(str(meta[key]), quote=True)
        front = yaml.dump(meta, Dumper=FRONT_MATTER_DUMPER, allow_unicode=True, sort_keys=True, width=1000) if meta else ""
        return Page(path, (f"---\n{front}---\n\n" if front else "") + body)

    def _banner(self, states: set, path: str, source_lang) -> dict:
        """The front matter of the banner on a page with outdated or missing translations."""
        if FUZZY not in states and MISSING not in states:
            return {}
        _ = self.tr.gettext
        banner = {"kb_banner": _("Parts of this translation may be out of date: the original text has changed "
                                 "since it was translated.") if FUZZY in states else
                  _("Parts of this page are not translated yet and are shown in the original language.")}
        if source_lang and source_lang != self.lang:
            banner["kb_banner_link"] = urls.other_language(urls.page_url(path), source_lang)
            banner["kb_banner_link_text"] = _("Read the original")
        return banner

    def rule_page(self, rule: Rule) -> Page:
        meta = {**self._titled(rule, "title"),
                "description": self._quiet_plain(rule, "summary"),
                "kb_source_lang": rule.lang}
        backlinks = sorted(self.links.rule_backlinks.get(rule.key, ()))
        clarified = defaultdict(list)
        for clarification in rule.clarifications:
            for clause in clarification.clauses:
                clarified[clause].append(clarification)
        return self._render("rule.md", f"{rule.key}.md", rule=rule, system=self.kb.systems[rule.system], meta=meta,
                            backlinks=backlinks, clarified=clarified, statuses=STATUSES)

    # ---------------------------------------------------------------- every page
    def makers(self) -> dict:
        """Page path -> a call that renders that page, in the order of `pages` (`make serve` renders a few)."""
        _ = self.tr.gettext
        kb, makers = self.kb, {}
        makers["index.md"] = lambda: self._render("home.md", "index.md", meta={"title": _("Rules knowledge base")})
        for system_id in sorted(kb.systems):
            system = kb.systems[system_id]
            makers[f"{system_id}/index.md"] = lambda system_id=system_id, system=system: self._render(
                "system.md", f"{system_id}/index.md", system_id=system_id, system=system,
                rules=kb.rules_of(system_id), meta=self._titled(system, "name"))
            for rule in kb.rules_of(system_id):
                makers[f"{rule.key}.md"] = lambda rule=rule: self.rule_page(rule)
        makers["glossary.md"] = lambda: self._render("glossary.md", "glossary.md", links=self.links,
                                                     meta={"title": _("Glossary")})
        makers["clarifications.md"] = lambda: self._render("clarifications.md", "clarifications.md", statuses=STATUSES,
                                                           meta={"title": _("Clarifications")})
        makers["a-z.md"] = lambda: self._render("a-z.md", "a-z.md", meta={"title": _("Rules A–Z")})
        for concept_id in sorted(kb.concepts):
            concept = kb.concepts[concept_id]
            makers[f"concepts/{concept_id}.md"] = lambda concept_id=concept_id, concept=concept: self._render(
                "concept.md", f"concepts/{concept_id}.md", concept=concept,
                meta=self._titled(concept, "title"))
        if self.status is not None:
            makers["status.md"] = lambda: self._render("status.md", "status.md", status=self.status,
                                                       meta={"title": _("Translation status")})
        return makers

    def pages(self) -> list[Page]:
        return [make() for make in self.makers().values()]

    def _title_words(self, rule: Rule) -> str:
        """_quiet_plain(rule, "title") without listing the rule's other texts: the A-Z list and a large system's
        navigation ask it of every rule, and `make serve` asks again after each edit."""
        return markup.strip_markup(self.tr.text(context(rule.key, "title"), rule.title, rule.lang).value)

    @cached_property
    def shared_titles(self) -> frozenset:
        """Keys of the rules whose title in this language another rule has too: a list of links names their system,
        or two «Застрельщики» side by side could not be told apart."""
        titles = {key: self._title_words(rule).casefold().replace("ё", "е") for key, rule in self.kb.rules.items()}
        counts = Counter(titles.values())
        return frozenset(key for key, title in titles.items() if counts[title] > 1)

    def alphabetical(self) -> list[tuple[str, str, Rule]]:
        """(sort key, shown title, rule) for every rule, sorted for this language."""
        entries = [(self._title_words(r), r) for r in self.kb.rules.values()]
        return sorted(((t.casefold().replace("ё", "е"), t, r) for t, r in entries), key=lambda e: (e[0], e[2].key))

    def system_nav(self) -> list:
        """The navigation's systems: each a section holding its index and its rules.

        A rule is listed by its path alone: MkDocs titles it from the page's front matter, so editing a rule's
        title leaves the navigation as it is (`make serve` then rewrites the pages that list the rule,
        generator/serve/live.py). Material's navigation.prune writes only the open section's entries into a
        page; a system of more than NAV_LETTERS_ABOVE rules is split by the first letter of the rules' titles
        in this language, and a letter of more than NAV_GROUP_MOST rules into runs (nav_groups), so a page's
        weight stays bounded however large its system grows.
        """
        systems, entries, ordered = self.kb.systems, [], None
        for system_id in sorted(systems):
            rules = self.kb.rules_of(system_id)
            if len(rules) <= NAV_LETTERS_ABOVE:
                listed = [f"{rule.key}.md" for rule in rules]
            else:
                ordered = ordered or self.alphabetical()
                listed = [{html_escape(label): [f"{rule.key}.md" for rule in rules]}
                          for label, rules in nav_groups([(key, shown, rule) for key, shown, rule in ordered
                                                          if rule.system == system_id])]
            entries.append({self.resolver.quiet_phrase(systems[system_id], "name"):  # the theme prints it raw
                            [f"{system_id}/index.md", *listed]})
        return entries

    def nav(self) -> list:
        """The site navigation: home, the systems with their rules (system_nav), the concepts and the listings."""
        def _(text):  # the theme prints nav titles raw
            return html_escape(self.tr.gettext(text), quote=True)

        def name(owner, field):
            return self.resolver.quiet_phrase(owner, field)

        items = [{_("Home"): "index.md"}, {_("Systems"): self.system_nav()}]
        if self.kb.concepts:
            concepts = self.kb.concepts
            items.append({_("Concepts"): [{name(concepts[c], "title"):
                                           f"concepts/{c}.md"} for c in sorted(concepts)]})
        items += [{_("Rules A–Z"): "a-z.md"}, {_("Glossary"): "glossary.md"}, {_("Clarifications"): "clarifications.md"}]
        if self.status is not None:
            items.append({_("Translation status"): "status.md"})
        return items


def _letter(sort_key: str) -> str:
    return sort_key[:1].upper() if sort_key[:1].isalpha() else "#"


def _told_apart(title: str, neighbour: str) -> str:
    """The shortest start of `title` that differs from the same start of `neighbour` (the whole title if none does)."""
    folded, other = title.casefold(), neighbour.casefold()
    for end in range(1, len(title) + 1):
        if folded[:end] != other[:end]:
            return title[:end]
    return title


def _runs(count: int) -> list[tuple[int, int]]:
    """`count` items cut into the fewest runs of at most NAV_GROUP_MOST, as even as can be: (start, end) each."""
    parts = -(-count // NAV_GROUP_MOST)
    bounds = [count * part // parts for part in range(parts + 1)]
    return list(zip(bounds, bounds[1:]))


def nav_groups(ordered: list[tuple[str, str, Rule]]) -> list[tuple[str, list[Rule]]]:
    """A large system's rules (sorted (sort key, shown title, rule)) as navigation groups: (label, rules) each.

    A letter of at most NAV_GROUP_MOST rules is one group, labelled by the letter. A larger one is cut into even runs
    in alphabetical order, each labelled by the starts of its first and last titles that tell them from the titles
    beside the run ("Dab – Dag", "Do – Dz"); where two runs would read alike (titles repeated across runs), every
    run of the letter also says which of the letter's rules it holds ("Dodge 41–80").
    """
    letters: dict[str, list[tuple[str, str, Rule]]] = {}
    for entry in ordered:
        letters.setdefault(_letter(entry[0]), []).append(entry)
    groups = []
    for letter, entries in letters.items():
        if len(entries) <= NAV_GROUP_MOST:
            groups.append((letter, [rule for _key, _shown, rule in entries]))
            continue
        runs, labels = _runs(len(entries)), []
        for start, end in runs:
            first_title, last_title = entries[start][1], entries[end - 1][1]
            # The first told apart from the title before the run, the last from the one after it (at the letter's
            # ends, the letter), then from each other where one label would start the other ("D – Do").
            first = _told_apart(first_title, entries[start - 1][1]) if start else first_title[:1].upper()
            last = _told_apart(last_title, entries[end][1]) if end < len(entries) else last_title[:1].upper()
            if first_title.casefold() == last_title.casefold():
                labels.append(first_title)
                continue
            if first.casefold().startswith(last.casefold()) or last.casefold().startswith(first.casefold()):
                first = max(first, _told_apart(first_title, last_title), key=len)
                last = max(last, _told_apart(last_title, first_title), key=len)
            labels.append(f"{first} – {last}")
        if len(set(labels)) < len(labels):
            labels = [f"{label} {start + 1}–{end}" for label, (start, end) in zip(labels, runs)]
        groups += [(label, [rule for _key, _shown, rule in entries[start:end]])
                   for label, (start, end) in zip(labels, runs)]
    return groups
