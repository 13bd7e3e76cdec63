"""Fuzz: decision text built from the notation's tokens (verbs, lots, colours, players, amounts, separators) with
near-misses, Unicode digits and control characters, through ``lv.parse_action`` (what parses must round-trip)
and ``lv move`` (a decision, --dice, --from, --die-from/--marker-from). The rule is in hostile.py."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lv
from hostile import CONTROL_TEXT, LOTS, UNICODE_DIGITS, call, fuzz_settings, notation, run_cli
from hostile import tally  # noqa: F401 - the fixture
from lv import session

NAMES = ["red", "blue", "green"]
DICE = st.one_of(st.lists(st.sampled_from(["1", "3", "6", "0", "7", "-1", "", ",", " ", *UNICODE_DIGITS[:5]]),
                          max_size=5).map(",".join), st.text(max_size=6))


@pytest.mark.slow
def test_notation_parses_or_says_why(tally):
    @fuzz_settings(150)
    @given(notation())
    def case(text):
        action = call(tally, lv.parse_action, text, NAMES)
        if action is not None:
            again = lv.format_action(action, NAMES)
            assert lv.parse_action(again, NAMES) == action, (text, again)

    case()
    tally.settle()


@pytest.mark.slow
def test_decisions_through_lv_move(tally, tmp_path):
    path = tmp_path / "g.yaml"
    session.create(path, "revised", NAMES, seed=4)
    start = path.read_bytes()

    @fuzz_settings(40)
    @given(notation(), st.one_of(st.none(), DICE), st.lists(notation(), max_size=4), st.data())
    def case(text, dice, lines, data):
        path.write_bytes(start)
        how = data.draw(st.sampled_from(["one", "one", "from", "choices"]))
        if how == "one":
            run_cli(tally, ["move", str(path), *(["--dice", dice] if dice is not None else []), "--", text])
        elif how == "from":
            run_cli(tally, ["move", str(path), "--from", "-"], stdin="\n".join(lines + [text]))
        else:
            where = data.draw(st.sampled_from(LOTS[:5] + ["Z9", "", *CONTROL_TEXT[:2]]))
            run_cli(tally, ["move", str(path), "--die-from", where, "--marker-from", where, "--", text])
        run_cli(tally, ["legal", str(path)])

    case()
    tally.settle()
