"""MkDocs hooks: give each language build its generated pages, navigation and date, and watch the inputs.

The data comes from the `site.Build` attached to the config (`generator site`, `make serve`); under
a plain `mkdocs build` / `mkdocs serve` each config is new, so a new Build reads the input afresh.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from generator.core.problems import InputError
from generator.render import rawhtml
from generator.render.pages import COMPILED
from generator.site import search
from generator.site.build import Build
from generator.site.inputs import INPUTS
from generator.site.mkdocs_config import attach, attached, not_found_words, palette_labels


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _build(config) -> Build:
    build = attached(config)
    if build is None:
        build = Build(_root(config))
        attach(config, build)
    return build


def on_config(config):
    try:
        built = _build(config).language(config.theme["language"])
    except InputError as error:
        raise PluginError("the knowledge base has problems:\n" + error.problems.report()) from None
    config.nav = built.nav
    # The pages' marked raw HTML goes to Markdown's stash unparsed, under `mkdocs build` / `serve` too.
    if not any(isinstance(extension, rawhtml.RawBlocks) for extension in config.markdown_extensions):
        config.markdown_extensions.append(rawhtml.RawBlocks())
    config.extra["kb_search_labels"] = built.search_labels  # read by site_overrides/partials/search.html
    # read by site_overrides/partials/palette.html
    translations = _build(config).prepared.translations[config.theme["language"]]
    config.extra["kb_palette_labels"] = palette_labels(translations)
    config.extra["kb_not_found"] = not_found_words(translations)  # read by site_overrides/404.html
    return config


def on_files(files, config):
    build = _build(config)
    lang = config.theme["language"]
    built = build.language(lang)
    for page in built.pages:
        files.append(File.generated(config, page.path, content=page.content))
    # Pagefind indexes one index.html per Markdown page; the search box merges this many parts.
    config.extra["kb_search_parts"] = search.part_count(len(files.documentation_pages()))
    if build.mkdocs is not None:  # `make serve` compares the next render with these texts
        for path, content in built.assets.items():
            files.append(File.generated(config, path, content=content))
        return files
    # MkDocs converts every page before it copies any other file, so the export (tens of MB at a
    # thousand rules) is put on disk now, not held in memory through the conversion.
    scratch = build.scratch_folder()
    for path, content in built.assets.items():
        target = Path(scratch, lang, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        files.append(File.generated(config, path, abs_src_path=str(target)))
    build.release(lang)  # from here MkDocs' files hold the pages
    return files


def on_nav(nav, config, files):
    _build(config).keep(config.theme["language"], config=config, files=files, nav=nav)
    return nav


def on_env(env, config, files):
    env.bytecode_cache = COMPILED  # the theme's templates compiled once per process, not once per build and language
    _build(config).keep(config.theme["language"], env=env)  # with on_nav's: what generator.serve.live needs
    return env


def on_pre_page(page, config, files):
    # The sitemap's dates follow the input (the build's date), not the clock or the process environment.
    page.update_date = _build(config).day
    return page


def on_page_content(html, page, config, files):
    # Each page's Markdown (the file's text and the page's copy) would otherwise stay in memory until
    # the last page is converted; only `make serve` converts a page again.
    if _build(config).mkdocs is None:
        page.markdown = ""  # not None: MkDocs reads None as "not read yet" and would lose the title
        page.file.content_string = ""
    if "<span lang=" in html:
        _marked_toc(page.toc, html)
    return html


_MARKED_HEADING = re.compile(r'<h[2-6][^>]*\bid="([^"]+)"[^>]*>((?:(?!</h[2-6]>).)*?<span lang="[^"]+">.*?)'
                             r'<a class="headerlink"', re.DOTALL)


def _marked_toc(toc, html: str) -> None:
    """The table of contents shows a heading's words in another language marked, as the heading does: Python-Markdown
    gives it only the plain words («Застрельщики (AD&D Battlesystem)», read out as Russian)."""
    marked = {match.group(1): match.group(2).strip() for match in _MARKED_HEADING.finditer(html)}
    items = list(toc)
    while items:
        item = items.pop()
        if item.id in marked:
            item.title = marked[item.id]  # the theme prints a toc title as HTML (Python-Markdown escapes the plain one)
        items.extend(item.children)


def on_post_page(output, page, config):
    # The header repeats the page's title as the theme's plain text; a title with words in another language
    # (a system's name) shows them marked there too, as in the page (generator/render/pages.py, _titled).
    marked = (page.meta or {}).get("kb_title_html")
    return _header_title(output, marked) if marked else output


def _header_title(output: str, marked: str) -> str:
    topic = output.find('data-md-component="header-topic"')
    span = output.find('<span class="md-ellipsis">', topic) if topic >= 0 else -1
    if span < 0:
        return output
    start = span + len('<span class="md-ellipsis">')
    return output[:start] + marked + output[output.find("</span>", start):]


def on_post_build(config):
    _build(config).remove_scratch()


def on_serve(server, config, builder):
    root = _root(config)
    for name in INPUTS:
        server.watch(str(root / name))
    return server
