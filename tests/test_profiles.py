"""The rule-profile loader is strict and says where: file and line for every mistake in a profile file, the spec
for every mistake in an override. Every shipped parameter cites its rulebook passage.

DESIGN.md "Rule profiles": "An unknown key, a wrong type or an impossible value is an error naming the file, the
key and the line"; "A profile may extend another ... Small overlays ... combine with either edition".
"""

from __future__ import annotations

import re

import pytest

import lv
from lv.profile import profile_names


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(spec) -> str:
    with pytest.raises(lv.ProfileError) as err:
        lv.load_profile(str(spec))
    message = str(err.value)
    assert "\n" not in message and "Traceback" not in message
    return message


# ----------------------------------------------------------------------------------------------- strictness


def test_unknown_key_in_a_section(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble:\n  per_turn: 1\n  fee: 3\n")
    assert load_error(path).startswith(f"{path}:4: unknown key 'gamble.fee'")


def test_unknown_section(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\n\ncolour: red\n")
    assert load_error(path).startswith(f"{path}:3: unknown key 'colour'")


def test_unknown_field_beside_value(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\nraise:\n  enabled: {value: true, sauce: 003}\n")
    message = load_error(path)
    assert message.startswith(f"{path}:3: raise.enabled:") and "sauce" in message


@pytest.mark.parametrize("text,line,key,found", [
    ("gamble:\n  bet_per_tile: 1.5\n", 3, "gamble.bet_per_tile", "float 1.5"),
    ("raise:\n  enabled: 1\n", 3, "raise.enabled", "int 1"),
    ("components:\n  dice_per_player: '12'\n", 3, "components.dice_per_player", "str '12'"),
    ("ties:\n  check: 3\n", 3, "ties.check", "int 3"),
    ("players:\n  colors: red\n", 3, "players.colors", "str 'red'"),
    ("gamble:\n  win_even: [3, 4.5, 9, 10, 11]\n", 3, "gamble.win_even", "float 4.5"),
])
def test_wrong_type(tmp_path, text, line, key, found):
    path = write(tmp_path, "p.yaml", "extends: revised\n" + text)
    message = load_error(path)
    assert message.startswith(f"{path}:{line}: {key}: expected ") and found in message


@pytest.mark.parametrize("text,line,key,words", [
    ("gamble:\n  lay_off: sometimes\n", 3, "gamble.lay_off", "sometimes"),
    ("raise:\n  max_height: 0\n", 3, "raise.max_height", "0"),
    ("components:\n  dice_per_player: 0\n", 3, "components.dice_per_player", "1"),
    ("players:\n  max: 9\n", 3, "players.max", "6"),
    ("casino:\n  join_rule: colour\n", 3, "casino.join_rule", "colour"),
])
def test_impossible_value(tmp_path, text, line, key, words):
    path = write(tmp_path, "p.yaml", "extends: revised\n" + text)
    message = load_error(path)
    assert message.startswith(f"{path}:{line}: {key}:") and words in message


def test_impossible_combination_names_the_section(tmp_path):
    """The three gamble outcome lists must share 2..12 exactly once; min players above max."""
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble:\n  win_even: [3, 4, 9, 10]\n")
    message = load_error(path)
    assert re.match(rf"{re.escape(str(path))}:3: gamble: .*2\.\.12", message)
    path = write(tmp_path, "q.yaml", "extends: original\nplayers:\n  min: 5\n")
    assert load_error(path).startswith(f"{path}:3: players: min (5) is greater than max (4)")


def test_missing_parameter_in_a_standalone_profile(tmp_path):
    path = write(tmp_path, "p.yaml", "name: bare\ngamble:\n  per_turn: 1\n")
    message = load_error(path)
    assert str(path) in message and "players.min: missing" in message


def test_unknown_profile():
    assert load_error("nosuch").startswith("unknown profile 'nosuch'")
    assert "unknown profile 'nosuch'" in load_error("original+nosuch")


def test_overlay_used_alone():
    message = load_error("f-block")
    assert "'f-block' is an overlay" in message


def test_extends_cycle(tmp_path):
    a = write(tmp_path, "a.yaml", "extends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    message = load_error(a)
    assert message.startswith(f"{b}:2: extends") and "leads back" in message


def test_extends_itself(tmp_path):
    a = write(tmp_path, "a.yaml", "# a comment\nextends: a.yaml\n")
    assert load_error(a).startswith(f"{a}:2: extends")


def test_extends_an_unknown_profile(tmp_path):
    a = write(tmp_path, "a.yaml", "extends: nosuch\n")
    message = load_error(a)
    assert message.startswith(f"{a}:1: extends: unknown profile 'nosuch'")


def test_malformed_yaml(tmp_path):
    path = write(tmp_path, "p.yaml", "extends: revised\ngamble: {lay_off: none\n")
    assert re.match(rf"{re.escape(str(path))}:\d+: malformed YAML", load_error(path))
    path = write(tmp_path, "q.yaml", "extends: revised\ngamble:\n  lay_off: none\n  lay_off: boss_option\n")
    assert load_error(path).startswith(f"{path}:4: duplicate key 'lay_off'")


def test_bad_overrides_name_the_spec():
    assert load_error("revised,gamble.fee=1") == (
        "profile spec 'revised,gamble.fee=1': unknown parameter 'gamble.fee' (see 'lv variants show revised')")
    assert load_error("revised,raise.enabled=1").endswith("raise.enabled: expected bool, got int 1")
    assert "not section.key=value" in load_error("revised,raise")
    assert load_error("revised,gamble.win_even=[3]").startswith("profile spec 'revised,gamble.win_even=[3]': gamble:")


# ------------------------------------------------------------------------------------------------ citations


@pytest.mark.parametrize("name", ["original", "revised"])
def test_every_parameter_cites_the_rulebook(name):
    profile = lv.load_profile(name)
    values = profile.values()
    assert len(values) >= 40
    for key in values:
        source = profile.sources.get(key, "")
        assert re.match(r"(Original|Revised) rules[,:]", source), f"{name}: {key} has no rulebook citation: {source!r}"


def test_shipped_profiles():
    assert {"original", "revised", "f-block"} <= set(profile_names())


# -------------------------------------------------------------------------------- extends, overlays, overrides


def test_extends_and_overlay_combine(tmp_path):
    """A house variant that extends the revised rules, plus the f-block overlay, plus an override."""
    path = write(tmp_path, "house.yaml",
                 "name: house\nextends: revised\nraise:\n"
                 "  cost_per_space: {value: 10, source: 'house rule: cheaper risers'}\n")
    house = lv.load_profile(str(path))
    revised = lv.load_profile("revised")
    assert house.raise_.cost_per_space == 10 and house.sources["raise.cost_per_space"] == "house rule: cheaper risers"
    changed = {k for k, v in house.values().items() if revised.values()[k] != v}
    assert changed == {"raise.cost_per_space"}
    assert house.sources["gamble.lay_off"] == revised.sources["gamble.lay_off"]  # inherited citations
    combo = lv.load_profile(f"original+{path}")  # a later profile overrides an earlier one, key by key
    assert combo.raise_.cost_per_space == 10 and combo.casino.join_rule == "color_and_height"
    over = lv.load_profile(f"{path}+f-block,gamble.per_turn=2")
    assert over.raise_.cost_per_space == 10 and over.gamble.per_turn == 2 and over.f_block.closed_when == "two_players"


def test_original_plus_f_block_differs_only_in_the_f_block():
    original, combo = lv.load_profile("original"), lv.load_profile("original+f-block")
    changed = {k for k, v in combo.values().items() if original.values()[k] != v}
    assert changed == {"f_block.closed_when"}
    assert combo.f_block.closed_when == "two_players" and combo.sources["f_block.closed_when"].startswith("Revised rules, \"2-Player Rules\"")


def test_overrides_from_a_spec():
    p = lv.load_profile("revised,gamble.lay_off=boss_option, raise.max_height=3,gamble.win_even=[3, 4, 9, 10, 11]")
    assert (p.gamble.lay_off, p.raise_.max_height, p.gamble.win_even) == ("boss_option", 3, (3, 4, 9, 10, 11))
    assert p.sources["gamble.lay_off"].startswith("override")
    assert p.max_height(6) == 3 and lv.load_profile("revised").max_height(6) == 6
    assert lv.load_profile("revised", {"trade.failed_step": "undo_all"}).trade.failed_step == "undo_all"


def test_revised_turns_the_f_block_rule_on_by_itself_in_two_player_games():
    """003:L893 "In a 2-player game, you can't build on F block"; the original has no such rule."""
    revised, original = lv.load_profile("revised"), lv.load_profile("original")
    assert [revised.f_block_closed(n) for n in (2, 3, 6)] == [True, False, False]
    assert [original.f_block_closed(n) for n in (2, 3, 4)] == [False, False, False]
    assert lv.load_profile("original+f-block").f_block_closed(2) is True
    game = lv.new_game("revised", 2, seed=5)
    assert not any(lot.startswith("F") for lot in game.state.markers)


def test_profiles_are_frozen_and_comparable():
    p = lv.load_profile("revised")
    with pytest.raises(AttributeError):
        p.gamble = None
    assert p == lv.load_profile("revised") and p != lv.load_profile("original")
