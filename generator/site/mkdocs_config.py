"""MkDocs configuration of one language build, and the hand-over of the per-build data to the hooks.

Decision: the data of one build (a `site.Build`) travels on the MkDocs config object itself
(`config.kb_build`, a plain attribute, not a config key), so nothing outlives the build. A plain
`mkdocs build` / `mkdocs serve` loads a fresh config for every build, finds no attribute and
makes a fresh Build: an edited rule shows on the next build there too.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from markupsafe import escape

from .inputs import CONFIG

DEFAULT_LANGUAGES = [{"code": "en", "name": "English"}]
BUILD_ATTRIBUTE = "kb_build"  # the attribute of the MkDocs config that carries the Build


def read_config(root: Path) -> dict:
    """mkdocs.yml as plain data (read once per build by its caller)."""
    return yaml.safe_load((Path(root) / CONFIG).read_text(encoding="utf-8")) or {}


def read_languages(root: Path, raw: dict | None = None) -> list[dict]:
    """The site's languages in menu order, from mkdocs.yml `extra.kb_languages`."""
    raw = read_config(root) if raw is None else raw
    return list(raw.get("extra", {}).get("kb_languages") or DEFAULT_LANGUAGES)


def site_name(tr) -> str:
    """The site's name in one language (the header, <title> and the root page's list)."""
    return tr.gettext("Wargame Rules Knowledge Base")


def palette_labels(tr) -> dict[str, str]:
    """The colour scheme toggles' names in one language, by the name mkdocs.yml gives each toggle."""
    return {"dark": tr.gettext("Switch to the dark colour scheme"),
            "light": tr.gettext("Switch to the light colour scheme")}


def not_found_words(tr) -> dict[str, str]:
    """The words of the 404 page (site_overrides/404.html) in one language."""
    return {"title": tr.gettext("Page not found"), "text": tr.gettext("Nothing is published at this address."),
            "home": tr.gettext("Go to the home page")}


def theme_words(tr) -> dict[str, str]:
    """Material's own interface words that our catalogs say better, by Material's key (partials/language.html).

    Material ships a word for each key in every language; where its Russian is a print term (the header as
    «Верхний колонтитул») the page language's catalog gives the word instead."""
    return {"header": tr.gettext("Site header"), "footer": tr.gettext("Site footer")}


def markdown_extensions(raw: dict, tr) -> list:
    """mkdocs.yml's Markdown extensions, with the heading anchors' tooltip in the page language."""
    extensions = []
    for extension in raw.get("markdown_extensions") or []:
        if isinstance(extension, dict) and "toc" in extension:
            extension = {"toc": dict(extension["toc"] or {}, permalink_title=tr.gettext("Permanent link"))}
        extensions.append(extension)
    return extensions


def mkdocs_config(build, lang: str, site_dir: Path):
    """The MkDocs config that builds `lang` of `build` into `site_dir`, with the build attached."""
    from mkdocs.config import load_config  # MkDocs' config machinery: check reads the languages without it

    raw = build.prepared.config
    theme = dict(raw["theme"], language=lang)
    # site_url names the English build (…/en/); each language lives beside it under its own prefix.
    site_root = str(raw.get("site_url") or "http://127.0.0.1:8000/en/").rstrip("/").rsplit("/", 1)[0]
    # The theme prints these raw (and some with `| e`): escaped once, as Markup, they are text everywhere.
    extra = dict(raw.get("extra") or {})
    if isinstance(extra.get("alternate"), list):  # mkdocs.yml sets `alternate: true`; a list would be printed raw
        extra["alternate"] = [{key: escape(value) for key, value in alt.items()} for alt in extra["alternate"]]
    tr = build.prepared.translations[lang]
    extra["kb_theme_words"] = {key: escape(word) for key, word in theme_words(tr).items()}
    config = load_config(config_file=str(build.root / CONFIG), site_dir=str(site_dir), theme=theme,
                         plugins=raw.get("plugins"), strict=True,
                         markdown_extensions=markdown_extensions(raw, tr), site_url=f"{site_root}/{lang}/", extra=extra,
                         site_name=escape(site_name(tr)),
                         site_description=escape(raw.get("site_description") or ""))
    attach(config, build)
    return config


def attach(config, build) -> None:
    setattr(config, BUILD_ATTRIBUTE, build)


def attached(config):
    """The Build attached to this config, or None under a plain `mkdocs` command."""
    return getattr(config, BUILD_ATTRIBUTE, None)
