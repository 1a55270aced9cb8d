"""Render every page of one language from the validated knowledge base, in memory.

The package: `pages` (the page builder, `Renderer`: which pages exist, their front matter and the
navigation), `scope` (the template API of one page, `r` in the templates: texts, links, values in
words, ask panels, diagrams), and `links` (back-links and where a reference points). URLs come from
generator/urls.py, value types from generator/value_types.py.
"""

from .links import LinkResolver, Links
from .pages import Page, Renderer, md_escape
from .scope import PageScope

__all__ = ["LinkResolver", "Links", "Page", "PageScope", "Renderer", "md_escape"]
