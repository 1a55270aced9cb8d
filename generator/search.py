"""Pagefind's interface strings that carry a count, from our catalogs: Pagefind's own cannot inflect."""

from __future__ import annotations

from .i18n.translate import Translations

# Pagefind fills these tokens in at search time.
TOKENS = {"count": "[COUNT]", "query": "[SEARCH_TERM]"}


def search_labels(tr: Translations) -> dict[str, str]:
    """Pagefind UI `translations` for one language; worded so one form fits every count."""
    _ = tr.gettext
    return {
        "zero_results": _("Nothing found for “%(query)s”") % TOKENS,
        "one_result": _("One result for “%(query)s”") % TOKENS,
        "many_results": _("Results for “%(query)s”: %(count)s") % TOKENS,
        "total_zero_results": _("Nothing found"),
        "total_one_result": _("One result"),
        "total_many_results": _("Results: %(count)s") % TOKENS,
        "searching": _("Searching for “%(query)s”…") % TOKENS,
    }
