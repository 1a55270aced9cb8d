"""The site root: a language chooser, so no language owns the root address."""

from __future__ import annotations

from html import escape
from pathlib import Path


def write_root_page(site_dir: Path, languages: list[dict]):
    """index.html at the root of the site, linking to every language's home page."""
    languages = [{"code": escape(str(lang["code"])), "name": escape(str(lang["name"]))} for lang in languages]
    links = "\n".join(
        f'    <li><a href="{lang["code"]}/" hreflang="{lang["code"]}" lang="{lang["code"]}">{lang["name"]}</a></li>'
        for lang in languages)
    alternates = "\n".join(f'  <link rel="alternate" hreflang="{lang["code"]}" href="{lang["code"]}/">'
                           for lang in languages)
    html = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Wargame Rules Knowledge Base</title>
{alternates}
  <style>body{{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}}
  li{{font-size:1.4rem;margin:.6rem 0}}</style>
</head>
<body>
  <h1>Wargame Rules Knowledge Base</h1>
  <p>Choose a language · Выберите язык</p>
  <ul>
{links}
  </ul>
</body>
</html>
"""
    (site_dir / "index.html").write_text(html, encoding="utf-8")
