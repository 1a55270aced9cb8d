"""Plant a different script payload in every catalog message and every mkdocs.yml string the site prints.

Shared by tests/test_hostile_translations.py (HTML compared with a clean build) and
tests/browser/test_hostile.py (the same pages in Chromium). Every payload carries its own number,
so a failure names the message it came from. A translation may be at most 3× its source + 50
characters (generator/i18n/limits.py): a catalog message gets as many ways in as fit, starting at a
different one each message, so that every way still reaches every kind of sink; mkdocs.yml strings
get them all.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import yaml

from generator.i18n.limits import longest_translation
from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import render_catalog
from generator.render.rawhtml import CLOSE, OPEN

# Ways a string could become live markup in HTML, in Markdown or in an attribute; {n} numbers the message.
PAYLOADS = (
    f"{CLOSE}\n{OPEN}<div>{CLOSE}",  # generator/render/rawhtml.py's markers: closing one, then opening one at a line's start
    "<img src=x onerror=alert({n})>",
    "{{: onfocus=alert({n}) autofocus tabindex=1 }}",
    "[link {n}](javascript:alert({n}))",
    "<svg onload=alert({n})>",
    '" onmouseover="alert({n})" x="',
    "' onmouseover='alert({n})' x='",
    "![i{n}](x){{: onerror=alert({n}) }}",
    "w\n\n[b{n}](javascript:alert({n}))\n\n![d{n}](x){{: onerror=alert({n}) }}\n",
    "</title><script>alert({n})</script>",
    '<a href="javascript:alert({n})">a{n}</a>',
    "<javascript:alert({n})>",
    "# h{n} {{: onclick=alert({n}) }}\n<b onmouseover=alert({n})>b</b>",
    '<div markdown="1">[m{n}](javascript:alert({n}))</div>',
    "<!-- x --> <style>*{{}}</style><iframe srcdoc='<script>alert({n})</script>'>",
    # Inside a code span, which the markup renders as <code>: its content must be escaped like any other text.
    "`<img src=x onerror=alert({n})>`",
    "`</code><script>alert({n})</script>`",
)

# Messages that keep the assertions of the single-purpose tests this build replaced: catalog/context -> text.
FIXED = {
    ("ru", "rules/wap/strider", "wap/strider:summary"): "Опасно: <script>alert(1)</script> конец.",
    ("ru", "rules/wap/dodge", "wap/dodge:summary"): "Опасно: {{ config }} конец.",
    ("ru", "rules/wap/skirmishers", "wap/skirmishers:summary"): "Опасно: {% raw %}x{% endraw %} конец.",
    ("ru", "ui", "Rule text"): "Текст <script>alert(1)</script>",
    ("ru", "ui", "Worked examples"): "Примеры {{ config }}",
    ("ru", "ui", "Clarifications"): "Разъяснения {%% raw %%}x{%% endraw %%}",
    ("ru", "ui", "Ask this rule"): "Спросите {% raw %}x{% endraw %}",  # a lone %: English is shown, check reports it
    ("ru", "ui", "Nothing found"): "'><script>alert(1)</script>",
    # The notice a page with a missing translation shows (tests/test_site.py, PLANTS in tests/conftest.py).
    ("ru", "ui", "Parts of this page are not translated yet and are shown in the original language."):
        "Часть страницы ещё не переведена <script>alert(1)</script>",
}
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def payload(number: int, room: int | None = None) -> str:
    """Every way in at once, numbered: whichever one a sink is open to, it shows. With `room`, as many ways as fit
    in that many characters, the first being the number's own (so consecutive messages start with every way)."""
    ways = [way.format(n=number) for way in PAYLOADS]
    if room is None:
        return f"K{number} " + " ".join(ways)
    start = number % len(ways)
    text = f"K{number}"
    for way in ways[start:] + ways[:start]:
        if len(text) + 1 + len(way) <= room:
            text = f"{text} {way}"
    return text


def _with_placeholders(number: int, msgid, singular: str) -> str:
    # A UI translation that drops a placeholder falls back to English; keep them so the payload is shown.
    placeholders = _PLACEHOLDER.findall(singular)
    room = longest_translation(msgid) - sum(len(placeholder) + 1 for placeholder in placeholders)
    return " ".join([payload(number, room), *placeholders])


def plant(repo: Path) -> dict[str, str]:
    """Rewrite every catalog and mkdocs.yml under `repo` with payloads; {marker: where it was planted}."""
    planted: dict[str, str] = {}
    number = 100
    for path in sorted((repo / "translations").rglob("*.po")):
        lang = path.relative_to(repo / "translations").parts[0]
        name = str(path.relative_to(repo / "translations" / lang).with_suffix(""))
        catalog = read_catalog(path, lang)
        for message in catalog:
            if not message.id:
                continue
            number += 1
            singular = message.id[0] if isinstance(message.id, tuple) else message.id
            key = message.context if message.context is not None else singular
            text = FIXED.get((lang, name, key)) or _with_placeholders(number, message.id, singular)
            message.string = (text,) * catalog.num_plurals if isinstance(message.id, tuple) else text
            message.flags.discard("fuzzy")
            planted[f"K{number}"] = f"{lang}:{name}:{key}"
        path.write_bytes(render_catalog(catalog))
    config_path = repo / "mkdocs.yml"
    config = yaml.safe_load(config_path.read_text(encoding="utf-8"))
    for key in ("site_name", "site_description"):
        number += 1
        config[key] = payload(number)
        planted[f"K{number}"] = f"mkdocs.yml:{key}"
    for group, field in (("kb_languages", "name"), ("alternate", "name"), ("alternate", "lang")):
        for entry in config["extra"][group] if isinstance(config["extra"][group], list) else ():  # `alternate: true`
            number += 1
            entry[field] = f"{entry[field]} {payload(number)}"
            planted[f"K{number}"] = f"mkdocs.yml:extra.{group}:{field}"
    # The hooks are named by path; keep every other key as it was.
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return planted


def _is_script_url(value: str) -> bool:
    squeezed = re.sub(r"[\s\x00-\x20]+", "", value).lower()
    return squeezed.startswith(("javascript:", "vbscript:", "data:text/html"))


class ActiveParts(HTMLParser):
    """What in a page can run script: on* attributes, script URLs, <script> and <iframe srcdoc> elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: set[tuple] = set()
        self.text: list[str] = []
        self._script: list | None = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.found.add(("handler", tag, name, value))
            elif value and _is_script_url(value):
                self.found.add(("script url", tag, name, value))
            elif name == "srcdoc":
                self.found.add(("srcdoc", tag, value))
        if tag == "script":
            self._script = [dict(attrs).get("src") or ""]

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.found.add(("script", self._script[0], "".join(self._script[1:])))
            self._script = None

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)
        else:
            self.text.append(data)


def active_parts(html: str) -> ActiveParts:
    parser = ActiveParts()
    parser.feed(html)
    parser.close()
    return parser
