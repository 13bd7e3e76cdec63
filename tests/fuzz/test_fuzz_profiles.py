"""Fuzz: rule profiles mutated from the shipped ones and profile specs built from names, overlays and
``section.key=value`` overrides, through ``lv variants show``/``lv new`` and ``lv.load_profile``; a profile that
loads must set up a game. The rule is in hostile.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import lv
from hostile import (FRAGMENTS, PROFILES, VALUES, call, fuzz_settings, load_data, mutated, play_some, run_cli,
                     to_text)
from hostile import tally  # noqa: F401 - the fixture

BASES = {p.stem: load_data(p) for p in PROFILES}
KEYS = sorted(lv.load_profile("revised").values())


def _write(tmp_path, data, as_json: bool):
    path = tmp_path / "fuzzed.yaml"
    path.write_text(to_text(data, as_json), encoding="utf-8")
    return path


def _spec_for(name: str, path) -> str:
    return f"revised+{path}" if BASES[name].get("overlay") else str(path)


def test_mutated_profiles_through_the_cli(tally, tmp_path):
    @fuzz_settings(50)
    @given(st.data())
    def case(data):
        name = data.draw(st.sampled_from(sorted(BASES)))
        path = _write(tmp_path, data.draw(mutated(BASES[name])), data.draw(st.booleans()))
        spec = _spec_for(name, path)
        command = data.draw(st.sampled_from([["variants", "show", spec], ["variants", "show", spec, "--json"],
                                             ["variants", "diff", "revised", spec],
                                             ["new", "--variant", spec, "--players", "3", "--seed", "1", "--force",
                                              "-o", str(tmp_path / "g.yaml")]]))
        run_cli(tally, command)

    case()
    tally.settle()


def test_mutated_profiles_set_up_a_game(tally, tmp_path):
    @fuzz_settings(40)
    @given(st.data())
    def case(data):
        name = data.draw(st.sampled_from(sorted(BASES)))
        path = _write(tmp_path, data.draw(mutated(BASES[name])), data.draw(st.booleans()))
        profile = call(tally, lv.load_profile, _spec_for(name, path))
        if profile is None:
            return
        call(tally, lv.profile.describe_parameters, profile)
        players = data.draw(st.integers(1, 7))
        game = call(tally, lv.new_game, profile, players, data.draw(st.integers(0, 5)))
        play_some(tally, game, data, 12)

    case()
    tally.settle()


def _value_text(v) -> str:
    return v if isinstance(v, str) else repr(v)


SPEC_PARTS = st.one_of(
    st.sampled_from(["revised", "original", "f-block", "board", "nothing", "", " ", "revised.yaml",
                     "variants/revised.yaml", "../x.yaml", "/dev/null.yaml", "+", ",", "=", "[", "]", "{", "}"]),
    st.builds(lambda k, v: f"{k}={v}", st.sampled_from(KEYS + ["gamble", "x.y", "gamble.", ".lay_off", "a.b.c"]),
              st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(VALUES).map(_value_text), st.text(max_size=5))),
    st.text(max_size=8))


@st.composite
def specs(draw) -> str:
    head = draw(st.sampled_from(["revised", "original", "original+f-block", "revised+f-block", "f-block"]))
    parts = draw(st.lists(SPEC_PARTS, max_size=4))
    joins = draw(st.lists(st.sampled_from([",", "+", ", ", ",,"]), min_size=len(parts), max_size=len(parts)))
    return head + "".join(j + p for j, p in zip(joins, parts))


def test_profile_specs(tally):
    @fuzz_settings(80)
    @given(specs())
    def case(spec):
        profile = call(tally, lv.load_profile, spec)
        if profile is not None:
            call(tally, lv.new_game, profile, 3, 1)

    case()
    tally.settle()


def test_profile_specs_through_the_cli(tally):
    @fuzz_settings(30)
    @given(specs(), st.booleans())
    def case(spec, as_json):
        run_cli(tally, ["variants", "show", spec] + (["--json"] if as_json else []))

    case()
    tally.settle()
