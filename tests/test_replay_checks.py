"""The record path refuses what the API refuses (issue 17.3), and a replay checks every recorded fact (17.11):
who draws, a turn that ends before its draw, the rule of a refused decision, a trailing ``end``."""

from __future__ import annotations

import pytest

import lv
from lv import bots
from lv.actions import Draw
from lv.errors import RecordError
from lv.record import dumps, parse_record, record_of
from lv.replay import Illegal, replay
from lv.ruleids import Rule
from lv.rules import DRAW_FIRST, DRAW_TURN


def explicit_game():
    """red has drawn and ended; blue is to draw (draws: explicit). Red starts by ``first_player``, not by the
    starting roll, so the record's lines (turn 1 at line 12, turn 2 at line 15) do not depend on the dice."""
    game = lv.new_game("revised", ["red", "blue"], seed=7, draw_first=False, first_player="red")
    game.apply(Draw())
    game.apply(lv.EndTurn(), draw=False)
    return game


def explicit_record(**changes):
    data = record_of(explicit_game())
    data.update(changes)
    return data


def rec(data):
    return parse_record(dumps(data), "g.yaml")


# ---------------------------------------------------------------------------------------------- who draws


def test_the_api_refuses_a_draw_by_another_player():
    game = explicit_game()
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Draw(player=0))
    assert err.value.rule == DRAW_TURN


def test_a_strict_replay_refuses_a_draw_by_another_player_with_its_rule():
    data = explicit_record()
    data["turns"][1]["decisions"] = ["draw by red"]
    with pytest.raises(RecordError) as err:
        replay(rec(data))
    assert err.value.rule == DRAW_TURN and err.value.line == 15 and err.value.turn == 2
    assert "'draw by red' is illegal under 'revised': it is blue's turn: red cannot draw" in str(err.value)


def test_another_profile_refuses_a_draw_by_another_player_too():
    """strict=False used to rewrite the recorded draw as a plain one and forget who draws."""
    data = explicit_record()
    data["turns"][1]["decisions"] = ["draw by red", "build A2 gold"]
    rep = replay(rec(data), "original")
    assert not rep.strict and rep.stopped
    assert rep.illegal == [Illegal(2, 1, "draw by red", "it is blue's turn: red cannot draw", DRAW_TURN, "stopped")]
    assert rep.game.state.phase == "draw" and rep.game.current_turn.cards == []
    skipped = replay(rec(data), "original", on_illegal="skip")  # and the build before any draw is refused too
    assert [(i.decision, i.rule, i.handled) for i in skipped.illegal] == [
        ("draw by red", DRAW_TURN, "skipped"), ("build A2 gold", DRAW_FIRST, "skipped")] and not skipped.stopped


def test_a_plain_draw_under_another_profile_is_no_card_mismatch():
    data = explicit_record()
    data["turns"][0]["decisions"] = ["draw"]
    rep = replay(rec(data), "original")  # the original deals two more cards: red draws C4
    assert rep.card_mismatches == [] and rep.game.history[0].cards == ["C4"]
    data["turns"][0]["decisions"] = ["draw E3"]
    rep = replay(rec(data), "original")
    assert [(c.turn, c.recorded, c.drawn) for c in rep.card_mismatches] == [(1, ("E3",), ("C4",))]


# ---------------------------------------------------------------------------------------------- ending a turn


def test_a_turn_that_ends_before_its_draw_is_an_illegal_end_under_the_recorded_profile():
    data = explicit_record()
    data["turns"][0].pop("decisions")  # red ends without drawing
    data["turns"][1]["decisions"] = ["draw"]
    with pytest.raises(RecordError) as err:
        replay(rec(data))
    e = err.value
    assert e.rule == DRAW_FIRST and e.turn == 1 and e.line == 13
    assert str(e) == (f"g.yaml:13: turn 1: 'end' is illegal under 'revised': red has not drawn yet: draw, then end "
                      f"the turn [{DRAW_FIRST}]")


def test_a_turn_that_ends_before_its_draw_stops_another_profiles_replay_with_the_game_so_far():
    data = explicit_record()
    data["turns"][0]["decisions"] = ["trade money 1 from red to blue"]  # a trade before the draw, then the end
    data["turns"][1]["decisions"] = ["draw"]
    rep = replay(rec(data), "original")
    assert rep.stopped and not rep.complete
    assert rep.illegal == [Illegal(1, 2, "end", "red has not drawn yet: draw, then end the turn", DRAW_FIRST,
                                   "stopped")]
    assert rep.turns[0].steps[-1] == rep.illegal[0] and len(rep.turns) == len(rep.snapshots) == 1
    assert rep.game.state.turn == 1 and rep.game.state.phase == "draw"
    assert rep.snapshots[0].money == tuple(p.money for p in rep.game.state.players)
    assert rep.game.history[0].decisions[0].events[0].kind == "money_given"  # the trade before it stands
    assert rep.to_dict()["illegal"][0]["rule"] == DRAW_FIRST


def test_a_trailing_end_ends_the_last_turn():
    game = explicit_game()
    data = record_of(game)
    data["turns"].pop()  # blue's turn, to draw ...
    data["turns"][0]["decisions"].append("end")  # ... follows from red's written end
    seen = []
    rep = replay(rec(data), on_turn=lambda g, play: seen.append((g.state.turn, play.turn.number, play.line)))
    assert seen == [(1, 1, 12), (2, 2, 15)]
    assert rep.game.state.current == 1 and rep.game.state.phase == "draw" and rep.game.state.turn == 2
    assert len(rep.turns) == len(rep.snapshots) == 2 and rep.turns[1].line == 15
    assert dumps(record_of(rep.game)) == dumps(record_of(game))


def test_a_trailing_end_that_draws_the_end_card_ends_the_game_and_verifies():
    game = lv.new_game("revised", 2, 0)
    bots.play(game, [bots.random_kind_bot] * 2, 0)
    assert game.history[-1].cards == [lv.END_CARD] and not game.history[-1].decisions
    data = record_of(game, "revised")
    data["turns"].pop()
    data["turns"][-1].setdefault("decisions", []).append("end")
    rep = replay(rec(data))
    assert rep.verified is True and rep.game.result == game.result
    assert rep.turns[-1].turn.cards == [lv.END_CARD]


def test_a_trailing_end_after_the_game_ended_is_refused():
    game = lv.new_game("revised", 2, 0)
    bots.play(game, [bots.random_kind_bot] * 2, 0)
    data = record_of(game, "revised")
    data["turns"][-1]["decisions"] = ["end"]
    with pytest.raises(RecordError, match=r"turn 27: 'end' comes after the game ended \(end_card\)") as err:
        replay(rec(data))
    assert err.value.rule == "end"
    rep = replay(rec(data), "revised,gamble.lay_off=boss_option")
    assert rep.illegal[-1] == Illegal(27, 1, "end", "the game has ended", "end", "skipped")


def test_a_trailing_end_before_the_draw_is_named_at_its_line():
    data = explicit_record()
    data["turns"] = [{"player": "red", "decisions": ["end"]}]
    with pytest.raises(RecordError) as err:
        replay(rec(data))
    assert err.value.rule == DRAW_FIRST and err.value.line == 12


def test_until_stops_before_a_trailing_end():
    data = explicit_record()
    data["turns"].pop()
    data["turns"][0]["decisions"].append("end")
    rep = replay(rec(data), until=1)
    assert rep.game.state.turn == 1 and len(rep.turns) == 1


# ---------------------------------------------------------------------------------------------- the rule


def test_a_record_error_carries_the_rule_that_refused():
    data = explicit_record()
    data["turns"][0]["decisions"] = ["draw", "raise A1"]
    with pytest.raises(RecordError) as err:
        replay(rec(data), "original", strict=True)
    assert err.value.rule == "raise.enabled" and str(err.value).endswith("[raise.enabled]")
    with pytest.raises(RecordError) as err:
        replay(rec(data))
    assert err.value.rule == Rule.RAISE_CASINO and str(err.value).endswith(f"[{Rule.RAISE_CASINO}]")


def test_a_malformed_record_has_no_rule():
    with pytest.raises(RecordError) as err:
        parse_record("format: lv-game/1\nprofile: revised\nplayers: [a]\n")
    assert err.value.rule == ""


def test_a_game_with_a_first_player_records_it():
    game = lv.new_game("revised", ["red", "blue"], seed=3, first_player="blue")
    data = record_of(game)
    assert data["first_player"] == "blue" and "starting_rolls" not in data
    rep = replay(rec(data))
    assert rep.game.state.current == 1 and dumps(record_of(rep.game)) == dumps(data)


def test_a_trailing_end_whose_draw_needs_dice_the_record_lacks_reports_them():
    """Turn 13 of this game draws a card that ties two dice; the record stops at turn 12's written end. Seed 5:
    the first seed (of 0-5, revised, 3 players, random-kind bots) whose game has a draw with tie rerolls."""
    game = lv.new_game("revised", 3, 5)
    bots.play(game, [bots.random_kind_bot] * 3, 5)
    data = record_of(game, "revised")
    assert data["turns"][12].get("dice") == {"ties": {"D7": [1], "D8": [3]}}
    data = {k: v for k, v in data.items() if k != "result"}
    data["turns"] = data["turns"][:12]
    data["turns"][-1] = dict(data["turns"][-1], decisions=data["turns"][-1].get("decisions", []) + ["end"])
    rep = replay(rec(data))
    assert [(g.turn, g.index, g.decision, g.dice) for g in rep.generated] == [(13, None, "draw", ("ties",))]
    assert rep.turns[-1].turn.number == 13 and len(rep.snapshots) == 13
