"""Characters that reorder what a reviewer sees: bidirectional controls are refused in every text, and direction
marks in a language written left to right (a text in Arabic or Hebrew may need a mark, never an override)."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Optional

from babel import Locale, UnknownLocaleError

# Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder the characters that follow, so a
# diff, a review page or a catalog editor shows a text other than the one published ("Trojan source").
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# The marks a right-to-left language writes where a number or a Latin word meets its own script: LRM, RLM, ALM.
DIRECTION_MARKS = "\u200e\u200f\u061c"
_IN_ANY = re.compile(f"[{BIDI_CONTROLS}]")
_IN_LEFT_TO_RIGHT = re.compile(f"[{BIDI_CONTROLS}{DIRECTION_MARKS}]")


@functools.cache
def right_to_left(lang: str) -> bool:
    """Whether `lang` is written right to left, from the CLDR data Babel ships (an unknown code: left to right)."""
    try:
        return Locale.parse(lang.replace("-", "_")).text_direction == "rtl"
    except (ValueError, TypeError, UnknownLocaleError):
        return False


def reordering(text: str, lang: str) -> Optional[tuple[str, str]]:
    """Why `text`, written in `lang`, may show a reviewer something else (its first such character), and what to
    do, or None."""
    found = (_IN_ANY if right_to_left(lang) else _IN_LEFT_TO_RIGHT).search(text)
    if found is None:
        return None
    char = found.group()
    name = unicodedata.name(char, "a format character")
    if right_to_left(lang):
        advice = "delete it; a right-to-left text may use the marks U+200E, U+200F and U+061C, not this control"
    else:
        advice = f"delete it; a text in {lang}, written left to right, needs no direction control or mark"
    return f"holds U+{ord(char):04X} ({name}), which reorders the text a reviewer sees", advice
