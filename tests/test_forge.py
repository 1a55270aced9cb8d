"""What a contributor meets on the forge: the workflow's policy, annotations on the changed line, msgfmt -c."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from generator.core.problems import Problem
from generator.core.report_formats import GITHUB, PLAIN, annotation, chosen_format, problem_annotation

from .conftest import ROOT, run_generator, write

WORKFLOWS = ROOT / ".github" / "workflows"
VENV_BIN = Path(sys.executable).parent
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$")


def generator(repo, *args, env=None):
    return run_generator(repo, *args, env=env, unset=("GITHUB_ACTIONS",))


def workflow_files():
    return sorted(WORKFLOWS.glob("*.yml")) + sorted(WORKFLOWS.glob("*.yaml"))


def tool(name: str) -> str:
    found = VENV_BIN / name
    assert found.exists(), f"{name} is not installed: run `make .venv/.installed` (requirements.txt lists it)"
    return str(found)


# --- the workflow ----------------------------------------------------------------------------------

def test_every_action_is_pinned_by_full_commit_with_its_version_in_a_comment():
    lines = [line.strip() for path in workflow_files() for line in path.read_text(encoding="utf-8").splitlines()]
    uses = [line.split("uses:", 1)[1].strip() for line in lines if re.match(r"^(- )?uses:", line)]
    assert len(uses) >= 5
    assert [ref for ref in uses if not PINNED.match(ref)] == []


def test_each_job_gets_only_its_own_permissions_and_checkouts_keep_no_credentials():
    for path in workflow_files():
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert workflow["permissions"] == {}, path
        for name, job in workflow["jobs"].items():
            assert "permissions" in job, f"{path.name}: job {name} must list its permissions"
            assert "write-all" not in str(job["permissions"])
            for step in job["steps"]:
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False
                assert "${{" not in step.get("run", ""), f"{path.name}: {name} puts an expression in run:"


def test_the_workflow_runs_the_same_commands_a_contributor_runs():
    runs = [step["run"] for path in workflow_files()
            for job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].values()
            for step in job["steps"] if "run" in step]
    trust = 'git config --global --add safe.directory "$GITHUB_WORKSPACE"'  # the container's root, not a command
    assert sorted(run for run in runs if run != trust) == \
        sorted(["make check", "make test-browser", "make site", ".venv/bin/python -m generator i18n review"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme and "make check" in readme


def test_the_quick_check_is_the_workflows_first_job_and_publishing_waits_for_both():
    jobs = yaml.safe_load((WORKFLOWS / "ci.yml").read_text(encoding="utf-8"))["jobs"]
    runs = {name: [step.get("run") for step in job["steps"]] for name, job in jobs.items()}
    assert next(iter(jobs)) == "check" and "make check" in runs["check"]
    assert "needs" not in jobs["check"] and "needs" not in jobs["browser"]  # side by side
    assert "make test-browser" in runs["browser"] and set(jobs["site"]["needs"]) == {"check", "browser"}


def test_make_test_is_the_quick_check_and_then_the_browser_suites_which_split_the_tests_between_them():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test:.*\n\t@\$\(MAKE\) --no-print-directory -k check test-browser$", makefile, re.MULTILINE)
    quick = re.search(r'^check:.*\n(?:\t.*\n)*?\t.*pytest .*-m "([^"]+)"', makefile, re.MULTILINE).group(1)
    browser = re.search(r'^test-browser:.*\n(?:\t.*\n)*?\t.*pytest .*-m "([^"]+)"', makefile, re.MULTILINE).group(1)
    assert (quick, browser) == ("not browser or smoke", "browser and not smoke")  # every test in exactly one


def test_actionlint_and_zizmor_pass_on_the_workflows():
    linted = subprocess.run([tool("actionlint"), *map(str, workflow_files())], cwd=ROOT, capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    result = subprocess.run([tool("zizmor"), "--offline", "--quiet", str(WORKFLOWS)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_and_zizmor_refuse_an_injection_and_an_unpinned_action(tmp_path):
    write(tmp_path / ".github/workflows/bad.yml", """name: bad
on: pull_request_target
jobs:
  greet:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: echo "${{ github.event.pull_request.title }}"
      - run: echo ${{ matrix.nothing }}
""")
    linted = subprocess.run([tool("actionlint"), str(tmp_path / ".github/workflows/bad.yml")], cwd=tmp_path,
                            capture_output=True, text=True)
    assert linted.returncode != 0 and "matrix" in linted.stdout
    audited = subprocess.run([tool("zizmor"), "--offline", str(tmp_path / ".github/workflows")],
                             capture_output=True, text=True)
    assert audited.returncode != 0
    for audit in ("template-injection", "unpinned-uses", "excessive-permissions"):
        assert audit in audited.stdout, audited.stdout


# --- annotations -----------------------------------------------------------------------------------

def test_annotation_escapes_percent_and_line_breaks_in_the_message_and_also_colon_and_comma_in_properties():
    problem = Problem("a,b:c%.po", 7, "ctx:one, two", "100% off\r\nnext", "fix: it")
    assert problem_annotation(problem) == \
        "::error file=a%2Cb%3Ac%25.po,line=7,title=ctx%3Aone%2C two::100%25 off%0D%0Anext — fix: it"
    assert annotation("warning", "f.po", 0, "", "whole file") == "::warning file=f.po::whole file"


def test_annotations_are_on_under_github_actions_or_when_asked_and_plain_stays_the_default():
    assert chosen_format(None, {}) == PLAIN
    assert chosen_format(None, {"GITHUB_ACTIONS": "true"}) == GITHUB
    assert chosen_format(GITHUB, {}) == GITHUB
    assert chosen_format(PLAIN, {"GITHUB_ACTIONS": "true"}) == PLAIN


def _break_movement_translation(repo) -> int:
    path = repo / "translations/ru/rules/wap/strider.po"
    text = path.read_text(encoding="utf-8")
    pattern = r'(msgctxt "wap/strider:clause:movement"\nmsgid ""\n(?:".*"\n)+msgstr )""\n(?:".*"\n)+'
    broken = re.sub(pattern, lambda match: match.group(1) + '"Просто текст без ссылки."\n', text)
    assert broken != text
    path.write_text(broken, encoding="utf-8")
    return broken.splitlines().index('msgctxt "wap/strider:clause:movement"') + 2  # the msgid line


def test_a_broken_translation_is_annotated_on_its_catalog_line_with_the_message_as_title(repo):
    line = _break_movement_translation(repo)
    plain = generator(repo, "i18n", "check")
    assert "::error" not in plain.stdout and plain.returncode == 2
    result = generator(repo, "i18n", "check", env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    head = f"::error file=translations/ru/rules/wap/strider.po,line={line},title=wap/strider%3Aclause%3Amovement '"
    tail = ("'::cross-references differ from the source: missing [[term:dangerous-terrain]] "
            "(keep each [[target]]; only the text after | may change)")
    found = [entry for entry in lines if entry.startswith(head) and entry.endswith(tail)]
    assert len(found) == 1, lines
    expected = found[0]
    assert "," not in expected[len(head):-len(tail)]  # the source preview in the title has its commas escaped
    # The plain line stays, right before its annotation.
    assert lines[lines.index(expected) - 1].startswith(f"translations/ru/rules/wap/strider.po:{line}: wap/strider:")
    assert generator(repo, "i18n", "check", "--format", "github").stdout == result.stdout


def test_a_catalog_that_does_not_parse_is_annotated_on_the_broken_line_by_generator_check(repo):
    path = repo / "translations/ru/rules/wap/strider.po"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('msgctxt "wap/strider:title"', 'msgctxt "wap/strider:title\nnot po syntax', 1),
                    encoding="utf-8")
    line = text.splitlines().index('msgctxt "wap/strider:title"') + 1
    result = generator(repo, "check", env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    plain = next(entry for entry in lines if entry.startswith("translations/ru/rules/wap/strider.po:"))
    assert plain.startswith(f"translations/ru/rules/wap/strider.po:{line}: rules/wap/strider: ")  # wording: the reader's
    text_and_hint = plain.split(": ", 2)[2]
    assert lines[lines.index(plain) + 1] == \
        f"::error file=translations/ru/rules/wap/strider.po,line={line},title=rules/wap/strider::{text_and_hint}"


def test_a_failing_example_is_annotated_on_the_line_of_the_example(repo):
    path = repo / "rules/t9a/scout.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("expect: true", "expect: false", 1), encoding="utf-8")
    result = generator(repo, "check", "--format", "github")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    failure = next(line for line in lines if line.startswith("FAIL "))
    where, test_id, detail = re.match(r"FAIL (rules/t9a/scout\.yaml:\d+): (\S+): (.*)$", failure).groups()
    assert detail == "expected False, got True"
    file, line = where.split(":")
    assert lines[lines.index(failure) + 1] == \
        f"::error file={file},line={line},title=example {test_id.replace(':', '%3A')} fails::expected False, got True"
    assert "::error" not in generator(repo, "check").stdout


# --- GNU gettext's own check -----------------------------------------------------------------------

def test_every_catalog_passes_msgfmt_check(tmp_path):
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext is missing: `make gettext-deps` installs it (make test does)"
    catalogs = sorted((ROOT / "translations").rglob("*.po"))
    assert len(catalogs) >= 20
    failures = {}
    for catalog in catalogs:
        result = subprocess.run([msgfmt, "-c", "-o", str(tmp_path / "out.mo"), str(catalog)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            failures[str(catalog.relative_to(ROOT))] = result.stderr
    assert failures == {}


def test_msgfmt_check_refuses_a_catalog_that_breaks_a_placeholder(tmp_path):
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: ru\\n"\n\n'
    good = write(tmp_path / "good.po", header + '#, python-format\nmsgid "figure %(num)s"\nmsgstr "рисунок %(num)s"\n')
    bad = write(tmp_path / "bad.po", header + '#, python-format\nmsgid "figure %(num)s"\nmsgstr "рисунок %(n)s"\n')
    runs = [subprocess.run(["msgfmt", "-c", "-o", str(tmp_path / "out.mo"), str(path)], capture_output=True, text=True)
            for path in (good, bad)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[1].returncode != 0 and "format" in runs[1].stderr
