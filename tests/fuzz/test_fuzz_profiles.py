"""Fuzz: rule profiles mutated from the shipped ones and profile specs built from names, overlays and
``section.key=value`` overrides, through ``lv variants show``/``lv new`` and ``lv.load_profile``; a profile that
loads must set up a game. The rule is in hostile.py."""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lv
from hostile import (FRAGMENTS, PROFILES, VALUES, call, fuzz_settings, load_data, mutated, play_some, run_cli,
                     to_text)
from hostile import tally  # noqa: F401 - the fixture

BASES = {p.stem: load_data(p) for p in PROFILES}
KEYS = sorted(lv.load_profile("revised").values())


_CASES = itertools.count()


def _write(tmp_path, data, as_json: bool):
    """A new file for every case: lv caches a profile file's contents by its path for the life of the process
    (lv/profile.py ``_resolve``), so a file rewritten in place would be read once, then served from the cache
    (every later case set up the first one's game)."""
    path = tmp_path / f"fuzzed-{next(_CASES)}.yaml"
    path.write_text(to_text(data, as_json), encoding="utf-8")
    return path


def _spec_for(name: str, path) -> str:
    return f"revised+{path}" if BASES[name].get("overlay") else str(path)


@pytest.mark.slow
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


# every value each parameter takes in some shipped profile (a plausible replacement for another profile's value)
SHIPPED: dict = {}
for _data in BASES.values():
    for _section, _keys in _data.items():
        if isinstance(_keys, dict):
            for _key, _entry in _keys.items():
                if isinstance(_entry, dict) and "value" in _entry:
                    SHIPPED.setdefault((_section, _key), []).append(_entry["value"])


@st.composite
def plausible(draw, base):
    """``base`` with 1-3 parameter values changed to ones of the right type: a number moved by up to 3, a flag
    flipped, a word another shipped profile uses. Most such profiles load; some do not (a maximum under its
    minimum), so the game that a loaded profile sets up is reached, unlike with ``mutated`` alone (every one of
    its 40 cases used to be refused)."""
    data = copy.deepcopy(base)
    params = [(sec, key) for sec, keys in data.items() if isinstance(keys, dict)
              for key, entry in keys.items() if isinstance(entry, dict) and "value" in entry]
    for sec, key in draw(st.lists(st.sampled_from(params), min_size=1, max_size=3, unique=True)):
        value = data[sec][key]["value"]
        if isinstance(value, bool):
            value = not value
        elif isinstance(value, int):
            value = draw(st.integers(max(0, value - 3), value + 3))
        else:
            value = draw(st.sampled_from(SHIPPED[(sec, key)]))
        data[sec][key]["value"] = value
    return data


@pytest.mark.slow
def test_mutated_profiles_set_up_a_game(tally, tmp_path):
    """A profile that loads sets up a game and takes decisions; half the cases are plausible changes, so that
    this happens (the floor below fails if the cases stop reaching a game)."""
    reached = {"loaded": 0, "games": 0, "decisions": 0}
    kinds: set[str] = set()  # the different profiles that set up a game

    @fuzz_settings(40)
    @given(st.data())
    def case(data):
        name = data.draw(st.sampled_from(sorted(BASES)))
        changes = plausible(BASES[name]) if data.draw(st.booleans()) else mutated(BASES[name])
        path = _write(tmp_path, data.draw(changes), data.draw(st.booleans()))
        profile = call(tally, lv.load_profile, _spec_for(name, path))
        if profile is None:
            return
        reached["loaded"] += 1
        call(tally, lv.profile.describe_parameters, profile)
        players = data.draw(st.integers(max(1, profile.players.min - 1), min(7, profile.players.max + 1)))
        game = call(tally, lv.new_game, profile, players, data.draw(st.integers(0, 5)))
        if game is not None:
            reached["games"] += 1
            kinds.add(repr(sorted(profile.values().items())))
            reached["decisions"] += play_some(tally, game, data, 12)

    case()
    tally.settle()
    assert reached["loaded"] >= 8 and reached["games"] >= 4 and reached["decisions"] >= 10, reached
    assert len(kinds) >= 4, kinds


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


@pytest.mark.slow
def test_profile_specs(tally):
    @fuzz_settings(80)
    @given(specs())
    def case(spec):
        profile = call(tally, lv.load_profile, spec)
        if profile is not None:
            call(tally, lv.new_game, profile, 3, 1)

    case()
    tally.settle()


@pytest.mark.slow
def test_profile_specs_through_the_cli(tally):
    @fuzz_settings(30)
    @given(specs(), st.booleans())
    def case(spec, as_json):
        run_cli(tally, ["variants", "show", spec] + (["--json"] if as_json else []))

    case()
    tally.settle()
