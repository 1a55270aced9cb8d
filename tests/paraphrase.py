"""Paraphrase finder: our sentences that follow a source sentence word for word, synonyms aside.

Every sentence of `rules/` and `translations/` (YAML text, catalog msgstr, Markdown) is stemmed (Snowball,
English or Russian by alphabet), stripped of function words, and aligned with every sentence of the
source documents: a sentence is reported when the longest in-order common subsequence of content
stems covers at least COVERAGE of its own content words and is at least MIN_RUN words long.

Run `python tests/paraphrase.py [SEEDS_DIR]` for a report (file:line, our sentence, the source
sentence); tests/test_content.py runs the same search and fails on any finding.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import snowballstemmer
import yaml
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
FOLDERS = ("rules", "translations")
COVERAGE = 0.6  # share of our sentence's content words that the common subsequence must reach
MIN_RUN = 7  # and the least number of content words in it: shorter overlaps are ordinary phrasing
LINE_SEARCH = 40  # how many lines below a text's first line the report looks for a sentence's first words

# Words that carry no fact of their own; dropped before alignment (compared after lower-casing, ё as е).
ENGLISH_FUNCTION_WORDS = frozenset("""
a an the this that these those it its it's they them their theirs he him his she her we us our you your i me my
of to in on at by for from with without into onto upon over under about against between among through during
before after above below up down out off than as per via within
and or but nor if unless then else so because while whereas though although whether either neither both
is are was were be been being am do does did done doing has have had having
can could may might must shall should will would
not no also still even just only very too quite rather such same other another any all each every some
which who whom whose what when where why how there here
""".split())
RUSSIAN_FUNCTION_WORDS = frozenset("""
и а но да или либо ни не же ли бы то что чтобы как когда если хотя пока потому поэтому так также тоже лишь
только уже ещё еще даже вот вон там тут здесь где куда откуда
в во на с со к ко у о об обо от ото из изо до по за под над при про для без через перед между около после
он она оно они его её ее их им ему ей ними него неё нее них нему ней я мы ты вы меня мне нас нам вас вам
себя себе собой свой своя своё свое свои своего своей своих своим своими своему своею
этот эта это эти этого этой этих этим этими этому этом тот та те того той тех тем теми тому том
весь вся всё все всего всей всех всем всеми всему
который которая которое которые которого которой которых которым которыми которому котором
быть был была было были будет будут есть является являются
каждый каждая каждое каждые каждого каждой каждому каждым каждом любой любая любое любые любого любой любым
такой такая такое такие такого такой таких таким
""".split())

_TOKEN = re.compile(r"[a-zа-я0-9]+")
_REFERENCE = re.compile(r"\[\[([^\]|]*)(?:\|([^\]]*))?\]\]")
# A sentence ends at . ! ? before anything but a lower-case word (so "Flee! as" and "e.g. a" run on; a
# semicolon only joins clauses), at a blank line, or before a Markdown list or table line.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?![a-zа-яё])|\n\s*\n|\n(?=\s*[-*|#])")
_STEMMERS = {"en": snowballstemmer.stemmer("english"), "ru": snowballstemmer.stemmer("russian")}


# Sentences allowed to follow the source: lists of rule names that cannot be said otherwise. Each entry is
# (file, the sentence's first words, why); keep it to a handful, and every entry must still match a finding.
ALLOWED: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Sentence:
    """One sentence, where it is, and its content stems in order."""
    where: str
    text: str
    stems: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    ours: Sentence
    seed: Sentence
    run: int

    def __str__(self) -> str:
        share = self.run / len(self.ours.stems)
        return (f"{self.ours.where}: {self.run} of {len(self.ours.stems)} content words ({share:.0%}) in the "
                f"order of {self.seed.where}\n    ours:   {self.ours.text}\n    source: {self.seed.text}")


class Stems:
    """Content stems of a text; each distinct word is stemmed once."""

    def __init__(self):
        self.cache: dict[str, str | None] = {}

    def __call__(self, text: str) -> tuple[str, ...]:
        text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
        stems = []
        for word in _TOKEN.findall(text):
            stem = self.cache.get(word, "")
            if stem == "":
                stem = self.cache[word] = self._stem(word)
            if stem is not None:
                stems.append(stem)
        return tuple(stems)

    @staticmethod
    def _stem(word: str) -> str | None:
        if word in ENGLISH_FUNCTION_WORDS or word in RUSSIAN_FUNCTION_WORDS:
            return None
        lang = "ru" if re.search(r"[а-я]", word) else "en"
        return _STEMMERS[lang].stemWord(word)


def plain(text: str) -> str:
    """Our markup reduced to the words a reader sees: [[target|shown]] → shown, `code` → code."""
    text = _REFERENCE.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(1).split(":")[-1]
                          .split("/")[-1].replace("-", " "), text)
    return text.replace("`", "").replace("*", "")


def sentences_of(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


def _line_of(lines: list[str], start: int, sentence: str) -> int:
    """The line (1-based) at or after `start` where the sentence's first words are written."""
    head = _TOKEN.findall(sentence.casefold())[:3]
    for number in range(start, min(start + LINE_SEARCH, len(lines))):
        words = _TOKEN.findall(lines[number].casefold())
        if head and any(words[i:i + len(head)] == head for i in range(len(words))):
            return number + 1
    return start + 1


def _yaml_texts(path: Path):
    """(line, text) of every string scalar in a YAML file except predicate code."""
    node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    stack = [(node, None)]
    while stack:
        current, key = stack.pop()
        if isinstance(current, yaml.MappingNode):
            stack.extend((value, name.value) for name, value in current.value)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend((item, key) for item in current.value)
        elif isinstance(current, yaml.ScalarNode) and key != "code" and current.tag.endswith(":str"):
            yield current.start_mark.line, current.value


def _catalog_texts(path: Path):
    """(line, text) of every translation in a catalog (the msgid is checked where it is written, in rules/)."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            if message.id and string:
                yield max(message.lineno - 1, 0), string


def our_sentences(root: Path = ROOT, stems: Stems | None = None) -> list[Sentence]:
    stems = stems or Stems()
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix == ".yaml":
                texts = _yaml_texts(path)
            elif path.suffix == ".po":
                texts = _catalog_texts(path)
            elif path.suffix == ".md":
                texts = [(0, path.read_text(encoding="utf-8"))]
            else:
                continue
            lines = path.read_text(encoding="utf-8").splitlines()
            shown = path.relative_to(root).as_posix()
            for start, text in texts:
                for sentence in sentences_of(plain(text)):
                    content = stems(sentence)
                    if len(content) >= MIN_RUN:
                        found.append(Sentence(f"{shown}:{_line_of(lines, start, sentence)}",
                                              " ".join(sentence.split()), content))
    return found


def seed_sentences(seeds: Path = SEEDS, stems: Stems | None = None) -> list[Sentence]:
    stems = stems or Stems()
    found = []
    for path in sorted(seeds.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            for sentence in sentences_of(line):
                content = stems(sentence)
                if content:
                    found.append(Sentence(f"{path.name}:{number}", sentence, content))
    return found


def common_run(ours: tuple[str, ...], theirs: tuple[str, ...]) -> int:
    """Length of the longest in-order common subsequence of two stem sequences."""
    previous = [0] * (len(theirs) + 1)
    for word in ours:
        current = [0]
        for index, other in enumerate(theirs):
            current.append(previous[index] + 1 if word == other else max(previous[index + 1], current[index]))
        previous = current
    return previous[-1]


def findings(ours: list[Sentence], seeds: list[Sentence]) -> list[Finding]:
    """Each of our sentences that paraphrases a source sentence, with its closest source sentence."""
    by_stem: dict[str, dict[int, int]] = defaultdict(dict)
    for index, seed in enumerate(seeds):
        for stem, count in Counter(seed.stems).items():
            by_stem[stem][index] = count
    found = []
    for sentence in ours:
        needed = max(MIN_RUN, math.ceil(COVERAGE * len(sentence.stems) - 1e-9))
        # No common subsequence is longer than the stems two sentences share, repeats counted: only the
        # source sentences whose share reaches `needed` are aligned word by word.
        bound: dict[int, int] = defaultdict(int)
        for stem, count in Counter(sentence.stems).items():
            for index, theirs in by_stem.get(stem, {}).items():
                bound[index] += min(count, theirs)
        best = None
        for index, shared in bound.items():
            if shared < needed:
                continue
            run = common_run(sentence.stems, seeds[index].stems)
            if run >= needed and (best is None or run > best.run):
                best = Finding(sentence, seeds[index], run)
        if best:
            found.append(best)
    return found


def allowed_entry(finding: Finding):
    """The ALLOWED entry that covers a finding, or None."""
    path = finding.ours.where.rsplit(":", 1)[0]
    for entry in ALLOWED:
        if entry[0] == path and finding.ours.text.startswith(entry[1]):
            return entry
    return None


def main(argv: list[str]) -> int:
    seeds = Path(argv[1]) if len(argv) > 1 else SEEDS
    if not seeds.is_dir():
        print(f"no source documents at {seeds}", file=sys.stderr)
        return 2
    stems = Stems()
    found = findings(our_sentences(ROOT, stems), seed_sentences(seeds, stems))
    allowed = [finding for finding in found if allowed_entry(finding)]
    found = [finding for finding in found if not allowed_entry(finding)]
    for finding in found:
        print(finding)
    if allowed:
        print(f"({len(allowed)} more allowed by name in tests/paraphrase.py ALLOWED)")
    print(f"{len(found)} sentence(s) follow a source sentence (≥{COVERAGE:.0%} of their content words, "
          f"≥{MIN_RUN} words, in order)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
