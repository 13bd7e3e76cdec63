"""Every whole-number profile parameter has a bound in its definition (lv/bounds.py ``Whole``), checked wherever a
profile is made: profile files, ``--set``/spec overrides, a record's embedded profile (issue 17.4: a 539-byte
record with ``raise.max_height: 100000000`` ran ``lv replay`` for 46 s into a MemoryError).

The parameters are enumerated from the profile's own definition (its sections and the action families'), so a new
one is covered without editing this file; at its bound, set-up and a short game stay small (the memory they take,
a generous limit: the issue's tower was memory, and memory does not depend on the machine's speed as time does),
and one past it is refused with a one-line error naming where, the key and the bound.
"""

from __future__ import annotations

import random
import typing
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

import lv
from lv import cli, replay
from lv.errors import ProfileError
from lv.profile import SECTION_TYPES, bounds, extension_sections, load_profile

from conftest import peak_memory

BASE = "house-sell-back"  # revised with a house-rule section (sell) turned on, so its bound is played too
BOUNDS = bounds()
MEMORY_LIMIT = 8 << 20  # bytes for a set-up and a short game: about 1-4 MiB today (4 with the first profile's
# caches), 15 MiB at raise.max_height=2000, 740 MiB at 100,000 (and 32 s of CPU), a MemoryError before the bound


def whole_number_parameters() -> list[str]:
    """``section.key`` of every parameter whose type admits a whole number, read from the sections' classes (the
    gamble's lists of totals are bounded by what they hold: 2..12, each once)."""
    found = []
    for section, cls in {**SECTION_TYPES, **extension_sections()}.items():
        hints = typing.get_type_hints(cls)
        for a in attrs.fields(cls):
            kind = hints[a.name]
            if kind is int or (int in typing.get_args(kind) and typing.get_origin(kind) is not tuple):  # int | str
                found.append(f"{section}.{a.name}")
    return found


def test_every_whole_number_parameter_has_a_bound():
    params = whole_number_parameters()
    assert "raise.max_height" in params and "sell.refund_percent" in params  # a union, a house rule's section
    assert sorted(BOUNDS) == sorted(params)


def play(spec: str) -> int:
    """The most memory (bytes) taken at once to load ``spec``, set up a game with the most players it allows and
    play 60 random decisions."""
    with peak_memory() as peak:
        profile = load_profile(spec)
        game = lv.new_game(profile, profile.players.max, seed=3)
        rng = random.Random(3)
        for _ in range(60):
            if game.over:
                break
            action = game.random_legal(rng)
            assert action is not None
            game.apply(action)
    return peak.bytes


@pytest.mark.parametrize("key", sorted(BOUNDS))
def test_a_parameter_at_its_bounds_sets_up_and_plays_small_and_one_past_is_refused(key):
    bound = BOUNDS[key]
    for value in (bound.low, bound.high):
        assert play(f"{BASE},{key}={value}") < MEMORY_LIMIT
    for value in (bound.low - 1, bound.high + 1):
        with pytest.raises(ProfileError) as info:
            load_profile(f"{BASE},{key}={value}")
        assert f"{key}: must be {bound.text()}, not {value}" in str(info.value)
        assert "\n" not in str(info.value)


def test_every_bound_at_once_plays_small():
    values = ",".join(f"{k}={b.high}" for k, b in BOUNDS.items() if k != "players.min")
    assert play(f"{BASE},{values}") < MEMORY_LIMIT


def test_a_profile_file_past_a_bound_is_named_at_its_line(tmp_path):
    path = tmp_path / "tall.yaml"
    path.write_text("extends: revised\nraise:\n  max_height: 13\n")
    with pytest.raises(ProfileError) as info:
        load_profile(str(path))
    assert str(info.value) == (f"{path}:3: raise.max_height: must be a whole number from 1 to 12, or 'players', "
                               "not 13")


def test_too_many_colours_are_refused():
    colors = ", ".join(f"c{i}" for i in range(13))
    with pytest.raises(ProfileError, match="players.colors: at most 12 colours, not 13"):
        load_profile(f"revised,players.colors=[{colors}]")


def test_a_record_whose_profile_asks_for_a_tower_is_refused_at_once(tmp_path, monkeypatch):
    """The issue's 539-byte record: its stored profile is checked like a file, before anything is set up (a game
    started from it fails the test, where it once built a table per height for 46 s)."""
    path = tmp_path / "g.yaml"
    res = CliRunner().invoke(cli.app, ["new", "--variant", "revised,raise.max_height=12", "--players", "red,blue",
                                       "--seed", "1", "-o", str(path)])
    assert res.exit_code == 0, res.stderr
    text = path.read_text()
    assert "raise.max_height: 12" in text
    path.write_text(text.replace("raise.max_height: 12", "raise.max_height: 100000000"))
    monkeypatch.setattr(replay, "start_game", lambda *a: pytest.fail("a game was set up"))
    res = CliRunner().invoke(cli.app, ["replay", str(path)])
    assert res.exit_code == 2
    assert res.stderr == (f"lv: error: {path}:3: profile: values: raise.max_height: must be a whole number from "
                          "1 to 12, or 'players', not 100000000\n")
