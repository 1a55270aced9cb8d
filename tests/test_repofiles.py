"""The repository's files stay inside the repository: symlinks out, devices and fifos are refused, never read."""

from __future__ import annotations

import os

from generator.core.problems import Problems, relative
from generator.core.repofiles import read_repository_text, repository_files, write_problem
from generator.kb.load import load_and_validate

from .conftest import write

SECRET = "api_token: ghp_FAKE_SECRET_0123456789abcdef\n"


def test_a_rule_symlinked_to_a_file_outside_is_refused_and_its_content_never_shown(repo, tmp_path):  # F11
    outside = write(tmp_path / "outside" / "secret.yaml", SECRET)
    (repo / "rules/wap/leak.yaml").symlink_to(outside)
    _kb, problems = load_and_validate(repo)
    found = [str(problem) for problem in problems]
    assert found == ["rules/wap/leak.yaml: is a symlink that points outside the repository; it was not read — "
                     "replace the symlink by the file itself (inputs must live inside the repository)"]
    assert "ghp_FAKE" not in "".join(found)


def test_a_rule_symlinked_to_a_device_is_refused_without_reading_it(repo):  # F11 (/dev/zero)
    (repo / "rules/wap/zero.yaml").symlink_to("/dev/zero")
    _kb, problems = load_and_validate(repo)
    assert [problem.file for problem in problems] == ["rules/wap/zero.yaml"]
    assert "outside the repository" in str(next(iter(problems)))


def test_a_fifo_in_the_repository_is_refused_without_blocking(repo):
    os.mkfifo(repo / "rules/wap/pipe.yaml")
    _kb, problems = load_and_validate(repo)
    assert [p.message for p in problems] == ["is not a plain file (a device, fifo or socket); it was not read"]


def test_a_system_folder_symlinked_outside_is_not_entered(repo, tmp_path):  # F11 (folder)
    write(tmp_path / "elsewhere" / "_system.yaml", "id: elsewhere\nlang: en\nname: X\nbook: Y\n")
    write(tmp_path / "elsewhere" / "rule.yaml", SECRET)
    (repo / "rules/elsewhere").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    problems = Problems()
    files = repository_files(repo, "rules", problems)
    assert not any("elsewhere" in str(path) for path in files)
    assert [problem.file for problem in problems] == ["rules/elsewhere"]


def test_a_symlink_that_stays_inside_the_repository_is_followed(repo):
    (repo / "rules/wap/dodge-again.yaml").symlink_to(repo / "rules/wap/dodge.yaml")
    problems = Problems()
    assert repo / "rules/wap/dodge-again.yaml" in repository_files(repo, "rules", problems, (".yaml",))
    assert not problems
    assert read_repository_text(repo, repo / "rules/wap/dodge-again.yaml", problems).startswith("id: dodge")


def test_a_dangling_symlink_is_reported(repo):
    (repo / "docs/notes.txt").symlink_to(repo / "docs/no-such-file.txt")
    problems = Problems()
    repository_files(repo, "docs", problems)
    assert [p.message for p in problems] == ["is a symlink that points to nothing; it was not read"]


def test_writing_through_a_folder_symlinked_outside_is_refused(repo, tmp_path):  # F11 (i18n update)
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / "translations/ru/rules/elsewhere").symlink_to(outside, target_is_directory=True)
    assert write_problem(repo, repo / "translations/ru/rules/elsewhere/new.po") == \
        "is a symlink that points outside the repository"
    assert write_problem(repo, repo / "translations/ru/rules/wap/new-folder/new.po") is None


def test_a_problem_names_a_file_by_its_real_place_under_the_root_or_as_given_when_it_lies_elsewhere(tmp_path):
    (tmp_path / "repo/rules/wap").mkdir(parents=True)
    (tmp_path / "repo/linked").symlink_to(tmp_path / "repo/rules")
    (tmp_path / "repo/outside").symlink_to(tmp_path)
    root = tmp_path / "repo"
    assert relative(root / "rules/wap/dodge.yaml", root) == "rules/wap/dodge.yaml"
    assert relative(root / "linked/wap/dodge.yaml", root) == "rules/wap/dodge.yaml"  # where the link leads
    assert relative(root, root) == "."
    assert relative(root / "outside/elsewhere.po", root) == str(root / "outside/elsewhere.po")
    assert relative(tmp_path / "repository-2/x.po", root) == str(tmp_path / "repository-2/x.po")  # not a prefix
    assert relative(root / "rules/../rules/wap/x.po", str(root) + "/") == "rules/wap/x.po"


def test_a_root_given_relative_to_the_working_folder_is_followed_from_there_wherever_that_is(tmp_path, monkeypatch):
    for name in ("one", "two"):
        (tmp_path / name / "repo/rules").mkdir(parents=True)
        (tmp_path / name / "repo/rules/secret.yaml").write_text(SECRET, encoding="utf-8")
    (tmp_path / "two/repo/rules/outside.yaml").symlink_to(tmp_path / "one/repo/rules/secret.yaml")
    monkeypatch.chdir(tmp_path / "one")
    problems = Problems()
    assert read_repository_text("repo", "repo/rules/secret.yaml", problems) == SECRET and not problems
    monkeypatch.chdir(tmp_path / "two")  # the same words now name another checkout: the first one's is outside it
    assert read_repository_text("repo", "repo/rules/outside.yaml", problems) is None
    assert "outside the repository" in problems.items[0].message
