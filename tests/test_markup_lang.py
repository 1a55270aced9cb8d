"""The language mark of the inline markup: `[words]{lang=xx}` renders a span a screen reader pronounces in xx."""

from __future__ import annotations

from generator.kb.markup import (
    language_marks,
    markup_signature,
    references,
    render_inline,
    render_unlinked,
    strip_markup,
)


def _link(reference):
    return "/to/", reference.shown or reference.target, ""


def test_a_marked_term_renders_as_a_span_with_its_language():
    html = render_inline("Оговорка «[except mounts]{lang=en}» в правиле", _link)
    assert html == 'Оговорка «<span lang="en">except mounts</span>» в правиле'


def test_the_marked_words_are_escaped_and_keep_their_code_and_emphasis():
    html = render_unlinked("[<b>*Flee!*</b> `x`]{lang=en}", lambda reference: "")
    assert html == '<span lang="en">&lt;b&gt;<em>Flee!</em>&lt;/b&gt; <code>x</code></span>'


def test_a_mark_with_something_other_than_a_language_tag_stays_text():
    html = render_inline('[words]{lang="><script>}', _link)
    assert "<span" not in html and "<script" not in html and "&#91;words&#93;" in html


def test_a_mark_sits_beside_references_without_becoming_one():
    text = "[[term:flee|«Отступать»]] и [Flee!]{lang=en} и [[t9a/scout]]"
    assert [reference.target for reference in references(text)] == ["term:flee", "t9a/scout"]
    assert 'href="/to/">«Отступать»</a> и <span lang="en">Flee!</span>' in render_inline(text, _link)


def test_plain_words_drop_the_mark_and_keep_its_words():
    assert strip_markup("оговорка «[except mounts]{lang=en}»") == "оговорка «except mounts»"


def test_marks_are_listed_with_their_language_and_do_not_count_as_other_markup():
    text = "Книга [Battlesystem]{lang=en} и [AD&D]{lang=en-US}"
    assert language_marks(text) == [("Battlesystem", "en"), ("AD&D", "en-US")]
    assert markup_signature(text) == markup_signature("Книга и")


def test_a_code_span_is_escaped_like_any_text_and_cannot_close_its_element():
    html = render_inline('a `<img src=x onerror="alert(1)">` and `</code><script>x & y</script>`', lambda r: ("", "", ""))
    assert "<img" not in html and "<script>" not in html and "</code><script>" not in html
    assert html.count("<code>") == 2 == html.count("</code>")
    assert "&lt;img src=x onerror=" in html and "&lt;/code&gt;&lt;script&gt;x &amp; y&lt;/script&gt;" in html
