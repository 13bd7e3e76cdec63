"""lv/ type-checks under ``mypy --strict`` (the ``[tool.mypy]`` section of pyproject.toml: strict on every module
of lv/, none exempted). The test fails with mypy's own report."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def mypy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install '.[test]'")
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "mypy-cache"), "--no-error-summary", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_lv_is_clean_under_mypy_strict(tmp_path: Path) -> None:
    done = mypy(tmp_path)  # the files and the strictness come from pyproject.toml
    assert done.returncode == 0, f"mypy found errors:\n{done.stdout}{done.stderr}"


def test_no_module_of_lv_is_exempt() -> None:
    """No ``[[tool.mypy.overrides]]`` switches errors off (or loosens strictness) for a module of lv/."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config.get("strict") is True and config.get("files") == ["lv"]
    for override in config.get("overrides", []):
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        loosened = {key for key in override if key != "module"} - {"ignore_missing_imports"}
        lv_modules = [m for m in modules if m == "lv" or m.startswith("lv.")]
        assert not (lv_modules and loosened), f"{lv_modules}: {sorted(loosened)} (lv/ is strict throughout)"


@pytest.mark.slow
def test_the_check_fails_on_a_type_error(tmp_path: Path) -> None:
    """The same configuration reports a module with an error: the check above is not vacuous."""
    bad = tmp_path / "bad.py"
    bad.write_text("def half(n: int) -> int:\n    return n / 2\n", encoding="utf-8")
    done = mypy(tmp_path, str(bad))
    assert done.returncode == 1 and "bad.py:2: error" in done.stdout, done.stdout + done.stderr
