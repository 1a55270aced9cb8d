"""One-line values and the output guard: nothing read from a file prints raw control characters or starts a line
the CI runner obeys (generator/core/report_formats.py); a code span holds any file name."""

from __future__ import annotations

import json

from generator.core.problems import Problem
from generator.core.report_formats import CommandGuard, json_text, plain
from generator.i18n.review import Change, Review
from generator.i18n.reviewreport import code_span, markdown_cell, plain_text

from . import runner_commands


def test_a_code_span_is_fenced_longer_than_any_backtick_run_inside_it():
    assert code_span("plain.po:3") == "`plain.po:3`"
    assert code_span("a`b.po:3") == "``a`b.po:3``"
    assert code_span("``x```.po:1") == "```` ``x```.po:1 ````"
    assert code_span("a|b", in_table=True) == "`a\\|b`" and code_span("a|b", in_table=False) == "`a|b`"


def test_an_address_in_a_summary_cell_is_shown_as_code_so_github_links_nothing():
    cell = markdown_cell("see https://evil.example/x?a=1, www.evil.example or me@evil.example — *ok*")
    assert cell == ("see `https://evil.example/x?a=1,` `www.evil.example` or `me@evil.example` — \\*ok\\*")
    assert markdown_cell("ftp://x|y") == "`ftp://x\\|y`"  # a pipe still cannot split the table


# --- the choke points themselves ---------------------------------------------------------------------------

def test_plain_shows_control_characters_separators_and_old_style_commands_as_escapes():
    assert plain("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert plain("x\x1b[31m\x85\u2028\u202e\x00") == "x\\x1b[31m\\x85\\u2028\\u202e\\x00"
    assert plain("##[error]x and ##vso[task]y and #[z] ##") == "##\\[error]x and ##vso\\[task]y and #[z] ##"
    assert plain("Уклонение «Бегство» — 2К6") == "Уклонение «Бегство» — 2К6"


def test_a_problem_prints_on_one_line_whatever_its_file_subject_message_and_hint_hold():
    problem = Problem("rules/wap/a\n::error::f.yaml", 3, "wap/a\r::add-mask::s", "bad\n::stop-commands::m", "h\nx")
    assert str(problem) == ("rules/wap/a\\n::error::f.yaml:3: wap/a\\r::add-mask::s: bad\\n::stop-commands::m — "
                            "h\\nx")


class Sink:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_the_guard_escapes_a_command_at_a_lines_start_or_split_over_writes_and_lets_its_own_through():
    sink = Sink()
    guard = CommandGuard(sink)
    print("ok line", file=guard)
    print("  ::error::forged", file=guard)
    guard.write(":")
    guard.flush()  # a lone colon is held: the next write could make it a command
    guard.write(":stop-commands::t\nsplit #")
    guard.flush()
    guard.write("#[add-mask]s\n\u2028::warning::w\n")
    guard.write_command("::error file=a.po,line=1::own")
    guard.write("tail ##vso")
    guard.flush()
    guard.write("[x]\n")
    assert [found.name for _line, found in runner_commands.commands(sink.text)] == ["error"]
    assert sink.text == ("ok line\n  \\::error::forged\n\\::stop-commands::t\nsplit ##\\[add-mask]s\n\u2028\\::warning::w\n"
                         "::error file=a.po,line=1::own\ntail ##vso\\[x]\n")


def test_json_output_keeps_its_values_and_passes_the_guard():
    data = {"name": "a\u2028::error::x ##[error]y \x85 ##vso[z]"}
    text = json_text(data)
    assert json.loads(text) == data
    sink = Sink()
    print(text, file=CommandGuard(sink))
    assert sink.text == text + "\n"


def test_the_review_plain_text_prints_each_change_on_its_own_lines():
    change = Change("ru", "translations/ru/x\n::error::f.po", 3, "k\r::add-mask::m", "translation added",
                    "src\n::stop-commands::s", "", "после\u2028::error::e", checks=["c\n::error::c"])
    text = plain_text(Review("0123456789abcdef", "main\n::error::d", [change]))
    assert runner_commands.commands(text) == []
    assert "translations/ru/x\\n::error::f.po:3: k\\r::add-mask::m: translation added" in text
