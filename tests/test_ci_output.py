"""What the commands print in CI: no file name, context or text from a pull request starts a line the runner obeys,
and the job summary shows what it quotes as text (the security review's N1 and N2)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import markdown as python_markdown
import pytest

from generator.i18n.review import Change, Review
from generator.i18n.reviewreport import markdown

from . import runner_commands
from .conftest import ROOT

PAYLOADS = runner_commands.PAYLOADS
# File names cannot hold these; the other payloads go into file names as they are.
NOT_IN_NAMES = "\x00/"
NOT_IN_CATALOG_TEXT = ""  # a catalog string holds any payload: the reader ends a line at LF only, as gettext does
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Reviewer", "GIT_AUTHOR_EMAIL": "reviewer@example.org",
                "GIT_COMMITTER_NAME": "Reviewer", "GIT_COMMITTER_EMAIL": "reviewer@example.org"}
DODGE = "translations/ru/rules/wap/dodge.po"


def git(repo: Path, *args: str):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**os.environ, **GIT_IDENTITY})


def run(repo: Path, *args: str, summary: Path | None = None) -> str:
    """The raw stdout and stderr of the real command under GitHub Actions, as the runner reads them."""
    env = {**os.environ, "GITHUB_ACTIONS": "true"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(repo), *args], cwd=ROOT, env=env,
                            capture_output=True, timeout=300)
    output = result.stdout.decode("utf-8") + "\n" + result.stderr.decode("utf-8")
    assert "Traceback" not in output, output[-3000:]
    return output


def header(repo: Path) -> str:
    return (repo / "translations/ru/rules/wap/strider.po").read_text(encoding="utf-8").split("\n\n")[0]


def po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") \
        .replace("\t", "\\t") + '"'


def plant_catalogs(repo: Path) -> dict[str, str]:
    """Every payload in a catalog file name, a msgctxt, a msgid and a msgstr; {what: the text planted}."""
    planted = {}
    for number, payload in enumerate(PAYLOADS):
        if any(char in payload for char in NOT_IN_NAMES):
            continue
        name = f"translations/ru/rules/wap/zz{number}{payload}.po"
        (repo / name).write_text(f'{header(repo)}\n\nmsgctxt "wap/zz{number}:title"\nmsgid "Zz"\nmsgstr "Зз"\n',
                                 encoding="utf-8")
        planted[f"file name {number}"] = name
    entries = []
    for number, payload in enumerate(PAYLOADS):
        if any(char in payload for char in NOT_IN_CATALOG_TEXT):
            continue
        entries.append(f"msgctxt {po_string(f'wap/dodge:x{number}{payload}')}\nmsgid {po_string(f'Dodge {number}')}\n"
                       f"msgstr {po_string(f'Уклонение {number}{payload}')}\n")
        entries.append(f"msgctxt {po_string(f'wap/dodge:y{number}')}\nmsgid {po_string(f'Dodge{payload}')}\n"
                       f"msgstr {po_string(f'Уклонение {number}')}\n")
    path = repo / DODGE
    path.write_text(path.read_text(encoding="utf-8") + "\n" + "\n".join(entries), encoding="utf-8")
    return planted


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict:
    """The raw output of check, i18n check and i18n review (plain, Markdown, job summary) on a pull request that
    plants every payload in catalog file names, contexts, msgids and msgstrs, and of check on rule files named
    with them."""
    from generator.site.inputs import copy_inputs

    work = tmp_path_factory.mktemp("ci-output")
    repo = copy_inputs(ROOT, work / "catalogs")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "pull-request")
    planted = plant_catalogs(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hostile translations")
    summary = work / "summary.md"
    rules = copy_inputs(ROOT, work / "rules")
    found = {"catalogs": repo, "rules": rules, "planted": planted, "summary": summary,
             "check": run(repo, "check"), "i18n check": run(repo, "i18n", "check"),
             "i18n review": run(repo, "i18n", "review", summary=summary),
             "i18n review --markdown": run(repo, "i18n", "review", "--markdown")}
    dodge = (rules / "rules/wap/dodge.yaml").read_text(encoding="utf-8")
    for number, payload in enumerate(PAYLOADS):
        if not any(char in payload for char in NOT_IN_NAMES):
            (rules / f"rules/wap/y{number}{payload}.yaml").write_text(dodge, encoding="utf-8")
    found["check (rule file names)"] = run(rules, "check")
    return found


COMMANDS = ("check", "i18n check", "i18n review", "i18n review --markdown", "check (rule file names)")


@pytest.mark.parametrize("command", COMMANDS)
def test_no_payload_in_a_name_context_or_text_starts_a_line_the_runner_obeys(outputs, command):
    output = outputs[command]
    obeyed = runner_commands.commands(output)
    forged = [(line, found) for line, found in obeyed
              if found.name not in ("error", "warning") or set(found.properties) - {"file", "line", "title"}]
    assert not forged, "\n".join(repr(line) for line, _ in forged[:10])
    own = {line for line, _found in obeyed}  # the runner reads an annotation as `::` first: a `##[` in it is data
    assert not [line for line in runner_commands.lines(output) if line not in own and ("##[" in line or "##vso[" in line)]


@pytest.mark.parametrize("command", ("check", "i18n check", "check (rule file names)"))
def test_every_annotation_names_a_real_file_escaped_by_githubs_rules(outputs, command):
    repo = outputs["rules" if "rule file" in command else "catalogs"]
    annotations = [found for _line, found in runner_commands.commands(outputs[command])]
    planted = [found for found in annotations if re.search(r"/(zz|y)\d", found.properties["file"])]
    assert len(planted) >= 8, f"only {len(planted)} annotations about the planted files"
    for found in annotations:  # unescaped as the runner does, the file property is the file's exact name
        assert (repo / found.properties["file"]).is_file(), found.properties["file"]


@pytest.mark.parametrize("command", COMMANDS)
def test_the_payloads_are_shown_escaped_on_one_line(outputs, command):
    output = outputs[command]
    shown = [payload for payload in PAYLOADS if runner_commands.escaped(payload) in output]
    assert len(shown) >= 8, f"{command}: only {len(shown)} payloads are shown: {output[:2000]}"
    for line in runner_commands.lines(output):
        if not line.startswith("::"):  # an annotation's data may hold them: GitHub's own escaping applies there
            assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]", line), repr(line)


def test_the_plain_problem_line_and_the_review_name_a_file_with_a_newline_on_one_line(outputs):
    name = outputs["planted"]["file name 0"]
    assert f"{runner_commands.escaped(name)}:" in outputs["i18n check"]
    assert f"{runner_commands.escaped(name)}:" in outputs["i18n review"]
    assert "wap/dodge:x0\\n::stop-commands::x" in outputs["i18n review"]
    assert "Уклонение 0\\n::stop-commands::x" not in outputs["i18n review"]  # texts: whitespace collapsed
    assert "Уклонение 0 ::stop-commands::x" in outputs["i18n review"]


# --- the job summary (N2) ----------------------------------------------------------------------------------

GFM_ROW = re.compile(r"^\|.*\|$")


def unescaped_pipes(line: str) -> int:
    """How many cell delimiters GFM sees in a table row: pipes not escaped by a backslash."""
    return len(re.findall(r"(?<!\\)\|", line))


def assert_literal_summary(text: str, expected_rows: int):
    """A summary whose quoted values stay in their cells: every row has six cells, the only headings and the only
    HTML are the report's own, and rendered it holds no other element."""
    lines = text.splitlines()
    rows = [line for line in lines if line.startswith("|") and not line.startswith("|---")]
    assert len(rows) == expected_rows + 1  # and the header row
    assert all(unescaped_pipes(row) == 7 and GFM_ROW.match(row) for row in rows), [r for r in rows if
                                                                                  unescaped_pipes(r) != 7][:3]
    assert [line for line in lines if line.startswith("#")] == \
        ["## Translation review", f"### ru — {expected_rows} message(s)"]
    outside_code = re.sub(r"(`+).*?\1", "", text)  # inside a code span GFM shows `<b>` as text
    raw_tags = set(re.findall(r"</?([a-zA-Z][\w-]*)", outside_code))
    assert raw_tags <= {"br"}, raw_tags
    html = python_markdown.markdown(text, extensions=["tables"])
    assert set(re.findall(r"<([a-z][\w-]*)", html)) <= {"h2", "h3", "p", "code", "table", "thead", "tbody", "tr",
                                                      "th", "td", "br", "blockquote", "strong"}
    assert html.count("<tr>") == expected_rows + 1


def test_the_job_summary_quotes_hostile_names_keys_and_texts_literally(outputs):
    summary = outputs["summary"].read_text(encoding="utf-8")
    assert summary.startswith("## Translation review") and summary in outputs["i18n review --markdown"]
    in_texts = [payload for payload in PAYLOADS if not any(char in payload for char in NOT_IN_CATALOG_TEXT)]
    changed = 2 * len(in_texts) + len(outputs["planted"])
    assert_literal_summary(summary, changed)


REVIEW_PAYLOADS = ("translations/ru/rules/wap/q`<img src=x onerror=alert(1)>`|<b>FAKE4<b>|\n## FAKE5 heading.po",
                   "a``b```c|d\\|e\r\n### h<script>x</script>.po", "`lead and trail`.po", "x\u2028::error::y.po")


def test_a_file_name_can_neither_close_its_code_span_nor_break_the_table_nor_start_a_heading_nor_carry_html():
    changes = [Change("ru", name, 7, f"wap/q:title{name}", "translation added", f"Q {name}", "", f"Кю {name}",
                      checks=[f"issue {name}"]) for name in REVIEW_PAYLOADS]
    changes.append(Change("ru", REVIEW_PAYLOADS[0], 9, "wap/q:summary", "fuzzy flag cleared, translation unchanged",
                          "Q", "Кю", "Кю", fuzzy_cleared=True, previous_source="Q <b>old</b>"))
    text = markdown(Review("0123456789abcdef", "the merge base with main", changes))
    assert_literal_summary(text, len(changes))
    for row in [line for line in text.splitlines() if line.startswith("| `")]:  # a code span holds a whole name
        fence = re.match(r"\| (`+)", row).group(1)
        inner = row[2 + len(fence):].split(fence + "<br>", 1)[0]
        assert re.fullmatch(r" ?[^\r\n]*:\d+ ?", inner) and fence not in inner, row
