"""Python packaging conventions (issue 13, point 8): ``python -m lv``, ``py.typed``, the LICENSE, no top-level
``cli`` module in the wheel, the entry point inside the package, bounded Typer, jsonschema in the test extra."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import lv

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_python_dash_m_lv_is_the_command_line():
    proc = _run("-m", "lv", "--version")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"lv {lv.__version__} ({lv.build_name()})\n", "")


def test_the_top_level_cli_py_is_a_thin_entry_to_the_package():
    proc = _run("cli.py", "--version")
    assert (proc.returncode, proc.stdout) == (0, f"lv {lv.__version__} ({lv.build_name()})\n")
    import runpy

    from lv import cli as package_cli

    top = runpy.run_path(str(ROOT / "cli.py"), run_name="not_main")  # the checkout's file, not an installed one
    assert top["app"] is package_cli.app and top["main"] is package_cli.main


def test_the_wheel_holds_the_package_only_and_the_entry_point_is_inside_it():
    wheel = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["lv"]
    assert "cli.py" not in wheel.get("force-include", {})
    assert PYPROJECT["project"]["scripts"] == {"lv": "lv.cli:main"}


def test_py_typed_and_an_mit_license():
    assert (ROOT / "lv" / "py.typed").is_file()
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the lv developers" in text
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}


def test_classifiers_and_authors_say_what_the_package_is():
    """What an index shows (issue 20, point 10): the licence and the Python lv is tested on agree with the rest of
    the metadata; the authors are the LICENSE's; no project URL, the project having no host of its own yet."""
    project = PYPROJECT["project"]
    classifiers = project["classifiers"]
    assert "License :: OSI Approved :: MIT License" in classifiers and "Typing :: Typed" in classifiers
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    lowest = project["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {lowest}" in classifiers
    assert project["authors"] == [{"name": "the lv developers"}]
    assert "urls" not in project


def test_dependencies_bound_typer_and_test_extra_has_jsonschema():
    deps = PYPROJECT["project"]["dependencies"]
    assert "typer>=0.12,<1" in deps
    assert not any(d.startswith("tabulate") for d in deps)  # the tables are Rich's; tabulate was never imported
    test_extra = PYPROJECT["project"]["optional-dependencies"]["test"]
    assert any(d.startswith("jsonschema") for d in test_extra) and any(d.startswith("pdoc") for d in test_extra)


def test_start_up_imports_only_what_the_command_line_needs():
    """Issue 13, point 9: ``import lv`` and ``import lv.cli`` load neither the engine nor Rich, YAML, attrs or
    cattrs (measured figures: benchmarks/README.md); the engine's names still come on first use."""
    code = ("import sys, lv, lv.cli\n"
            "heavy = ['rich', 'yaml', 'attrs', 'cattrs', 'lv.game', 'lv.profile', 'lv.record']\n"
            "print(sorted(m for m in heavy if m in sys.modules))\n"
            "lv.Game\n"
            "print('lv.game' in sys.modules)")
    proc = _run("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["[]", "True"]


def test_a_closed_pipe_or_an_abort_ends_quietly(monkeypatch):
    """`lv variants show revised | head -2`: Rich meets the closed pipe and raises SystemExit(1); with typer >= 0.20
    the handler once looked for an ``Abort`` that typer's copy of click does not have, and printed a traceback."""
    from typer.testing import CliRunner

    from lv import cli

    def closed_pipe(*args, **kwargs):
        raise SystemExit(1)

    monkeypatch.setattr(cli.out, "print", closed_pipe)
    res = CliRunner().invoke(cli.app, ["variants", "list"])
    assert (res.exit_code, type(res.exception)) == (1, SystemExit)

    def abort(*args, **kwargs):
        import typer

        raise typer.Abort()

    monkeypatch.setattr(cli.out, "print", abort)
    res = CliRunner().invoke(cli.app, ["variants", "list"])
    assert (res.exit_code, res.stderr) == (1, "Aborted!\n")
