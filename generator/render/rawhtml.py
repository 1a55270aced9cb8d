"""Raw HTML blocks that Markdown keeps as they are, unparsed: the renderer marks them, a Markdown extension stashes them.

Why: Python-Markdown finds raw HTML by running html.parser over the whole page (md_in_html's
`html_block`, and MkDocs' anchor collector once more). Our pages are nearly all HTML our templates
wrote, so that parsing was most of a large build's page writing (figures: commit 63f6760). The renderer knows
where each block starts and ends; `mark` wraps a block in OPEN … CLOSE, and `StashMarkedBlocks` (a preprocessor
that runs before either parser) puts it into Markdown's HTML stash exactly as `html_block` would
have: the same text, a newline kept when a blank line follows, the same lines left around it.
Markdown's RawHtmlPostprocessor restores it, so the page's HTML is the same, byte for byte
(tests/test_rawhtml.py converts every page both ways). Headings stay Markdown: ids, permalinks and
the table of contents are made as before.

Decision: a marker is an HTML comment. Every data string reaches a page HTML-escaped (Jinja's
autoescape, markup.as_text, markup.render_inline), so a `<`, and with it a marker, comes only from
our templates and code, never from a translation or a rule.

Decision: only a block Markdown would take as one raw block is marked: it starts a line with a
block-level tag (not `markdown="1"`), its end tag (found by counting the tags of its name) ends a
line, and it holds nothing html.parser reads apart from tags (script, style, comments, declarations), in this
Python or another (a <title> or <textarea> may hold text but no "<": a diagram's SVG title is marked).
Anything else, and the rest of a page after any HTML `mark` cannot follow, is left to Markdown.

MkDocs' anchor collector no longer sees the ids inside stashed blocks; it only checks Markdown links
to anchors (`[text](page.md#id)`), and our pages make every link in HTML, which MkDocs never checks.
"""

from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.util import BLOCK_LEVEL_ELEMENTS

OPEN = "<!--kb:raw-->"
CLOSE = "<!--kb:/raw-->"
# After every preprocessor that runs before html_block today (whitespace 30, fenced code 25), before
# MkDocs' anchor collector (21) and html_block (20): the blocks are cut from the same text html_block reads.
PRIORITY = 22

# A tag (or a comment, declaration, processing instruction) opening a line, as html_block sees one:
# up to three spaces before it.
_LINE_TAG = re.compile(r"^ {0,3}(<([a-zA-Z][^\t\n\r\f />\x00]*|[!?]))", re.M)
_TAG = re.compile(r"<([a-zA-Z][^\t\n\r\f />\x00]*|[!?])")
_BLOCK_TAGS = frozenset(BLOCK_LEVEL_ELEMENTS) - {"hr"}  # <hr> is an empty tag to html_block, never a block
_RAW_TEXT = frozenset({"script", "style"})  # html.parser reads their content as text up to their end tag
# What html.parser reads as something other than tags and text: a block holding one is not followed.
_READ_APART = re.compile(r"<[!?]|<(?:script|style|xmp|iframe|noembed|noframes|noscript|plaintext)\b", re.I)
# Elements whose content html.parser reads as text up to their end tag since CPython 3.14 (and the security releases
# of older versions), as tags and text before: the same reading, and so the same block, where that content holds no
# "<". A diagram's SVG <title> (its text alternative, escaped) is one.
_ESCAPABLE_TEXT = re.compile(r"<(title|textarea)(?=[\s/>])", re.I)
_BLANK_AFTER = re.compile(r"(?:[ ]*\n){2}")  # html_block's blank line after a block (htmlparser.blank_line_re)


def mark(body: str) -> str:
    """The Markdown of a page with each raw HTML block that Markdown would take whole wrapped in OPEN … CLOSE."""
    pieces, done, scan = [], 0, 0
    while found := _LINE_TAG.search(body, scan):
        start, name = found.start(1), found.group(2).lower()
        if name in ("!", "?", "hr"):  # html_block takes these alone and may read on into the line: not followed
            break
        if name not in _BLOCK_TAGS:
            scan = found.end()  # an inline tag: the line is a paragraph
            continue
        end = _block_end(body, start, name)
        if end is None or _markdown_on(body[start:body.find(">", start) + 1]) or (
                name not in _RAW_TEXT and _read_apart(body, start, end)):
            break
        if name not in _RAW_TEXT and body.startswith("\n", end):
            pieces += [body[done:start], OPEN, body[start:end], CLOSE]
            done = scan = end
            continue
        scan = _after_tail(body, end)
        if scan is None:
            break
    pieces.append(body[done:])
    return "".join(pieces)


class _StartTag(HTMLParser):
    """The attributes of one start tag, as html.parser (and so md_in_html) reads them."""

    attributes: list | None = None

    def handle_starttag(self, tag, attrs):
        if self.attributes is None:
            self.attributes = attrs


def _read_apart(body: str, start: int, end: int) -> bool:
    """True if the block body[start:end] holds something html.parser reads other than as tags and text, or may read
    so in another Python version: an _ESCAPABLE_TEXT element whose content holds a "<"."""
    if _READ_APART.search(body, start, end):
        return True
    for tag in _ESCAPABLE_TEXT.finditer(body, start, end):
        close = body.find(">", tag.end(), end)
        after = body.find("<", close, end) if close != -1 else -1
        closing = _same_name(tag.group(1).lower()).match(body, after, end) if after != -1 else None
        if closing is None or not closing.group(1):  # the next tag is not this element's end tag
            return True
    return False


def _markdown_on(start_tag: str) -> bool:
    """True if md_in_html may parse the block's content: its start tag has a `markdown` attribute that is not "0".

    The tag is read as html.parser reads it, so the word in an attribute's value (a translation shown
    in data-pagefind-meta) is not taken for the attribute, which left a page's blocks to Markdown.
    """
    if "markdown" not in start_tag.lower():  # nearly every tag: no parse
        return False
    reader = _StartTag()
    reader.feed(start_tag)
    reader.close()
    if reader.attributes is None:  # not read as one start tag: leave the block to Markdown
        return True
    return any(name == "markdown" and value != "0" for name, value in reader.attributes)


def unmarked(text: str) -> str:
    """Markdown with the markers taken out: what Markdown would read without this extension."""
    return text.replace(OPEN, "").replace(CLOSE, "")


@functools.cache  # a few dozen tag names, each asked for on every page
def _same_name(name: str) -> re.Pattern:
    return re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])", re.I)


def _block_end(body: str, start: int, name: str) -> int | None:
    """Where the element opened at `start` ends (after its end tag), or None if it is not closed."""
    if name in _RAW_TEXT:  # its text ends at the first end tag of its name
        tag = re.compile(rf"</{name}(?=[\s/>])", re.I).search(body, start)
        close = body.find(">", tag.end()) if tag else -1
        return close + 1 if close != -1 else None
    depth = 0
    for tag in _same_name(name).finditer(body, start):
        close = body.find(">", tag.end())
        if close == -1:
            return None
        if tag.group(1):
            depth -= 1
        elif body[close - 1] != "/":  # <name/> opens nothing
            depth += 1
        if depth == 0:
            return close + 1
    return None


def _after_tail(body: str, end: int) -> int | None:
    """Where html_block is back at a line's start after a block that ended mid-line (each block-level tag
    further along that line opens another raw block), or None where this is not followed."""
    while end < len(body) and body[end] != "\n":
        line_end = body.find("\n", end)
        line_end = len(body) if line_end == -1 else line_end
        opened = None
        for tag in _TAG.finditer(body, end, line_end):
            name = tag.group(1).lower()
            if name in ("!", "?", "hr"):
                return None
            if name in _BLOCK_TAGS:
                opened = tag
                break
        stop = opened.start() if opened else line_end
        if "&" in re.sub(r"<[^>]*>", "", body[end:stop]):  # a reference after a block joins the next one
            return None
        if opened is None:
            return line_end
        name = opened.group(1).lower()
        end = _block_end(body, opened.start(), name)
        if end is None or (name not in _RAW_TEXT and _read_apart(body, opened.start(), end)):
            return None
    return end


class StashMarkedBlocks(Preprocessor):
    """Puts each marked block into the HTML stash as html_block would have, and leaves it out of every HTML parse."""

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if OPEN not in text:
            return lines
        pieces, stashed, done = [], [], 0  # stashed: blocks with only blank lines between them, not stored yet
        while (start := text.find(OPEN, done)) != -1:
            close = text.find(CLOSE, start)
            if close == -1:
                break
            block, after = text[start + len(OPEN):close], close + len(CLOSE)
            between, done = text[done:start], after
            whole = self._whole(text, start, block, after)
            if whole and stashed and not between.strip("\n"):
                stashed.append(block + ("\n" if _BLANK_AFTER.match(text, after) else ""))
                continue
            self._store(stashed, pieces)
            pieces.append(between)
            if whole:  # with a newline where a blank line follows it, as html_block keeps one
                stashed.append(block + ("\n" if _BLANK_AFTER.match(text, after) else ""))
            else:
                pieces.append(block)
        self._store(stashed, pieces)
        pieces.append(text[done:])
        return unmarked("".join(pieces)).split("\n")

    def _store(self, stashed: list[str], pieces: list[str]) -> None:
        """One stash entry for blocks that follow each other: Markdown would have written each as its own
        paragraph and put a newline between them, so they come out the same, and Markdown has fewer to visit."""
        if stashed:
            pieces += ["\n", self.md.htmlStash.store("\n".join(stashed)), "\n\n"]  # html_block's lines around a block
            stashed.clear()

    def _whole(self, text: str, start: int, block: str, after: int) -> bool:
        """A marked block is stashed only where html_block would take it whole (a hand-made marker may not be)."""
        line_start = text.rfind("\n", 0, start) + 1
        tag = _TAG.match(block)
        return (start - line_start <= 3 and not text[line_start:start].strip(" ") and text.startswith("\n", after)
                and tag is not None and self.md.is_block_level(tag.group(1)))


class RawBlocks(Extension):
    """The Markdown extension of marked raw HTML blocks (registered by generator/site/hooks.py)."""

    def extendMarkdown(self, md) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(StashMarkedBlocks(md), "kb_raw_blocks", PRIORITY)
