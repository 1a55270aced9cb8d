"""`i18n review`: every translation a change touched, before and after, checked, on a throw-away git repository."""

from __future__ import annotations

import os
import subprocess

import pytest

from generator.i18n.po.reader import read_catalog
from generator.i18n.po.writer import render_catalog
from generator.i18n.reviewreport import markdown_cell

from .conftest import run_generator

STRIDER = "translations/ru/rules/wap/strider.po"
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Reviewer", "GIT_AUTHOR_EMAIL": "reviewer@example.org",
                "GIT_COMMITTER_NAME": "Reviewer", "GIT_COMMITTER_EMAIL": "reviewer@example.org"}


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**os.environ, **GIT_IDENTITY})


def generator(repo, *args, env=None):
    return run_generator(repo, *args, env=env, unset=("GITHUB_STEP_SUMMARY",))


def edit_catalog(repo, path, context, change):
    catalog = read_catalog(repo / path, "ru")
    message = next(m for m in catalog if m.context == context)
    change(message)
    (repo / path).write_bytes(render_catalog(catalog))


def edit_rule(repo, rule, old, new):
    path = repo / f"rules/{rule}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def reviewed(repo):
    """A repository whose main has a fuzzy title and an untranslated clause; a branch then works on them."""
    edit_rule(repo, "wap/strider", "title: Strider", "title: Strider (terrain)")
    edit_rule(repo, "wap/strider", "\nclauses:\n",
              "\nclauses:\n  - id: reviewed-extra\n    text: >-\n      Wobbling quokkas never ride gryphons.\n"
              "  - id: reviewed-gone\n    text: >-\n      Sleepy wombats juggle lanterns.\n")
    assert generator(repo, "i18n", "update").returncode == 0
    edit_catalog(repo, STRIDER, "wap/strider:clause:reviewed-gone", lambda m: setattr(m, "string", "Сонные вомбаты."))
    title = read_catalog(repo / STRIDER, "ru")
    assert next(m for m in title if m.context == "wap/strider:title").fuzzy
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "translation-work")

    def changed(message):
        message.string = "В рукопашном бою всё по-старому: действуют боевые правила местности."

    def approved(message):  # the translator clears the flag without touching the translation
        message.flags.discard("fuzzy")
        message.previous_id = ()

    def added(message):
        message.string = "Шатающиеся квокки никогда не ездят на грифонах."

    edit_catalog(repo, STRIDER, "wap/strider:clause:combat", changed)
    edit_catalog(repo, STRIDER, "wap/strider:title", approved)
    edit_catalog(repo, STRIDER, "wap/strider:clause:reviewed-extra", added)
    edit_rule(repo, "wap/strider", "  - id: reviewed-gone\n    text: >-\n      Sleepy wombats juggle lanterns.\n", "")
    assert generator(repo, "i18n", "update").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "translate")
    return repo


def blocks(output: str) -> dict[str, str]:
    """The plain report's entries by message key."""
    found = {}
    for block in output.split("\n\n"):
        first = block.splitlines()[0]
        if first.startswith("translations/"):
            found[first.split(": ")[1]] = block
    return found


def test_review_lists_a_changed_an_approved_an_added_and_an_obsolete_message_and_nothing_else(reviewed):
    repo = reviewed
    result = generator(repo, "i18n", "review")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Translation review against ")
    assert "(the merge base with main): 4 message(s) changed" in result.stdout
    found = blocks(result.stdout)
    assert sorted(found) == sorted(["wap/strider:clause:combat", "wap/strider:title",
                                    "wap/strider:clause:reviewed-extra", "wap/strider:clause:reviewed-gone"])

    combat = found["wap/strider:clause:combat"]
    assert "translation changed" in combat.splitlines()[0]
    assert "  source now : In close combat nothing changes" in combat
    assert "  before     : В рукопашном бою ничего не меняется" in combat
    assert "  after      : В рукопашном бою всё по-старому" in combat
    assert "  checks     : ok" in combat

    title = found["wap/strider:title"]
    assert "fuzzy flag cleared, translation unchanged" in title
    assert "approved without a change" in title
    assert "  source now : Strider (terrain)" in title and "  made for   : Strider" in title
    assert title.count("Следопыт") == 2  # before and after are the same translation

    extra = found["wap/strider:clause:reviewed-extra"]
    assert "translation added" in extra and "  before     : (empty)" in extra
    assert "  after      : Шатающиеся квокки" in extra

    obsolete = found["wap/strider:clause:reviewed-gone"]
    assert "made obsolete" in obsolete and "  source was : Sleepy wombats juggle lanterns." in obsolete
    assert "  before     : Сонные вомбаты." in obsolete and "(kept as obsolete #~)" in obsolete
    assert "checks" not in obsolete


def test_review_shows_the_check_results_of_a_changed_translation(reviewed):
    repo = reviewed
    edit_catalog(repo, STRIDER, "wap/strider:clause:movement", lambda m: setattr(m, "string", "Просто текст."))
    movement = blocks(generator(repo, "i18n", "review").stdout)["wap/strider:clause:movement"]
    assert "  checks     : cross-references differ from the source: missing [[term:dangerous-terrain]]" in movement


def test_review_writes_markdown_to_the_job_summary_with_translations_escaped(reviewed, tmp_path):
    repo = reviewed
    edit_catalog(repo, STRIDER, "wap/strider:clause:combat", lambda m: setattr(m, "string", "<b>жирно</b> | *x*"))
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    result = generator(repo, "i18n", "review", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.returncode == 0 and result.stdout.startswith("Translation review against ")
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n## Translation review\n")
    assert "| message | what | source now | before | after | checks |" in text
    assert "&lt;b&gt;жирно&lt;/b&gt; \\| \\*x\\*" in text and "<b>" not in text
    assert "> **Fuzzy flag cleared without a change** at `translations/ru/rules/wap/strider.po:" in text
    assert "The translation was made for «Strider»." in text
    assert generator(repo, "i18n", "review", "--markdown").stdout == text[len("earlier step\n"):]


def test_review_against_the_branch_itself_lists_nothing_and_an_unknown_base_is_refused(reviewed):
    repo = reviewed
    assert "0 message(s) changed" in generator(repo, "i18n", "review", "HEAD").stdout
    refused = generator(repo, "i18n", "review", "no-such-branch")
    assert refused.returncode == 2 and "no revision 'no-such-branch'" in refused.stderr


def test_markdown_cells_show_text_literally_on_one_line():
    assert markdown_cell("a|b\n*c* [d](e) <i>&") == "a\\|b<br>\\*c\\* \\[d\\](e) &lt;i&gt;&amp;"
    assert markdown_cell("") == "—"
