"""MkDocs hooks: give each language build its generated pages and navigation, and watch the sources."""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from generator import site
from generator.problems import InputError


def _root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config):
    lang = config.theme["language"]
    try:
        built = site.language_build(_root(config), lang)
    except InputError as error:
        raise PluginError("the knowledge base has problems:\n" + error.problems.report()) from None
    config.nav = built.nav
    config.extra["kb_search_labels"] = built.search_labels  # read by site_overrides/partials/search.html
    return config


def on_files(files, config):
    built = site.language_build(_root(config), config.theme["language"])
    for page in built.pages:
        files.append(File.generated(config, page.path, content=page.content))
    for path, content in built.assets.items():
        files.append(File.generated(config, path, content=content))
    return files


def on_serve(server, config, builder):
    root = _root(config)
    for folder in ("rules", "translations", "generator/templates"):
        server.watch(str(root / folder))
    return server
