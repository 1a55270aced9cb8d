"""Time make targets of two checkouts by turns (old, new, old, new, …): wall and CPU of each run.

    python scripts/bench_make.py --turns 2 /tmp/old-37:test .:check .:test

Each argument is CHECKOUT:TARGET; one turn runs each of them once, in the order given. CPU is user + sys of every
process the run waited for (make, pytest, its workers, Chromium), from wait4. The machine is shared: the load
average before each run is printed beside it, and the figures to compare are those of one turn.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path


def run(checkout: Path, target: str, log: Path) -> dict:
    """One run of `make TARGET` in `checkout`: its wall and CPU seconds, exit status and pytest's last line."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(["make", target], cwd=checkout, stdout=out, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    summary = next((line for line in reversed(lines) if " passed" in line or " failed" in line), lines[-1:] or "")
    return {"wall": wall, "user": usage.ru_utime, "sys": usage.ru_stime, "status": os.waitstatus_to_exitcode(status),
            "load": load, "summary": summary}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="CHECKOUT:TARGET")
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--logs", type=Path, default=Path("/tmp/bench-make"))
    args = parser.parse_args(argv)
    args.logs.mkdir(parents=True, exist_ok=True)
    for turn in range(1, args.turns + 1):
        for index, spec in enumerate(args.runs):
            checkout, target = spec.rsplit(":", 1)
            log = args.logs / f"turn{turn}-{index}-{target}.log"
            figures = run(Path(checkout).resolve(), target, log)
            print(f"turn {turn}  {checkout}:{target}  wall {figures['wall']:.1f} s  CPU {figures['user']:.1f} user + "
                  f"{figures['sys']:.1f} sys = {figures['user'] + figures['sys']:.1f} s  exit {figures['status']}  "
                  f"load before {figures['load']:.1f}  | {figures['summary']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
