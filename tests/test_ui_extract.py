"""Interface strings: the files skipped before Babel reads them are exactly those Babel finds nothing in."""

from __future__ import annotations

import io

from babel.messages.extract import extract

from generator.i18n import extract as ui


def test_every_file_skipped_without_tokenizing_holds_no_interface_string_and_some_files_are_skipped():
    skipped = 0
    for path, method in ui.ui_files():
        data = path.read_bytes()
        if ui._MAY_MARK.search(data):
            continue
        skipped += 1
        found = list(extract(method, io.BytesIO(data), keywords=ui.UI_KEYWORDS, comment_tags=ui.COMMENT_TAGS,
                             options=ui.JINJA_OPTIONS))
        assert found == [], path
    assert skipped > 0


def test_a_keyword_call_a_method_call_and_a_trans_block_are_never_skipped():
    for text in (b'x = _("a")', b'tr.gettext ("a")', b'ngettext("a", "b", n)', b"{% trans %}a{% endtrans %}",
                 b"{%- trans n=1 %}a{% endtrans %}"):
        assert ui._MAY_MARK.search(text), text
    for text in (b'my_("a")', b"undergettext(1)", b'"_"'):
        assert not ui._MAY_MARK.search(text), text
