"""The site root: a language chooser styled like the site, so no language owns the root address.

Decision: the root page borrows the first language's stylesheets (Material's, palette, kb.css) and
Material's header and content classes, so it looks like the rest of the site without a theme build
of its own; a small script sends the reader on to their language (see templates/root.html).
"""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..render.pages import TEMPLATES

TITLE = "Wargame Rules Knowledge Base"  # the root belongs to no language: the source name
DEFAULT_PALETTE = {"scheme": "default", "primary": "indigo", "accent": "indigo"}


class _Stylesheets(HTMLParser):
    """The stylesheets a built page links to from inside its own language folder."""

    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        href = attrs.get("href") or ""
        if tag == "link" and attrs.get("rel") == "stylesheet" and not href.startswith(("/", "http:", "https:")):
            self.hrefs.append(href)


def stylesheets(site_dir: Path, lang: str) -> list[str]:
    """The site's own stylesheets, as addresses from the root (Pagefind's search styles left out)."""
    parser = _Stylesheets()
    parser.feed((site_dir / lang / "index.html").read_text(encoding="utf-8"))
    hrefs = [posixpath.normpath(posixpath.join(lang, href)) for href in parser.hrefs]
    return [href for href in hrefs if href.startswith(lang + "/")]


def palette(config: dict) -> dict:
    """The first colour scheme of mkdocs.yml's theme.palette, and under "dark" the scheme of the one bound to
    `prefers-color-scheme: dark` (None without one): the root follows the reader's system as the pages do."""
    schemes = (config.get("theme") or {}).get("palette") or [{}]
    schemes = schemes if isinstance(schemes, list) else [schemes]
    chosen = {key: str(schemes[0].get(key) or value).replace(" ", "-") for key, value in DEFAULT_PALETTE.items()}
    dark = next((option for option in schemes if "dark" in str(option.get("media") or "")), None)
    chosen["dark"] = str(dark.get("scheme") or "slate").replace(" ", "-") if dark else None
    return chosen


def write_root_page(site_dir: Path, languages: list[dict], site_names: dict[str, str] | None = None,
                    config: dict | None = None):
    """index.html at the root of the site, linking to every language's home page."""
    environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined,
                              keep_trailing_newline=True)
    site_names = site_names or {}
    shown = [{"code": language["code"], "name": language["name"],
              "site_name": site_names.get(language["code"], TITLE)} for language in languages]
    html = environment.get_template("root.html").render(
        title=TITLE, languages=shown, codes=[language["code"] for language in languages],
        stylesheets=stylesheets(site_dir, languages[0]["code"]), palette=palette(config or {}))
    (site_dir / "index.html").write_text(html, encoding="utf-8")
