"""Trade legality (issue 17.11): who the parties are, amounts at the boundary, giving what belongs to someone
else, a trade with oneself, what a trade may hold. 000 "At Any Time: Trading" L216-226; 003 "Trading" L803-836.
Each test is a position, a trade, and the exact outcome (or the rule that refuses it, with nothing changed)."""

from __future__ import annotations

import re

import pytest

import lv
from lv import Build, GiveDie, GiveLot, GiveMoney, Reorganize, Trade
from lv.actions.trade import FAMILY, ActAs, GivePoints, GiveRiser, GiveTile, Promise, TradeStepFailed
from lv.errors import ArgumentError
from lv.ruleids import Rule

from conftest import at, illegal, kinds, money, of_kind

THREE = ["red", "blue", "green"]
RED, BLUE, GREEN = 0, 1, 2


def table(spec="revised", phase="actions", **pos):
    """Red's turn, in the action step (``phase="draw"``: before Red draws); everyone has $10 unless ``players``
    says otherwise."""
    players = {name: {"money": 10} for name in THREE}
    for name, values in pos.pop("players", {}).items():
        players[name].update(values)
    if phase == "draw":
        pos = dict(pos, current="red", phase="draw", players=players)
        return lv.Game.from_position(lv.load_profile(spec), THREE, pos, draw_first=False)
    return at(spec, THREE, current="red", phase=phase, players=players, **pos)


# ------------------------------------------------------------------------------------------ the parties


def test_the_parties_named_with_by_may_be_any_two_or_more_players():
    game = table()
    game.apply(Trade((GiveMoney(BLUE, GREEN, 4),), by=(BLUE, GREEN)))  # two players, neither of them the current
    assert money(game) == {"red": 10, "blue": 6, "green": 14}
    game.apply(Trade((GiveMoney(GREEN, RED, 1), GiveMoney(RED, BLUE, 2)), by=(GREEN, RED, BLUE)))
    assert money(game) == {"red": 9, "blue": 8, "green": 13}


@pytest.mark.parametrize("by,why", [((BLUE,), "two or more players"), ((), None)])
def test_one_party_is_no_trade_but_by_left_out_is_the_players_the_steps_name(by, why):
    game = table()
    trade = Trade((GiveMoney(BLUE, GREEN, 1),), by=by)
    if why:
        assert illegal(game, trade, Rule.TRADE_PARTIES).reason == "a trade is between two or more players"
    else:
        game.apply(trade)
        assert money(game) == {"red": 10, "blue": 9, "green": 11}


@pytest.mark.parametrize("by,why", [((BLUE, 3), "no such player among (1, 3)"),
                                    ((BLUE, -1), "no such player among (1, -1)"),
                                    ((BLUE, BLUE), "a player is named twice among the parties"),
                                    ((BLUE, GREEN, BLUE), "a player is named twice among the parties")])
def test_the_parties_are_players_of_the_game_each_named_once(by, why):
    err = illegal(table(), Trade((GiveMoney(BLUE, GREEN, 1),), by=by), Rule.TRADE)
    assert err.reason == why


def test_a_step_may_name_only_the_parties():
    game = table()
    err = illegal(game, Trade((GiveMoney(BLUE, GREEN, 1),), by=(RED, BLUE)), Rule.TRADE_PARTIES)
    assert err.reason == "green is not a party to the trade (by red, blue)"
    err = illegal(game, Trade((GiveMoney(BLUE, GREEN, 1), GiveMoney(RED, GREEN, 1)), by=(BLUE, RED)),
                  Rule.TRADE_PARTIES)
    assert err.reason == "green is not a party to the trade (by blue, red)"
    four = at("revised", THREE + ["yellow"], current="red", phase="actions",
              players={n: {"money": 5} for n in THREE + ["yellow"]})
    err = illegal(four, Trade((GiveMoney(BLUE, GREEN, 1), GiveMoney(RED, 3, 1)), by=(RED, BLUE)),
                  Rule.TRADE_PARTIES)
    assert err.reason == "green, yellow are not a party to the trade (by red, blue)"


def test_an_action_step_makes_the_current_player_a_party():
    """003 L817-819: actions in a trade are the current player's; with ``by``, that player must be a party."""
    game = table(tiles={"A1": "gold red 3"})
    err = illegal(game, Trade((GiveMoney(BLUE, GREEN, 1), Build("A2", "gold")), by=(BLUE, GREEN)),
                  Rule.TRADE_PARTIES)
    assert err.reason == "red is not a party to the trade (by blue, green)"


# ------------------------------------------------------------------------------------------ amounts


@pytest.mark.parametrize("amount", [0, -1])
def test_money_is_a_whole_number_of_dollars_at_least_one(amount):
    err = illegal(table(), Trade((GiveMoney(BLUE, RED, amount),)), Rule.TRADE_ITEMS)
    assert err.reason == f"trade step 1 fails: give a whole number of dollars, at least $1, not {amount!r}"


@pytest.mark.parametrize("amount", [True, 1.5, "3"])
def test_money_that_is_no_whole_number_makes_no_step(amount):
    """000:L24 "All values in this game are described in dollars": a step of money that is not a whole number cannot
    be made (lv/actions/_values.py), in both builds alike; the trade rule never meets it."""
    with pytest.raises(ArgumentError, match=rf"^GiveMoney.amount {re.escape(repr(amount))}: a whole number$"):
        GiveMoney(BLUE, RED, amount)


def test_one_dollar_and_all_the_givers_money_may_be_given_but_not_a_dollar_more():
    game = table()
    game.apply(Trade((GiveMoney(BLUE, RED, 1),)))
    assert money(game) == {"red": 11, "blue": 9, "green": 10}
    err = illegal(game, Trade((GiveMoney(BLUE, RED, 10),)), Rule.TRADE_ITEMS)
    assert err.reason == "trade step 1 fails: blue has $9, not $10"
    game.apply(Trade((GiveMoney(BLUE, RED, 9),)))
    assert money(game) == {"red": 20, "blue": 0, "green": 10}


def test_money_received_earlier_in_the_trade_may_be_given_on():
    """The steps happen in order (003 L832): Blue has $0, receives $5, then gives $5."""
    game = table(players={"blue": {"money": 0}})
    game.apply(Trade((GiveMoney(RED, BLUE, 5), GiveMoney(BLUE, GREEN, 5))))
    assert money(game) == {"red": 5, "blue": 0, "green": 15}


# ------------------------------------------------------------------------------------------ whose it is


def test_a_lot_goes_only_from_the_player_whose_marker_is_on_it():
    game = table(markers={"A1": "blue"})
    for step, who in [(GiveLot("A1", RED, GREEN), "red"), (GiveLot("A2", BLUE, GREEN), "blue")]:
        err = illegal(game, Trade((step,)), Rule.TRADE_ITEMS)
        assert err.reason == f"trade step 1 fails: {who} has no marker on {step.lot}"
    events = game.apply(Trade((GiveLot("A1", BLUE, GREEN),)))
    assert game.state.markers == {"A1": GREEN}
    assert [(e.lot, e.giver, e.receiver, e.moved_from) for e in of_kind(events, "lot_given")] == [
        ("A1", BLUE, GREEN, None)]


def test_a_die_goes_only_from_the_player_who_owns_it():
    game = table(tiles={"C1": "aqua blue 5", "C2": "aqua", "C3": "aqua green 2"})
    for step, who in [(GiveDie("C1", RED, GREEN), "red"), (GiveDie("C2", BLUE, GREEN), "blue"),
                      (GiveDie("C3", BLUE, RED), "blue"), (GiveDie("D4", BLUE, RED), "blue")]:
        err = illegal(game, Trade((step,)), Rule.TRADE_ITEMS)
        assert err.reason == f"trade step 1 fails: {who} has no die on {step.lot}"
    events = game.apply(Trade((GiveDie("C1", BLUE, RED),)))
    assert (game.state.tiles["C1"].owner, game.state.tiles["C1"].value) == (RED, 5)
    assert [(e.lot, e.giver, e.receiver, e.value) for e in of_kind(events, "die_given")] == [("C1", BLUE, RED, 5)]


def test_a_lot_or_die_not_on_the_board_is_refused_by_its_name():
    for step in (GiveLot("Z9", BLUE, RED), GiveDie("Z9", BLUE, RED)):
        with pytest.raises(lv.IllegalAction, match="Z9"):
            table().apply(Trade((step,)))


@pytest.mark.parametrize("step", [GiveMoney(BLUE, BLUE, 1), GiveLot("A1", BLUE, BLUE), GiveDie("C1", BLUE, BLUE)])
def test_a_player_cannot_trade_with_themselves(step):
    game = table(markers={"A1": "blue"}, tiles={"C1": "aqua blue 5"})
    err = illegal(game, Trade((step,)), Rule.TRADE)
    assert err.reason == "trade step 1 fails: a player cannot trade with themselves"


@pytest.mark.parametrize("giver,receiver", [(3, RED), (RED, 3), (-1, RED)])
def test_a_transfer_names_players_of_the_game(giver, receiver):
    who = receiver if giver == RED else giver
    for by in ((), (RED, BLUE)):  # with parties named too: the step is refused, not the list of parties
        err = illegal(table(), Trade((GiveMoney(giver, receiver, 1),), by=by), Rule.TRADE)
        assert err.reason == f"trade step 1 fails: no such player: {who!r}"


# ------------------------------------------------------------------------------------------ what a trade holds


@pytest.mark.parametrize("step,rule,why", [
    (GivePoints(BLUE, RED, 2), Rule.TRADE_FORBIDDEN, "step 2: points cannot be traded"),
    (GiveTile("C1", BLUE, RED), Rule.TRADE_FORBIDDEN, "step 2: casino tiles cannot be traded"),
    (GiveRiser("C1", BLUE, RED), Rule.TRADE_FORBIDDEN, "step 2: risers cannot be traded"),
    (Promise(BLUE, RED, "sprawl next turn"), Rule.TRADE_PROMISE,
     "step 2: a promise of an action or a transfer on a future turn cannot be traded")])
def test_points_tiles_risers_and_promises_make_the_whole_trade_illegal(step, rule, why):
    """000 L226 / 003 L827-832: not steps that fail, the trade itself is refused (the $1 before is not paid)."""
    err = illegal(table(tiles={"C1": "aqua blue 5"}), Trade((GiveMoney(BLUE, RED, 1), step)), rule)
    assert err.reason == why


def test_only_the_current_player_takes_an_action_in_a_trade_and_only_after_drawing():
    game = table(markers={"A2": "red"})
    err = illegal(game, Trade((GiveMoney(BLUE, RED, 1), ActAs(BLUE, Build("A2", "gold")))), Rule.TRADE_ACTIONS)
    assert err.reason == "step 2: blue cannot take an action on red's turn"
    err = illegal(game, Trade((ActAs(3, Build("A2", "gold")),)), Rule.TRADE_ACTIONS)
    assert err.reason == "step 1: 3 cannot take an action on red's turn"
    blues_turn = at("revised", THREE, current="blue", players={"red": {"money": 10}}, markers={"A2": "red"})
    err = illegal(blues_turn, Trade((ActAs(RED, Build("A2", "gold")),)), Rule.TRADE_ACTIONS)
    assert err.reason == "step 1: red cannot take an action on blue's turn"
    err = illegal(game, Trade((ActAs(RED, Build("A2", "gold")),), by=(BLUE, GREEN)), Rule.TRADE_PARTIES)
    assert err.reason == "red is not a party to the trade (by blue, green)"
    before_draw = table(phase="draw", markers={"A2": "red"})
    err = illegal(before_draw, Trade((GiveMoney(BLUE, RED, 1), Build("A2", "gold"))), Rule.TRADE_ACTIONS)
    assert err.reason == "step 2: red has not drawn yet, so cannot trade an action now"
    before_draw.apply(Trade((GiveMoney(BLUE, RED, 1),)))  # a transfer may be made before drawing
    assert money(before_draw)["red"] == 11
    events = game.apply(Trade((GiveMoney(BLUE, RED, 1), ActAs(RED, Build("A2", "gold")))))
    assert kinds(events)[:2] == ["money_given", "built"] and game.state.tiles["A2"].owner == RED


def test_a_trade_needs_a_step():
    err = illegal(table(), Trade(()), Rule.TRADE)
    assert err.reason == "a trade needs at least one step"


def test_something_that_is_not_a_step_is_refused():
    err = illegal(table(), Trade(("a handshake", GiveMoney(BLUE, RED, 1))), Rule.TRADE)
    assert err.reason == "trade step 1 fails: not a trade step: 'a handshake'"


# ------------------------------------------------------------------------------------------ a step that fails


def test_a_first_step_that_fails_refuses_the_trade_under_stop_rest_too():
    """Under ``stop_rest`` a later failure keeps the steps before it; a failing first step leaves nothing, and the
    trade is an illegal decision (there is no trade to record)."""
    game = table()
    err = illegal(game, Trade((GiveMoney(BLUE, RED, 11), GiveMoney(RED, BLUE, 1))), Rule.TRADE_ITEMS)
    assert err.reason == "trade step 1 fails: blue has $10, not $11"


@pytest.mark.parametrize("failed_step", ["stop_rest", "undo_all"])
def test_a_later_step_that_fails(failed_step):
    game = table(f"revised,trade.failed_step={failed_step}", markers={"A1": "red"})
    trade = Trade((GiveMoney(BLUE, RED, 2), GiveLot("A1", RED, GREEN), GiveMoney(GREEN, RED, 11),
                   GiveMoney(RED, BLUE, 1)))
    if failed_step == "undo_all":
        err = illegal(game, trade, Rule.TRADE_ITEMS)
        assert err.reason == "trade step 3 fails: green has $10, not $11"
        return
    events = game.apply(trade)
    assert kinds(events) == ["money_given", "lot_given", "trade_step_failed"]
    failed = of_kind(events, "trade_step_failed")[0]
    assert (failed.step, failed.reason, failed.rule) == (3, "green has $10, not $11", Rule.TRADE_ITEMS)
    assert money(game) == {"red": 12, "blue": 8, "green": 10} and game.state.markers == {"A1": GREEN}
    assert FAMILY.told(failed, THREE) == (
        "trade step 3 fails: green has $10, not $11 [trade: only what the giver has]; the later steps do not happen")


def test_the_trades_events_are_told_as_sentences():
    game = table(markers={"A1": "blue"}, tiles={"C1": "aqua green 5"})
    events = game.apply(Trade((GiveMoney(RED, BLUE, 3), GiveLot("A1", BLUE, RED), GiveDie("C1", GREEN, BLUE))))
    assert [FAMILY.told(e, THREE) for e in events if FAMILY.told(e, THREE)] == [
        "red gives blue $3", "blue's lot A1 goes to red", "green's die on C1 (5) goes to blue"]
    assert FAMILY.told(TradeStepFailed(step=1, reason="r", rule="x"), THREE) == \
        "trade step 1 fails: r [x]; the later steps do not happen"


# ------------------------------------------------------------------------------------------ the notation and the record


NAMES = ["black", "blue", "red", "green"]


@pytest.mark.parametrize("text,trade,structured", [
    ("trade money 5 from green to black; lot D2 from black to green; die B4 from blue to red by green, black, blue",
     Trade((GiveMoney(3, 0, 5), GiveLot("D2", 0, 3), GiveDie("B4", 1, 2)), by=(3, 0, 1)),
     {"action": "trade", "steps": [{"money": 5, "from": "green", "to": "black"},
                                   {"lot": "D2", "from": "black", "to": "green"},
                                   {"die": "B4", "from": "blue", "to": "red"}], "by": ["green", "black", "blue"]}),
    ("trade promise from red to blue build by the strip by red, blue",
     Trade((Promise(2, 1, "build by the strip"),), by=(2, 1)),
     {"action": "trade", "steps": [{"do": "promise from red to blue build by the strip"}], "by": ["red", "blue"]}),
    ("trade as red build A2 gold", Trade((ActAs(2, Build("A2", "gold")),)),
     {"action": "trade", "steps": [{"as": "red", "action": "build", "lot": "A2", "color": "gold"}]}),
    ("trade points 5 from red to blue; tile A2 from red to blue; riser A3 from blue to red; "
     "promise from red to blue sprawl next turn",
     Trade((GivePoints(2, 1, 5), GiveTile("A2", 2, 1), GiveRiser("A3", 1, 2), Promise(2, 1, "sprawl next turn"))),
     {"action": "trade", "steps": [{"do": "points 5 from red to blue"}, {"do": "tile A2 from red to blue"},
                                   {"do": "riser A3 from blue to red"},
                                   {"do": "promise from red to blue sprawl next turn"}]}),
])
def test_a_trade_reads_writes_and_records_as_it_was_written(text, trade, structured):
    from lv.actions import structured_decision

    assert lv.parse_action(text, NAMES) == trade
    assert lv.format_action(trade, NAMES) == text
    assert structured_decision(trade, NAMES) == structured


@pytest.mark.parametrize("loose,canonical", [
    ("trade money 5 from red to blue BY Red, BLUE", "trade money 5 from red to blue by red, blue"),
    ("trade  ; ;money 5 from red to blue; ", "trade money 5 from red to blue"),
    ("Trade Money 5 From red To blue; AS red BUILD a2 gold", "trade money 5 from red to blue; as red build A2 gold"),
    ("trade money 5 from red to blue by red,blue", "trade money 5 from red to blue by red, blue"),
    ("trade promise from red to blue sprawl", "trade promise from red to blue sprawl"),
])
def test_a_trade_in_loose_spelling_is_read(loose, canonical):
    assert lv.format_action(lv.parse_action(loose, NAMES), NAMES) == canonical


@pytest.mark.parametrize("text,why", [
    ("trade money 5 from red to blue by red, nobody", "'money 5 from red to blue by red, nobody': expected "
                                                      "'money AMOUNT from PLAYER to PLAYER'"),
    ("trade money 5 from red to blue by", "'money 5 from red to blue by': expected 'money AMOUNT from PLAYER to "
                                          "PLAYER'"),
    ("trade money 5 frm red to blue", "'money 5 frm red to blue': expected 'money ... from PLAYER to PLAYER'"),
    ("trade lot A2 from red too blue", "'lot A2 from red too blue': expected 'lot ... from PLAYER to PLAYER'"),
    ("trade points 5 from red", "'points 5 from red': expected 'points AMOUNT from PLAYER to PLAYER'"),
    ("trade riser A2 from red", "'riser A2 from red': expected 'riser LOT from PLAYER to PLAYER'"),
    ("trade promise red to blue x", "'promise red to blue x': expected 'promise from PLAYER to PLAYER WHAT'"),
    ("trade promise from red too blue x", "expected 'promise from PLAYER to PLAYER WHAT'"),
    ("trade promise from red to blue", "'promise from red to blue': expected 'promise from PLAYER to PLAYER WHAT'"),
    ("trade as red", "'as red': expected 'as PLAYER ACTION', e.g. 'as red build A2 gold'"),
    ("trade as red end", "'end' cannot be a step of a trade"),
    ("trade", "a trade needs steps, e.g. 'trade money 5 from red to blue; lot A2 from blue to red'"),
    ("trade money 5 from red to blue; end", "'end' cannot be a step of a trade"),
])
def test_a_malformed_trade_step_is_refused_saying_what_was_expected(text, why):
    with pytest.raises(lv.NotationError) as err:
        lv.parse_action(text, NAMES)
    assert str(err.value).endswith(why)


# ------------------------------------------------------------------------------------------ out of pieces, ties


def test_a_receiver_out_of_markers_moves_one_or_cannot_take_the_lot():
    """003 L266-271 "Available Player Markers", for a lot received in a trade (one marker each here)."""
    pos = dict(markers={"A1": "red", "B2": "blue"})
    game = table("revised,components.markers_per_player=1,resources.markers_exhausted=no_marker", **pos)
    err = illegal(game, Trade((GiveLot("A1", RED, BLUE),)), Rule.RESOURCES_MARKERS_EXHAUSTED)
    assert err.reason == "trade step 1 fails: blue has no marker left"
    game = table("revised,components.markers_per_player=1", **pos)
    events = game.apply(Trade((GiveLot("A1", RED, BLUE),)), choices={"marker_from": "B2"})
    assert [(e.lot, e.moved_from) for e in of_kind(events, "lot_given")] == [("A1", "B2")]
    assert game.state.markers == {"A1": BLUE}


def test_a_receiver_out_of_dice_moves_one_or_cannot_take_the_die():
    """003 L251-262 "Available Dice", for a die received in a trade (one die each here)."""
    pos = dict(tiles={"C1": "aqua red 5", "E1": "gold blue 2"})
    game = table("revised,components.dice_per_player=1,resources.dice_exhausted=no_die", **pos)
    err = illegal(game, Trade((GiveDie("C1", RED, BLUE),)), Rule.RESOURCES_DICE_EXHAUSTED)
    assert err.reason == "trade step 1 fails: blue has no die left"
    game = table("revised,components.dice_per_player=1", **pos)
    events = game.apply(Trade((GiveDie("C1", RED, BLUE),)), choices={"die_from": "E1"})
    assert [(e.lot, e.value, e.moved_from) for e in of_kind(events, "die_given")] == [("C1", 5, "E1")]
    assert (game.state.tiles["C1"].owner, game.state.tiles["E1"].owner) == (BLUE, None)


@pytest.mark.parametrize("check", ["immediate", "after_each_action"])
def test_a_tie_made_by_a_transfer_is_settled_at_once_only_under_immediate(check):
    """003 L426-445 (``ties.check``): a die given away can tie a casino's top dice; under ``immediate`` the tie is
    rerolled with the dice given, under ``after_each_action`` it waits for the next action."""
    game = table(f"revised,ties.check={check}", tiles={"C1": "aqua blue 5", "C2": "aqua blue 5"})
    events = game.apply(Trade((GiveDie("C2", BLUE, RED),)), dice={"ties": {"C1": [6], "C2": [2]}})
    values = (game.state.tiles["C1"].value, game.state.tiles["C2"].value)
    if check == "immediate":
        assert [(e.lots, e.values) for e in of_kind(events, "tie_rerolled")] == [(["C1", "C2"], {"C1": 6, "C2": 2})]
        assert values == (6, 2)
    else:
        assert "tie_rerolled" not in kinds(events) and values == (5, 5)


def test_an_action_in_a_trade_rolls_the_dice_given_and_settles_its_tie():
    """A reorganization inside a trade rolls the recorded dice (every die of the casino); the tie it makes is
    rerolled with the recorded tie dice, under either ``ties.check`` (an action settles its ties)."""
    for check in ("immediate", "after_each_action"):
        game = table(f"revised,ties.check={check}", tiles={"C1": "aqua red 2", "C2": "aqua blue 5"})
        events = game.apply(Trade((GiveMoney(BLUE, RED, 1), Reorganize("C1"))),
                            dice={"reorg": {"C1": 5, "C2": 5}, "ties": {"C1": [6], "C2": [1]}})
        assert [(e.lots, e.values) for e in of_kind(events, "tie_rerolled")] == [(["C1", "C2"], {"C1": 6, "C2": 1})]
        assert (game.state.tiles["C1"].value, game.state.tiles["C2"].value) == (6, 1), check
