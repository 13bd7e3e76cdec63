"""A profile section that an action family brings (``Family.parameters``: a house rule's own keys) is loaded like
the profile's own sections: strictly (one-line errors naming file and line), overridable on the command line,
cited, listed by ``lv variants show/diff`` and ``Profile.values()``, stored in records; and a profile that does
not name it is exactly what it was (its values and stored form leave the section out).

The family here is a stand-in (``tip``), put in place of the table's sections for each test, so these tests do not
depend on any shipped house rule."""

from __future__ import annotations

import json

import attrs
import pytest
from attrs.validators import and_, ge, instance_of, le
from typer.testing import CliRunner

import lv
from lv import cli
from lv import profile as P


@attrs.frozen
class Tip:
    enabled: bool = attrs.field(default=False, validator=instance_of(bool))
    percent: int = attrs.field(default=10, validator=and_(instance_of(int), ge(0), le(100)))


HOUSE = """\
name: tipping
extends: revised
tip:
  enabled: {value: true, source: 'house rule of our club'}
"""


@pytest.fixture(autouse=True)
def tip_section(monkeypatch):
    monkeypatch.setattr(P, "_EXTENSIONS", {"tip": Tip})


def house(tmp_path, text: str = HOUSE, name: str = "tipping.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_a_profile_that_names_the_section_has_it(tmp_path):
    p = lv.load_profile(house(tmp_path))
    assert p.extension("tip") == Tip(enabled=True, percent=10)  # the key it leaves out takes its default
    values = p.values()
    assert list(values)[-2:] == ["tip.enabled", "tip.percent"]  # after the profile's own sections
    assert (values["tip.enabled"], values["tip.percent"]) == (True, 10)
    assert p.sources["tip.enabled"] == "house rule of our club"


def test_a_profile_that_does_not_name_it_is_unchanged():
    p = lv.load_profile("revised")
    assert p.extensions == ()
    assert not any(k.startswith("tip.") for k in p.values())
    assert not any(k.startswith("tip.") for k in P.stored_form(p)["values"])
    assert p.extension("tip") == Tip()  # the rules read the defaults
    every = p.values(every=True)
    assert (every["tip.enabled"], every["tip.percent"]) == (False, 10)
    assert "tip.percent" in P.parameter_names()


def test_overrides_on_the_command_line(tmp_path):
    assert lv.load_profile("revised,tip.percent=25").extension("tip") == Tip(enabled=False, percent=25)
    p = lv.load_profile(f"{house(tmp_path)},tip.percent=30")
    assert p.extension("tip") == Tip(enabled=True, percent=30)
    assert p.sources["tip.percent"].startswith("override in")
    with pytest.raises(lv.ProfileError, match=r"unknown parameter 'tip\.nope'"):
        lv.load_profile("revised,tip.nope=1")
    with pytest.raises(lv.ProfileError, match=r"tip\.percent: .*100"):
        lv.load_profile("revised,tip.percent=150")


@pytest.mark.parametrize("body, line, message", [
    ("tip:\n  enabled: true\n  bogus: 3\n", 5, r"unknown key 'tip\.bogus' \(known: enabled, percent\)"),
    ("tip:\n  percent: lots\n", 4, r"tip\.percent: expected int, got str 'lots'"),
    ("tip:\n  percent: {value: 150, source: x}\n", 4, r"tip\.percent: .*<= 100"),
    ("tip: 3\n", 3, r"'tip' must be a mapping"),
])
def test_bad_keys_and_values_are_one_line_errors_naming_file_and_line(tmp_path, body, line, message):
    path = house(tmp_path, "name: bad\nextends: revised\n" + body, "bad.yaml")
    with pytest.raises(lv.ProfileError, match=message) as err:
        lv.load_profile(path)
    text = str(err.value)
    assert "\n" not in text
    assert f"{path}:{line}" in text or (err.value.path, err.value.line) == (path, line)


def test_stored_and_read_back(tmp_path):
    p = lv.load_profile(f"{house(tmp_path)},tip.percent=40")
    stored = P.stored_form(p)
    assert stored["base"] == "revised"
    assert stored["values"] == {"tip.enabled": True, "tip.percent": 40}
    back = P.from_stored(json.loads(json.dumps(stored)), "label")
    assert back == p and back.extension("tip") == Tip(True, 40)
    assert P.from_values(p.values(), p.name) == p  # what a simulation sends its workers
    with pytest.raises(lv.ProfileError, match="unknown parameter 'tip.nope'"):
        P.from_stored({"base": "revised", "values": {"tip.nope": 1}}, "label")


def test_variants_show_and_diff_list_the_section(tmp_path):
    path = house(tmp_path)
    shown = json.loads(run("variants", "show", path, "--json").stdout)["parameters"]
    assert {"key": "tip.enabled", "value": True, "source": "house rule of our club"} in shown
    assert not any(r["key"].startswith("tip.") for r in json.loads(run("variants", "show", "revised", "--json").stdout)
                   ["parameters"])
    diff = json.loads(run("variants", "diff", "revised", path, "--json").stdout)["differences"]
    assert diff == [{"key": "tip.enabled", "a": False, "b": True, "a_source": "not set: the default",
                     "b_source": "house rule of our club"}]
    assert run("variants", "diff", "revised", "original").exit_code == 0


def test_a_section_named_like_the_profiles_own_is_refused(monkeypatch):
    monkeypatch.setattr(P, "_EXTENSIONS", None)
    from lv import actions as A
    from lv.actions._family import Family
    clash = Family(name="raise", order=99, decisions=(), verbs=("x",), parameters=Tip)
    monkeypatch.setattr(A, "FAMILIES", (*A.FAMILIES, clash))
    with pytest.raises(ImportError, match="not one of the profile's own"):
        P.extension_sections()
