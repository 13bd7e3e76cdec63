"""The rulebooks' worked examples (shared/reference/worked-examples.md S01-S35), each under every profile it
applies to, with exact money, points, bosses and legality.

000 = the original 2010 rulebook (shared/seeds/000_*.txt), 003 = the revised rulebook (shared/seeds/003_*.txt);
``L<n>`` is the line of ``cat -n``. Positions are set with ``Game.from_position``; dice are injected.
"""

from __future__ import annotations

import itertools

import pytest

import lv
from lv.actions.gamble import bet_cap
from lv import Build, Gamble, GiveDie, GiveLot, GiveMoney, Raise, Remodel, Reorganize, Sprawl, Trade

from conftest import at, boss_name, casino_of, kinds, money, of_kind, scores

BOTH = pytest.mark.parametrize("spec", ["original", "revised"])
BOARD = lv.load_board()


# ------------------------------------------------------------------------------------------- S01 setup money


@BOTH
def test_s01_red_dealt_a6_and_a1_starts_with_11(spec):
    """S01. 000:L37-41: "the sum of the 2 values shown on your cards ... $4 and $7, you start with $11";
    003:L186-190: "$20 million minus the values of the 2 dice" (A6 die 6, A1 die 3: 20 - 6 - 3 = 11)."""
    # deal order: one card to each player in turn, twice (red gets the 1st and 4th card)
    deck = ["A6", "B2", "C1", "A1", "B3", "C2"] + [c for c in BOARD.order if c not in ("A6", "B2", "C1", "A1", "B3", "C2")]
    game = lv.Game(lv.load_profile(spec), ["red", "blue", "green"], seed=1, deck=deck, first_player="red")
    dealt = of_kind(game.setup_events, "dealt")  # (the first turn's draw has paid lots since)
    assert (dealt[0].player, dealt[0].lots, dealt[0].money) == (0, ["A6", "A1"], 11)
    assert game.state.markers["A6"] == 0 and game.state.markers["A1"] == 0
    # the cards go to their discard slots: A6 pays the Strip, A1 is a Pioneer (brown) card
    assert BOARD.card_color("A6") == "strip" and BOARD.card_color("A1") == "brown"
    assert {"A6", "A1"} <= set(game.state.discards)
    # the revised book's own example: dice 4 and 2 give $14 (A4 die 4, A2 die 2); the 2010 cards say $6 + $8
    deck2 = ["A4", "B2", "C1", "A2", "B3", "C2"] + [c for c in BOARD.order if c not in ("A4", "B2", "C1", "A2", "B3", "C2")]
    game2 = lv.Game(lv.load_profile(spec), ["red", "blue", "green"], seed=1, deck=deck2, first_player="red")
    assert of_kind(game2.setup_events, "dealt")[0].money == 14
    assert BOARD.lots["A4"].card_money + BOARD.lots["A2"].card_money == 14


def test_s01_both_money_formulas_agree_for_every_pair_of_lots():
    """S01 / rules-diff row 7. 000:L39 (card values) and 003:L186-190 ($20 minus the dice) give the same money
    for every pair of lots, because every 2010 card's value is 10 minus its lot's die (board data)."""
    lots = BOARD.lots
    for a, b in itertools.combinations(BOARD.order, 2):
        assert lots[a].card_money + lots[b].card_money == 20 - lots[a].die - lots[b].die, (a, b)
    # and the engine's two formulas agree on real deals covering all 48 lots (3 players, 6 lots per deal)
    order = list(BOARD.order)
    for spec_a, spec_b in [("original", "original,setup.starting_money=twenty_minus_dice"),
                           ("revised", "revised,setup.starting_money=sum_card_values")]:
        for start in range(0, 48, 6):
            chunk = order[start:start + 6]
            deck = chunk + [c for c in order if c not in chunk]
            g1 = lv.Game(lv.load_profile(spec_a), ["a", "b", "c"], deck=deck, first_player=0)
            g2 = lv.Game(lv.load_profile(spec_b), ["a", "b", "c"], deck=deck, first_player=0)
            expected = [20 - lots[chunk[i]].die - lots[chunk[i + 3]].die for i in range(3)]
            assert [e.money for e in of_kind(g1.setup_events, "dealt")] == expected
            assert [e.money for e in of_kind(g2.setup_events, "dealt")] == expected


# ------------------------------------------------------------------------------------- S03 / S04 score track


@BOTH
@pytest.mark.parametrize("size,after", [(1, 8), (2, 10), (3, 10), (4, 12), (5, 12)])
def test_s03_score_track_break_from_8(spec, size, after):
    """S03. 000:L103-108, 003:L389-403: "If your scoring chip is on the 8-space ... a casino pays you only 1 point,
    your chip does not advance to the 10-space. If you are paid 2 or 3 points ... 10 ... 4 or 5 points ... 12"."""
    chain = ["C1", "C4", "C5", "C6", "C3"][:size]  # a connected gold casino of ``size`` flat tiles in C block
    tiles = {lot: "gold red 1" for lot in chain}
    game = at(spec, ["red", "blue", "green"], current="blue", phase="draw", deck=["D8", "END"],
              players={"red": {"score": 8}}, tiles=tiles)
    scored = of_kind(game.current_turn.draw_events, "scored")
    assert [(e.player, e.award, e.before, e.after) for e in scored] == [(0, size, 8, after)]
    assert scores(game) == {"red": after, "blue": 0, "green": 0}
    assert money(game)["red"] == size  # $1 per pip, one 1 on each tile
    assert money(game)["blue"] == 1  # the D8 marker Blue just placed pays at once


@BOTH
def test_s04_three_one_tile_casinos_score_separately_and_stay_on_8(spec):
    """S04. 000:L110 / 003:L404-410: "record each casino's points individually, starting with the smallest ...
    even if several casinos of 1 tile each pay you on the same turn, your scoring chip still cannot move from the
    8-space to the 10-space". Money is still paid per pip (000:L89)."""
    game = at(spec, ["red", "blue", "green"], current="red", phase="draw", deck=["D8", "END"],
              players={"red": {"score": 8}},
              tiles={"A1": "gold red 3", "B3": "gold red 4", "E1": "gold red 5"})
    scored = of_kind(game.current_turn.draw_events, "scored")
    assert [(e.award, e.before, e.after) for e in scored] == [(1, 8, 8)] * 3
    assert scores(game)["red"] == 8
    assert money(game)["red"] == 3 + 4 + 5 + 1  # dice pips plus the new D8 marker


# -------------------------------------------------------------------------------------------- S07 a gold card


@BOTH
def test_s07_yellow_draws_gold_card_d8(spec):
    """S07. 000:L96-101, 003:L370-383: Yellow draws D8 and marks it; lots pay Green $1 and Yellow $1; Yellow's 1-tile
    gold casino pays $6 and 1 point; Green (boss of the 3-tile gold casino) scores 3 points, its dice pay Green $6
    and Blue $2; the brown and purple casinos pay nothing."""
    game = at(spec, ["green", "yellow", "blue"], current="yellow", phase="draw", deck=["D8", "A4", "END"],
              markers={"A1": "green"},
              tiles={"D9": "gold yellow 6",  # not on the Strip
                     "D1": "gold green 4", "D4": "gold green 2", "D7": "gold blue 2",  # touches the Strip
                     "E3": "brown blue 3", "E1": "purple green 5"})
    events = game.current_turn.draw_events
    assert game.current_turn.cards == ["D8"]
    assert game.state.markers["D8"] == 1
    lot_pay = [(e.player, e.amount) for e in of_kind(events, "paid") if e.why == "lots"]
    assert sorted(lot_pay) == [(0, 1), (1, 1)]
    assert money(game) == {"green": 1 + 6, "yellow": 1 + 6, "blue": 2}
    assert scores(game) == {"green": 3, "yellow": 1, "blue": 0}
    casino_pay = {(e.player, tuple(e.lots)) for e in of_kind(events, "paid") if e.why == "casino"}
    assert not any(set(lots) & {"E1", "E3"} for _, lots in casino_pay)
    assert game.state.phase == "actions"
    # the Strip: the brown and 3-tile gold casinos touch it, the purple and the 1-tile gold do not (000:L101)
    strip = {c.lots: c.strip for c in game.casinos()}
    assert strip == {("D1", "D4", "D7"): True, ("D9",): False, ("E1",): False, ("E3",): True}


# ------------------------------------------------------------------------------------------------ S09 build


@BOTH
def test_s09_red_builds_gold_on_a2(spec):
    """S09. 000:L128-136, 003:L526-553: "Red has a marker on space A2 and can build a casino there for $6 ... a gold
    tile ... a die in that tile with a value of 2". The marker goes back; the revised tile is flat."""
    game = at(spec, ["red", "yellow"], current="red", players={"red": {"money": 6}}, markers={"A2": "red"})
    events = game.apply(Build("A2", "gold"))
    assert kinds(events) == ["built"]
    assert money(game)["red"] == 0
    assert "A2" not in game.state.markers and game.pieces(0)["markers_in_hand"] == 10
    t = game.state.tiles["A2"]
    assert (t.color, t.height, t.owner, t.value) == ("gold", 1, 0, 2)
    assert boss_name(game, "A2") == "red"


@BOTH
def test_s09_build_with_5_dollars_is_illegal(spec):
    """S09. 000:L132 / 003:L533: "Pay the amount specified on that lot" ($6 for A2): with $5 Red cannot build."""
    game = at(spec, ["red", "yellow"], current="red", players={"red": {"money": 5}}, markers={"A2": "red"})
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Build("A2", "gold"))
    assert "costs $6" in err.value.reason
    assert game.state.markers == {"A2": 0} and game.state.tiles == {} and money(game)["red"] == 5
    assert not any(isinstance(a, Build) for a in game.legal_actions())


# ----------------------------------------------------------------------------------------------- S10 sprawl


@BOTH
def test_s10_sprawl_a2_into_a5_costs_18_and_not_into_yellows_a3(spec):
    """S10. 000:L140-147, 003:L555-561: "Red is sprawling from A2 into A5 ... he can't expand into A3 because that
    space is owned by Yellow ... the cost is $18, twice the normal build cost of A5" (A5 die 3)."""
    game = at(spec, ["red", "yellow"], current="red", players={"red": {"money": 40}},
              markers={"A3": "yellow"}, tiles={"A2": "gold red 2"})
    assert game.why_not(Sprawl("A3", "A2")) is not None
    with pytest.raises(lv.IllegalAction, match="owned"):
        game.apply(Sprawl("A3", "A2"))
    assert Sprawl("A5", "A2") in game.legal_actions() and Sprawl("A3", "A2") not in game.legal_actions()
    game.apply(Sprawl("A5", "A2"))
    assert money(game)["red"] == 22
    t = game.state.tiles["A5"]
    assert (t.color, t.height, t.owner, t.value) == ("gold", 1, 0, 3)
    c = casino_of(game, "A2")
    assert c.lots == ("A2", "A5") and c.color == "gold" and c.points == 2 and c.boss == 0


def test_s10_revised_sprawl_from_a_raised_casino_costs_33():
    """S10. 003:L562-568: "If that casino in A2 has been raised once, then it will cost Red $33 million total ...
    at no point are there two separate but adjacent gold casinos of differing heights" (003:L497-511, L719-722)."""
    game = at("revised", ["red", "yellow"], current="red", players={"red": {"money": 60}, "yellow": {"money": 30}},
              markers={"A3": "yellow"}, tiles={"A2": "gold h2 red 2"})
    events = game.apply(Sprawl("A5", "A2"))
    assert money(game)["red"] == 60 - 33
    (sprawled,) = of_kind(events, "sprawled")
    assert sprawled.cost == 33 and sprawled.height == 2
    gold = [c for c in game.casinos() if c.color == "gold"]
    assert len(gold) == 1 and gold[0].lots == ("A2", "A5") and gold[0].height == 2
    assert gold[0].points == 4  # 2 spaces x 2 high
    # bet cap: $5 per physical tile = $20 (Yellow has $30, Red $27: neither limits it)
    assert bet_cap(game.engine, game.state, game.casino_at("A2"), 1) == 20


# ---------------------------------------------------------------------------------------------- S12 remodel


@BOTH
def test_s12_remodel_to_brown_merges_and_yellow_is_boss(spec):
    """S12. 000:L153-159, 003:L640-647: "remodel his gold casino, changing to brown. The cost ... is $10, $5 per tile.
    This merges it with the smaller brown casino where Yellow is the boss. Yellow's 5 die is larger than Red's 3"."""
    game = at(spec, ["red", "yellow"], current="red", players={"red": {"money": 12}},
              tiles={"A2": "gold red 2", "A5": "gold red 3", "A3": "brown yellow 5"})
    events = game.apply(Remodel("A2", "brown"))
    assert money(game)["red"] == 2
    assert game.engine.available_tiles(game.state, "gold") == 9  # both gold tiles went back
    assert game.engine.available_tiles(game.state, "brown") == 6
    c = casino_of(game, "A2")
    assert c.lots == ("A2", "A3", "A5") and c.color == "brown" and c.boss == 1
    assert "tie_rerolled" not in kinds(events)
    assert [(e.lots, e.color) for e in of_kind(events, "merged")] == [(["A2", "A3", "A5"], "brown")]
    (changed,) = of_kind(events, "boss_changed")
    assert changed.previous == 0 and changed.boss == 1


def test_s12_revised_remodel_of_a_raised_casino_does_not_join_a_flat_one():
    """S12. 003:L576-590: "Pay $5 million for each space in the casino, regardless of height ... Risers become the
    same color"; 003:L541-547: casinos of different heights do not join. With only 2 brown tiles left the remodel
    of a 2-space, 2-high casino is still possible."""
    others = {lot: "brown" for lot in ("C1", "C2", "C3", "C4", "C5", "C6")}  # 6 more brown tiles: 2 left
    game = at("revised", ["red", "yellow"], current="red", players={"red": {"money": 10}},
              tiles={"A2": "gold h2 red 2", "A5": "gold h2 red 3", "A3": "brown yellow 5", **others})
    assert game.engine.available_tiles(game.state, "brown") == 2
    game.apply(Remodel("A2", "brown"))
    assert money(game)["red"] == 0
    assert game.engine.available_tiles(game.state, "brown") == 0
    assert [(game.state.tiles[x].color, game.state.tiles[x].height) for x in ("A2", "A5")] == [("brown", 2)] * 2
    red = casino_of(game, "A2")
    assert red.lots == ("A2", "A5") and red.boss == 0 and red.points == 4
    assert casino_of(game, "A3").lots == ("A3",) and casino_of(game, "A3").boss == 1


# ------------------------------------------------------------------------------------------- S13 reorganize


def _s13(spec, red_money=10):
    return at(spec, ["red", "yellow"], current="red", players={"red": {"money": red_money}},
              tiles={"A2": "brown red 2", "A5": "brown red 3", "A3": "brown yellow 5"})


@BOTH
def test_s13_reorganize_costs_10_and_red_becomes_boss(spec):
    """S13. 000:L165-182, 003:L592-639 and L686-690: "He now reorganizes the new 3-tile casino for a cost of $10
    (there are 10 total pips) ... Red becomes the boss ... the Red 5 is now the largest die". Red places his 5 and
    1 on A2/A5 as he chooses; Yellow rolls 4."""
    game = _s13(spec, red_money=12)
    assert boss_name(game, "A2") == "yellow"
    events = game.apply(Reorganize("A2"), dice={"reorg": {"A2": 1, "A5": 5, "A3": 4}})
    assert money(game)["red"] == 2
    assert [game.state.tiles[x].value for x in ("A2", "A5", "A3")] == [1, 5, 4]
    assert boss_name(game, "A2") == "red"
    assert "tie_rerolled" not in kinds(events)
    # a second reorganization of this casino this turn is illegal
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Reorganize("A3"))
    assert err.value.rule == "reorganize: each die once a turn"
    assert Reorganize("A2") not in game.legal_actions()


@BOTH
def test_s13_second_reorganize_illegal_even_after_losing(spec):
    """S13. 000:L182: "If the reroll had not gone Red's way, he could not have made another reorganization of the
    same casino on the same turn"; 003:L686-690."""
    game = _s13(spec, red_money=40)
    game.apply(Reorganize("A2"), dice={"reorg": {"A2": 1, "A5": 2, "A3": 4}})
    assert boss_name(game, "A2") == "yellow" and money(game)["red"] == 30
    assert game.why_not(Reorganize("A2")) is not None
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Reorganize("A5"))
    assert err.value.rule == "reorganize: each die once a turn" and money(game)["red"] == 30


@BOTH
def test_s13_tie_variant_rerolls_only_the_tied_dice_for_free(spec):
    """S13 tie variant. 003:L434-445 and L628-631 ("This only applies to reorganizing. Dice can be rerolled as many
    times as needed"); 000:L203-207 (original default): Red 4 and 1, Yellow 4: only the two 4s are rerolled, for
    free, until one player alone holds the top value."""
    game = _s13(spec, red_money=10)
    events = game.apply(Reorganize("A2"), dice={"reorg": {"A2": 4, "A5": 1, "A3": 4},
                                                "ties": {"A2": [3, 6], "A3": [3, 2]}})
    ties = of_kind(events, "tie_rerolled")
    assert [(e.lots, e.values) for e in ties] == [(["A2", "A3"], {"A2": 3, "A3": 3}),
                                                       (["A2", "A3"], {"A2": 6, "A3": 2})]
    assert [game.state.tiles[x].value for x in ("A2", "A5", "A3")] == [6, 1, 2]
    assert money(game)["red"] == 0  # only the $10 of the reorganization
    assert boss_name(game, "A2") == "red"


# --------------------------------------------------------------------------------------------- S15 tie reroll


@BOTH
def test_s15_remodel_ties_two_fives_rerolled_to_threes_green_boss(spec):
    """S15. 000:L212-214, 003:L452-468: "Green remodels his gold casino to brown. He is tied with Red for control of
    this new 5-tile casino. Both 5's are rerolled - each gets a 3. Now Green's 4 is the largest die, so Green is the
    boss and no more rerolls are required." (The original checks after the action, the revised immediately.)"""
    game = at(spec, ["green", "red", "yellow"], current="green", players={"green": {"money": 10}},
              tiles={"E4": "gold green 4", "E5": "gold green 5",
                     "E1": "brown red 5", "E2": "brown red 2", "E3": "brown yellow 2"})
    events = game.apply(Remodel("E4", "brown"), dice={"ties": {"E1": [3], "E5": [3]}})
    assert money(game)["green"] == 0
    ties = of_kind(events, "tie_rerolled")
    assert [(e.lots, e.values) for e in ties] == [(["E1", "E5"], {"E1": 3, "E5": 3})]
    c = casino_of(game, "E1")
    assert c.lots == ("E1", "E2", "E3", "E4", "E5") and c.color == "brown"
    assert sorted((o, v) for _, o, v in c.dice) == [(0, 3), (0, 4), (1, 2), (1, 3), (2, 2)]
    assert c.boss == 0


# ------------------------------------------------------------------------------------------------ S23 gamble


@BOTH
def test_s23_yellow_bets_4_rolls_3_wins_4_from_red(spec):
    """S23. 000:L199: "The Red player is the boss of a 3-tile casino. On Yellow's turn, he goes to Red's casino and
    wagers $4 (maximum is $15). Yellow decides not to lay off half the bet. Yellow rolls a 3, and wins $4 from Red."
    003:L783-794: the cap is still $15 because Red has $20."""
    game = at(spec, ["red", "yellow"], current="yellow", players={"red": {"money": 20}, "yellow": {"money": 30}},
              tiles={"B1": "silver red 5", "B2": "silver red 2", "B3": "silver red 3"})
    casino = game.casino_at("B1")
    assert bet_cap(game.engine, game.state, casino, 1) == 15
    assert Gamble("B1", 15) in game.legal_actions()
    assert game.why_not(Gamble("B1", 16)) is not None
    events = game.apply(Gamble("B1", 4), dice={"gamble": [1, 2]})
    (g,) = of_kind(events, "gambled")
    assert (g.total, g.outcome, g.gambler_gets, g.boss_gets) == (3, "win", 4, -4)
    assert money(game) == {"red": 16, "yellow": 34}


# ------------------------------------------------------------------------------------- S25 boss short of cash


def test_s25_revised_green_has_7_cap_is_7_yellow_takes_all_7():
    """S25. 003:L752-762: "Green is the boss of a 2-square casino that has been raised once ... The maximum amount
    she can gamble would normally be $20 million ... but Green only has $7 million. Yellow wagers $4 million. Yellow
    rolls a 12 ... The House can only pay her what he has, so she takes all of Green's $7 million." (cap: L786-794)"""
    game = at("revised", ["green", "yellow"], current="yellow",
              players={"green": {"money": 7}, "yellow": {"money": 30}},
              tiles={"C4": "purple h2 green 5", "C7": "purple h2 green 2"})
    assert bet_cap(game.engine, game.state, game.casino_at("C4"), 1) == 7
    assert game.why_not(Gamble("C4", 8)) is not None
    assert game.why_not(Gamble("C4", 4, lay_off=True)) is not None  # no lay-off in the revised rules
    events = game.apply(Gamble("C4", 4), dice={"gamble": [6, 6]})
    (g,) = of_kind(events, "gambled")
    assert g.outcome == "double" and g.gambler_gets == 7 and g.boss_gets == -7
    assert money(game) == {"green": 0, "yellow": 37}


@pytest.mark.parametrize("lay_off,yellow,green", [(False, 37, 0), (True, 38, 3)])
def test_s25_original_analogue_cap_10_and_lay_off(lay_off, yellow, green):
    """S25 original analogue. 000:L190 (the cap is $5 per tile, $10, not limited by the boss's money), 000:L192 ("If
    the boss does not have enough money to fully pay off his portion of your bet, you only get the money he does
    have"), 000:L194 (lay-off: "the boss only pays half (round down) and the bank pays the rest"): bet $4, roll 12:
    no lay-off, Yellow gets Green's $7; with a lay-off Green pays $4 and the bank $4."""
    game = at("original", ["green", "yellow"], current="yellow",
              players={"green": {"money": 7}, "yellow": {"money": 30}},
              tiles={"C4": "purple green 5", "C7": "purple green 2"})
    assert bet_cap(game.engine, game.state, game.casino_at("C4"), 1) == 10
    game.apply(Gamble("C4", 4, lay_off=lay_off), dice={"gamble": [6, 6]})
    assert money(game) == {"green": green, "yellow": yellow}


# --------------------------------------------------------------------------------- S26 bet vs boss's money


def test_s26_revised_bet_capped_at_blues_15():
    """S26. 003:L786-794: "Red chooses a 4-tile casino, and wants to bet $20 million. However, Blue (the casino's
    boss) only has $15 million, so the most Red can bet is $15 million."""
    game = at("revised", ["blue", "red"], current="red", players={"blue": {"money": 15}, "red": {"money": 40}},
              tiles={"C1": "aqua blue 6", "C2": "aqua blue 1", "C4": "aqua blue 1", "C5": "aqua blue 1"})
    assert game.casino_at("C1").physical_tiles == 4
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Gamble("C1", 20))
    assert "$1 to $15" in err.value.reason
    assert Gamble("C1", 15) in game.legal_actions()
    game.apply(Gamble("C1", 15), dice={"gamble": [4, 6]})
    assert money(game) == {"blue": 0, "red": 55}


@pytest.mark.parametrize("lay_off,red,blue", [(False, 55, 0), (True, 60, 5)])
def test_s26_original_bet_20_allowed_boss_pays_what_he_has(lay_off, red, blue):
    """S26 original. 000:L190 only "You can't bet more money than you have", so Red may bet $20 at Blue's 4-tile
    casino; on a 10 Blue pays all of his $15 (000:L192); with a lay-off Blue pays $10 and the bank $10 (000:L194)."""
    game = at("original", ["blue", "red"], current="red", players={"blue": {"money": 15}, "red": {"money": 40}},
              tiles={"C1": "aqua blue 6", "C2": "aqua blue 1", "C4": "aqua blue 1", "C5": "aqua blue 1"})
    assert Gamble("C1", 20) in game.legal_actions()
    game.apply(Gamble("C1", 20, lay_off=lay_off), dice={"gamble": [4, 6]})
    assert money(game) == {"blue": blue, "red": red}


# ------------------------------------------------------------------------------------------------- S28 raise


def test_s28_revised_raise_twice_to_the_cap_of_3_players():
    """S28. 003:L723-739: "In a 3-player game, Purple has a 2-space casino ... must do so as two separate raise
    actions. For each, Purple takes 2 risers, pays $30 million ... She cannot raise this casino any higher, as the
    maximum height in a 3-player game is 3 tiles." Then 6 points, a $30 bet cap (L745-751), the same income (L355)."""
    game = at("revised", ["purple", "red", "blue"], current="purple",
              players={"purple": {"money": 90}, "red": {"money": 50}},
              tiles={"C4": "silver purple 2", "C7": "silver purple 2"}, deck=["A5", "END"])
    game.apply(Raise("C4"))
    assert money(game)["purple"] == 60 and casino_of(game, "C4").height == 2
    events = game.apply(Raise("C7"))
    assert of_kind(events, "raised")[0].cost == 30 and of_kind(events, "raised")[0].height == 3
    assert money(game)["purple"] == 30
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Raise("C4"))
    assert err.value.rule == "raise.max_height"
    assert Raise("C4") not in game.legal_actions()
    c = casino_of(game, "C4")
    assert (c.spaces, c.height, c.points) == (2, 3, 6)
    # Red's turn: the silver card A5 pays the casino: $4 (the pips, not the height) and 6 points
    game.apply(lv.EndTurn())
    assert game.state.current == 1 and game.current_turn.cards == ["A5"]
    assert money(game)["purple"] == 34 and scores(game)["purple"] == 6
    assert bet_cap(game.engine, game.state, game.casino_at("C4"), 1) == 30


def test_s28_two_player_cap_is_height_2():
    """S28. 003:L668-675: "A casino can be no higher ... than the number of players": 2 in a 2-player game."""
    game = at("revised", ["purple", "red"], current="purple", players={"purple": {"money": 90}},
              tiles={"C4": "silver purple 2", "C7": "silver purple 2"})
    game.apply(Raise("C4"))
    assert casino_of(game, "C4").height == 2 and money(game)["purple"] == 60
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Raise("C4"))
    assert err.value.rule == "raise.max_height"


def test_s28_original_has_no_raise():
    """S28 original. 000:L118 lists "build, sprawl, remodel, reorganize, and gamble": there is no Raise."""
    game = at("original", ["purple", "red", "blue"], current="purple", players={"purple": {"money": 90}},
              tiles={"C4": "silver purple 2", "C7": "silver purple 2"})
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(Raise("C4"))
    assert err.value.rule == "raise.enabled" and money(game)["purple"] == 90
    assert not any(isinstance(a, Raise) for a in game.legal_actions())


# -------------------------------------------------------------------------------------------- S35 long trade

S35_PLAYERS = ["black", "blue", "red", "green"]


def _s35(spec, aqua_elsewhere=0):
    """003:L838-868: Black's turn, $29, a 5-tile silver casino on A block, markers on A5 and D2; every silver tile on
    the board; B block silver {B1 red 1, B4 blue 6, B5 red 1}; B2 empty; Green's gold casino on D1/D4."""
    tiles = {"A1": "silver black 3", "A2": "silver black 2", "A3": "silver black 5", "A4": "silver black 4",
             "A6": "silver black 6", "B1": "silver red 1", "B4": "silver blue 6", "B5": "silver red 1",
             "C1": "silver",  # the 9th silver tile, die-less, elsewhere
             "D1": "gold green 6", "D4": "gold green 4"}
    for lot in ("E1", "E2", "E3", "E4", "E5", "E6")[:aqua_elsewhere]:
        tiles[lot] = "aqua"
    return at(spec, S35_PLAYERS, current="black", markers={"A5": "black", "D2": "black"}, tiles=tiles,
              players={"black": {"money": 29}, "green": {"money": 10}, "blue": {"money": 3}, "red": {"money": 3}})


S35_TRADE = Trade((
    GiveMoney(3, 0, 7),         # 1. Green gives Black $7
    GiveLot("D2", 0, 3),        # 2. Green's marker replaces Black's on D2
    GiveDie("B4", 1, 0),        # 3. the blue 6 on B4 becomes a black 6: Black is boss
    Remodel("B1", "aqua"),      # 4. $15, three silver tiles go back
    Sprawl("B2", "B1"),         # 5. $12, a black 2 on B2
    GiveDie("B4", 0, 1),        # 6. Black's two dice on B block become blue,
    GiveDie("B2", 0, 1),        #    keeping their values
    Build("A5", "silver"),      # 7. $9: a 6-tile silver casino on A block
))


@BOTH
def test_s35_the_long_trade(spec):
    """S35. 003:L838-881 (the trade, in this order), 003:L809-826 and 000:L220-224 (money, lots, dice in casinos,
    actions this turn; "The new die has the same value as the die it is replacing"): every step is legal and Black
    ends with $0, a 6-tile silver casino on A block; B block is aqua with Blue as boss; Green owns D2."""
    game = _s35(spec)
    assert game.engine.available_tiles(game.state, "silver") == 0
    assert boss_name(game, "B1") == "blue"
    events = game.apply(S35_TRADE)
    assert "trade_step_failed" not in kinds(events)
    assert money(game) == {"black": 0, "blue": 3, "red": 3, "green": 3}
    assert game.state.markers == {"D2": 3}
    a = casino_of(game, "A1")
    assert a.lots == ("A1", "A2", "A3", "A4", "A5", "A6") and a.color == "silver" and a.boss == 0
    b = casino_of(game, "B1")
    assert b.color == "aqua" and b.boss == 1
    assert b.dice == (("B1", 2, 1), ("B2", 1, 2), ("B4", 1, 6), ("B5", 2, 1))
    assert game.state.tiles_on_board("silver") == 7
    assert [e.cost for e in events if e.kind in ("remodeled", "sprawled", "built")] == [15, 12, 9]


def test_s35_failure_variant_stops_the_rest_of_the_trade():
    """S35 failure variant. 003:L832-836: "If something stops an element of a trade from occurring ... the
    subsequent steps of the trade do not occur." With only 3 aqua tiles left the sprawl (step 5) fails, so Black's
    dice do not go to Blue and (our reading: still part of the trade) Black does not build on A5."""
    game = _s35("revised", aqua_elsewhere=6)
    assert game.engine.available_tiles(game.state, "aqua") == 3
    events = game.apply(S35_TRADE)
    (failed,) = of_kind(events, "trade_step_failed")
    assert failed.step == 5 and failed.rule == "components.tiles_per_color"
    assert money(game) == {"black": 21, "blue": 3, "red": 3, "green": 3}
    assert game.state.markers == {"A5": 0, "D2": 3}
    b = casino_of(game, "B1")
    assert b.lots == ("B1", "B4", "B5") and b.color == "aqua" and b.boss == 0
    assert "B2" not in game.state.tiles and "A5" not in game.state.tiles
    assert game.state.tiles_on_board("silver") == 6


def test_s35_failure_variant_undo_all_leaves_everything_as_it_was():
    """S35 failure variant under the alternative reading ``trade.failed_step=undo_all`` (rules-diff row 46): the
    failed sprawl cancels the whole trade and the referee refuses it, naming the rule."""
    game = _s35("revised,trade.failed_step=undo_all", aqua_elsewhere=6)
    before = game.state.copy()
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(S35_TRADE)
    assert err.value.rule == "components.tiles_per_color" and "step 5" in err.value.reason
    assert game.state.players == before.players and game.state.markers == before.markers
    assert game.state.tiles == before.tiles
