"""Marked raw HTML blocks: Markdown stashes them unparsed, and the page's HTML is what Markdown made without them."""

from __future__ import annotations

import functools
from pathlib import Path

import markdown
import pytest

from generator.render import rawhtml
from generator.site.build import language_build, prepare
from generator.site.mkdocs_config import read_config
from .languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]


@functools.cache  # mkdocs.yml read once: reading it for each conversion was a third of the page-by-page tests
def _extensions() -> tuple[list, dict]:
    """The Markdown extensions and their settings of mkdocs.yml, as MkDocs hands them to Markdown."""
    names, settings = [], {}
    for entry in read_config(ROOT)["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if options:
            settings[name] = options
    return names, settings


def convert(text: str, marked: bool) -> tuple[str, list]:
    """(HTML, table of contents) of a page: with the extension, or of the unmarked text without it."""
    names, settings = _extensions()
    extensions = names + [rawhtml.RawBlocks()] if marked else names
    md = markdown.Markdown(extensions=extensions, extension_configs=settings)
    html = md.convert(text if marked else rawhtml.unmarked(text))
    return html, md.toc_tokens


def assert_converts_the_same(text: str) -> str:
    """The HTML of `text` marked and stashed, checked against Markdown's own reading of it unmarked."""
    fast, fast_toc = convert(rawhtml.mark(text), marked=True)
    slow, slow_toc = convert(text, marked=False)
    assert fast == slow
    assert fast_toc == slow_toc
    return fast


BLOCK = ('<div class="kb-predicate" markdown="0">\n<p>*not emphasis* [not a link](x) {#not-an-id} &#95;</p>\n'
         '<div class="kb-inner">\n\n<p>after a blank line</p>\n</div>\n</div>')


def test_a_marked_block_passes_through_verbatim_and_is_never_parsed_by_markdown(monkeypatch):
    page = f"# Title\n\n{BLOCK}\n\nText after.\n"
    marked = rawhtml.mark(page)
    assert marked == f"# Title\n\n{rawhtml.OPEN}{BLOCK}{rawhtml.CLOSE}\n\nText after.\n"
    parsed = []
    monkeypatch.setattr(markdown.htmlparser.HTMLExtractor, "feed", lambda self, data: parsed.append(data) or
                        markdown.htmlparser.htmlparser.HTMLParser.feed(self, data))
    html = assert_converts_the_same(page)
    assert BLOCK in html
    assert "kb-predicate" not in parsed[0]  # the fast conversion's html_block never saw the block
    assert "kb-predicate" in parsed[1]  # Markdown's own conversion did


def test_headings_around_marked_blocks_still_get_their_ids_and_permalinks():
    page = f"# Title\n\n## Rule text {{#rule-text}}\n\n{BLOCK}\n\n### Ask &#39;it&#39; {{#ask}}\n\n{BLOCK}\n"
    html = assert_converts_the_same(page)
    assert '<h2 id="rule-text">Rule text<a class="headerlink" href="#rule-text"' in html
    assert '<h3 id="ask">Ask &#39;it&#39;<a class="headerlink" href="#ask"' in html
    assert html.count(BLOCK) == 2
    _html, toc = convert(rawhtml.mark(page), marked=True)
    assert [heading["id"] for heading in toc[0]["children"]] == ["rule-text"]
    assert [heading["id"] for heading in toc[0]["children"][0]["children"]] == ["ask"]


def test_blocks_that_follow_each_other_without_a_blank_line_are_each_stashed_as_markdown_would():
    page = "<ul>\n<li>a</li>\n</ul>\n<dl><dt>b</dt><dd><p>c</p></dd></dl>\n<p>d</p>\n\n\n<table><tr><td>e</td></tr></table>"
    assert rawhtml.mark(page).count(rawhtml.OPEN) == 3  # the last one ends the page, not a line
    assert_converts_the_same(page)


def test_blocks_with_only_blank_lines_between_them_are_one_stash_entry_and_come_out_the_same():
    page = "# T\n\n<div>a</div>\n\n\n<div>b</div>\n<p>c</p>\n\n## H {#h}\n\n<div>d</div>\n"
    md = markdown.Markdown(extensions=[*_extensions()[0], rawhtml.RawBlocks()], extension_configs=_extensions()[1])
    md.convert(rawhtml.mark(page))
    assert md.htmlStash.html_counter == 2  # a, b and c; then d after the heading
    assert "<div>a</div>\n\n<div>b</div>\n<p>c</p>\n\n<h2" in assert_converts_the_same(page)


@pytest.mark.parametrize("page, marks", [
    ('<div markdown="1">\n*parsed*\n</div>\n\n<div>after</div>\n', 0),  # md_in_html parses its content
    ('<div data-x="a markdown b" markdown>\n*parsed*\n</div>\n\n<div>after</div>\n', 0),  # no value: "1"
    ('<div title="markdown=1 markdown" markdown="0">\n*kept*\n</div>\n\n<div>after</div>\n', 2),  # a value's words
    ("<div>a</div> and text\n\n<div>b</div>\n", 1),  # a block ending mid-line: the line is followed to its end
    ("<div>a<!-- a comment --></div>\n\n<div>b</div>\n", 0),
    ("<div>a<script>if (a <div) {}</script></div>\n\n<div>b</div>\n", 0),
    ("<div>not closed\n\n<div>b</div>\n", 0),
    ("<!-- c --><div>\n<div>inside</div>\n</div>\n", 0),
    ("<hr><div>\n<div>inside</div>\n</div>\n", 0),
    ("<div>a</div>&amp;\n<div>b</div>\n", 0),  # html_block would put the reference into the next block
    # A diagram's text alternative: newer Pythons read a <title>'s content as text, older ones as tags and text. The
    # same where it holds no "<"; otherwise the block may end elsewhere in another Python, so it is left to Markdown.
    ('<figure><svg><title id="t">11&#8243; &amp; more</title><text>a</text></svg></figure>\n\n<p>b</p>\n', 2),
    ("<figure><svg><title>a <b>c</b></title></svg></figure>\n\n<p>b</p>\n", 0),
    ("<div><textarea>a < b</textarea></div>\n\n<p>b</p>\n", 0),
    ("<div><title>never closed</div>\n\n<p>b</p>\n", 0),
])
def test_a_block_markdown_would_read_differently_is_left_to_markdown_and_so_is_what_cannot_be_followed(page, marks):
    assert rawhtml.mark(page).count(rawhtml.OPEN) == marks
    assert_converts_the_same(page)


def test_after_a_line_that_goes_on_past_a_block_the_next_lines_are_marked_again():
    # The "Ask this rule" assets: a hidden block, a link and scripts on one line, one script over several lines.
    page = ('<div id="w" hidden></div><link rel="stylesheet" href="a.css"><script src="r.js"></script><script>\n'
            'if (a <b) { x = "<div>"; }\n</script><script src="a.js" defer></script>\n\n<div class="after">b</div>\n\n'
            '<span>inline</span> text\n<p>e</p>\n')
    marked = rawhtml.mark(page)
    assert marked.count(rawhtml.OPEN) == 2
    assert f'{rawhtml.OPEN}<div class="after">b</div>{rawhtml.CLOSE}' in marked
    assert f"{rawhtml.OPEN}<p>e</p>{rawhtml.CLOSE}" in marked
    assert_converts_the_same(page)


@pytest.mark.parametrize("page", [
    f"Text {rawhtml.OPEN}<div>a</div>{rawhtml.CLOSE}\n",  # not at a line's start
    f"{rawhtml.OPEN}<span>a</span>{rawhtml.CLOSE}\n",  # not a block-level tag
    f"{rawhtml.OPEN}<div>a</div>{rawhtml.CLOSE} tail\n",  # not ending a line
    f"{rawhtml.OPEN}<div>a</div>\n",  # never closed
])
def test_a_hand_made_marker_around_what_markdown_would_not_take_whole_is_ignored(page):
    html, _toc = convert(page, marked=True)
    assert html == convert(page, marked=False)[0]
    assert "kb:" not in html


def test_blocks_are_cut_from_the_text_html_block_reads_after_fenced_code_and_before_mkdocs_reads_anchors():
    from markdown.extensions.fenced_code import FencedBlockPreprocessor
    from markdown.extensions.md_in_html import HtmlBlockPreprocessor
    from mkdocs.structure.pages import _RawHTMLPreprocessor

    md = markdown.Markdown(extensions=[*_extensions()[0], "fenced_code", rawhtml.RawBlocks()])
    _RawHTMLPreprocessor()._register(md)  # what MkDocs adds to each page's Markdown
    order = [type(processor) for processor in md.preprocessors]
    assert (order.index(FencedBlockPreprocessor) < order.index(rawhtml.StashMarkedBlocks)
            < order.index(_RawHTMLPreprocessor) < order.index(HtmlBlockPreprocessor))


def test_a_data_string_cannot_open_or_close_a_marker(planted_repo, planted_site):
    # tests/hostile.py plants the markers, a closing one and then an opening one at a line's start, with the other
    # payloads in every translation and mkdocs.yml string of the session's planted build.
    prepared = prepare(planted_repo)
    shown = 0
    for lang in LANGUAGES:
        for page in language_build(prepared, lang).pages:
            body = page.content.split("---\n\n", 1)[-1]
            assert body == rawhtml.mark(rawhtml.unmarked(body)), page.path  # every marker is one mark() put there
            assert body.count(rawhtml.OPEN) == body.count(rawhtml.CLOSE)
            if "kb:" not in rawhtml.unmarked(body):
                continue  # no planted marker on this page (13 English ones): its conversion is not under test here
            html = assert_converts_the_same(rawhtml.unmarked(body))
            assert "<!--kb:" not in html
            shown += html.count("&lt;!--kb:/raw--&gt;") + html.count("&#60;!--kb:/raw--&#62;")
    assert shown > 100, "the planted markers are not shown as text"
    pages = [path for path in planted_site.rglob("*.html") if "pagefind" not in path.parts]
    assert not [path for path in pages if "<!--kb:" in path.read_text(encoding="utf-8")]


def test_every_page_of_the_site_converts_the_same_with_its_blocks_stashed():
    prepared = prepare(ROOT)
    marked = 0
    for lang in LANGUAGES:
        for page in language_build(prepared, lang).pages:
            body = page.content.split("---\n\n", 1)[-1]
            marked += body.count(rawhtml.OPEN)
            assert_converts_the_same(rawhtml.unmarked(body))
    assert marked > 300


def test_the_built_site_shows_no_marker(site):
    pages = [path for path in site.rglob("*.html") if "pagefind" not in path.parts]
    assert len(pages) > 40
    assert not [path for path in pages if "kb:raw" in path.read_text(encoding="utf-8")]
