"""`i18n update` and `i18n init`: bring every catalog in line with the sources without losing work."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from ..core.cache import cached, key_bytes
from ..core.parallel import fill_cache
from ..core.problems import InputError, Problems, relative
from ..core.repofiles import FIX_LINK, write_problem
from ..kb.model import KnowledgeBase
from .extract import knowledge_base_messages, ui_messages
from .limits import SIZE_HINT, needs_interface, oversized
from .memory import LazyMemory, prefill
from .po.catalogs import catalog_path, existing_catalogs
from .po.merge import SourceMessage, merge
from .po.pofile import CatalogError
from .po.reader import message_key, read_bytes, read_catalog
from .po.writer import render_catalog


def wanted_catalogs(kb: KnowledgeBase, lang: str, messages: list[SourceMessage] | None = None,
                    interface: bool = True) -> "OrderedDict[str, list[SourceMessage]]":
    """The catalogs a language needs: every message whose source is in another language, grouped by file.

    `messages` are knowledge_base_messages(kb), made once by a caller that asks for several languages.
    Without `interface` the interface catalog is named but its messages are not extracted from the code
    (`check` needs only its name: an interface message's source is its own msgid).
    """
    catalogs: OrderedDict[str, list[SourceMessage]] = OrderedDict()
    for message in knowledge_base_messages(kb) if messages is None else messages:
        if message.source_lang != lang:
            catalogs.setdefault(message.catalog, []).append(message)
    if needs_interface(lang):
        catalogs["ui"] = ui_messages() if interface else []
    return catalogs



def _selected(name: str, only: list[str] | None) -> bool:
    if not only:
        return True
    for target in only:
        target = target.strip("/")
        if name in (target, f"rules/{target}") or name.startswith(f"rules/{target}/"):
            return True
        system = target.split("/")[0]
        if "/" in target and name == f"rules/{system}/_system":
            return True
    return False


def plan_update(root: Path, kb: KnowledgeBase, lang: str, only=None,
                messages: list[SourceMessage] | None = None) -> tuple[dict[Path, bytes], dict, Problems]:
    """Compute new catalog contents without writing: {path: bytes}, a summary, and problems."""
    problems = Problems()
    wanted = wanted_catalogs(kb, lang, messages)
    names = list(wanted) + [name for name in existing_catalogs(root, lang, problems) if name not in wanted]
    outputs: dict[Path, bytes] = {}
    summary = {"added": 0, "kept": 0, "fuzzied": 0, "obsoleted": 0, "files": 0, "prefilled": 0}
    memory = LazyMemory(root, lang, wanted)
    names = [name for name in names if _selected(name, only)]
    # Made before the merges are shared out: each needs its messages' lines, read once here rather than per core.
    source_keys = {name: _source_key(wanted.get(name, [])) for name in names}

    def update(name: str) -> tuple[bytes | None, dict]:
        """The catalog's new bytes, None if they are the file's (most catalogs: less to hand back), and counts."""
        path = catalog_path(root, lang, name)
        before = read_bytes(path, root) if path.exists() else None
        return _updated(path, lang, name, before, wanted.get(name, []), source_keys[name], memory)

    def merged_ahead(name: str):
        if not oversized(catalog_path(root, lang, name)):
            update(name)

    # A first run merges every catalog, most of its time at 1,000 rules: every core merges a share into the cache.
    fill_cache(merged_ahead, names)
    for name in names:
        path = catalog_path(root, lang, name)
        refused = oversized(path)
        if refused:  # nothing is merged from a file no rule's catalog could be; nothing is written
            problems.add(relative(path, root), 0, name, refused, SIZE_HINT)
            continue
        try:
            data, counts = update(name)
        except CatalogError as error:
            for line, message, _hint in error.problems:
                problems.add(relative(path, root), line, name, message,
                             "fix the catalog by hand (or restore it from git) before updating, so no work is lost")
            continue
        for key, count in counts.items():
            summary[key] += count
        refused = write_problem(root, path)
        if refused:  # a catalog is never written through a symlink that leaves the checkout
            problems.add(relative(path, root), 0, name, f"{refused}; nothing was written", FIX_LINK)
            continue
        if data is not None:
            outputs[path] = data
            summary["files"] += 1
    return outputs, summary, problems


def _source_key(sources: list[SourceMessage]) -> tuple:
    """Everything of a catalog's source messages that its merge depends on, as plain data for a cache key."""
    return tuple((s.context, s.msgid, s.source_lang, tuple(s.comments), tuple(map(tuple, s.locations)))
                 for s in sources)


def _updated(path: Path, lang: str, name: str, before: bytes | None, sources: list[SourceMessage],
             source_key: tuple, memory) -> tuple[bytes | None, dict]:
    """The new bytes of one catalog (None when they are `before`) and its counts; from the disk cache when the same
    old bytes met the same sources (`source_key`, their _source_key).

    A cached answer is used only if it did not depend on the translation memory (no message was new to the
    old catalog), so it is exactly what merging again would give.
    """
    key = key_bytes((lang, name, before, source_key))
    answer = cached("catalog-update", key, lambda: _merged(path, lang, name, before, sources, memory))
    if not answer[2]:  # made with the memory's help: the memory may have changed since
        answer = _merged(path, lang, name, before, sources, memory)
    return answer[0], answer[1]


def _merged(path: Path, lang: str, name: str, before: bytes | None, sources: list[SourceMessage], memory) -> tuple:
    """(new bytes or None if they are `before`, counts, whether the answer is independent of the translation memory)
    for one catalog. Most updates change nothing: None keeps a copy of every catalog out of the disk cache."""
    old = read_catalog(path, lang, data=before) if before is not None else None
    catalog, counts = merge(lang, name, sources, old)
    known = set() if old is None else ({message_key(m) for m in old if m.id} |
                                       {message_key(m) for m in old.obsolete.values()})
    alone = all(source.key in known for source in sources)
    # prefill only touches messages new to the old catalog: when there are none it has nothing to do.
    prefilled = 0 if alone else prefill(catalog, old, memory, {source.key: source.source_lang for source in sources})
    tally = {key: getattr(counts, key) for key in ("added", "kept", "fuzzied", "obsoleted")}
    data = render_catalog(catalog)
    return (None if data == before else data), dict(tally, prefilled=prefilled), alone


def write_outputs(outputs: dict[Path, bytes]):
    """Write every file through a temporary name, so an interrupted update leaves no half-written catalog."""
    for path, data in outputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(data)
        temporary.replace(path)


def init_language(root: Path, kb: KnowledgeBase, lang: str) -> list[Path]:
    """Create empty catalogs for a new language (existing ones are updated, never overwritten)."""
    outputs, _summary, problems = plan_update(root, kb, lang)
    if problems:
        raise InputError(problems)
    glossary = Path(root) / "translations" / lang / "glossary.yaml"
    if not glossary.exists():
        outputs[glossary] = (f"# Terminology for {lang} pages: one term per concept (see translations/README.md).\n"
                             f"# Each entry: {{source: <term as in the source text>, target: <the {lang} term>}}.\n"
                             f"lang: {lang}\nterms: []\n").encode("utf-8")
    write_outputs(outputs)
    return sorted(outputs)
