"""Plant the CI payloads in every text field a pull request can change, run the commands CI runs, and count what
the GitHub runner would obey in their output.

    .venv/bin/python scripts/sweep_ci_output.py                   # this checkout's code
    .venv/bin/python scripts/sweep_ci_output.py --code /tmp/base  # another version's (a `git archive` of it)

Each field gets its own throw-away git repository (a copy of this repository's inputs, committed on `main`,
then the payloads committed on a branch, as a pull request would): catalog file names, msgctxt, msgid,
msgstr, plural forms, translator comments with a previous msgid, obsolete entries, glossary keys, raw line
separators in a catalog string, rule file names, rule texts, worked examples, and a players' scenario file. In each,
`check`, `i18n check`, `i18n status`, `i18n review` (plain, and --markdown with $GITHUB_STEP_SUMMARY) and
`i18n update` run under GITHUB_ACTIONS=true; their stdout and stderr are read as the runner reads them
(tests/runner_commands.py). Per field and command: the exit code, the lines printed, how many of the 12
payloads reached the output at all and how many exactly as plain() escapes them (a text's whitespace is
collapsed, a Markdown cell's syntax backslashed), how many lines the runner would obey as something other than the project's
own error/warning annotations ("forged"), lines with a raw control character, and seconds.
A sweep, not a test (tests/test_ci_output.py is the test); the figures go in commit messages.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.runner_commands import PAYLOADS, commands, escaped, lines  # noqa: E402  (after the path is set)

IDENTITY = {"GIT_AUTHOR_NAME": "Sweep", "GIT_AUTHOR_EMAIL": "sweep@example.org", "GIT_COMMITTER_NAME": "Sweep",
            "GIT_COMMITTER_EMAIL": "sweep@example.org"}
IN_NAMES = [payload for payload in PAYLOADS if "/" not in payload and "\x00" not in payload]
# Line separators other than LF: a catalog string may hold them raw (GNU gettext and the reader end a line at LF
# only); they are planted on their own too (the "separators in a catalog" field).
LINE_ENDS = "\u2028\x85"
IN_PO = list(PAYLOADS)
# A piece of each payload that survives any way of showing it (escaped, whitespace collapsed, Markdown-escaped
# less so): how many payloads reached the output at all.
MARKERS = ("stop-commands::x", "add-mask::y", "title=F::z", "title=CR::w", "::crlf", "::pct2", "::ls", "::nel",
           "::indented", "v1 anywhere", "v1mask", "31mred")
DODGE = "translations/ru/rules/wap/dodge.po"
STRIDER = "translations/ru/rules/wap/strider.po"


def po(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") \
        .replace("\t", "\\t") + '"'


def yaml_string(text: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 32 or 0x7f <= ord(c) <= 0x9f or c in "\u2028\u2029"
                         else "\\\\" if c == "\\" else '\\"' if c == '"' else c for c in text) + '"'


def header(repo: Path) -> str:
    return (repo / STRIDER).read_text(encoding="utf-8").split("\n\n")[0]


def append(path: Path, text: str):
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")


def replace_once(path: Path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- the fields: each plants every payload it can hold ------------------------------------------------------

def catalog_file_names(repo: Path):
    for n, payload in enumerate(IN_NAMES):
        (repo / f"translations/ru/rules/wap/zz{n}{payload}.po").write_text(
            f'{header(repo)}\n\nmsgctxt "wap/zz{n}:title"\nmsgid "Zz"\nmsgstr "Зз"\n', encoding="utf-8")


def msgctxt(repo: Path):
    append(repo / DODGE, "\n".join(f"msgctxt {po(f'wap/dodge:x{n}{p}')}\nmsgid \"Dodge {n}\"\nmsgstr \"У {n}\"\n"
                                   for n, p in enumerate(IN_PO)))


def msgid(repo: Path):
    append(repo / DODGE, "\n".join(f"msgctxt \"wap/dodge:y{n}\"\nmsgid {po(f'Dodge{p}')}\nmsgstr \"У {n}\"\n"
                                   for n, p in enumerate(IN_PO)))


def msgstr(repo: Path):
    text = (repo / STRIDER).read_text(encoding="utf-8")
    found = re.findall(r'(msgctxt "wap/strider:[^"]*"\nmsgid "[^"]*"\nmsgstr )("[^"\n]*")', text)
    for n, ((head, old), payload) in enumerate(zip(found, IN_PO)):
        text = text.replace(head + old, head + po(f"Перевод {n}{payload} [[no/such-rule]] 99"), 1)
    (repo / STRIDER).write_text(text, encoding="utf-8")


def plural_forms(repo: Path):
    payload = "".join(IN_PO)
    replace_once(repo / "translations/ru/ui.po", 'msgstr[0] "%(num)s дюйм"', f"msgstr[0] {po('%(num)s дюйм' + payload)}")
    replace_once(repo / "translations/ru/ui.po", 'msgstr[1] "%(num)s дюйма"', f"msgstr[1] {po(payload)}")


def comments_and_previous(repo: Path):
    """On the base: a fuzzy message whose #| previous msgid and translator comment hold the payloads; the branch
    clears fuzzy, so the review says what the translation was made for."""
    payload = "".join(IN_PO)
    replace_once(repo / STRIDER, 'msgctxt "wap/strider:title"',
                 f"# {escaped(payload)}\n#, fuzzy\n#| msgid {po('Strider' + payload)}\nmsgctxt \"wap/strider:title\"")


def clear_fuzzy(repo: Path):
    text = (repo / STRIDER).read_text(encoding="utf-8")
    (repo / STRIDER).write_text(re.sub(r"#, fuzzy\n#\| msgid .*\n(msgctxt \"wap/strider:title\")", r"\1", text),
                                encoding="utf-8")


def obsolete_entries(repo: Path):
    append(repo / DODGE, "\n".join(f"#~ msgctxt {po(f'wap/dodge:gone{n}{p}')}\n#~ msgid {po(f'Gone{p}')}\n"
                                   f"#~ msgstr {po(f'Ушло{p}')}\n" for n, p in enumerate(IN_PO)))


def glossary_keys(repo: Path):
    append(repo / "translations/ru/glossary.yaml", "".join(f"{yaml_string('x' + p)}: 1\n" for p in PAYLOADS))


def separators_in_a_catalog(repo: Path):
    append(repo / DODGE, "\n".join(f"msgctxt \"wap/dodge:z{n}\"\nmsgid \"Dodge {n}\"\nmsgstr {po(p)}\n"
                                   for n, p in enumerate(PAYLOADS) if any(c in p for c in LINE_ENDS)))


def rule_file_names(repo: Path):
    dodge = (repo / "rules/wap/dodge.yaml").read_text(encoding="utf-8")
    for n, payload in enumerate(IN_NAMES):
        (repo / f"rules/wap/y{n}{payload}.yaml").write_text(dodge, encoding="utf-8")


def rule_texts(repo: Path):
    path = repo / "rules/wap/dodge.yaml"
    clauses = "".join(f"  - id: sweep-{n}\n    text: {yaml_string('Sweep ' + str(n) + p)}\n" for n, p in enumerate(PAYLOADS))
    replace_once(path, "\nclauses:\n", "\nclauses:\n" + clauses)
    replace_once(path, "title: Dodge", f"title: {yaml_string('Dodge' + PAYLOADS[0])}")


def translate_rule_texts(repo: Path):
    """After `i18n update` made their messages: translate them, so the review quotes their source texts."""
    text = (repo / DODGE).read_text(encoding="utf-8")
    text = re.sub(r'(msgctxt "wap/dodge:clause:sweep-(\d+)"\nmsgid (?:"[^\n]*"\n)+)msgstr ""',
                  lambda m: f'{m.group(1)}msgstr "Перевод {m.group(2)}"', text)
    (repo / DODGE).write_text(text, encoding="utf-8")


def worked_examples(repo: Path):
    path = repo / "rules/wap/dodge.yaml"
    examples = "".join(f"  - id: sweep-{n}\n    predicate: dodge_save\n    clause: cumulative\n"
                       f"    name: {yaml_string('Sweep ' + p)}\n    given: {{sources: [6], arc: front, "
                       f"magical_auto_hit: false, attacker_asf: false, model_asl: false, mounted: false, "
                       f"mounted_allowed: false}}\n    expect: {yaml_string(p)}\n" for n, p in enumerate(PAYLOADS))
    replace_once(path, "\nexamples:\n", "\nexamples:\n" + examples)


def scenario_file(repo: Path):
    entries = "".join(f"- rule: {yaml_string('wap/dodge' + p)}\n  predicate: dodge_save\n  name: {yaml_string(p)}\n"
                      f"  given: {{sources: [6]}}\n  expect: {yaml_string(p)}\n" for p in PAYLOADS)
    (repo / "scenario.yaml").write_text(entries, encoding="utf-8")


# field -> (plant on the branch, plant on main first or None, after an `i18n update` on the branch or None)
FIELDS = {
    "catalog file name": (catalog_file_names, None, None),
    "msgctxt": (msgctxt, None, None),
    "msgid": (msgid, None, None),
    "msgstr": (msgstr, None, None),
    "plural forms (ui.po)": (plural_forms, None, None),
    "comment and #| msgid": (clear_fuzzy, comments_and_previous, None),
    "obsolete #~ entry": (obsolete_entries, None, None),
    "glossary.yaml key": (glossary_keys, None, None),
    "separators in a catalog": (separators_in_a_catalog, None, None),
    "rule file name": (rule_file_names, None, None),
    "rule texts": (rule_texts, None, translate_rule_texts),
    "worked example": (worked_examples, None, None),
    "scenario file": (scenario_file, None, None),
}
COMMANDS = (("check",), ("i18n", "check"), ("i18n", "status"), ("i18n", "review"), ("i18n", "review", "--markdown"),
            ("i18n", "update"))


def git(repo: Path, *args: str):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**os.environ, **IDENTITY})


def repository(folder: Path, field: str) -> Path:
    from generator.site.inputs import copy_inputs

    repo = copy_inputs(ROOT, folder / "repo")
    plant, base_plant, after_update = FIELDS[field]
    git(repo, "init", "-q", "-b", "main")
    if base_plant:
        base_plant(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "pull-request")
    plant(repo)
    if after_update:
        run(repo, ("i18n", "update"), ROOT, None)
        after_update(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "payloads")
    return repo


def run(repo: Path, command: tuple, code: Path, summary: Path | None) -> tuple[int, str, float]:
    env = {**os.environ, "GITHUB_ACTIONS": "true"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    extra = ("scenario.yaml",) if command == ("check",) and (repo / "scenario.yaml").exists() else ()
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "generator", "--root", str(repo), *command, *extra], cwd=code,
                            env=env, capture_output=True, timeout=600)
    output = result.stdout.decode("utf-8", "replace") + "\n" + result.stderr.decode("utf-8", "replace")
    return result.returncode, output, time.perf_counter() - start


def measure(output: str) -> dict:
    obeyed = commands(output)
    own = {line for line, found in obeyed if found.name in ("error", "warning")
           and set(found.properties) <= {"file", "line", "title"} and line.startswith("::")}
    printed = lines(output)
    return {"lines": len([line for line in printed if line.strip()]),
            "escaped": sum(escaped(payload) in output for payload in PAYLOADS),
            "reached": sum(marker in output for marker in MARKERS),
            "forged": len([line for line, _found in obeyed if line not in own]),
            "raw": len([line for line in printed if line not in own and re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f"
                                                                                  r"\u2028\u2029]", line)]),
            "traceback": "Traceback" in output}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose generator/ runs the commands")
    parser.add_argument("--field", action="append", choices=sorted(FIELDS), help="only these fields")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="sweep-") as scratch:
        for field in args.field or FIELDS:
            folder = Path(scratch) / re.sub(r"\W+", "-", field)
            repo = repository(folder, field)
            for command in COMMANDS:
                summary = folder / "summary.md" if command == ("i18n", "review") else None
                code, output, seconds = run(repo, command, args.code, summary)
                if summary is not None and summary.exists():
                    output += "\n" + summary.read_text(encoding="utf-8")  # what the job summary would hold
                rows.append((field, " ".join(command), code, measure(output), seconds))
    width = max(len(row[0]) for row in rows)
    print(f"{'field':<{width}}  {'command':<22} rc  lines  reached  escaped  forged  raw  traceback  seconds")
    for field, command, code, found, seconds in rows:
        print(f"{field:<{width}}  {command:<22} {code:>2}  {found['lines']:>5}  {found['reached']:>7}  "
              f"{found['escaped']:>7}  {found['forged']:>6}  {found['raw']:>3}  "
              f"{'yes' if found['traceback'] else 'no':>9}  {seconds:7.2f}")
    forged = sum(row[3]["forged"] for row in rows)
    raw = sum(row[3]["raw"] for row in rows)
    tracebacks = sum(row[3]["traceback"] for row in rows)
    print(f"\n{len(rows)} runs over {len({row[0] for row in rows})} fields and {len(PAYLOADS)} payloads: "
          f"{forged} forged command line(s), {raw} line(s) with a raw control character, {tracebacks} traceback(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
