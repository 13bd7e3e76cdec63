"""The one-line decision notation round-trips (text -> decision -> the same text, decision -> text -> the same
decision) for every kind of decision and for trades, and a bad text is refused naming the bad word.

DESIGN.md "Decisions also have a one-line text notation"; STYLE.md (python-chess SAN: errors say which part is wrong).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lv
from lv import bots
from lv import (Build, EndTurn, Gamble, GiveDie, GiveLot, GiveMoney, Raise, Remodel, Reorganize, Sprawl, Trade,
                format_action, parse_action)

NAMES = ["black", "blue", "red", "green"]
BOARD = lv.load_board()

EXAMPLES = [
    ("build A2 gold", Build("A2", "gold")),
    ("sprawl A5 from A2", Sprawl("A5", "A2")),
    ("remodel A2 brown", Remodel("A2", "brown")),
    ("reorg A2", Reorganize("A2")),
    ("raise C12", Raise("C12")),
    ("gamble B3 4", Gamble("B3", 4)),
    ("gamble B3 4 layoff", Gamble("B3", 4, lay_off=True)),
    ("end", EndTurn()),
    ("trade money 7 from green to black; lot D2 from black to green; die B4 from blue to black; remodel B1 aqua; "
     "sprawl B2 from B1; die B4 from black to blue; die B2 from black to blue; build A5 silver",
     Trade((GiveMoney(3, 0, 7), GiveLot("D2", 0, 3), GiveDie("B4", 1, 0), Remodel("B1", "aqua"), Sprawl("B2", "B1"),
            GiveDie("B4", 0, 1), GiveDie("B2", 0, 1), Build("A5", "silver")))),
    ("trade money 1 from red to blue; gamble C1 5 layoff; reorg C1; raise C1",
     Trade((GiveMoney(2, 1, 1), Gamble("C1", 5, True), Reorganize("C1"), Raise("C1")))),
]


@pytest.mark.parametrize("text,action", EXAMPLES, ids=[t.split()[0] + str(i) for i, (t, _) in enumerate(EXAMPLES)])
def test_every_kind_round_trips(text, action):
    assert parse_action(text, NAMES) == action
    assert format_action(action, NAMES) == text
    assert parse_action(format_action(action, NAMES), NAMES) == action


@pytest.mark.parametrize("loose,canonical", [
    ("BUILD a2 Gold", "build A2 gold"),
    ("  sprawl   a5  FROM a2 ", "sprawl A5 from A2"),
    ("reorganize c10", "reorg C10"),
    ("gamble b3 $4 lay-off", "gamble B3 4 layoff"),
    ("trade money $5 from RED to Blue;lot a1 from blue to red;", "trade money 5 from red to blue; lot A1 from blue to red"),
])
def test_loose_spellings_read_and_write_canonically(loose, canonical):
    assert format_action(parse_action(loose, NAMES), NAMES) == canonical


lots = st.sampled_from(BOARD.order)
colors = st.sampled_from(BOARD.colors)
seats = st.integers(0, len(NAMES) - 1)
money = st.integers(1, 500)
single = st.one_of(
    st.builds(Build, lots, colors), st.builds(Sprawl, lots, lots), st.builds(Remodel, lots, colors),
    st.builds(Reorganize, lots), st.builds(Raise, lots), st.builds(Gamble, lots, money, st.booleans()))
transfer = st.one_of(
    st.builds(GiveMoney, seats, seats, money), st.builds(GiveLot, lots, seats, seats),
    st.builds(GiveDie, lots, seats, seats))
decision = st.one_of(single, st.just(EndTurn()),
                     st.builds(Trade, st.lists(st.one_of(single, transfer), min_size=1, max_size=6).map(tuple)))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(decision)
def test_any_decision_round_trips(action):
    text = format_action(action, NAMES)
    assert parse_action(text, NAMES) == action
    assert format_action(parse_action(text, NAMES), NAMES) == text


def test_every_legal_decision_of_a_game_round_trips():
    game = lv.new_game("revised", 4, seed=2)
    bots.play(game, [bots.random_bot] * 4, seed=2)
    seen = set()
    for turn in game.history:
        for d in turn.decisions:
            text = format_action(d.action, game.player_names)
            assert parse_action(text, game.player_names) == d.action
            seen.add(type(d.action))
    assert {Build, EndTurn} <= seen


@pytest.mark.parametrize("text,bad", [
    ("build Z9 gold", "'Z9'"),
    ("build A2 pink", "'pink'"),
    ("fly A2", "'fly'"),
    ("gamble B3 four", "'four'"),
    ("gamble B3 4 maybe", "gamble LOT BET [layoff]"),
    ("sprawl A5 to A2", "sprawl LOT from LOT"),
    ("build A2", "build LOT COLOUR"),
    ("reorg", "reorg LOT"),
    ("end now", "'end'"),
    ("trade", "a trade needs steps"),
    ("trade money 5 from red to nobody", "'nobody'"),
    ("trade money five from red to blue", "'five'"),
    ("trade lot Q1 from red to blue", "'Q1'"),
    ("trade die A1 to red from blue", "from PLAYER to PLAYER"),
    ("trade money 5 from red to blue; end", "'end' cannot be a step"),
    ("trade money 5 from red to blue; trade lot A1 from red to blue", "'trade' cannot be a step"),
    ("trade money 5 from red to blue; hop A1", "'hop'"),
])
def test_errors_name_the_bad_word(text, bad):
    with pytest.raises(lv.NotationError) as err:
        parse_action(text, NAMES)
    message = str(err.value)
    assert bad in message and "\n" not in message


def test_empty_text_is_an_error():
    with pytest.raises(lv.NotationError, match="empty"):
        parse_action("   ", NAMES)


@pytest.mark.parametrize("text,message", [
    ("build E1 aqua $9", "'build E1 aqua $9': $9 is the cost 'lv legal' shows, not part of the decision: give "
                         "'build E1 aqua'"),
    ("reorg D8 $2", "$2 is the cost 'lv legal' shows, not part of the decision: give 'reorg D8'"),
    ("gamble B3 5 $5", "give 'gamble B3 5'"),
    ("sell B3 +$6", "give 'sell B3'"),
])
def test_a_line_copied_from_lv_legal_with_its_cost_is_named(text, message):
    with pytest.raises(lv.NotationError) as err:
        parse_action(text, NAMES)
    assert str(err.value) == message if message.startswith("'") else message in str(err.value)


def test_a_cost_after_what_is_no_decision_keeps_the_first_error():
    with pytest.raises(lv.NotationError, match="expected 'build LOT COLOUR'"):
        parse_action("build Z9 aqua $9", NAMES)
