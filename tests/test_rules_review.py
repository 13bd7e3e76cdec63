"""A second reading of the rules engine against the rulebooks: interactions the rule-point and worked-example
tests do not reach (merges with ties, pieces running out, the end card or an instant win among F-block redraws,
lay-off rounding, a bossless casino), input the engine must refuse without a trace, and a property test that the
legal list and the referee (``Game.apply``) agree.

000 = the original rulebook, 003 = the revised rulebook (shared/seeds), ``L<n>`` = line of ``cat -n``. Expected
money, points and bosses below are worked out by hand from the cited passages.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import actions as A
from lv.errors import ArgumentError
from lv import Build, EndTurn, Gamble, GiveDie, GiveLot, GiveMoney, Raise, Remodel, Reorganize, Sprawl, Trade

from conftest import at, boss_name, casino_of, illegal, kinds, money, of_kind, scores

BOTH = pytest.mark.parametrize("spec", ["original", "revised"])



def twelve_red_dice():
    """Red has all 12 dice on the board (9 brown ones on C block, D1, E1 and E6); Blue has a 4 on E2."""
    tiles = {f"C{i}": "brown red 1" for i in range(1, 10)}
    tiles.update({"D1": "aqua red 6", "E1": "gold red 5", "E2": "gold blue 4", "E6": "silver red 3"})
    return tiles


# ============================================================================ merges, heights and ties


def test_sprawl_from_a_raised_casino_does_not_join_a_flat_casino_of_its_colour():
    """003:L497-511 and L562-568: the sprawled tile goes down on as many risers as its casino has, "this happens all
    at once"; L541-547: a 2-high and a flat casino of one colour "are not yet joined". Red (gold, 2 high) sprawls
    into A2 beside Blue's flat gold A3: $12 + $15, and A3 stays a casino of its own."""
    game = at("revised", ["red", "blue", "green"], current="red", players={"red": {"money": 30}},
              tiles={"A1": "gold h2 red 4", "A3": "gold blue 6"})
    game.apply(Sprawl("A2", "A1"))
    assert money(game)["red"] == 3
    red, blue = casino_of(game, "A1"), casino_of(game, "A3")
    assert (red.lots, red.height, red.boss, red.points) == (("A1", "A2"), 2, 0, 4)
    assert (blue.lots, blue.height, blue.boss, blue.points) == (("A3",), 1, 1, 1)


def test_sprawl_beside_a_flat_casino_of_its_colour_joins_it_in_the_original():
    """000:L51 "A casino is a group of 1 or more contiguous tiles of the same color" (no heights): the same sprawl
    joins Blue's A3 and Blue's 6 beats Red's 4 and 2, so Blue is boss of the 3-tile casino Red paid $12 for."""
    game = at("original", ["red", "blue", "green"], current="red", players={"red": {"money": 30}},
              tiles={"A1": "gold red 4", "A3": "gold blue 6"})
    events = game.apply(Sprawl("A2", "A1"))
    assert money(game)["red"] == 18
    c = casino_of(game, "A1")
    assert (c.lots, c.boss, c.points) == (("A1", "A2", "A3"), 1, 3)
    assert kinds(events) == ["sprawled", "merged", "boss_changed"]


def test_raise_joins_two_casinos_into_a_three_player_tie_then_a_third_player_is_boss():
    """003:L713-718 "if 2 or more casino tiles of the same color are ever next to each other at the same height, they
    merge immediately"; L434-438 "Only the tied largest valued dice are rerolled. If still tied for largest value
    after rerolling, reroll the current largest valued dice"; L446-451 "If two players reroll to a number below that
    of another player's die, that third player will become the boss". Red raises A2 ($15) between Blue's and
    Green's 2-high gold: three 5s reroll to 4, 4, 3; only the two 4s reroll again, to 2 and 1: Green's 3 rules."""
    game = at("revised", ["red", "blue", "green"], current="red", players={"red": {"money": 20}},
              tiles={"A1": "gold h2 blue 5", "A2": "gold red 5", "A3": "gold h2 green 5"})
    events = game.apply(Raise("A2"), dice={"ties": {"A1": [4, 2], "A2": [4, 1], "A3": [3]}})
    rounds = of_kind(events, "tie_rerolled")
    assert [(e.lots, e.values) for e in rounds] == [
        (["A1", "A2", "A3"], {"A1": 4, "A2": 4, "A3": 3}), (["A1", "A2"], {"A1": 2, "A2": 1})]
    c = casino_of(game, "A2")
    assert (c.lots, c.height, c.points, c.boss) == (("A1", "A2", "A3"), 2, 6, 2)
    assert money(game)["red"] == 5


@BOTH
def test_remodel_merging_three_casinos_ties_three_players(spec):
    """000:L203-207 / 003:L426-440: "all of the dice with the largest value must be immediately rerolled ... Continue
    rerolling until there is only 1 player whose die has the largest value". Red remodels his gold A2 ($5) to aqua
    between Blue's A1 and Green's A3: three 5s, all rerolled twice (4, 4, 4, then 6, 1, 2): Blue is boss; 000:L161
    calls this a "hostile takeover", here it backfires."""
    game = at(spec, ["red", "blue", "green"], current="red", players={"red": {"money": 10}},
              tiles={"A1": "aqua blue 5", "A2": "gold red 5", "A3": "aqua green 5"})
    events = game.apply(Remodel("A2", "aqua"), dice={"ties": {"A1": [4, 6], "A2": [4, 1], "A3": [4, 2]}})
    assert [e.lots for e in of_kind(events, "tie_rerolled")] == [["A1", "A2", "A3"]] * 2
    c = casino_of(game, "A1")
    assert (c.lots, c.boss) == (("A1", "A2", "A3"), 1)
    assert [game.state.tiles[x].value for x in ("A1", "A2", "A3")] == [6, 1, 2]
    assert money(game)["red"] == 5


@BOTH
def test_take_over_tie_rerolled_below_a_third_players_die_before_the_card_scores(spec):
    """003:L426-433 "This can happen when you ... take over a sprawled space" and L446-451 (a third player becomes
    boss); the original's default checks immediately too (rules-diff default 1). Blue draws A5 (a silver card) and
    inherits Red's sprawled 5 beside Red's other 5: the 5s reroll to 1 and 2, Green's 4 rules, and Green, not Red
    or Blue, scores the 3-tile casino; every die is paid its pips."""
    game = at(spec, ["red", "blue", "green"], current="blue", phase="draw", deck=["A5", "END"],
              tiles={"A2": "silver red 5", "A5": "silver red 5", "A4": "silver green 4"},
              draw_dice={"ties": {"A2": [1], "A5": [2]}})
    events = game.current_turn.draw_events
    assert kinds(events).index("tie_rerolled") < kinds(events).index("scored")
    assert boss_name(game, "A2") == "green"
    assert money(game) == {"red": 1, "blue": 2, "green": 4}
    assert scores(game) == {"red": 0, "blue": 0, "green": 3}


@BOTH
def test_reorganize_lock_follows_the_dice_into_a_casino_merged_by_remodel(spec):
    """000:L168 "no die may be rerolled more than once in a turn, even if that die's tile becomes part of a larger
    casino"; 003:L624-628 "A casino that includes any dice reorganized on a turn cannot be reorganized again that
    turn, even if it merges into a larger casino". Red reorganizes his gold A1 ($1, rolls 2), remodels it brown ($5)
    into Blue's A2: Blue's 3 never rerolled, but the merged casino holds Red's reorganized die, so it is locked."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 20}},
              tiles={"A1": "gold red 1", "A2": "brown blue 3"})
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 2}})
    game.apply(Remodel("A1", "brown"))
    assert casino_of(game, "A2").lots == ("A1", "A2") and boss_name(game, "A2") == "blue"
    assert money(game)["red"] == 14
    illegal(game, Reorganize("A2"), "reorganize: each die once a turn")
    assert Reorganize("A1") not in game.legal_actions()


# ============================================================================ pieces running out


@BOTH
def test_out_of_dice_sprawl_may_take_the_die_that_made_you_boss(spec):
    """000:L124 / 003:L251-257: "If all 12 of your dice are already on the board and you would place a die in a casino
    (such as when you build or sprawl a new tile ...), you must remove 1 of your dice and place it in the tile": any
    one of them. Red, boss of gold {E1 red 5, E2 blue 4}, sprawls into E4 ($24) moving the 5 from E1: his new 4 ties
    Blue's 4, the reroll gives Blue 2, Red 1, and Blue is boss of the 3-tile casino Red paid for."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 30}}, tiles=twelve_red_dice())
    events = game.apply(Sprawl("E4", "E1"), choices={"die_from": "E1"}, dice={"ties": {"E2": [2], "E4": [1]}})
    assert kinds(events) == ["die_moved", "sprawled", "tie_rerolled", "boss_changed"]
    c = casino_of(game, "E1")
    assert c.dice == (("E1", None, None), ("E2", 1, 2), ("E4", 0, 1)) and c.boss == 1 and c.points == 3
    assert money(game)["red"] == 6 and len(game.state.dice_on_board(0)) == 12


@BOTH
def test_out_of_dice_a_traded_die_replaces_one_of_your_own(spec):
    """003:L251-257 (placing a die in a casino with all 12 on the board: move one of yours) and 000:L224 / 003:L823-826
    ("The new die has the same value as the die it is replacing"): Blue trades Red the 6 on A1; Red takes his 1 off
    C9, which stays on the board without a die."""
    tiles = {**twelve_red_dice(), "A1": "gold blue 6"}
    game = at(spec, ["red", "blue"], current="red", tiles=tiles)
    events = game.apply(Trade((GiveDie("A1", 1, 0),)), choices={"die_from": "C9"})
    assert kinds(events) == ["die_moved", "die_given", "boss_changed"]
    assert game.state.tiles["A1"].owner == 0 and game.state.tiles["A1"].value == 6
    assert game.state.tiles["C9"].owner is None and len(game.state.dice_on_board(0)) == 12


@BOTH
def test_out_of_markers_a_traded_lot_replaces_one_of_your_own(spec):
    """003:L266-271 "If all 10 of your player markers are on the board and you gain a new lot, you must remove one of
    your markers and place it on the new lot. You no longer own the vacated lot" (000 silent: same default): Blue
    trades Red D1; Red's marker leaves B6, which nobody owns now."""
    ten = ["A1", "A4", "B2", "B3", "B5", "B6", "C1", "C2", "C4", "C5"]
    game = at(spec, ["red", "blue"], current="red", markers={**{lot: "red" for lot in ten}, "D1": "blue"})
    events = game.apply(Trade((GiveLot("D1", 1, 0),)), choices={"marker_from": "B6"})
    assert kinds(events) == ["marker_moved", "lot_given"]
    assert game.state.markers["D1"] == 0 and "B6" not in game.state.markers
    assert len(game.state.markers_on_board(0)) == 10 and game.state.markers_on_board(1) == []


# ============================================================================ the end among F-block redraws


def test_game_over_card_drawn_among_f_block_redraws_ends_at_once():
    """003:L893-907: an F card pays and scores, then the next card is drawn; L908-916: "As soon as anyone draws the
    Game Over card, the end of the game happens immediately ... Pay parking lots ..., then pay and score casinos
    that touch The Strip". Red draws F1 (purple: E2 pays Red $2 and 1 point), F2 (silver: nothing), then the Game
    Over card: Blue's lot pays a third time, the Strip casinos D1 and C12 pay and score; A1 is never drawn."""
    game = at("revised", ["red", "blue"], current="red", phase="draw", deck=["F1", "F2", "END", "A1"],
              markers={"A2": "blue"},
              tiles={"E2": "purple red 2", "D1": "brown blue 2", "C12": "gold red 3"})
    assert game.current_turn.cards == ["F1", "F2", "END"] and game.state.deck == ["A1"]
    assert game.over and game.result.reason == "end_card"
    assert money(game) == {"red": 2 + 3, "blue": 3 + 2}
    assert scores(game) == {"red": 2, "blue": 1} and game.player_names[game.result.winner] == "red"
    assert game.state.markers == {"A2": 1} and game.legal_actions() == []


def test_instant_win_on_an_f_card_stops_the_redraws():
    """003:L917-921 "The game also ends if a player reaches 90+ points ... Finish scoring points, and then the player
    with the most points wins!" with L899-901 (draw again after an F card): Blue on 81 scores 10 for a 2-high
    5-space silver casino on the silver card F2 and lands on 90; the game ends there and A2 is not drawn."""
    tiles = {lot: "silver h2 blue 1" for lot in ("C1", "C2", "C3", "C4", "C5")}
    game = at("revised", ["red", "blue"], current="red", phase="draw", deck=["F2", "A2", "END"],
              players={"blue": {"score": 81}}, tiles=tiles)
    assert game.over and game.result.reason == "instant_win"
    assert game.current_turn.cards == ["F2"] and game.state.markers == {}
    assert scores(game) == {"red": 0, "blue": 90} and money(game) == {"red": 0, "blue": 5}


# ============================================================================ gambling


@pytest.mark.parametrize("roll,basis,green,gambler,boss", [
    ([3, 4], "payout", 10, -7, 3),   # lose: the boss receives half of 7 rounded down, the bank the rest
    ([1, 2], "payout", 10, 7, -3),   # win: the boss pays 3, the bank 4
    ([6, 6], "payout", 10, 14, -7),  # 12: the boss pays half of the doubled 14, the bank the other 7
    ([6, 6], "payout", 2, 9, -2),    # ... but he has $2: he pays those, the bank still pays its 7
    ([6, 6], "stake", 2, 10, -2),    # the other reading: the boss's part is twice half the bet (6), the bank's 8
])
def test_lay_off_on_an_odd_bet_and_a_double_against_a_short_boss(roll, basis, green, gambler, boss):
    """000:L194 "the boss only pays half (round down) and the bank pays the rest ... if the gambler loses, the boss
    only receives half (round down) and the bank gets the rest"; L192 "If the boss does not have enough money to
    fully pay off his portion of your bet, you only get the money he does have" (only his portion: the bank still
    pays its part, rules-diff default 7). Yellow bets $7 at Green's 2-tile casino."""
    game = at(f"original,gamble.lay_off_double_basis={basis}", ["green", "yellow"], current="yellow",
              players={"green": {"money": green}, "yellow": {"money": 30}},
              tiles={"C4": "purple green 5", "C7": "purple green 2"})
    game.apply(Gamble("C4", 7, lay_off=True), dice={"gamble": roll})
    assert money(game) == {"green": green + boss, "yellow": 30 + gambler}


def test_revised_no_bet_at_a_casino_whose_boss_has_nothing():
    """003:L786-794 "you cannot win more money than that casino's boss has ... Blue only has $15 million, so the most
    Red can bet is $15 million": with the boss at $0 the most is $0, so there is no gamble there at all."""
    game = at("revised", ["green", "yellow"], current="yellow", players={"yellow": {"money": 30}},
              tiles={"C4": "purple green 5", "C7": "purple green 2"})
    illegal(game, Gamble("C4", 1), "gamble.cap_at_boss_money")
    assert not any(isinstance(a, Gamble) for a in game.legal_actions())


@pytest.mark.parametrize("roll,lay_off,yellow,green", [
    ([1, 2], False, 30, 0),    # a win pays nothing: "you only get the money he does have"
    ([3, 4], False, 20, 10),   # a loss pays the boss the whole bet
    ([1, 2], True, 35, 0),     # with a lay-off the bank still pays its half (10 - 5)
])
def test_original_bet_at_a_casino_whose_boss_has_nothing(roll, lay_off, yellow, green):
    """000:L190 "Bet up to $5 for each tile in that casino. You can't bet more money than you have" (the boss's money
    is no limit) and L192-194: Yellow may bet $10 at Green's 2-tile casino although Green has $0."""
    game = at("original", ["green", "yellow"], current="yellow", players={"yellow": {"money": 30}},
              tiles={"C4": "purple green 5", "C7": "purple green 2"})
    assert Gamble("C4", 10) in game.legal_actions()
    game.apply(Gamble("C4", 10, lay_off=lay_off), dice={"gamble": roll})
    assert money(game) == {"green": green, "yellow": yellow}


@BOTH
def test_a_gambler_with_no_money_is_told_so(spec):
    """000:L190 / 003:L786-787 "You cannot bet more money than you have": with $0 Yellow cannot gamble; the refusal
    names that rule, not the boss's money (Green has $50)."""
    game = at(spec, ["green", "yellow"], current="yellow", players={"green": {"money": 50}},
              tiles={"C4": "purple green 5", "C7": "purple green 2"})
    err = illegal(game, Gamble("C4", 1), "gamble: you can't bet more money than you have")
    assert "you have $0" in err.reason


# ============================================================================ a casino without dice


@BOTH
def test_a_casino_without_dice_cannot_be_used_at_all(spec):
    """003:L257-262 "No one owns a tile without a die ... if the last die is removed from a casino, no one owns the
    casino": no boss to sprawl, remodel, raise or take bets (000:L140, L153, 003:L661-663, L774-776), and nobody can
    reorganize it: "You must have at least 1 die in the casino" (003:L596-597; 000:L165)."""
    game = at(spec, ["red", "blue"], current="red", players={"red": {"money": 100}, "blue": {"money": 100}},
              tiles={"E3": "gold", "E6": "gold", "A1": "aqua red 3"})
    raise_rule = "raise: you must be the boss" if spec == "revised" else "raise.enabled"
    for action, rule in [(Reorganize("E3"), "reorganize: you need a die in the casino"),
                         (Sprawl("E2", "E3"), "sprawl: you must be the boss"),
                         (Remodel("E6", "aqua"), "remodel: you must be the boss"),
                         (Raise("E3"), raise_rule),
                         (Gamble("E6", 1), "gamble: another player's casino")]:
        illegal(game, action, rule)
    assert not [a for a in game.legal_actions() if getattr(a, "lot", None) in ("E3", "E6")
                or getattr(a, "source", None) in ("E3", "E6")]


# ============================================================================ refused without a trace


def test_end_turn_with_a_draw_choice_that_names_no_marker_changes_nothing():
    """003:L266-271: the marker that moves is "one of your markers". Red has all 10 on the board and draws A2; a
    choice naming a lot where Red has no marker is refused, and the game stays exactly where it was (still Blue's
    turn, the deck untouched), so the same EndTurn with a good choice then works."""
    ten = ["A1", "A4", "B2", "B3", "B5", "B6", "C1", "C2", "C4", "C5"]
    game = at("revised", ["red", "blue"], current="blue", markers={lot: "red" for lot in ten}, deck=["A2", "END"])
    turns, decisions = len(game.history), len(game.current_turn.decisions)
    with pytest.raises(lv.IllegalAction) as err:
        game.apply(EndTurn(), next_draw_choices={"marker_from": "D9"})
    assert err.value.rule == "resources.markers_exhausted"
    assert (game.state.turn, game.state.current, game.state.phase) == (1, 1, "actions")
    assert game.state.deck == ["A2", "END"] and "A2" not in game.state.markers
    assert (len(game.history), len(game.current_turn.decisions)) == (turns, decisions)
    game.apply(EndTurn(), next_draw_choices={"marker_from": "B6"})
    assert game.state.current == 0 and game.state.markers["A2"] == 0 and "B6" not in game.state.markers


def test_a_recorded_tie_die_that_is_no_die_face_undoes_the_action():
    """000:L203-205 / 003:L426-438: a tie is rerolled as part of the action that made it, so a tie reroll that cannot
    be made (a recorded 9) refuses the whole action: Red's build is not left on the board with the tie unsettled
    and his $6 gone."""
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 20}}, markers={"A2": "red"},
              tiles={"A1": "gold red 4", "A3": "gold blue 4"})
    before = game.state.copy()
    with pytest.raises(lv.RecordError):
        game.apply(Build("A2", "gold"), dice={"ties": {"A1": [9], "A3": [1]}})
    assert game.state.tiles == before.tiles and game.state.markers == before.markers
    assert money(game) == {"red": 20, "blue": 0} and game.current_turn.decisions == []
    game.apply(Build("A2", "gold"), dice={"ties": {"A1": [6], "A3": [1]}})
    assert boss_name(game, "A2") == "red" and money(game)["red"] == 14


@pytest.mark.parametrize("amount", [2.5, True, "3"])
def test_trade_money_is_whole_dollars(amount):
    """000:L24 "All values in this game are described in dollars ($1, $5, $10)": a trade gives whole dollars (a
    step of any other amount cannot be made, lv/actions/_values.py)."""
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 20}})
    with pytest.raises(ArgumentError, match="^GiveMoney.amount .*: a whole number$"):
        game.apply(Trade((GiveMoney(0, 1, amount),)))
    assert money(game) == {"red": 20, "blue": 0}


def test_position_refuses_a_deck_holding_the_card_of_a_lot_with_a_marker():
    """000:L47 / 003:L211-214 "When you draw the card that corresponds to a lot, you place 1 of your markers on that
    lot": a lot with a marker has had its card drawn, so a position whose draw pile still holds that card cannot
    arise (and would have the drawer take the lot over a second time)."""
    with pytest.raises(lv.RecordError, match="A2"):
        at("revised", ["red", "blue"], current="red", phase="draw", deck=["A2", "END"], markers={"A2": "blue"})
    with pytest.raises(lv.RecordError, match="A2"):
        at("original", ["red", "blue"], current="red", deck=["B1", "A2", "END"], markers={"A2": "red"})


# ============================================================================ the legal list and the referee

CONFIGS = [("original", 2), ("original", 4), ("revised", 2), ("revised", 3), ("revised", 6), ("original+f-block", 2)]


def _play(game, rng, steps):
    """Random play: end the turn about one time in four, otherwise any listed decision (a random legal bet); stop
    before the end card would be drawn, so the position is one where decisions are taken."""
    for _ in range(steps):
        if game.over:  # an instant win, or F cards redrawn up to the end card (003 L893-907)
            return
        legal = game.legal_actions()
        others = [a for a in legal if not isinstance(a, EndTurn)]
        action = EndTurn() if not others or rng.random() < 0.25 else rng.choice(others)
        if isinstance(action, EndTurn) and lv.END_CARD in game.state.deck[:3]:
            return
        if isinstance(action, Gamble):
            action = Gamble(action.lot, rng.randint(1, action.bet))
        game.apply(action)


def _candidates(game):
    """Every build, sprawl, remodel, reorganize, raise and gamble that could be named now, each casino named by any
    of its lots (the legal list names a casino by its first lot)."""
    board, s = game.board, game.state
    out = [Build(lot, c) for lot in board.order for c in board.colors]
    for lot in s.tiles:
        out += [Sprawl(n, lot) for n in board.lots[lot].neighbours]
        out += [Remodel(lot, c) for c in board.colors]
        out += [Reorganize(lot), Raise(lot), Gamble(lot, 1)]
    return out


def _canonical(game, action):
    if isinstance(action, Build):
        return action
    name = game.casino_at(action.source if isinstance(action, Sprawl) else action.lot).name
    if isinstance(action, Sprawl):
        return Sprawl(action.lot, name)
    if isinstance(action, Gamble):
        return ("gamble", name)
    return type(action)(name, *[getattr(action, f) for f in ("color",) if hasattr(action, f)])


def _check_agreement(game):
    legal = game.legal_actions()
    assert legal[-1] == EndTurn() and legal.count(EndTurn()) == 1
    listed = set()
    for action in legal[:-1]:
        assert game.why_not(action) is None, action
        if isinstance(action, Gamble):
            assert game.why_not(Gamble(action.lot, 1)) is None
            assert game.why_not(Gamble(action.lot, action.bet + 1)) is not None, action
            listed.add(("gamble", action.lot))
        else:
            listed.add(action)
    for action in _candidates(game):
        refused = game.why_not(action)
        assert (refused is None) == (_canonical(game, action) in listed), (action, refused)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31), steps=st.integers(0, 250))
def test_every_listed_decision_applies_and_every_other_is_refused(config, seed, steps):
    """The legal list (lv/legal.py) against the referee itself (``Game.apply`` on a copy, through ``why_not``), in
    positions reached by random play: each listed decision is accepted (a gamble at the listed cap, and at $1), a bet
    $1 over the cap is refused, and every other build, sprawl, remodel, reorganize, raise or gamble is refused."""
    spec, players = config
    game = lv.new_game(spec, players, seed=seed)
    _play(game, random.Random(seed), steps)
    if game.over:  # an instant win
        assert game.legal_actions() == []
        return
    _check_agreement(game)


def _hoarding_position(spec, players, rng):
    """A random position where one player (often the one to move) holds most dice and markers, so that pieces run
    out: builds, sprawls and trades then move one of that player's own."""
    profile = lv.load_profile(spec)
    names = list(profile.players.colors[:players])
    hoarder = rng.choice(names)
    c, board = profile.components, lv.load_board()
    markers, tiles, used = {}, {}, {}
    f_closed = profile.f_block_closed(players)
    for lot in board.order:
        if f_closed and board.lots[lot].block == profile.f_block.block:
            continue  # nothing can stand on a closed F block (003 L893-903)
        r = rng.random()
        if r < 0.3:
            who = hoarder if rng.random() < 0.7 else rng.choice(names)
            if list(markers.values()).count(who) < c.markers_per_player:
                markers[lot] = who
        elif r < 0.8:
            color = rng.choice(board.colors)
            if used.get(color, 0) == c.tiles_per_color:
                continue
            used[color] = used.get(color, 0) + 1
            height = rng.randint(1, profile.max_height(players))
            who = hoarder if rng.random() < 0.6 else rng.choice(names)
            has_die = rng.random() < 0.85 and sum(1 for t in tiles.values() if t[1] == who) < c.dice_per_player
            tiles[lot] = (f"{color} h{height}" + (f" {who} {rng.randint(1, 6)}" if has_die else ""), who if has_die else None)
    current = hoarder if rng.random() < 0.6 else rng.choice(names)
    pos = dict(current=current, markers=markers, tiles={lot: spec_ for lot, (spec_, _) in tiles.items()},
               players={n: {"money": rng.randint(0, 80)} for n in names}, gambles=rng.randint(0, 1))
    return lv.Game.from_position(profile, names, pos, seed=rng.randint(0, 99))


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_legal_list_and_referee_agree_when_pieces_run_out(config, seed):
    """As above, in set-up positions where the player to move may have all 12 dice or all 10 markers on the board
    (000:L124, 003:L251-271): a build or sprawl is still legal then and moves one of the player's own dice."""
    spec, players = config
    _check_agreement(_hoarding_position(spec, players, random.Random(seed)))


@pytest.mark.parametrize("pos,message", [
    ({"tiles": {"A2": {"color": "gold", "owner": "red", "value": True}}}, "die value"),
    ({"turn": True}, "turn"),
    ({"reorganized": ["A2"]}, "no die to have been reorganized"),
    ({"markers": {"F5": "red"}}, "closed F block"),
    ({"tiles": {"F5": "gold red 2"}}, "closed F block"),
    ({"tiles": {"a2": "gold red 3", "A2": "aqua blue 5"}}, r"tiles: lot A2 is given twice \('a2' and 'A2'\)"),
    ({"markers": {"b1": "red", "B1": "blue"}}, r"markers: lot B1 is given twice \('b1' and 'B1'\)"),
])
def test_position_refuses_data_that_cannot_arise(pos, message):
    """Positions are checked like records: a bool is not a number; only a die can have been reorganized; in a
    2-player revised game nothing stands on F block (003 "2-Player Rules" L893-903); a lot spelled two ways is
    given twice (lots are case-insensitive), not silently taken from the last spelling."""
    with pytest.raises(lv.RecordError, match=message):
        lv.Game.from_position(lv.load_profile("revised"), ["red", "blue"], pos)
