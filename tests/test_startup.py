"""Start-up (issue 13, point 9): each command imports only what it uses (figures: benchmarks/README.md), and the
command-line values lv converts itself (lv/cliparams.py, instead of Typer's pydantic) are the ones Typer gives."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ["pydantic", "filelock", "hashlib", "cattrs", "rich", "yaml", "attrs", "lv.game", "lv.profile",
         "lv.record", "lv.replay"]


def _loaded_by(*args: str) -> tuple[int, list[str]]:
    """Exit code of ``lv ARGS`` run in a fresh interpreter, and which of HEAVY it loaded."""
    code = ("import sys\nfrom lv import cli\n"
            f"sys.argv = ['lv', *{list(args)!r}]\n"
            "try:\n    cli.main()\nexcept SystemExit as exc:\n    rc = exc.code or 0\nelse:\n    rc = 0\n"
            f"sys.stderr.write('LOADED %r %r' % (rc, sorted(m for m in {HEAVY!r} if m in sys.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "100"})
    tail = proc.stderr[proc.stderr.rindex("LOADED "):].split(" ", 2)
    return int(tail[1]), eval(tail[2])  # noqa: S307 - our own repr of a list of names


def test_lv_help_loads_neither_the_engine_nor_yaml_nor_pydantic():
    # Typer draws --help with Rich (and Rich's pretty-printer imports attrs): those are Typer's, not lv's
    rc, loaded = _loaded_by("--help")
    assert rc == 0
    assert [m for m in loaded if m not in ("rich", "attrs")] == []


def test_lv_replay_loads_the_engine_but_not_pydantic_rich_filelock_or_hashlib():
    rc, loaded = _loaded_by("replay", "examples/revised-4p.yaml")
    assert rc == 0
    assert loaded == ["attrs", "cattrs", "lv.game", "lv.profile", "lv.record", "lv.replay", "yaml"]


@pytest.mark.slow
def test_a_subcommand_help_loads_no_pydantic():
    rc, loaded = _loaded_by("replay", "--help")
    assert rc == 0 and "pydantic" not in loaded


# --------------------------------------------------------------------------- the values lv converts itself

coercion = pytest.importorskip("typer._coercion", reason="a Typer without pydantic converts every value itself")

from typer.models import ArgumentInfo, OptionInfo  # noqa: E402

from lv import cliparams  # noqa: E402


class _Param:
    """What ``cliparams._plain`` reads of a Typer parameter."""

    def __init__(self, annotation, info, multiple: bool = False):
        self.type_descriptor = coercion.resolve_type_descriptor(annotation, info)
        self.multiple, self.nargs = multiple, 1


def _typer_gives(param: _Param, value):
    """What Typer 0.2x's own (pydantic) conversion gives: the value, or the error message."""
    runtime = coercion.build_runtime_param(param.type_descriptor)
    try:
        return runtime.coerce(value, param=param, ctx=None)
    except Exception as exc:  # noqa: BLE001 - the message is what is compared
        return ("error", str(exc))


INT_TEXT = st.one_of(st.integers(-10**20, 10**20).map(str), st.from_regex(r"[ +\-_0-9.e٣]{0,8}", fullmatch=True))
PARAMS = {
    "int": _Param(int, OptionInfo()),
    "int >= 1": _Param(int, OptionInfo(min=1)),
    "int in 2..6": _Param(int, OptionInfo(min=2, max=6)),
    "str": _Param(str, ArgumentInfo()),
    "bool": _Param(bool, OptionInfo()),
    "list of str": _Param(typing.List[str], OptionInfo(), multiple=True),
    "choice": _Param(typing.Literal["skip", "stop"], OptionInfo()),
}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(PARAMS)),
       value=st.one_of(st.none(), INT_TEXT, st.text(max_size=6), st.sampled_from(["skip", "stop", "Skip"]), st.integers(-5, 10), st.booleans(),
                       st.lists(st.text(max_size=3), max_size=3).map(tuple)))
def test_a_value_converted_without_pydantic_is_the_one_typer_gives(name, value):
    param = PARAMS[name]
    fast = cliparams._plain(value, param)
    if fast is not cliparams._MISS:  # else Typer's own conversion runs, as before
        typer_value = _typer_gives(param, value)
        assert (type(fast), fast) == (type(typer_value), typer_value)
        if type(value) is str:
            assert fast is value or fast == int(value)


@pytest.mark.parametrize("value, fast", [("12", 12), ("-3", -3), ("007", 7), (5, 5), ("+5", None), (" 5", None),
                                         ("1_0", None), ("12.0", None), ("٣", None), ("x", None), (True, None)])
def test_only_plain_digits_are_read_without_pydantic(value, fast):
    result = cliparams._plain(value, PARAMS["int"])
    assert (None if result is cliparams._MISS else result) == fast


@pytest.mark.slow
def test_out_of_range_and_malformed_values_keep_typers_messages(tmp_path):
    for until, message in (("0", "Input should be greater than or equal to 1"),
                           ("abc", "Input should be a valid integer, unable to parse string as an integer")):
        proc = subprocess.run([sys.executable, "cli.py", "replay", "examples/revised-4p.yaml", "--until", until],
                              capture_output=True, text=True, cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"})
        assert proc.returncode == 2
        assert "Invalid value for '--until'" in proc.stderr and message in proc.stderr
