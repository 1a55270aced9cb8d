"""Measure translation memory lookups: on a language's real catalogs and on a synthetic memory N times larger.

    .venv/bin/python scripts/bench_memory.py             # ru, synthetic memory 20 times the real one
    .venv/bin/python scripts/bench_memory.py --lang en --times 50

Each lookup asks for a close match of a real source text with its last character replaced, the
case `i18n update` meets when a sentence is edited slightly. The synthetic memory repeats every
real source with a numbered suffix, so every lookup has many near candidates to weigh.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.i18n.memory import TranslationMemory  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def timed_lookups(memory: TranslationMemory, sources: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    found = sum(1 for source in sources if memory.closest(source[:-1] + "!") is not None)
    return time.perf_counter() - start, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ru")
    parser.add_argument("--times", type=int, default=20, help="synthetic memory size as a multiple of the real one")
    parser.add_argument("--lookups", type=int, default=200, help="lookups on the synthetic memory")
    args = parser.parse_args()

    start = time.perf_counter()
    real = TranslationMemory.of_language(ROOT, args.lang)
    read = time.perf_counter() - start
    sources = sorted(real.places)
    seconds, found = timed_lookups(real, sources)
    print(f"{args.lang}: {len(sources)} translated sources read in {read:.2f} s; {len(sources)} lookups in "
          f"{seconds:.2f} s ({1000 * seconds / max(len(sources), 1):.2f} ms each), {found} close matches")

    synthetic = TranslationMemory()
    for number in range(args.times):
        for source in sources:
            synthetic.add(f"{source} variant{number}", "x", "synthetic.po", 1)
    sample = sources[:args.lookups]
    seconds, found = timed_lookups(synthetic, sample)
    print(f"synthetic: {len(synthetic.places)} sources; {len(sample)} lookups in {seconds:.2f} s "
          f"({1000 * seconds / max(len(sample), 1):.2f} ms each), {found} close matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
