"""The package installs outside `make`: a wheel carries every subpackage and the page templates."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

from .conftest import ROOT


def test_a_wheel_holds_every_subpackage_and_every_template(tmp_path):
    project = tmp_path / "project"  # built from a copy: setuptools writes build/ and *.egg-info beside the source
    shutil.copytree(ROOT / "generator", project / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    # Through the PEP 517 hook pip calls for `pip install .` / `pip wheel` (without pip's own second of start-up).
    build = f"from setuptools import build_meta; build_meta.build_wheel({str(tmp_path / 'dist')!r})"
    (tmp_path / "dist").mkdir()
    result = subprocess.run([sys.executable, "-c", build], cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {path.relative_to(project).as_posix() for path in (project / "generator").rglob("*")
                if path.is_file() and (path.suffix == ".py" or "templates" in path.parts)}
    assert expected and not expected - names, f"missing from the wheel: {sorted(expected - names)}"
    assert "generator/i18n/__init__.py" in names
