"""One minimal reproducer per failure category the fuzz suite found (issue 9), each fixed now and held here:
deep nesting, alias bombs, huge and Unicode numbers, wrong shapes, merge keys, multi-line messages, long profile
names, FIFOs. A new category found while its fix is under way goes into ``hostile.KNOWN`` and gets its
reproducer here, marked ``xfail(strict=False)`` naming the change that fixes it, until that change lands.
"""

from __future__ import annotations

import os

import pytest
import yaml

import lv
from lv import record, session
from hostile import EXAMPLES, Tally, run_cli

RAISE = next(p for p in EXAMPLES if p.name == "question-raise.yaml")  # a small record with a position


def _record(tmp_path, change=None, text_change=None):
    """question-raise.yaml, changed as data (``change(data)``) or as text (``text_change(text)``)."""
    text = RAISE.read_text(encoding="utf-8")
    if change is not None:
        data = yaml.safe_load(text)
        change(data)
        text = yaml.safe_dump(data, sort_keys=False)
    if text_change is not None:
        text = text_change(text)
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _clean(path, *args, seconds: float = 20.0, codes=(2,)):
    res = run_cli(Tally(strict=True), [*args, str(path)], seconds=seconds)
    assert res.exit_code in codes, (res.exit_code, res.stdout, res.stderr)
    return res


@pytest.mark.slow
def test_deep_nesting_in_a_record(tmp_path):
    path = _record(tmp_path, text_change=lambda t: t.replace("seed: 1", "seed: " + "[" * 1000 + "]" * 1000))
    assert "nest" in _clean(path, "replay").stderr


def test_deep_nesting_in_a_spec():
    with pytest.raises(lv.ProfileError):
        lv.load_profile("revised,gamble.win_even=" + "[" * 1000 + "]" * 1000)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # a Hang that landed in a GC callback
def test_alias_bomb_in_a_record(tmp_path):
    # the budget stops today's expansion after 2 s (a few hundred MB at most); a loader that counts nodes refuses
    # the file at once
    bomb = "[&a0 [x, x, x, x, x, x, x, x, x, x]" + "".join(
        f", &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)) + "]"
    path = _record(tmp_path, text_change=lambda t: t.replace("seed: 1", f"seed: {bomb}"))
    _clean(path, "replay", seconds=2.0)


def test_huge_int_in_a_record(tmp_path):
    path = _record(tmp_path, text_change=lambda t: t.replace("seed: 1", "seed: " + "9" * 5000))
    _clean(path, "replay")


@pytest.mark.parametrize("amount", ["²", "٣"])
def test_unicode_digits_in_a_bet(amount):
    with pytest.raises(lv.NotationError):
        lv.parse_action(f"gamble B3 {amount}", ["red", "blue"])


def test_unicode_digits_in_dice(tmp_path):
    path = tmp_path / "g.yaml"
    session.create(path, "revised", ["red", "blue"], seed=1)
    res = run_cli(Tally(strict=True), ["move", str(path), "--dice", "²", "end"])
    assert res.exit_code == 2


@pytest.mark.parametrize("key, value", [("players", {"purple": 5, "red": {}, "yellow": {}}), ("players", 5),
                                        ("deck", 5), ("reorganized", 5)])
def test_wrong_shapes_in_a_position(tmp_path, key, value):
    path = _record(tmp_path, lambda d: d["position"].__setitem__(key, value))
    _clean(path, "check", codes=(2,))


def test_a_structured_decision_with_a_list_for_its_action(tmp_path):
    path = _record(tmp_path, lambda d: d["turns"][0].__setitem__("decisions", [{"action": ["raise"]}]))
    _clean(path, "check", codes=(2,))


@pytest.mark.parametrize("position", [{"markers": ["A2"]}, {"tiles": ["C1"]}, {"players": {"red": [1]}}])
def test_wrong_shapes_in_a_position_through_the_api(position):
    with pytest.raises(lv.RecordError):
        lv.Game.from_position(lv.load_profile("revised"), ["red", "blue"], position)


def test_merge_keys_are_accepted(tmp_path):
    path = _record(tmp_path, text_change=lambda t: t.replace(
        "position:\n  current: purple\n  phase: actions\n", "position:\n  <<: {current: purple, phase: actions}\n"))
    assert "  <<: {current: purple" in path.read_text()
    _clean(path, "check", codes=(0,))


def test_a_usage_error_is_one_line():
    assert run_cli(Tally(strict=True), ["selfplay", "--seed", "x"]).exit_code == 2


def test_a_yaml_tag_error_is_one_line():
    with pytest.raises(lv.RecordError) as err:
        record.parse_record("format: !!python/name:os.system x\n", "r.yaml")
    assert "\n" not in str(err.value)


def test_a_spec_error_is_one_line():
    with pytest.raises(lv.ProfileError) as err:
        lv.load_profile("revised,\nx")
    assert "\n" not in str(err.value)


def test_a_long_profile_name_is_a_profile_error():
    with pytest.raises(lv.ProfileError):
        lv.load_profile("x" * 5000)


def test_check_goes_on_past_a_record_with_a_long_profile_name(tmp_path):
    bad = _record(tmp_path, lambda d: d.__setitem__("profile", "x" * 5000))
    res = run_cli(Tally(strict=True), ["check", str(bad), str(RAISE)])
    assert res.exit_code == 2 and res.stdout.splitlines()[-1] == "2 records: 1 ok, 1 failed", res.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_check_of_a_fifo_does_not_hang(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    _clean(fifo, "check", seconds=3.0, codes=(1, 2))


def test_a_profile_file_changed_in_place_is_read_again(tmp_path):
    """A house rule edited between two loads in one process (a notebook, a long-lived tool)."""
    path = tmp_path / "house.yaml"
    for cost in (10, 20):
        path.write_text(f"name: house\nextends: revised\nraise:\n  cost_per_space: {{value: {cost}, source: house}}\n",
                        encoding="utf-8")
        assert lv.load_profile(str(path)).raise_.cost_per_space == cost
