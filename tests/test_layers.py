"""The tree shows the layers: every import in generator/ runs downward, none closes a cycle, few wait inside functions.

Module-level, function-local and `TYPE_CHECKING` imports all count: an import hidden in a function or a
type hint is still a dependency a reader has to hold.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import ROOT

PACKAGE = ROOT / "generator"
# Lowest first: a module may import its own layer's modules and those of the layers below it.
LAYERS = ("core", "evaluate", "kb", "i18n", "render", "site", "serve", "cli")
SUBLAYERS = {"i18n.po": ("core", "i18n.po")}  # catalog files know nothing of rules: po/ reads only core
TOP_LEVEL = {"__init__.py", "__main__.py"}  # all that generator/ holds besides the layer packages
MAX_LOCAL_IMPORTS = 20  # imports inside functions, each for a heavy module a command may never need


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in path.parts}


def imports(path: Path, known: dict[str, Path]) -> list[tuple[str, int, bool, str]]:
    """(imported module, line, inside a function, the line's text) for every import in a file; a generator module
    is named as in `known`, any other by its dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    lines = path.read_text(encoding="utf-8").splitlines()
    inside = {id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
              for node in ast.walk(function)}
    found = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                targets.append(submodule if submodule in known else base)
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        for target in targets:
            if target != here and target != "__future__":
                found.append((target, node.lineno, id(node) in inside, lines[node.lineno - 1]))
    return found


def layer(module: str) -> str:
    """The layer of a generator module ("" for generator/__init__ and __main__, which sit above every layer)."""
    parts = [part for part in module.split(".")[1:] if part != "__main__"]
    dotted = ".".join(parts[:2])
    return dotted if dotted in SUBLAYERS else (parts[0] if parts else "")


def graph() -> dict[str, list[tuple[str, int, bool, str]]]:
    known = modules()
    return {name: imports(path, known) for name, path in known.items()}


def cycles(edges: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]

    def visit(start):
        work = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_top_of_generator_holds_only_the_layer_packages():
    loose = sorted(path.name for path in PACKAGE.iterdir() if path.is_file() and path.suffix == ".py")
    folders = sorted(path.name for path in PACKAGE.iterdir() if path.is_dir() and path.name != "__pycache__")
    assert set(loose) == TOP_LEVEL
    assert set(folders) == set(LAYERS)


def test_every_import_runs_down_the_layers():
    upward = []
    for module, found in graph().items():
        mine = layer(module)
        if not mine:  # generator/__init__ and __main__ sit above every layer
            continue
        allowed = SUBLAYERS.get(mine) or LAYERS[:LAYERS.index(mine) + 1] + tuple(SUBLAYERS)
        for target, line, _local, _text in found:
            if not target.startswith("generator."):
                continue
            theirs = layer(target)
            if theirs not in allowed and not (mine in SUBLAYERS and theirs == mine):
                upward.append(f"{module}:{line} imports {target} ({mine} -> {theirs})")
    assert not upward, "\n".join(upward)


def test_no_import_closes_a_cycle():
    edges = {module: sorted({target for target, *_ in found if target.startswith("generator")})
             for module, found in graph().items()}
    assert cycles(edges) == []


def test_few_imports_wait_inside_functions_and_each_says_why():
    local = sorted({(module, line, text.strip()) for module, found in graph().items()
                    for _target, line, inside, text in found if inside})
    assert len(local) <= MAX_LOCAL_IMPORTS, "\n".join(f"{m}:{line}: {text}" for m, line, text in local)
    unexplained = [f"{module}:{line}: {text}" for module, line, text in local if "#" not in text]
    assert not unexplained, "a function-local import needs a comment saying why it waits:\n" + "\n".join(unexplained)


def test_the_layer_check_finds_an_upward_import_and_a_cycle():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert layer("generator.i18n.po.reader") == "i18n.po" and layer("generator.kb.model") == "kb"
    assert LAYERS.index(layer("generator.render.ask")) > LAYERS.index(layer("generator.kb.texts"))
