"""The private MkDocs functions `make serve` relies on, named in one place.

The incremental server (generator/serve/live.py) converts and writes one page the way `mkdocs build`
does, with the two functions MkDocs' own build calls for every page. They are private: a MkDocs
release may rename them or change their arguments. tests/test_serve.py checks the names and the
parameters below against the installed MkDocs and fails with a message naming what changed;
requirements.txt pins MkDocs, so that only happens when someone raises the pin.
"""

from __future__ import annotations

from mkdocs.commands.build import _build_page, _populate_page

# name -> the parameters live.py passes, in order (checked against the installed MkDocs by the tests)
EXPECTED = {
    "_populate_page": ("page", "config", "files"),
    "_build_page": ("page", "config", "doc_files", "nav", "env"),
}

populate_page = _populate_page  # read the page's Markdown and convert it (meta, toc, content)
build_page = _build_page  # render the converted page with the theme and write it to its destination
