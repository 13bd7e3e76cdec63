"""Issue 32: play at a table (lv/session.py, ``lv new --table``): a draw's tie reroll entered by hand under both
values of ``reorg.tie_rerolls_count`` and which dice it locks, a reorganize's faces where the casino has a die-less
tile, a deal that gives a player too few cards or one card twice, and reorganize's generator under a cost per pip
no shipped profile has."""

from __future__ import annotations

import pytest

import lv
from lv import actions as A
from lv.errors import LvError
from lv.record import parse_record
from lv.replay import replay
from lv.session import MoveError, Session, create


def table(spec: str, position: dict) -> Session:
    """A table's game standing at ``position`` (yellow and red), the draw waiting to be named."""
    game = lv.Game.from_position(lv.load_profile(spec), ["yellow", "red"], position, table=True, draw_first=False)
    game.ask = True  # as lv new --table: the draw's tie rerolls are decisions of their own
    return Session(game=game, spec=spec, path=None, position=position)


# the question of examples/question-tie-reroll.yaml, at a table: Yellow draws E2 and takes over Red's 5, tying Red's
# 5 on E1 (003 "Settling Who's the Boss" L426-442); Yellow also has a die of her own on D1
TIE = {"current": "yellow", "phase": "draw", "players": {"yellow": {"money": 40}, "red": {"money": 10}},
       "markers": {"A2": "yellow"}, "tiles": {"E1": "purple red 5", "E2": "purple red 5", "D1": "gold yellow 3"}}


@pytest.mark.parametrize("counts", [False, True])
@pytest.mark.parametrize("how", ["text", "dice"])
def test_a_tie_reroll_entered_by_hand_and_the_dice_it_locks(counts, how):
    """``reroll E1 2 E2 6`` (or ``reroll --dice 2,6``): Yellow's 6 makes her the boss (pays $6, scores 2). Under
    ``reorg.tie_rerolls_count: true`` (000 "Action - Reorganize": "no die may be rerolled more than once in a
    turn", read literally) the two rerolled dice may not be reorganized this turn; under false (both editions'
    default) they may; Yellow's D1, never rerolled, may either way."""
    s = table(f"revised,reorg.tie_rerolls_count={str(counts).lower()}", TIE)
    s.play("draw E2")
    assert s.game.state.pending["what"] == "reroll" and s.game.state.pending["lots"] == ("E1", "E2")
    assert s.legal()["reroll"] == ["reroll E1 N E2 N (or --dice)"] and s.legal()["reorg"] == []
    played = s.play("reroll E1 2 E2 6") if how == "text" else s.play("reroll", dice=[2, 6])
    assert played.text == "reroll E1 2 E2 6"
    st = s.game.state
    assert (st.tiles["E1"].value, st.tiles["E2"].value) == (2, 6) and st.tiles["E2"].owner == 0
    assert {p.name: (p.money, p.score) for p in st.players} == {"yellow": (40 + 1 + 6, 2), "red": (10 + 2, 0)}
    assert st.reorganized == ({"E1", "E2"} if counts else set())
    assert s.legal()["reorg"] == (["reorg D1"] if counts else ["reorg D1", "reorg E1"])
    if counts:
        with pytest.raises(MoveError, match="already reorganized this turn"):
            s.play("reorg E1", dice=[1, 1])
    else:
        s.play("reorg E1", dice=[1, 4])
        assert (st.tiles["E1"].value, st.tiles["E2"].value) == (1, 4)
    # the record keeps the reroll and replays to the same game
    again = replay(parse_record(s.text(), "t.yaml")).game
    assert again.state.tiles == st.tiles and again.state.reorganized == st.reorganized


@pytest.mark.parametrize("wrong,why", [
    ("reroll E2 6 E1 2", "reroll the tied dice on E1, E2: one face"),
    ("reroll E1 2", "reroll the tied dice on E1, E2"),
    ("reroll E1 7 E2 6", "'7' is not a die face \\(1-6\\)"),
    ("reroll E1 0 E2 6", "'0' is not a die face \\(1-6\\)"),
    ("build A2 gold", "a tie reroll is under way on E1, E2: nothing else until it finishes"),
])
def test_a_tie_reroll_entered_wrong_is_refused_and_changes_nothing(wrong, why):
    s = table("revised", TIE)
    s.play("draw E2")
    before = s.text()
    with pytest.raises(MoveError, match=why):
        s.play(wrong)
    assert s.text() == before and s.game.state.pending is not None


def test_a_tie_reroll_with_the_wrong_number_of_dice_is_refused():
    s = table("revised", TIE)
    s.play("draw E2")
    with pytest.raises(MoveError, match="takes 2 dice, 3 given"):
        s.play("reroll", dice=[1, 2, 3])


# ---------------------------------------------------------------- a reorganize where a tile has no die

DIELESS = {"current": "yellow", "players": {"yellow": {"money": 40}, "red": {"money": 10}},
           "tiles": {"C4": "gold yellow 1", "C5": "gold", "C6": "gold red 6"}}


def test_a_reorganize_asks_a_face_for_each_die_not_for_the_die_less_tile():
    """The casino C4-C6 has dice on C4 and C6 only: two faces, in board order; C5 stays without a die."""
    s = table("revised", DIELESS)
    assert "reorg C4" in s.legal()["reorg"]
    with pytest.raises(MoveError, match=r"reorganizing rerolls 2 dice \(C4, C6, in that order\), 1 given"):
        s.play("reorg C4", dice=[3])
    with pytest.raises(MoveError, match="3 dice given, the decision rolls 2"):
        s.play("reorg C4", dice=[3, 4, 5])
    s.play("reorg C4", dice=[3, 4])
    st = s.game.state
    assert (st.tiles["C4"].value, st.tiles["C6"].value) == (3, 4)
    assert (st.tiles["C5"].owner, st.tiles["C5"].value) == (None, None)
    assert st.players[0].money == 40 - 7  # 1 + 6 pips at $1 (003 L592-631)
    assert st.reorganized == {"C4", "C6"}


# ---------------------------------------------------------------- the deal

@pytest.mark.parametrize("deal,why", [
    ({"red": ["A1"], "blue": ["B2", "C3"]}, "red"),
    ({"red": ["A1", "A1"], "blue": ["B2", "C3"]}, "A1"),
    ({"red": ["A1", "C4"], "blue": ["A1", "C3"]}, "A1"),
    ({"red": ["A1", "C4", "D5"], "blue": ["B2", "C3"]}, "red"),
    ({"red": ["A1", "C4"]}, "blue"),
])
def test_a_table_deal_with_too_few_or_repeated_cards_is_refused(deal, why):
    with pytest.raises(LvError, match=why) as info:
        create(None, "revised", ["red", "blue"], table=True, deal=deal, first_player="red")
    assert "\n" not in str(info.value)


def test_a_right_table_deal_is_taken():
    s = create(None, "revised", ["red", "blue"], table=True, deal={"red": ["A1", "C4"], "blue": ["B2", "C3"]},
               first_player="red")
    assert s.game.state.markers == {"A1": 0, "C4": 0, "B2": 1, "C3": 1}


# ---------------------------------------------------------------- reorganize's generator at other costs per pip

@pytest.mark.parametrize("per,money,listed", [
    (3, 9, True), (3, 8, False), (2, 6, True), (2, 5, False), (7, 21, True), (7, 20, False), (0, 0, True),
    (1, 3, True), (1, 2, False),
])
def test_reorganize_is_listed_exactly_when_its_pips_are_paid(per, money, listed):
    """D1 shows 3 pips: reorganizing costs 3 x ``reorg.cost_per_pip``; the legal list and the referee agree."""
    profile = lv.load_profile(f"revised,reorg.cost_per_pip={per}")
    game = lv.Game.from_position(profile, ["yellow", "red"], {
        "current": "yellow", "players": {"yellow": {"money": money}}, "tiles": {"D1": "gold yellow 3"}})
    assert (A.Reorganize("D1") in game.legal_actions()) is listed
    assert (game.why_not(A.Reorganize("D1")) is None) is listed
    if listed:
        game.apply(A.Reorganize("D1"), dice={"reorg": {"D1": 5}})
        assert game.state.players[0].money == money - 3 * per
