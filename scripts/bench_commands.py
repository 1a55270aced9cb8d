"""Time the contributors' commands as the knowledge base grows: check, i18n check/update/status, check FILE.

    .venv/bin/python scripts/bench_commands.py                     # 13 (real), 100 and 1,000 extra rules
    .venv/bin/python scripts/bench_commands.py --rules 0 100 --code /tmp/main-checkout   # another version's code
    .venv/bin/python scripts/bench_commands.py --rules 1000 --code /tmp/base . --repeat 5 --empty-cache
                                                        # two versions, run by turns on the same inputs

Inputs: a temporary copy of the repository's inputs plus N copies of `wap/dodge` in a system `synth`
(each with its 14 worked examples and its complete Russian catalog, so every message is a real one),
the way issue 13 measured them; `--inputs words` uses `scripts/bench_search.py`'s synthetic
1,200-word rules instead. The catalogs are brought up to date once, so `i18n update` has nothing
to change. Each command runs in a fresh process (`python -m generator --root COPY …`) with the code
from `--code` (default: this checkout; several: each run goes to them by turns, so a machine that
slows down in between slows them alike); the figures are wall time, CPU time and the process's peak RSS.
With `--empty-cache` every command also runs with an empty on-disk cache (generator/core/cache.py), as on CI or
in a fresh clone, and with no cache at all (KB_NO_CACHE=1): a cold run must never be slower than that.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SOURCE_RULE = ("wap", "dodge")
SYSTEM = "synth"
SCENARIO = """- rule: synth/dodge-{number:04d}
  predicate: dodge_save
  given: {{sources: [6], arc: front, magical_auto_hit: false, attacker_asf: false, model_asl: false,
          mounted: false, mounted_allowed: false}}
  expect: 6
"""
COMMANDS = {  # name -> arguments after `--root COPY`; each size starts with an empty YAML cache
    "check (empty cache)": ["check"],
    "check": ["check"],
    "i18n check": ["i18n", "check"],
    "i18n update (no change)": ["i18n", "update"],
    "i18n status": ["i18n", "status"],
    "check FILE": ["check", "{scenario}"],
}


def dodge_copies(into: Path, count: int) -> Path:
    """A copy of the repository's inputs with `count` copies of wap/dodge (YAML and Russian catalog)."""
    from generator.site.inputs import copy_inputs

    shutil.rmtree(into, ignore_errors=True)
    copy_inputs(ROOT, into)
    system, rule = SOURCE_RULE
    source_yaml = (ROOT / "rules" / system / f"{rule}.yaml").read_text(encoding="utf-8")
    catalogs = {path.parts[-4]: path.read_text(encoding="utf-8")
                for path in (ROOT / "translations").glob(f"*/rules/{system}/{rule}.po")}
    folder = into / "rules" / SYSTEM
    folder.mkdir(parents=True)
    system_yaml = (ROOT / "rules" / system / "_system.yaml").read_text(encoding="utf-8")
    (folder / "_system.yaml").write_text(re.sub(r"(?m)^id: .*$", f"id: {SYSTEM}", system_yaml, count=1),
                                         encoding="utf-8")
    own_key = re.compile(rf"\b{system}/{rule}\b")
    for number in range(1, count + 1):
        key = f"{SYSTEM}/{rule}-{number:04d}"
        text = re.sub(r"(?m)^id: .*$", f"id: {rule}-{number:04d}", source_yaml, count=1)
        (folder / f"{rule}-{number:04d}.yaml").write_text(own_key.sub(key, text), encoding="utf-8")
        for lang, catalog in catalogs.items():
            target = into / "translations" / lang / "rules" / SYSTEM / f"{rule}-{number:04d}.po"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(own_key.sub(key, catalog), encoding="utf-8")
    return into


def word_rules(into: Path, count: int) -> Path:
    """bench_search's synthetic rules (1,200 words each, complete catalogs, no predicates)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_search import synthetic_repository

    return synthetic_repository(into, count)


def run(code: Path, root: Path, arguments: list[str], cache: Path | None) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS in MiB and exit code of one command in a fresh process (no cache: None).

    CPU time (user + system) is the steadier figure on a shared machine, where wall time waits for a core.
    """
    environment = dict(os.environ, PYTHONPATH=str(code))
    environment.pop("KB_NO_CACHE", None)
    if cache is None:
        environment["KB_NO_CACHE"] = "1"
    else:
        environment["XDG_CACHE_HOME"] = str(cache)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "generator", "--root", str(root), *arguments], cwd=code,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def _by_turns(codes: dict, timed, repeat: int) -> dict:
    """Each code's medians of `repeat` runs and its fastest and slowest wall time, the codes taking turns run by run.

    Each figure's own median: on a shared machine the run with the median wall time may be another's
    median CPU time. The range shows what one run may take: this machine's speed swings by half from minute
    to minute, so a bound met by the median can still be missed by a single run.
    """
    runs = {label: [] for label in codes}
    for _ in range(repeat):
        for label in codes:
            runs[label].append(timed(label))
    return {label: (*(sorted(column)[len(column) // 2] for column in zip(*found)),
                    min(run[0] for run in found), max(run[0] for run in found)) for label, found in runs.items()}


def _report(total: int, name: str, figures: dict):
    for label, (seconds, cpu, peak, code, fastest, slowest) in figures.items():
        shown = f"{name} {label}".strip()
        print(f"{total:>6} {shown:<40} {seconds:>8.2f} {f'{fastest:.2f}-{slowest:.2f}':>11} {cpu:>7.2f} "
              f"{peak:>9.0f} {code:>5}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=int, nargs="+", default=[0, 100, 1000], help="extra rules (0 = the real ones)")
    parser.add_argument("--inputs", choices=["dodge", "words"], default="dodge")
    parser.add_argument("--code", type=Path, nargs="+", default=[ROOT],
                        help="checkouts whose generator/ runs the commands (several: by turns, one row each)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per command (the median is shown)")
    parser.add_argument("--only", choices=["check", "i18n"], help="time only the check or only the i18n commands")
    parser.add_argument("--empty-cache", action="store_true", help="also run every command with an empty disk cache")
    args = parser.parse_args()
    make = dodge_copies if args.inputs == "dodge" else word_rules
    codes = {f"[{number}]": code for number, code in enumerate(args.code, start=1)} if len(args.code) > 1 else \
        {"": args.code[0]}
    for label, code in codes.items():
        print(f"code {label}: {code}".replace("code : ", "code: "))
    print(f"inputs: {args.inputs}; {os.cpu_count()} cores; medians of {args.repeat} run(s)")
    print(f"{'rules':>6} {'command':<40} {'seconds':>8} {'range':>11} {'CPU s':>7} {'peak MiB':>9} {'exit':>5}")
    with tempfile.TemporaryDirectory(prefix="bench-commands-") as temporary:
        for count in args.rules:
            root = make(Path(temporary) / f"repo-{count}", count)
            # Bring every catalog up to date once, so the timed `i18n update` has nothing to change.
            caches = {label: Path(temporary) / f"cache-{count}-{number}" for number, label in enumerate(codes)}
            if args.only != "check":
                run(ROOT, root, ["i18n", "update"], Path(temporary) / "cache-setup")
            scenario = Path(temporary) / "scenario.yaml"
            text = SCENARIO.format(number=max(count // 2, 1))
            scenario.write_text(text if count else text.replace("synth/dodge-0001", "wap/dodge"), encoding="utf-8")
            total = 13 + count
            for name, arguments in COMMANDS.items():
                if args.only and not name.startswith(args.only):
                    continue
                arguments = [item.format(scenario=scenario) for item in arguments]

                def cold(label):
                    empty = Path(tempfile.mkdtemp(prefix="cache-", dir=temporary))
                    try:
                        return run(codes[label], root, arguments, empty)
                    finally:
                        shutil.rmtree(empty, ignore_errors=True)

                if "empty cache" in name:  # each run from an empty cache; then one more fills the warm rows' cache
                    _report(total, name, _by_turns(codes, cold, args.repeat))
                    for label in codes:
                        run(codes[label], root, arguments, caches[label])
                    continue
                _report(total, name, _by_turns(codes, lambda label: run(codes[label], root, arguments, caches[label]),
                                               args.repeat))
                if args.empty_cache and name != "check":  # check's empty-cache row is the first command
                    _report(total, name + " (empty cache)", _by_turns(codes, cold, args.repeat))
                if args.empty_cache:
                    _report(total, name + " (no cache)", _by_turns(codes, lambda label: run(codes[label], root,
                                                                                            arguments, None), args.repeat))
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
