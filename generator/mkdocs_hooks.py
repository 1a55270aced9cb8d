"""MkDocs hooks: give each language build its generated pages, navigation and date, and watch the inputs.

The data comes from the `site.Build` attached to the config (`generator site`, `make serve`); under
a plain `mkdocs build` / `mkdocs serve` each config is new, so a new Build reads the input afresh.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from generator.inputs import INPUTS
from generator.mkdocs_config import attach, attached
from generator.problems import InputError
from generator import search
from generator.site import Build


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
    config.extra["kb_search_labels"] = built.search_labels  # read by site_overrides/partials/search.html
    config.extra["kb_search_pages_per_index"] = search.PAGES_PER_INDEX  # so is this: the index parts to merge
    return config


def on_files(files, config):
    built = _build(config).language(config.theme["language"])
    for page in built.pages:
        files.append(File.generated(config, page.path, content=page.content))
    for path, content in built.assets.items():
        files.append(File.generated(config, path, content=content))
    return files


def on_nav(nav, config, files):
    _build(config).keep(config.theme["language"], config=config, files=files, nav=nav)
    return nav


def on_env(env, config, files):
    _build(config).keep(config.theme["language"], env=env)  # with on_nav's: what generator.live needs
    return env


def on_pre_page(page, config, files):
    # The sitemap's dates follow the input (the build's date), not the clock or the process environment.
    page.update_date = _build(config).day
    return page


def on_serve(server, config, builder):
    root = _root(config)
    for name in INPUTS:
        server.watch(str(root / name))
    return server
