"""A rule removed and restored keeps its translations as they were (the security review's N12), and since an obsolete
translation comes back as it is, `i18n review` shows every obsolete translation a change adds."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from generator.i18n.po.reader import read_catalog

from .conftest import run_generator, write

DODGE_RULE = "rules/wap/dodge.yaml"
DODGE = "translations/ru/rules/wap/dodge.po"


def update(repo: Path) -> str:
    result = run_generator(repo, "i18n", "update")
    assert result.returncode == 0, result.stderr
    return result.stdout


def messages(repo: Path) -> dict:
    return {m.context: m for m in read_catalog(repo / DODGE, "ru") if m.id}


def remove_and_restore(repo: Path) -> str:
    """Remove the rule, update, put it back, update: the output of the last update."""
    rule = repo / DODGE_RULE
    saved = rule.read_bytes()
    rule.unlink()
    obsoleted = update(repo)
    assert "made obsolete" in obsoleted and not any(messages(repo).values())
    rule.write_bytes(saved)
    return update(repo)


def test_a_removed_and_restored_rule_gets_its_catalog_back_byte_for_byte(repo):
    before = (repo / DODGE).read_bytes()
    translated = [m for m in messages(repo).values() if m.string and not m.fuzzy]
    assert len(translated) > 30
    restored = remove_and_restore(repo)
    assert "ru: 1 file(s) changed;" in restored and " 0 marked fuzzy," in restored
    assert (repo / DODGE).read_bytes() == before
    status = run_generator(repo, "i18n", "status", "--lang", "ru").stdout
    line = next(line.strip() for line in status.splitlines() if line.strip().startswith("rules/wap/dodge:"))
    assert line == f"rules/wap/dodge: {len(translated)} translated, 0 fuzzy, 0 missing"


def test_a_message_edited_before_the_removal_alone_comes_back_fuzzy_with_the_text_it_was_made_for(repo):
    rule = repo / DODGE_RULE
    rule.write_text(rule.read_text(encoding="utf-8").replace("adds together.", "add up.", 1), encoding="utf-8")
    update(repo)
    restored = remove_and_restore(repo)
    assert " 0 marked fuzzy," in restored  # the edited one was fuzzy already: it stays so, nothing else is
    fuzzy = {context: m.previous_id for context, m in messages(repo).items() if m.fuzzy}
    assert fuzzy == {"wap/dodge:clause:cumulative": ["Dodge from different sources adds together."]}


GIT_IDENTITY = {"GIT_AUTHOR_NAME": "Reviewer", "GIT_AUTHOR_EMAIL": "reviewer@example.org",
                "GIT_COMMITTER_NAME": "Reviewer", "GIT_COMMITTER_EMAIL": "reviewer@example.org"}


def git(repo: Path, *args: str):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**os.environ, **GIT_IDENTITY})


def test_review_lists_an_obsolete_translation_a_change_adds_and_not_one_it_retires(repo):
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "pull-request")
    header = (repo / DODGE).read_text(encoding="utf-8").split("\n\n")[0]
    write(repo / "translations/ru/rules/wap/zz.po", f'{header}\n\n#~ msgctxt "wap/zz:clause:later"\n'
                                                    f'#~ msgid "A model may re-roll failed saves."\n'
                                                    f'#~ msgstr "Модель ДОЛЖНА перебросить успешные спасброски."\n')
    rule = repo / DODGE_RULE  # and a worked example the change removes: update retires its translation
    text = rule.read_text(encoding="utf-8")
    start = text.index("  - id: sum-capped-at-two\n")
    rule.write_text(text[:start] + text[text.index("  - id: ", start + 1):], encoding="utf-8")
    update(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "plant")
    review = run_generator(repo, "i18n", "review")
    assert review.returncode == 0, review.stderr
    blocks = {block.splitlines()[0]: block for block in review.stdout.split("\n\n") if block.startswith("transl")}
    planted = next(block for first, block in blocks.items() if first.startswith("translations/ru/rules/wap/zz.po:"))
    assert "wap/zz:clause:later: obsolete translation added or changed (restored as it is if its message comes " \
           "back)" in planted
    assert "  after      : Модель ДОЛЖНА перебросить успешные спасброски." in planted and "checks" not in planted
    assert len(blocks) == 2  # and the example's, listed as made obsolete: not as an obsolete translation added
    retired = next(block for first, block in blocks.items() if "dodge.po" in first)
    assert "wap/dodge:example:sum-capped-at-two: made obsolete" in retired
