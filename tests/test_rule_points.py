"""One test (or more) per rule point of shared/reference/rules-diff.md, under both editions where meaningful,
each asserting the exact outcome under each profile; then the shared rules that are easy to get wrong.

000 = original rulebook, 003 = revised rulebook (shared/seeds), ``L<n>`` = line of ``cat -n``. A "what-if"
profile spec such as ``revised,scoring.points=spaces`` shows that the named parameter, not the edition, decides.
"""

from __future__ import annotations

import pytest

import lv
from lv import bots
from lv import Build, EndTurn, Gamble, GiveDie, GiveLot, GiveMoney, Raise, Remodel, Reorganize, Sprawl, Trade

from conftest import at, boss_name, casino_of, illegal, kinds, money, of_kind, scores

BOTH = pytest.mark.parametrize("spec", ["original", "revised"])
BOARD = lv.load_board()


def rest_of_deck(*first):
    return list(first) + [c for c in BOARD.order if c not in first]



# ============================================================================ rule points that differ


def test_row01_player_counts_and_colours():
    """Row 1. 000:L18 "The four player colors are blue, green, red, and yellow" (box: 2-4 players); 003:L108 "black,
    blue, green, purple, red, and yellow" and L893 (2-player rules)."""
    o, r = lv.load_profile("original"), lv.load_profile("revised")
    assert (o.players.min, o.players.max, o.players.colors) == (2, 4, ("blue", "green", "red", "yellow"))
    assert (r.players.min, r.players.max, r.players.colors) == (
        2, 6, ("black", "blue", "green", "purple", "red", "yellow"))
    assert lv.new_game("original", 4).player_names == ["blue", "green", "red", "yellow"]
    assert lv.new_game("revised", 6).player_names == ["black", "blue", "green", "purple", "red", "yellow"]
    for spec, n in [("original", 5), ("original", 1), ("revised", 7), ("revised", 1)]:
        with pytest.raises(lv.RecordError, match="allows"):
            lv.new_game(spec, n)


def test_row04_risers_none_in_original_unlimited_in_revised():
    """Row 4. 000 has no risers (a raised tile cannot even be set up); 003:L90-103 "You may build an unlimited amount
    of risers; if 50 is insufficient for your game, you might need to improvise" and L704-705."""
    with pytest.raises(lv.RecordError, match="allows 1"):
        at("original", ["red", "blue"], tiles={"A1": "gold h2 red 3"})
    six = ["black", "blue", "green", "purple", "red", "yellow"]
    tall = {f"C{i}": ("aqua h6" if i <= 5 else "brown h6") for i in range(1, 11)}  # 10 x 5 = the box's 50 risers
    game = at("revised", six, current="red", players={"red": {"money": 15}}, tiles={**tall, "E1": "gold red 3"})
    assert sum(t.height - 1 for t in game.state.tiles.values()) == 50
    game.apply(Raise("E1"))  # the 51st riser
    assert casino_of(game, "E1").height == 2 and money(game)["red"] == 0


def test_row07_setup_money_same_amount_in_both_editions():
    """Row 7. 000:L39 (sum of the two card values) and 003:L186-190 ($20 minus the two dice) give equal money for
    the same deal; S01 checks every pair of lots."""
    deck = rest_of_deck("C5", "D1", "E3", "F7", "B2", "A1")  # red C5 (die 1) + F7 (5), blue D1 (6) + B2 (2), ...
    for spec in ("original", "revised"):
        game = lv.Game(lv.load_profile(spec), ["red", "blue", "green"], deck=deck, first_player=0)
        dealt = {e.player: (e.lots, e.money) for e in of_kind(game.setup_events, "dealt")}
        assert dealt == {0: (["C5", "F7"], 14), 1: (["D1", "B2"], 12), 2: (["E3", "A1"], 12)}


def test_row09_end_card_on_top_of_the_bottom_quarter():
    """Row 9. 000:L43 / 003:L170-176: "Divide the deck into 4 roughly equal stacks, and place the End of Game card on
    top of the 4th stack": our default puts floor(N/4) cards under it (4 players: 40 cards left, 10 under)."""
    for spec in ("original", "revised"):
        game = lv.new_game(spec, 4, seed=3)
        assert game.under_end_card == 10
        pile = game.state.deck
        assert len(pile) - 1 - pile.index(lv.END_CARD) == 10  # (the first turn has drawn one card)


def test_row05_06_deck_of_48_lot_cards_and_the_end_card_three_strip_lots():
    """Rows 5-6. 000:L26 / 003:L131-133 "49 property cards ... One of these cards is the End of Game card"; 000:L81
    "4 cards (including the End of Game card) Pay The Strip"; 003:L197-199 "9 cards in each casino color, plus 4
    cards that pay The Strip" (board data: A6, D5, F8 and the end card)."""
    game = lv.new_game("original", 4, seed=1)
    assert len(game.state.deck) + len(game.state.discards) == 49
    pays = [BOARD.card_color(c) for c in BOARD.order] + [BOARD.card_color(lv.END_CARD)]
    assert sorted(c for c in BOARD.order if BOARD.card_color(c) == "strip") == ["A6", "D5", "F8"]
    assert {color: pays.count(color) for color in set(pays)} == {
        "strip": 4, "aqua": 9, "brown": 9, "gold": 9, "purple": 9, "silver": 9}


def test_row41_discards_are_public_and_complete():
    """Row 41. 003:L236-240 "There is no hidden information ... as are the tiles and discarded cards"; 000:L41 /
    003:L192-197 "It is important to see how many of each color have been drawn": the discards hold every card dealt
    or drawn, in order, so the piles can be counted at any time."""
    for spec, n in (("original", 3), ("revised", 2)):
        game = lv.new_game(spec, n, seed=4)
        bots.play(game, [bots.random_bot] * n, seed=4)
        dealt = [e.card if e.kind == "card_skipped" else None for e in game.setup_events]
        setup_cards = len(game.state.discards) - sum(len(t.cards) for t in game.history)
        assert game.state.discards[setup_cards:] == [c for t in game.history for c in t.cards]
        assert setup_cards == 2 * n + len([d for d in dealt if d])
        assert lv.END_CARD == game.state.discards[-1] or game.result.reason == "instant_win"


def test_row10_highest_starting_roll_begins_and_ties_reroll():
    """Row 10. 000:L57 / 003:L279-280: "each player rolls 2 dice. The highest roller ... begins"; a tie is rolled again
    among the tied players (rulebooks silent)."""
    rolls = [{"a": [6, 6], "b": [6, 6], "c": [1, 2]}, {"a": [1, 2], "b": [3, 3]}]
    for spec in ("original", "revised"):
        game = lv.Game(lv.load_profile(spec), ["a", "b", "c"], seed=1, starting_rolls=rolls)
        assert game.first_player == 1 and game.state.current == 1


@BOTH
def test_row11_turn_steps_in_order(spec):
    """Row 11. 000:L65 "take over the lot ... Then all owned lots pay money, and the casinos ... pay points and
    money"; 003:L288-293 (draw and take over, pay parking lots, pay casinos, score casinos, discard, actions)."""
    game = at(spec, ["red", "blue"], current="red", phase="draw", deck=["D8", "END"], markers={"A1": "blue"},
              tiles={"E6": "gold blue 4"})
    order = [e.kind if e.kind != "paid" else f"paid:{e.why}" for e in game.current_turn.draw_events]
    assert order == ["turn_started", "card_drawn", "marker_placed", "paid:lots", "paid:lots", "paid:casino", "scored"]
    assert game.state.discards[-1] == "D8" and game.state.phase == "actions"


@BOTH
def test_row14_casinos_join_by_colour_or_by_colour_and_height(spec):
    """Row 14. 000:L51 "a group of 1 or more contiguous tiles of the same color"; 003:L221-229 "of the same color and
    height" and L541-547 "if a 2-high aqua casino stands next to a 3-high aqua casino, they are not yet joined"."""
    game = at(spec, ["red", "blue", "green"], current="red", players={"red": {"money": 6}},
              markers={"A2": "red"}, tiles={"A1": "aqua blue 4"})
    game.apply(Build("A2", "aqua"))
    assert casino_of(game, "A2").lots == ("A1", "A2") and boss_name(game, "A2") == "blue"
    if spec == "revised":  # only the revised edition has heights: a flat tile beside a 2-high one stays apart
        game = at(spec, ["red", "blue", "green"], current="red", players={"red": {"money": 6}},
                  markers={"A2": "red"}, tiles={"A1": "aqua h2 blue 4"})
        game.apply(Build("A2", "aqua"))
        assert casino_of(game, "A2").lots == ("A2",) and boss_name(game, "A2") == "red"
        assert casino_of(game, "A1").lots == ("A1",)
    # what-if: the same position under the revised rules but joining by colour only
    game = at("revised,casino.join_rule=color", ["red", "blue", "green"], current="red",
              players={"red": {"money": 6}}, markers={"A2": "red"}, tiles={"A1": "aqua h2 blue 4"})
    game.apply(Build("A2", "aqua"))
    assert casino_of(game, "A2").lots == ("A1", "A2")


@BOTH
def test_row15_no_joining_across_streets_or_diagonally(spec):
    """Row 15. 000:L51 "each tile must have at least 1 edge adjacent to the edge of another tile"; FAQ: "Casinos do
    not join across the streets" (A3 and B1 are in different blocks; A1 and A5 only touch at a corner)."""
    game = at(spec, ["red", "blue"], tiles={"A3": "gold red 5", "B1": "gold blue 5", "A1": "aqua red 1",
                                            "A5": "aqua blue 2"})
    assert sorted(c.lots for c in game.casinos()) == [("A1",), ("A3",), ("A5",), ("B1",)]


def test_row17_points_per_physical_tile():
    """Row 17. 000:L93 "1 point for each tile in that casino"; 003:L411-414 "Tiles include both the casino and
    risers. Thus, a 3-space casino that's 4 tiles high is worth 12 points"."""
    four = ["red", "blue", "green", "yellow"]
    for spec, height, points in [("revised", 4, 12), ("original", 1, 3), ("revised,scoring.points=spaces", 4, 3)]:
        h = f" h{height}" if height > 1 else ""
        game = at(spec, four, current="blue", phase="draw", deck=["A5", "END"],
                  tiles={"C1": f"silver{h} red 1", "C2": f"silver{h} red 1", "C3": f"silver{h} red 1"})
        (scored,) = of_kind(game.current_turn.draw_events, "scored")
        assert (scored.player, scored.award) == (0, points), spec
        assert money(game)["red"] == 3  # height never changes income (003:L355-358)


def test_row20_several_casinos_scored_smallest_first():
    """Row 20. 000:L110 "starting with the smallest and proceeding to the largest"; 003:L415-416 "this order is
    determined by total point value, not by how many spaces it occupies". Red on 7 is boss of a 2-space flat casino
    (2 points) and a 1-space 3-high casino (3 points): by points 7 -> 8 (9 falls back) -> 10 (11 falls back); by
    spaces (what-if) 7 -> 10 -> 12. In the original all casinos are flat: 1 tile then 2 tiles, 7 -> 8 -> 10 (the
    other way round would give 7 -> 8 -> 8)."""
    tiles = {"C1": "silver red 1", "C2": "silver red 1", "E1": "silver h3 red 1"}
    three = ["red", "blue", "green"]
    for spec, after in [("revised", 10), ("revised,scoring.order=ascending_spaces", 12)]:
        game = at(spec, three, current="blue", phase="draw", deck=["A5", "END"], players={"red": {"score": 7}},
                  tiles=tiles)
        assert scores(game)["red"] == after, spec
    game = at("original", three, current="blue", phase="draw", deck=["A5", "END"], players={"red": {"score": 7}},
              tiles={"C1": "silver red 1", "C2": "silver red 1", "E1": "silver red 1"})
    awards = [(e.award, e.before, e.after) for e in of_kind(game.current_turn.draw_events, "scored")]
    assert awards == [(1, 7, 8), (2, 8, 10)]


def test_row24_sprawl_pays_15_per_riser():
    """Row 24. 003:L497-511: "If your casino has risers, you must also pay $15 million per riser needed to make it the
    same height as your casino ... this happens all at once": from a 3-high casino, A5 costs 2 x $9 + 2 x $15."""
    game = at("revised", ["red", "blue", "green"], current="red", players={"red": {"money": 48}},
              tiles={"A2": "silver h3 red 4"})
    game.apply(Sprawl("A5", "A2"))
    assert money(game)["red"] == 0 and game.state.tiles["A5"].height == 3
    assert casino_of(game, "A2").lots == ("A2", "A5")
    game = at("revised", ["red", "blue", "green"], current="red", players={"red": {"money": 47}},
              tiles={"A2": "silver h3 red 4"})
    illegal(game, Sprawl("A5", "A2"), "sprawl.cost_multiplier")


def test_row26_remodel_counts_tiles_or_spaces():
    """Row 26. 000:L153-156 "enough available tiles to replace all of the casino's tiles ... $5 for each tile";
    003:L576-590 "Pay $5 million for each space in the casino, regardless of height ... only changes the topmost
    tile"."""
    tiles = {"A2": "gold h2 red 4", "A5": "gold h2 red 1"}
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 10}}, tiles=tiles)
    game.apply(Remodel("A2", "aqua"))
    assert money(game)["red"] == 0 and game.state.tiles_on_board("aqua") == 2
    # what-if: counting physical tiles, the same remodel costs $20 and needs 4 aqua tiles
    game = at("revised,remodel.counts=physical_tiles", ["red", "blue"], current="red",
              players={"red": {"money": 19}}, tiles=tiles)
    illegal(game, Remodel("A2", "aqua"), "remodel.cost_per_unit")
    game = at("original", ["red", "blue"], current="red", players={"red": {"money": 15}},
              tiles={"A2": "gold red 4", "A5": "gold red 1", "A4": "gold blue 2"})
    game.apply(Remodel("A2", "aqua"))
    assert money(game)["red"] == 0


def test_row29_raise_only_in_revised_and_merges_at_equal_height():
    """Row 29 / 47. 003:L657-739: must be boss, $15 per space, at most as high as the number of players; L713-718 "if
    2 or more casino tiles of the same color are ever next to each other at the same height, they merge immediately".
    000 has no Raise (L118). S28 covers the height cap and repeated raises."""
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 15}},
              tiles={"A1": "gold h2 blue 5", "A2": "gold red 2"})
    assert casino_of(game, "A2").lots == ("A2",)
    events = game.apply(Raise("A2"))
    assert money(game)["red"] == 0
    c = casino_of(game, "A2")
    assert c.lots == ("A1", "A2") and c.height == 2 and c.boss == 1
    assert "merged" in kinds(events)
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 99}},
              tiles={"A1": "gold h2 blue 5", "A2": "gold red 2"})
    illegal(game, Raise("A1"), "raise: you must be the boss")


def test_row31_bet_cap_counts_risers_and_the_boss_money():
    """Row 31. 000:L190 "Bet up to $5 for each tile in that casino. You can't bet more money than you have";
    003:L745-751 "a casino that covers 2 spaces and is 3 high has 6 tiles in it - the betting limit ... $30 million"
    and L786-788 "you cannot win more money than that casino's boss has"."""
    names = ["blue", "red", "green"]
    rich = {"blue": {"money": 100}, "red": {"money": 100}}
    tall = {"C4": "aqua h3 blue 5", "C7": "aqua h3 blue 1"}
    for spec, tiles, cap in [("revised", tall, 30), ("revised,gamble.tiles_counted=spaces", tall, 10),
                             ("original", {"C4": "aqua blue 5", "C7": "aqua blue 1"}, 10)]:
        game = at(spec, names, current="red", players=rich, tiles=tiles)
        assert Gamble("C4", cap) in game.legal_actions(), spec
        assert game.why_not(Gamble("C4", cap + 1)) is not None
    # the gambler's own money caps it in both; the boss's money only in the revised edition
    for spec, cap in [("original", 10), ("revised", 3)]:
        game = at(spec, names, current="red", players={"blue": {"money": 3}, "red": {"money": 8}},
                  tiles={"C4": "aqua blue 5", "C7": "aqua blue 1"})
        assert Gamble("C4", min(cap, 8)) in game.legal_actions(), spec
    # a boss with no money: nothing can be won there in the revised edition, so no bet is listed or allowed (not
    # even $1, and never a $0 "bet"); the original edition still allows the gambler's own cap
    for spec, listed in [("revised", []), ("original", [Gamble("C4", 8)])]:
        game = at(spec, names, current="red", players={"blue": {"money": 0}, "red": {"money": 8}},
                  tiles={"C4": "aqua blue 5", "C7": "aqua blue 1"})
        assert [a for a in game.legal_actions() if isinstance(a, Gamble)] == listed, spec
        assert (game.why_not(Gamble("C4", 1)) is None) is bool(listed), spec


@BOTH
@pytest.mark.parametrize("dice,outcome,gain", [
    ([1, 1], "double", 10), ([1, 2], "win", 5), ([2, 2], "win", 5), ([2, 3], "lose", -5), ([3, 3], "lose", -5),
    ([3, 4], "lose", -5), ([4, 4], "lose", -5), ([4, 5], "win", 5), ([4, 6], "win", 5), ([5, 6], "win", 5),
    ([6, 6], "double", 10)])
def test_row32_gamble_odds(spec, dice, outcome, gain):
    """Row 32. 000:L192 / 003:L796-803, L740-744: win on 3, 4, 9, 10, 11; twice the bet on 2 or 12; lose on 5-8."""
    game = at(spec, ["blue", "red"], current="red", players={"blue": {"money": 50}, "red": {"money": 50}},
              tiles={"C4": "aqua blue 5", "C7": "aqua blue 1"})
    (g,) = of_kind(game.apply(Gamble("C4", 5), dice={"gamble": dice}), "gambled")
    assert g.outcome == outcome
    assert money(game) == {"blue": 50 - gain, "red": 50 + gain}


def test_row34_lay_off_boss_option_in_original_none_in_revised():
    """Row 34. 000:L194 "the boss of the casino taking the bet may 'lay off' half of the bet to the bank ... if the
    gambler loses, the boss only receives half (round down) and the bank gets the rest"; 003 has no lay-off."""
    names = ["blue", "red"]
    pos = dict(current="red", players={"blue": {"money": 50}, "red": {"money": 50}},
               tiles={"C4": "aqua blue 5", "C7": "aqua blue 1"})
    game = at("original", names, **pos)
    game.apply(Gamble("C4", 5, lay_off=True), dice={"gamble": [3, 4]})  # lose: the boss gets 2, the bank 3
    assert money(game) == {"blue": 52, "red": 45}
    game = at("original", names, **pos)
    game.apply(Gamble("C4", 5, lay_off=True), dice={"gamble": [5, 5]})  # win: the boss pays 2, the bank 3
    assert money(game) == {"blue": 48, "red": 55}
    game = at("revised", names, **pos)
    illegal(game, Gamble("C4", 5, lay_off=True), "gamble.lay_off", dice={"gamble": [3, 4]})
    # the 2/12 case: rules-diff default 7 halves the doubled payout; the alternative doubles the half-stake
    for spec, boss_pays in [("original", 5), ("original,gamble.lay_off_double_basis=stake", 4)]:
        game = at(spec, names, **pos)
        game.apply(Gamble("C4", 5, lay_off=True), dice={"gamble": [6, 6]})
        assert money(game) == {"blue": 50 - boss_pays, "red": 60}, spec


def test_override_from_a_spec_gives_the_revised_rules_a_lay_off():
    """The profile spec ``revised,gamble.lay_off=boss_option`` changes behaviour: the lay-off of 000:L194 becomes
    legal under the otherwise revised rules (bet $4, roll 12 at Green's $7: Green pays $4, the bank $4)."""
    pos = dict(current="yellow", players={"green": {"money": 7}, "yellow": {"money": 30}},
               tiles={"C4": "purple green 5", "C7": "purple green 2"})
    game = at("revised,gamble.lay_off=boss_option", ["green", "yellow"], **pos)
    assert game.profile.gamble.lay_off == "boss_option"
    game.apply(Gamble("C4", 4, lay_off=True), dice={"gamble": [6, 6]})
    assert money(game) == {"green": 3, "yellow": 38}
    game = at("revised", ["green", "yellow"], **pos)
    illegal(game, Gamble("C4", 4, lay_off=True), "gamble.lay_off")


def _takeover_tie(spec):
    """Blue inherits Red's sprawled 5 on A5 next to Red's other 5 on A2; A5 is a Tivoli (silver) card."""
    return at(spec, ["red", "blue"], current="blue", phase="draw", deck=["A5", "END"],
              players={"blue": {"money": 6}}, markers={"B2": "blue"},
              tiles={"A2": "silver red 5", "A5": "silver red 5"}, draw_dice={"ties": {"A2": [2], "A5": [6]}})


@BOTH
def test_row35_tie_from_a_take_over_is_rerolled_before_scoring(spec):
    """Row 35. 003:L426-433 "If 2 or more players ever have dice ... tied for highest value ... immediately rerolled.
    This can happen when you ... take over a sprawled space"; the original checks "After you take each action"
    (000:L203), our default reads it as immediate too (rules-diff default 1) so no casino scores with two bosses."""
    game = _takeover_tie(spec)
    events = game.current_turn.draw_events
    assert kinds(events).index("tie_rerolled") < kinds(events).index("scored")
    assert [game.state.tiles[x].value for x in ("A2", "A5")] == [2, 6]
    assert money(game) == {"red": 2, "blue": 6 + 1 + 6} and scores(game) == {"red": 0, "blue": 2}


def test_row35_literal_after_each_action_leaves_the_tie_until_the_next_action():
    """Row 35, the literal reading of 000:L203 (``ties.check=after_each_action``): the tie made by the take-over is
    not rerolled in the draw step, so the casino has no single boss and nobody scores it; Blue's next action
    settles it."""
    game = _takeover_tie("original,ties.check=after_each_action")
    assert "tie_rerolled" not in kinds(game.current_turn.draw_events)
    assert money(game) == {"red": 5, "blue": 6 + 1 + 5} and scores(game) == {"red": 0, "blue": 0}
    assert boss_name(game, "A2") is None
    events = game.apply(Build("B2", "gold"), dice={"ties": {"A2": [2], "A5": [6]}})
    assert "tie_rerolled" in kinds(events) and boss_name(game, "A2") == "blue"


def test_row36_tie_rerolls_stop_at_a_single_top_player_or_a_single_top_die():
    """Row 36. 003:L437-440 "until there is only 1 player whose die has the largest value"; 000:L205 "until there is
    only 1 die with the largest value" (literal, ``single_top_die``; our default follows its own same-player clause,
    L207). Red builds A2, joining his 5 and 3 with Blue's 5; the 5s reroll to Red 3 and Blue 1: Red's two 3s are now
    the top dice."""
    pos = dict(current="red", players={"red": {"money": 6}}, markers={"A2": "red"},
               tiles={"A1": "silver red 5", "A4": "silver red 3", "A3": "silver blue 5"})
    ties = {"ties": {"A1": [3, 6], "A3": [1], "A4": [2]}}
    for spec, values, rounds in [("original", [3, 2, 1, 3], 1), ("revised", [3, 2, 1, 3], 1),
                                 ("original,ties.stop_when=single_top_die", [6, 2, 1, 2], 2)]:
        game = at(spec, ["red", "blue"], **pos)
        events = game.apply(Build("A2", "silver"), dice=ties)
        assert len(of_kind(events, "tie_rerolled")) == rounds, spec
        assert [game.state.tiles[x].value for x in ("A1", "A2", "A3", "A4")] == values, spec
        assert boss_name(game, "A1") == "red"


def _end_position(spec, blue_money=0):
    return at(spec, ["red", "blue"], current="red", phase="draw", deck=["END"],
              players={"red": {"score": 10}, "blue": {"score": 12, "money": blue_money}},
              markers={"A1": "red", "B3": "blue", "B6": "blue"},
              tiles={"A3": "gold red 4", "A2": "gold blue 2", "E1": "aqua blue 6"})


@BOTH
@pytest.mark.parametrize("blue_money,winner", [(0, "red"), (3, "blue")])
def test_row42_end_card_lots_pay_strip_pays_and_scores_then_game_over(spec, blue_money, winner):
    """Row 42. 003:L908-916 "the end of the game happens immediately. Players may not do actions or initiate trades
    ... Pay parking lots (money is a tiebreaker!), then pay and score casinos that touch The Strip ... If there is a
    tie for most points, the tied player with the most money wins"; 000:L75 (lots pay "no matter what card is
    drawn"), L230 ("one last payment for The Strip ... the tied player with the most money wins")."""
    game = _end_position(spec, blue_money)
    assert game.over and game.result.reason == "end_card"
    # lots: red $1, blue $2; the Strip casino {A2, A3}: red 4 pips, blue 2 pips, Red (4) scores 2 points;
    # E1 is off the Strip
    assert money(game) == {"red": 1 + 4, "blue": blue_money + 2 + 2}
    assert scores(game) == {"red": 12, "blue": 12}
    assert game.player_names[game.result.winner] == winner  # tied on points: most money wins
    assert game.legal_actions() == []
    with pytest.raises(lv.IllegalAction):
        game.apply(Build("A1", "gold"))
    with pytest.raises(lv.IllegalAction):
        game.apply(Trade((GiveMoney(1, 0, 1),)))
    with pytest.raises(lv.IllegalAction):
        game.apply(EndTurn())
    (ended,) = of_kind(game.current_turn.draw_events, "game_ended")
    assert ended.scores == [12, 12]


def test_row42_end_card_without_lot_income_what_if():
    """Row 42, the alternative reading for the original (``end.card_pays_lots=false``): only the Strip pays."""
    game = _end_position("original,end.card_pays_lots=false")
    assert money(game) == {"red": 4, "blue": 2} and game.over


def _instant_win(spec):
    """Red (C block, 9 gold tiles) and Blue (D block, 9 brown tiles) both on 81, both casinos on the Strip; Green
    draws the Strip card A6. Equal casinos score in board order (the rulebooks: "your choice on ties")."""
    tiles = {f"C{i}": "gold red 1" for i in range(1, 10)}
    tiles.update({f"D{i}": "brown blue 1" for i in range(1, 10)})
    return at(spec, ["red", "blue", "green"], current="green", phase="draw", deck=["A6", "B2", "END"],
              players={"red": {"score": 81, "money": 10}, "blue": {"score": 81, "money": 50}}, tiles=tiles)


def test_row43_original_instant_win_is_immediate():
    """Row 43. 000:L232 "You can also win immediately if you have 90+ points": Red's casino scores first and takes
    him to 90; the game ends there, Blue's casino is not scored, Red wins."""
    game = _instant_win("original")
    assert game.over and game.result.reason == "instant_win"
    assert scores(game) == {"red": 90, "blue": 81, "green": 0}
    assert game.player_names[game.result.winner] == "red"
    assert money(game) == {"red": 19, "blue": 59, "green": 1}  # every casino was paid before scoring


def test_row43_revised_finishes_scoring_then_most_points_then_money():
    """Row 43. 003:L917-921 "The game also ends if a player reaches 90+ points and lands on the Instant Win space.
    Finish scoring points, and then the player with the most points wins!"; tie on 90: most money (L915-916)."""
    game = _instant_win("revised")
    assert game.over and game.result.reason == "instant_win"
    assert scores(game) == {"red": 90, "blue": 90, "green": 0}
    assert game.player_names[game.result.winner] == "blue"
    assert game.legal_actions() == []


def test_row43_the_track_ends_on_90():
    """Row 43/19. 003:L917-918 "lands on the Instant Win space": from 81 a 12-point casino stops on 90."""
    tiles = {"C1": "silver h4 red 1", "C2": "silver h4 red 1", "C3": "silver h4 red 1"}
    game = at("revised", ["red", "blue", "green", "yellow"], current="blue", phase="draw", deck=["A5", "END"],
              players={"red": {"score": 81}}, tiles=tiles)
    assert scores(game)["red"] == 90 and game.result.reason == "instant_win"


# ---------------------------------------------------------------------------------------- 2-player F block

F_ON = [("revised", 2), ("original+f-block", 2)]
F_OFF = [("original", 2), ("revised", 3)]
NAMES = ["red", "blue", "green"]


@pytest.mark.parametrize("spec,n", F_ON + F_OFF)
def test_row44_f_card_drawn_in_play(spec, n):
    """Row 44. 003:L893-907: "When you draw a card specifying an F lot ... do not place a marker. Pay owned lots and
    casinos, score casinos, and discard the F lot card ... Then, draw a new property card, repeating this sequence
    until you draw a card from an A, B, C, D, or E lot". 000 has no 2-player rule; the f-block overlay adds it."""
    closed = (spec, n) in F_ON
    game = at(spec, NAMES[:n], current="red", phase="draw", deck=["F2", "A2", "END"], markers={"B3": "blue"},
              tiles={"C1": "silver blue 4"})
    if closed:
        assert game.current_turn.cards == ["F2", "A2"]
        assert "F2" not in game.state.markers and game.state.markers["A2"] == 0
        # lots pay twice (B3 twice, A2 once); the silver card F2 pays and scores C1
        assert money(game)["red"] == 1 and money(game)["blue"] == 1 + 4 + 1
        assert of_kind(game.current_turn.draw_events, "card_drawn")[0].f_block is True
    else:
        assert game.current_turn.cards == ["F2"]
        assert game.state.markers["F2"] == 0 and "A2" not in game.state.markers
        assert money(game)["red"] == 1 and money(game)["blue"] == 1 + 4
    assert scores(game)["blue"] == 1


@pytest.mark.parametrize("spec,n", F_ON + F_OFF)
def test_row44_f_card_dealt_at_setup_is_replaced(spec, n):
    """Row 8/44. 003:L901-902: "If this occurs during setup, discard the card and draw a replacement"."""
    closed = (spec, n) in F_ON
    deck = rest_of_deck("F1", "A1", "A2", "B1", "B2", "B3", "B4")
    game = lv.Game(lv.load_profile(spec), NAMES[:n], deck=deck, first_player=0)
    dealt = [e.lots for e in of_kind(game.setup_events, "dealt")]
    if closed:
        assert dealt == [["A1", "B1"], ["A2", "B2"]]
        assert [e.card for e in of_kind(game.setup_events, "card_skipped")] == ["F1"]
        assert "F1" in game.state.discards
    elif n == 2:
        assert dealt == [["F1", "A2"], ["A1", "B1"]]
    else:
        assert dealt == [["F1", "B1"], ["A1", "B2"], ["A2", "B3"]]


@pytest.mark.parametrize("spec,n", F_ON + F_OFF)
def test_row44_no_building_or_sprawling_on_f(spec, n):
    """Row 44. 003:L894 "In a 2-player game, you can't build on F block" (rules-diff default: no tile at all, so no
    sprawl either). With the block closed no marker or tile can ever stand on F (F cards place no marker, F cards
    dealt at setup are replaced), so a position that puts one there is refused; with it open, F is built on as usual.
    Random play under the closed rule never puts a piece on F."""
    closed = (spec, n) in F_ON
    pos = dict(current="red", players={"red": {"money": 100}}, markers={"F5": "red"}, tiles={"F1": "gold red 6"})
    if closed:
        with pytest.raises(lv.RecordError, match="closed F block"):
            at(spec, NAMES[:n], **pos)
        game = lv.new_game(spec, n, seed=5)
        bots.play(game, [bots.random_bot] * n, seed=5)
        assert not [lot for lot in list(game.state.markers) + list(game.state.tiles) if lot.startswith("F")]
        return
    game = at(spec, NAMES[:n], **pos)
    for action in (Build("F5", "aqua"), Sprawl("F2", "F1")):
        assert game.why_not(action) is None and action in game.legal_actions()


# ----------------------------------------------------------------------------------------------- trades


@BOTH
def test_row45_trade_money_lots_and_dice_keeping_their_value(spec):
    """Row 45. 000:L220-224 / 003:L809-826: "You may trade any combination of money, lots, dice in casinos ... The new
    die has the same value as the die it is replacing, not the value marked on the space." Trading is not an action
    (003:L483), so it does not use up the gamble."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 10}, "blue": {"money": 10}},
              markers={"A1": "red"}, tiles={"C1": "aqua blue 5", "C2": "aqua red 4"})
    events = game.apply(Trade((GiveDie("C1", 1, 0), GiveLot("A1", 0, 1), GiveMoney(0, 1, 3))))
    assert kinds(events) == ["die_given", "boss_changed", "lot_given", "money_given"]
    assert (game.state.tiles["C1"].owner, game.state.tiles["C1"].value) == (0, 5)
    assert game.state.markers == {"A1": 1} and money(game) == {"red": 7, "blue": 13}
    assert boss_name(game, "C1") == "red" and game.state.gambles == 0


@BOTH
def test_row46_failed_trade_step_stops_the_rest(spec):
    """Row 46. 003:L832-836: "If something stops an element of a trade from occurring ... the subsequent steps of the
    trade do not occur" (the original is silent: same default). Blue's $5 arrives, Red's lot A2 does not exist,
    so Red's $1 is not paid."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 10}, "blue": {"money": 10}},
              markers={"A1": "red"})
    events = game.apply(Trade((GiveMoney(1, 0, 5), GiveLot("A2", 0, 1), GiveMoney(0, 1, 1))))
    assert kinds(events) == ["money_given", "trade_step_failed"]
    assert of_kind(events, "trade_step_failed")[0].step == 2
    assert money(game) == {"red": 15, "blue": 5} and game.state.markers == {"A1": 0}


@BOTH
def test_row46_undo_all_what_if_refuses_the_whole_trade(spec):
    """Row 46, the alternative value ``trade.failed_step=undo_all``: the failed step cancels the whole trade."""
    game = at(f"{spec},trade.failed_step=undo_all", ["red", "blue"], current="red",
              players={"red": {"money": 10}, "blue": {"money": 10}}, markers={"A1": "red"})
    err = illegal(game, Trade((GiveMoney(1, 0, 5), GiveLot("A2", 0, 1), GiveMoney(0, 1, 1))), "trade: only what the giver has")
    assert "step 2" in err.reason
    assert money(game) == {"red": 10, "blue": 10}


# ============================================================================ shared rules, easy to get wrong


def _draw(spec, tiles=None, markers=None, card="A2", **kw):
    return at(spec, ["red", "blue"], current="red", phase="draw", deck=[card, "END"], tiles=tiles or {},
              markers=markers or {}, **kw)


@BOTH
def test_take_over_empty_lot_places_a_marker(spec):
    """000:L69 / 003:L297-299: "If the lot specified on your card is empty, place 1 of your player markers"."""
    game = _draw(spec)
    assert game.state.markers == {"A2": 0} and money(game)["red"] == 1


@BOTH
def test_take_over_another_players_die_keeps_its_value(spec):
    """000:L71 / 003:L300-304: "replace the die on the tile with 1 of your dice, keeping the same pip value"."""
    game = _draw(spec, tiles={"A2": "gold blue 5", "A1": "gold blue 1"})
    t = game.state.tiles["A2"]
    assert (t.owner, t.value) == (0, 5) and boss_name(game, "A2") == "red"
    (ev,) = of_kind(game.current_turn.draw_events, "die_taken_over")
    assert (ev.previous, ev.value) == (1, 5)


@BOTH
def test_take_over_a_dieless_tile_uses_the_printed_value(spec):
    """000:L71 / 003:L304-306: "If the tile has no die, place your die so that the pip value matches the die printed
    on the board" (A2 shows a 2)."""
    game = _draw(spec, tiles={"A2": "gold", "A1": "gold blue 1"})
    t = game.state.tiles["A2"]
    assert (t.owner, t.value) == (0, 2) and boss_name(game, "A2") == "red"


@BOTH
def test_take_over_own_die_does_nothing(spec):
    """003:L306-307: "If it has your die, leave it alone" (FAQ for the original)."""
    game = _draw(spec, tiles={"A2": "gold red 5"})
    assert (game.state.tiles["A2"].owner, game.state.tiles["A2"].value) == (0, 5)
    assert "die_taken_over" not in kinds(game.current_turn.draw_events)
    assert game.state.markers == {}


@BOTH
def test_lots_pay_on_every_draw_including_the_lot_just_claimed(spec):
    """000:L75 / 003:L309-313: "Each lot with a player marker ... pays that player $1, no matter what card is drawn or
    whose turn it is"; 000:L96 (D8 example: the lot just marked pays)."""
    game = at(spec, ["red", "blue"], current="red", phase="draw", deck=["A2", "B1", "C2", "END"],
              markers={"A1": "red", "B3": "blue"})
    assert money(game) == {"red": 2, "blue": 1}
    game.apply(EndTurn())
    assert money(game) == {"red": 4, "blue": 3}


@BOTH
def test_strip_card_pays_a_whole_casino_with_any_tile_on_the_strip(spec):
    """000:L85 / 003:L337-342: "each casino with at least 1 edge adjacent to The Strip pays money and scores points
    for all of its tiles": {A1, A2, A3} touches the Strip only at A3; E1 does not touch it."""
    game = _draw(spec, card="A6", tiles={"A1": "gold red 3", "A2": "gold blue 2", "A3": "gold blue 4",
                                        "E1": "aqua red 6"})
    assert money(game) == {"red": 1 + 3, "blue": 2 + 4}
    assert scores(game) == {"red": 0, "blue": 3}


@BOTH
def test_casino_without_dice_has_no_boss_pays_and_scores_nothing(spec):
    """003:L259-262 "if the last die is removed from a casino, no one owns the casino" (rules-diff default for the
    original): nobody is paid or scores; nobody can gamble there."""
    game = _draw(spec, card="D8", tiles={"E6": "gold", "E3": "gold"}, players={"blue": {"money": 10}})
    assert scores(game) == {"red": 0, "blue": 0} and money(game) == {"red": 1, "blue": 10}
    assert casino_of(game, "E6").boss is None
    illegal(game, Gamble("E6", 1), "gamble: another player's casino")


@BOTH
def test_gamble_once_per_turn_not_against_yourself_nor_a_bossless_casino(spec):
    """000:L186 "You can only take the gamble action once during your turn ... at a casino where another player is
    the boss"; 003:L774-781 "If there are no such casinos, you can't gamble ... You can't gamble against yourself!"."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 20}, "blue": {"money": 20}},
              tiles={"C1": "aqua blue 4", "E1": "gold blue 3", "A1": "silver red 3", "D1": "brown"})
    illegal(game, Gamble("A1", 1), "gamble: another player's casino")
    illegal(game, Gamble("D1", 1), "gamble: another player's casino")
    game.apply(Gamble("C1", 2), dice={"gamble": [3, 4]})
    assert money(game) == {"red": 18, "blue": 22}
    illegal(game, Gamble("E1", 1), "gamble.per_turn", dice={"gamble": [1, 2]})
    events = game.apply(Trade((GiveMoney(1, 0, 1), Gamble("E1", 1))))  # trading is not an action, gambling is
    assert [(e.step, e.rule) for e in of_kind(events, "trade_step_failed")] == [(2, "gamble.per_turn")]
    assert money(game) == {"red": 19, "blue": 21}
    assert not any(isinstance(a, Gamble) for a in game.legal_actions())
    # the next turn allows a new gamble
    game.apply(EndTurn())
    game.apply(EndTurn())
    assert game.state.current == 0 and any(isinstance(a, Gamble) for a in game.legal_actions())


@BOTH
def test_reorganize_lock_survives_a_merge(spec):
    """000:L168 "no die may be rerolled more than once in a turn, even if that die's tile becomes part of a larger
    casino"; 003:L624-628 "A casino that includes any dice reorganized on a turn cannot be reorganized again that
    turn, even if it merges into a larger casino"."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 20}}, markers={"A2": "red"},
              tiles={"A1": "gold red 1", "A3": "gold red 2"})
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 4}})
    assert money(game)["red"] == 19 and game.why_not(Reorganize("A3")) is None
    game.apply(Build("A2", "gold"))
    assert casino_of(game, "A1").lots == ("A1", "A2", "A3") and money(game)["red"] == 13
    illegal(game, Reorganize("A3"), "reorganize: each die once a turn")


@pytest.mark.parametrize("spec,locked", [("original", False), ("revised", False),
                                         ("revised,reorg.tie_rerolls_count=true", True)])
def test_tie_rerolls_are_not_reorganizing(spec, locked):
    """003:L628-631: "(This only applies to reorganizing. Dice can be rerolled as many times as needed in a turn, just
    only reorganized once.)"; for 000:L168 our default reads "rerolled" as "reorganized" (rules-diff default 6)."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 20}}, markers={"A2": "red"},
              tiles={"A1": "gold red 4", "A3": "gold blue 4"})
    events = game.apply(Build("A2", "gold"), dice={"ties": {"A1": [5], "A3": [1]}})
    assert len(of_kind(events, "tie_rerolled")) == 1 and boss_name(game, "A1") == "red"
    if locked:
        illegal(game, Reorganize("A1"), "reorganize: each die once a turn")
    else:
        game.apply(Reorganize("A1"), dice={"reorg": {"A1": 6, "A2": 1, "A3": 2}})
        assert money(game)["red"] == 20 - 6 - (5 + 2 + 1)


@BOTH
def test_reorganize_needs_a_die_not_the_boss(spec):
    """000:L165-167 / 003:L596-605: "You must have at least 1 die in the casino ... You do not have to be that casino's
    boss, and you can reorganize if you're the only player with dice"; you pay for every pip in the casino."""
    game = at(spec, ["red", "blue"], current="blue", players={"blue": {"money": 20}},
              tiles={"A1": "gold red 6", "A2": "gold blue 1", "C1": "aqua red 3"})
    illegal(game, Reorganize("C1"), "reorganize: you need a die in the casino")
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 2, "A2": 5}})
    assert money(game)["blue"] == 13 and boss_name(game, "A1") == "blue"
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 3}}, tiles={"C1": "aqua red 3"})
    game.apply(Reorganize("C1"), dice={"reorg": {"C1": 1}})
    assert money(game)["red"] == 0


@BOTH
def test_sprawl_needs_the_boss_an_adjacent_empty_unowned_lot(spec):
    """000:L140-144 / 003:L485-515: sprawl "from a casino in which you are the boss into an unowned space that shares
    an edge", paying twice the lot price, the new die showing the lot's value. A lot whose card was already drawn
    may be sprawled into (rules-diff row 25)."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 100}}, markers={"A3": "blue"},
              tiles={"A1": "gold red 2", "A4": "gold blue 5", "C1": "aqua red 6"}, deck=["B1", "END"])
    illegal(game, Sprawl("A2", "A1"), "sprawl: you must be the boss")
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 100}}, markers={"A3": "blue"},
              tiles={"A1": "gold red 6", "A4": "gold blue 5", "A6": "aqua"}, deck=["B1", "END"])
    illegal(game, Sprawl("A3", "A1"), "sprawl: an unowned lot")
    illegal(game, Sprawl("A6", "A1"), "sprawl: an empty lot")
    illegal(game, Sprawl("A3", "A1"))
    illegal(game, Sprawl("C2", "A1"), "sprawl: adjacent lot")
    game.apply(Sprawl("A5", "A1"))  # A5's card is not in the deck any more
    assert money(game)["red"] == 82 and game.state.tiles["A5"].value == 3 and game.state.tiles["A5"].owner == 0


@BOTH
def test_running_out_of_a_colours_tiles(spec):
    """000:L122 / 003:L244-250: "If all of the tiles of a given color are already on the board, you may not place a
    tile of that color when you build, sprawl, or remodel"."""
    tiles = {f"C{i}": "gold" for i in range(2, 10)}
    tiles.update({"C1": "gold red 6", "E1": "aqua red 3", "E2": "aqua red 1"})
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 100}}, markers={"A2": "red"},
              tiles=tiles)
    assert game.engine.available_tiles(game.state, "gold") == 0
    illegal(game, Build("A2", "gold"), "components.tiles_per_color")
    illegal(game, Sprawl("C10", "C1"), "components.tiles_per_color")
    illegal(game, Remodel("E1", "gold"), "remodel.counts")
    illegal(game, Remodel("C1", "aqua"), "remodel.counts")  # 9 tiles to replace, 7 aqua left
    game.apply(Build("A2", "aqua"))
    assert game.state.tiles["A2"].color == "aqua"


def _twelve_dice():
    """Red has all 12 dice on the board."""
    tiles = {f"C{i}": "brown red 1" for i in range(1, 10)}  # 9
    tiles.update({"D1": "aqua red 6", "E1": "gold red 5", "E2": "gold blue 4", "E6": "silver red 3"})  # +3
    return tiles


@BOTH
def test_out_of_dice_build_moves_own_die_dieless_tile_still_scores(spec):
    """000:L124 "If all of your dice are already on the board and you place a new tile (build or sprawl), you must
    remove one of your dice and place it in the new tile. The resulting tile without a die remains on the board. No
    one owns a tile without a die"; 003:L251-262 "though it still counts for points ... if the last die is removed
    from a casino, no one owns the casino"."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 20}}, markers={"A2": "red", "A4": "red"},
              tiles=_twelve_dice())
    assert game.pieces(0)["dice_in_hand"] == 0
    game.apply(Build("A2", "purple"), choices={"die_from": "E1"})
    assert (game.state.tiles["E1"].owner, game.state.tiles["E1"].value) == (None, None)
    e = casino_of(game, "E1")
    assert e.boss == 1 and e.points == 2  # Blue's 4 now rules; the die-less tile still counts
    assert (game.state.tiles["A2"].owner, game.state.tiles["A2"].value) == (0, 2)
    game.apply(Build("A4", "silver"), choices={"die_from": "D1"})
    assert casino_of(game, "D1").boss is None  # its last die is gone: no one owns it
    assert len(game.state.dice_on_board(0)) == 12 and money(game)["red"] == 20 - 6 - 12


@BOTH
def test_out_of_dice_take_over_moves_own_die(spec):
    """003:L251-257 "(such as when you build or sprawl a new tile or inherit a sprawled tile)" (rules-diff default for
    the original, which names only build and sprawl)."""
    tiles = _twelve_dice()
    tiles["A2"] = "gold blue 5"
    game = _draw(spec, tiles=tiles, draw_choices={"die_from": "E6"})
    assert (game.state.tiles["A2"].owner, game.state.tiles["A2"].value) == (0, 5)
    assert game.state.tiles["E6"].owner is None and len(game.state.dice_on_board(0)) == 12


@pytest.mark.parametrize("spec,moved", [("original", True), ("revised", True),
                                        ("revised,resources.markers_exhausted=no_marker", False)])
def test_out_of_markers_move_one_and_lose_that_lot(spec, moved):
    """003:L266-271: "If all 10 of your player markers are on the board and you gain a new lot, you must remove one of
    your markers and place it on the new lot. You no longer own the vacated lot." (000 silent: same default; the
    alternative ``no_marker`` leaves the new lot empty.)"""
    ten = ["A1", "A4", "B2", "B3", "B5", "B6", "C1", "C2", "C4", "C5"]
    game = _draw(spec, markers={lot: "red" for lot in ten}, draw_choices={"marker_from": "B6"})
    if moved:
        assert game.state.markers.get("A2") == 0 and "B6" not in game.state.markers
    else:
        assert "A2" not in game.state.markers and game.state.markers["B6"] == 0
    assert len(game.state.markers_on_board(0)) == 10 and money(game)["red"] == 10


@BOTH
@pytest.mark.parametrize("action,price,rule", [(Sprawl("A5", "A2"), 18, "sprawl.cost_multiplier"),
                                               (Remodel("A1", "aqua"), 10, "remodel.cost_per_unit"),
                                               (Reorganize("A1"), 10, "reorg.cost_per_pip")])
def test_actions_need_full_payment(spec, action, price, rule):
    """Rules-diff row 40: actions say "Pay ..." and need the full amount (build: S09): a dollar short is refused,
    the exact price is paid down to $0."""
    pos = dict(tiles={"A1": "gold red 6", "A2": "gold red 4"})
    illegal(at(spec, ["red", "blue"], current="red", players={"red": {"money": price - 1}}, **pos), action, rule)
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": price}}, **pos)
    game.apply(action)
    assert money(game)["red"] == 0


@BOTH
def test_row46_a_step_that_fails_half_way_leaves_no_trace(spec):
    """Row 46. 003:L832-836: the failed element does not occur. Blue has all 10 markers and names a lot she does not
    hold as the one to move: the lot stays Red's (it used to vanish from the board)."""
    ten = ["A1", "A4", "B2", "B3", "B5", "B6", "C1", "C2", "C4", "C5"]
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 5}},
              markers={**{lot: "blue" for lot in ten}, "D1": "red"})
    events = game.apply(Trade((GiveMoney(0, 1, 1), GiveLot("D1", 0, 1))), choices={"marker_from": "E5"})
    assert kinds(events) == ["money_given", "trade_step_failed"]
    assert of_kind(events, "trade_step_failed")[0].rule == "resources.markers_exhausted"
    assert game.state.markers["D1"] == 0 and len(game.state.markers_on_board(1)) == 10
    assert money(game) == {"red": 4, "blue": 1}


def test_docs_rules_table_names_real_parameters_and_tests():
    """docs/rules.md lists the 47 rule points with their parameters and tests: every name in it must exist."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if re.match(r"\| \d+ \|", line)]
    assert [int(r.split("|")[1]) for r in rows] == list(range(1, 48))
    defined = set()
    for f in (root / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", f.read_text(encoding="utf-8"), re.M))
    assert set(re.findall(r"`(test_\w+)`", doc)) - defined == set()
    assert all("test_" in r.split("|")[-2] for r in rows)
    params = set(lv.load_profile("original").values())
    named = {p for r in rows for p in re.findall(r"`([a-z_]+\.[a-z_]+)`", r.split("|")[4])}
    assert named and named <= params, named - params
