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
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                             "--wheel-dir", str(tmp_path / "dist"), str(project)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {path.relative_to(project).as_posix() for path in (project / "generator").rglob("*")
                if path.is_file() and (path.suffix == ".py" or "templates" in path.parts)}
    assert expected and not expected - names, f"missing from the wheel: {sorted(expected - names)}"
    assert "generator/i18n/__init__.py" in names
