"""Errors carry their place as attributes (file, line, turn; a record's key path), and the one-line message is
built from them, so no caller has to read the place back out of the text."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from lv.errors import IllegalAction, LvError, ProfileError, RecordError
from lv.profile import load_profile
from lv.record import load_record
from lv.replay import replay

RECORD = """\
format: lv-game/1
profile: revised
players: [purple, red]
seed: 1
position:
  current: purple
  phase: actions
  players: {purple: {money: 60}, red: {money: 30}}
  tiles:
    C1: gold purple 5
  deck: [D8, A1, END]
turns:
- player: purple
  cards: []
  decisions: [raise C1, %s]
"""


def test_the_message_is_built_from_the_place() -> None:
    err = RecordError("'raise C1' is illegal", path="g.yaml", line=12, turn=3)
    assert str(err) == "g.yaml:12: turn 3: 'raise C1' is illegal"
    assert (err.reason, err.path, err.line, err.turn) == ("'raise C1' is illegal", "g.yaml", 12, 3)
    assert str(RecordError("no line", path="g.yaml")) == "g.yaml: no line"
    assert str(LvError("nowhere")) == "nowhere"
    illegal = IllegalAction("you have $3, not $30", "raise.cost_per_space")
    assert str(illegal) == "you have $3, not $30 [raise.cost_per_space]" and illegal.reason == "you have $3, not $30"
    assert str(illegal.at(turn=4)) == "turn 4: you have $3, not $30 [raise.cost_per_space]" and illegal.turn == 4
    again = pickle.loads(pickle.dumps(RecordError("x", path="g.yaml", line=2, key=("deck",))))
    assert (str(again), again.path, again.line, again.key) == ("g.yaml:2: x", "g.yaml", 2, ("deck",))


def test_an_illegal_recorded_decision_names_its_file_line_and_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(RECORD % "gamble C1 99", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        replay(load_record(path))
    err = caught.value
    assert (err.path, err.line, err.turn) == (str(path), 15, 1)
    assert str(err).startswith(f"{path}:15: turn 1: 'gamble C1 99' is illegal under 'revised': ")


def test_a_position_error_carries_the_key_it_is_about_and_its_line(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text((RECORD % "end").replace("C1: gold purple 5", "C1: gold purple 9"), encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        replay(load_record(path))
    err = caught.value
    assert err.key == ("position", "tiles", "C1") and (err.path, err.line) == (str(path), 10)
    assert str(err) == f"{path}:10: position: tile C1: die value 9 is not 1-6"


def test_a_profile_file_error_names_its_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: revised\ngamble:\n  no_such_key: 3\n", encoding="utf-8")
    with pytest.raises(ProfileError) as caught:
        load_profile(str(path))
    err = caught.value
    assert (err.path, err.line) == (str(path), 3)
    assert str(err).startswith(f"{path}:3: unknown key 'gamble.no_such_key' ")


def test_an_error_line_is_cut_to_what_a_terminal_shows():
    """Issue 17.1: whatever a file or spec holds, one error line stays at most MAX_LINE characters, cut in the
    middle so that the file and line at its start and the rule at its end stay readable."""
    from lv.errors import MAX_LINE, IllegalAction, LvError

    err = LvError("x" * 5000, path="game.yaml", line=7)
    assert len(str(err)) == MAX_LINE and str(err).startswith("game.yaml:7: xxx") and "..." in str(err)
    illegal = IllegalAction("y" * 5000, "gamble.max_bet", turn=3)
    assert len(str(illegal)) == MAX_LINE and str(illegal).endswith("y [gamble.max_bet]")
    short = LvError("short", path="a.yaml", line=1)
    assert str(short) == "a.yaml:1: short"
    exact = LvError("z" * (MAX_LINE - len("a:1: ")), path="a", line=1)
    assert str(exact) == "a:1: " + "z" * (MAX_LINE - 5)


def test_a_pathological_spec_error_fits_a_terminal():
    import lv
    from lv.errors import MAX_LINE, ProfileError

    with pytest.raises(ProfileError) as info:
        lv.load_profile("revised,gamble.win_even=" + "[" * 3000 + "]" * 3000)
    assert len(str(info.value)) <= MAX_LINE and "nesting deeper than" in str(info.value)
