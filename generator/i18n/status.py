"""How much of each language is translated, fuzzy or missing, per catalog."""

from __future__ import annotations

from collections import OrderedDict

from ..kb.model import KnowledgeBase
from .extract import knowledge_base_messages, ui_messages
from .po.merge import SourceMessage
from .translate import FUZZY, MISSING, TRANSLATED, Translations


def language_status(kb: KnowledgeBase, tr: Translations, messages: list[SourceMessage] | None = None) -> dict:
    """{"total": {...}, "catalogs": {catalog: {"translated": n, "fuzzy": n, "missing": n}}} for one language.

    `messages` are knowledge_base_messages(kb), made once by a caller that asks for several languages.
    """
    catalogs: dict[str, dict] = OrderedDict()
    for message in knowledge_base_messages(kb) if messages is None else messages:
        if message.source_lang == tr.lang:
            continue
        state = tr.text(message.context, message.msgid, message.source_lang).state
        if state == MISSING and tr.suggested(message.context):
            state = FUZZY  # the page shows the source, but a translator has a suggestion to review: needs work
        counts = catalogs.setdefault(message.catalog, {"translated": 0, "fuzzy": 0, "missing": 0})
        counts[{TRANSLATED: "translated", FUZZY: "fuzzy", MISSING: "missing"}[state]] += 1
    if tr.lang != "en":
        for message in ui_messages():
            counts = catalogs.setdefault("ui", {"translated": 0, "fuzzy": 0, "missing": 0})
            key = message.msgid[0] if isinstance(message.msgid, tuple) else message.msgid
            entry = tr.ui.get(key)
            if entry is None or not entry.string or (isinstance(entry.string, tuple) and not all(entry.string)):
                counts["missing"] += 1
            elif entry.fuzzy or entry.id != message.msgid:
                counts["fuzzy"] += 1
            else:
                counts["translated"] += 1
    total = {"translated": 0, "fuzzy": 0, "missing": 0}
    for counts in catalogs.values():
        for key in total:
            total[key] += counts[key]
    messages = sum(total.values())
    percent = round(100 * total["translated"] / messages, 1) if messages else 100.0
    return {"lang": tr.lang, "total": dict(total, messages=messages, percent=percent), "catalogs": dict(catalogs)}
