"""Every profile parameter, pinned on its own: each test sets a parameter to a value no shipped profile uses (or
to the other edition's value on the other edition) and asserts the exact effect against the shipped value.

Why: the rules are also checked by agreement tests (legal.py against the referee), which cannot catch a rule
hard-wired in both places, and most parameters were only ever exercised at their shipped values, so a rule
such as ``payout.money_per_pip`` could be written as a constant unnoticed. ``test_every_parameter_is_pinned``
fails for a parameter that no test here names, so a new parameter arrives with its test.

Citations: 000 = the original rulebook (2010), 003 = the revised rulebook, by section title.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import lv
from lv.profile import parameter_names
from lv import Build, Gamble, GiveMoney, Raise, Remodel, Reorganize, Sprawl, Trade

from conftest import at, boss_name, casino_of, illegal, money, of_kind, scores

PINNED: dict[str, list[str]] = {}
THREE = ("red", "blue", "green")  # 003 "Action - Raise": a casino may be as high as the number of players


def pins(*params: str) -> Callable:
    """Mark a test as the one that shows the effect of ``params`` at a non-shipped value."""

    def mark(fn: Callable) -> Callable:
        for p in params:
            PINNED.setdefault(p, []).append(fn.__name__)
        return fn

    return mark


def draw(spec: str, card: str, names=("red", "blue"), **pos) -> lv.Game:
    """``names[0]`` draws ``card`` (then the end card) at the position ``pos``."""
    return at(spec, list(names), current=names[0], phase="draw", deck=[card, "END"], **pos)


def acting(spec: str, names=("red", "blue"), **pos) -> lv.Game:
    """``names[0]`` is in the action step at the position ``pos``."""
    return at(spec, list(names), current=names[0], phase="actions", **pos)


def paid(game: lv.Game, why: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in of_kind(game.current_turn.draw_events, "paid"):
        if e.why == why:
            name = game.player_names[e.player]
            out[name] = out.get(name, 0) + e.amount
    return out


# ================================================================================================ players


@pins("players.min", "players.max")
def test_player_count_bounds():
    """003 "Components" (2 to 6 players); the bounds are read from the profile, not fixed."""
    assert len(lv.new_game("revised", 2).player_names) == 2
    with pytest.raises(lv.RecordError, match="allows 3 to 6"):
        lv.new_game("revised,players.min=3", 2)
    assert len(lv.new_game("revised", 5).player_names) == 5
    with pytest.raises(lv.RecordError, match="allows 2 to 4"):
        lv.new_game("revised,players.max=4", 5)


@pins("players.colors")
def test_player_colours_name_the_players():
    """003 "Components: Dice": the player colours, in the order the profile gives them."""
    assert lv.new_game("revised", 3).player_names == ["black", "blue", "green"]
    game = lv.new_game("revised,players.colors=[w,x,y,z,u,v]", 3)
    assert game.player_names == ["w", "x", "y"]


# ============================================================================================= components


@pins("components.dice_per_player", "components.markers_per_player")
def test_pieces_in_hand_count_from_the_profile():
    """003 "Components: Dice" (12 dice each) and "Player Markers" (10 markers each)."""
    pos = dict(markers={"A1": "red", "B2": "red"}, tiles={"E6": "gold red 4"})
    assert acting("revised", **pos).pieces(0) == {"markers_in_hand": 8, "dice_in_hand": 11}
    game = acting("revised,components.dice_per_player=3,components.markers_per_player=4", **pos)
    assert game.pieces(0) == {"markers_in_hand": 2, "dice_in_hand": 2}


@pins("components.dice_per_player")
def test_a_player_out_of_dice_moves_one_of_their_own():
    """003 "Available Dice": with every die on the board, building moves one of your own dice (the lowest by
    default) to the new tile; with one die per player that happens on the second build."""
    pos = dict(markers={"A2": "red"}, tiles={"E6": "gold red 4"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Build("A2", "aqua"))
    assert game.state.tiles["E6"].owner == 0 and game.state.tiles["A2"].owner == 0
    game = acting("revised,components.dice_per_player=1", **pos)
    game.apply(Build("A2", "aqua"), dice={})
    assert game.state.tiles["E6"].owner is None and game.state.tiles["A2"].owner == 0


@pins("components.markers_per_player")
def test_a_player_out_of_markers_moves_one_of_their_own():
    """003 "Available Player Markers": "you must remove one of your markers and place it on the new lot"."""
    pos = dict(markers={"A1": "red"})
    game = draw("revised", "A2", **pos)
    assert sorted(lot for lot, who in game.state.markers.items() if who == 0) == ["A1", "A2"]
    game = draw("revised,components.markers_per_player=1", "A2", **pos)
    assert sorted(lot for lot, who in game.state.markers.items() if who == 0) == ["A2"]


@pins("components.tiles_per_color")
def test_tiles_of_a_colour_run_out():
    """003 "Available Tiles": a colour whose tiles are all on the board cannot be built."""
    pos = dict(markers={"A2": "red"}, tiles={"E6": "gold blue 4"}, players={"red": {"money": 50}})
    acting("revised", **pos).apply(Build("A2", "gold"))
    game = acting("revised,components.tiles_per_color=1", **pos)
    illegal(game, Build("A2", "gold"))
    game.apply(Build("A2", "aqua"))
    assert casino_of(game, "A2").color == "aqua"


# ================================================================================================== setup


@pins("setup.starting_cards")
def test_starting_cards_dealt():
    """000 "Setup" / 003 "Setting Up": "Deal 2 cards to each player"."""
    for n_cards in (2, 3):
        game = lv.new_game(f"revised,setup.starting_cards={n_cards}", 3, seed=5)
        dealt = of_kind(game.setup_events, "dealt")
        assert [len(e.lots) for e in dealt] == [n_cards] * 3
        assert sum(1 for who in game.state.markers.values() if who == 0) >= n_cards


@pins("setup.starting_money")
def test_starting_money_by_card_values_or_twenty_minus_dice():
    """000 "Setup": the money printed on the two cards; 003 "Initial Properties": $20 million minus the two dice.
    The board prints 10 minus the die on every card, so the two agree for any deal of two (row 7); with three
    cards each they part: 3 x 10 minus the dice is still the cards' sum, so the difference shows only where a
    card's money and its die do not add up to 10. Both readings are pinned by the exact amounts."""
    deck = ["C5", "D1", "E3", "F7", "B2", "A1"] + [c for c in lv.load_board().order
                                                   if c not in ("C5", "D1", "E3", "F7", "B2", "A1")]
    for value in ("sum_card_values", "twenty_minus_dice"):
        game = lv.Game(lv.load_profile(f"revised,setup.starting_money={value}"), ["red", "blue", "green"],
                       deck=deck, first_player=0)
        dealt = {game.player_names[e.player]: e.money for e in of_kind(game.setup_events, "dealt")}
        assert dealt == {"red": 14, "blue": 12, "green": 12}  # red: C5 ($9, die 1) + F7 ($5, die 5) = 20 - 6


# =================================================================================================== deck


@pins("deck.end_card_depth")
def test_end_card_depth():
    """000 / 003 "Setting Up": the end card on top of the 4th of four stacks (floor(N/4) under it); ``bottom``
    puts it last."""
    assert lv.new_game("revised", 4, seed=3).under_end_card == 10
    game = lv.new_game("revised,deck.end_card_depth=bottom", 4, seed=3)
    assert game.under_end_card == 0 and game.state.deck[-1] == lv.END_CARD


# ================================================================================================= payout


@pins("payout.lot_income")
def test_lot_income():
    """003 "Step 2: Pay All Parking Lots": each lot with a marker pays its owner $1 million."""
    pos = dict(markers={"A1": "blue", "B2": "blue"})
    assert paid(draw("revised", "D8", **pos), "lots") == {"red": 1, "blue": 2}
    assert paid(draw("revised,payout.lot_income=3", "D8", **pos), "lots") == {"red": 3, "blue": 6}


@pins("payout.money_per_pip")
def test_money_per_pip():
    """003 "Step 3: Pay Casinos": $1 million for each pip on each of your dice in the casino."""
    pos = dict(tiles={"E6": "gold blue 4", "E5": "gold red 3"})  # one casino, two owners
    assert paid(draw("revised", "D8", **pos), "casino") == {"blue": 4, "red": 3}
    assert paid(draw("revised,payout.money_per_pip=2", "D8", **pos), "casino") == {"blue": 8, "red": 6}
    pos = dict(tiles={"E6": "gold blue 4", "E5": "gold blue 3"})  # one owner: paid in one sum
    assert paid(draw("revised", "D8", **pos), "casino") == {"blue": 7}
    assert paid(draw("revised,payout.money_per_pip=2", "D8", **pos), "casino") == {"blue": 14}


# ================================================================================================= casino


@pins("casino.join_rule")
def test_join_rule():
    """000 "Casinos": contiguous tiles of one colour form one casino; 003 "Who Owns What": of the same colour and
    height."""
    pos = dict(tiles={"E5": "gold h2 red 3", "E6": "gold blue 4"})
    assert casino_of(at("revised", ["red", "blue"], **pos), "E6").lots == ("E6",)
    assert casino_of(at("revised,casino.join_rule=color", ["red", "blue"], **pos), "E6").lots == ("E5", "E6")


@pins("casino.dieless_tile_scores")
def test_dieless_tile_scores():
    """003 "Available Dice": "No one owns a tile without a die, though it still counts for points"."""
    pos = dict(tiles={"E6": "gold blue 4", "E5": "gold"})
    assert casino_of(draw("revised", "D8", **pos), "E6").points == 2
    assert scores(draw("revised", "D8", **pos))["blue"] == 2
    game = draw("revised,casino.dieless_tile_scores=false", "D8", **pos)
    assert scores(game)["blue"] == 1


# ================================================================================================ scoring


@pins("scoring.points")
def test_points_count_tiles_or_spaces():
    """003 "Step 4": "a 3-space casino that's 4 tiles high is worth 12 points"; ``spaces`` counts the spaces."""
    pos = dict(tiles={"E6": "gold h3 blue 4", "E5": "gold h3 blue 2"})
    assert casino_of(at("revised", THREE, **pos), "E6").points == 6
    assert casino_of(at("revised,scoring.points=spaces", THREE, **pos), "E6").points == 2


@pins("scoring.order")
def test_scoring_order():
    """000 "Scoring": smallest casinos (by spaces) score first; 003 "Step 4": by total point value. A 1-space
    3-high casino (3 points) against a 2-space one (2 points): the order of the scored events flips."""
    pos = dict(tiles={"E6": "gold h3 blue 4", "C7": "gold red 1", "C4": "gold red 2"})

    def order(spec: str) -> list[str]:
        game = draw(spec, "D8", THREE, **pos)
        return [game.player_names[e.player] for e in of_kind(game.current_turn.draw_events, "scored")]

    # 003: red's 2 points score before blue's 3; by spaces blue's single space comes first
    assert order("revised") == ["red", "blue"]
    assert order("revised,scoring.order=ascending_spaces") == ["blue", "red"]


# ========================================================================================= sprawl, remodel


@pins("sprawl.cost_multiplier")
def test_sprawl_cost_multiplier():
    """003 "Action - Sprawl": "Pay twice the amount specified on the lot"."""
    pos = dict(tiles={"A1": "gold red 3"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Sprawl("A2", "A1"))  # A2's price is 6
    assert money(game)["red"] == 50 - 12
    game = acting("revised,sprawl.cost_multiplier=3", **pos)
    game.apply(Sprawl("A2", "A1"))
    assert money(game)["red"] == 50 - 18


@pins("sprawl.riser_cost")
def test_sprawl_riser_cost():
    """003 "Action - Sprawl": "pay $15 million per riser needed to make it the same height as your casino"."""
    pos = dict(tiles={"A1": "gold h2 red 3"}, players={"red": {"money": 60}})
    game = acting("revised", **pos)
    game.apply(Sprawl("A2", "A1"))  # 2 x 6 + one riser
    assert money(game)["red"] == 60 - 12 - 15
    game = acting("revised,sprawl.riser_cost=4", **pos)
    game.apply(Sprawl("A2", "A1"))
    assert money(game)["red"] == 60 - 12 - 4


@pins("remodel.cost_per_unit")
def test_remodel_cost_per_unit():
    """003 "Action - Remodel": "Pay $5 million for each space in the casino"."""
    pos = dict(tiles={"A1": "gold red 3", "A2": "gold red 2"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Remodel("A1", "aqua"))
    assert money(game)["red"] == 40 and casino_of(game, "A1").color == "aqua"
    game = acting("revised,remodel.cost_per_unit=7", **pos)
    game.apply(Remodel("A1", "aqua"))
    assert money(game)["red"] == 36


@pins("remodel.counts")
def test_remodel_counts_spaces_or_tiles():
    """003 "Action - Remodel": per space, "regardless of height"; 000 counts the tiles (no risers there, so the
    same; a tall casino shows the difference)."""
    pos = dict(tiles={"A1": "gold h3 red 3"}, players={"red": {"money": 50}})
    game = acting("revised", THREE, **pos)
    game.apply(Remodel("A1", "aqua"))
    assert money(game)["red"] == 45
    game = acting("revised,remodel.counts=physical_tiles", THREE, **pos)
    game.apply(Remodel("A1", "aqua"))
    assert money(game)["red"] == 35


@pins("reorg.cost_per_pip")
def test_reorganize_cost_per_pip():
    """003 "Action - Reorganize": "Pay $1 million for each pip on each die in the casino"."""
    pos = dict(tiles={"A1": "gold red 3", "A2": "gold blue 5"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 1, "A2": 1}})
    assert money(game)["red"] == 42
    game = acting("revised,reorg.cost_per_pip=2", **pos)
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 1, "A2": 1}})
    assert money(game)["red"] == 34


@pins("reorg.tie_rerolls_count")
def test_tie_rerolls_count_as_reorganizing():
    """003 "Action - Reorganize": a casino's dice may be reorganized once a turn, and "This only applies to
    reorganizing. Dice can be rerolled as many times as needed in a turn": a tie reroll does not use it up. With
    ``true`` the dice rerolled for a tie count as reorganized. Red builds A2 (printed die 2) next to blue's 2."""
    pos = dict(markers={"A2": "red"}, tiles={"A1": "gold blue 2"}, players={"red": {"money": 50}})
    ties = {"ties": {"A1": [3], "A2": [5]}}
    game = acting("revised", **pos)
    game.apply(Build("A2", "gold"), dice=ties)
    assert boss_name(game, "A1") == "red" and not game.state.reorganized
    game.apply(Reorganize("A1"), dice={"reorg": {"A1": 1, "A2": 6}})
    counted = acting("revised,reorg.tie_rerolls_count=true", **pos)
    counted.apply(Build("A2", "gold"), dice=ties)
    assert counted.state.reorganized == {"A1", "A2"}
    illegal(counted, Reorganize("A1"), "reorganize: each die once a turn")


# ================================================================================================== raise


@pins("raise.enabled")
def test_raise_enabled():
    """003 "Step 6: Take Actions" lists Raise; 000 has no Raise."""
    pos = dict(tiles={"A1": "gold red 3"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Raise("A1"))
    assert casino_of(game, "A1").height == 2
    illegal(acting("revised,raise.enabled=false", **pos), Raise("A1"))


@pins("raise.cost_per_space")
def test_raise_cost_per_space():
    """003 "Action - Raise": "Pay $15 million for each riser"."""
    pos = dict(tiles={"A1": "gold red 3", "A2": "gold red 2"}, players={"red": {"money": 50}})
    game = acting("revised", **pos)
    game.apply(Raise("A1"))
    assert money(game)["red"] == 20
    game = acting("revised,raise.cost_per_space=4", **pos)
    game.apply(Raise("A1"))
    assert money(game)["red"] == 42


@pins("raise.max_height")
def test_raise_max_height():
    """003 "Action - Raise": "A casino can be no higher ... than the number of players"; a number fixes it."""
    pos = dict(tiles={"A1": "gold h2 red 3"}, players={"red": {"money": 50}})
    illegal(acting("revised", **pos), Raise("A1"))  # 2 players: 2 high at most
    game = acting("revised,raise.max_height=3", **pos)
    game.apply(Raise("A1"))
    assert casino_of(game, "A1").height == 3
    illegal(acting("revised,raise.max_height=2", THREE, **pos), Raise("A1"))


# ================================================================================================= gamble


def gamble_at(spec: str, bet: int, roll: list[int], lay_off: bool = False, red: int = 50, blue: int = 50,
              tiles: dict | None = None) -> lv.Game:
    """Red gambles ``bet`` at blue's casino A1 and rolls ``roll`` (three players, so casinos may be 3 high)."""
    game = acting(spec, THREE, tiles=tiles or {"A1": "gold blue 3", "A2": "gold blue 2"},
                  players={"red": {"money": red}, "blue": {"money": blue}})
    game.apply(Gamble("A1", bet, lay_off), dice={"gamble": roll})
    return game


@pins("gamble.per_turn")
def test_gambles_per_turn():
    """003 "Action - Gamble": "Once on your turn, you may gamble"."""
    game = gamble_at("revised", 5, [3, 4])
    illegal(game, Gamble("A1", 5))
    game = gamble_at("revised,gamble.per_turn=2", 5, [3, 4])
    game.apply(Gamble("A1", 5), dice={"gamble": [3, 4]})
    assert money(game) == {"red": 40, "blue": 60, "green": 0}


@pins("gamble.bet_per_tile")
def test_bet_per_tile():
    """003 "Action - Gamble": "up to $5 million for each tile in that casino" (2 tiles: $10)."""
    gamble_at("revised", 10, [3, 4])
    with pytest.raises(lv.IllegalAction):
        gamble_at("revised", 11, [3, 4])
    assert money(gamble_at("revised,gamble.bet_per_tile=7", 14, [5, 5])) == {"red": 64, "blue": 36, "green": 0}


@pins("gamble.tiles_counted")
def test_bet_limit_counts_tiles_or_spaces():
    """003 "Action - Gamble": "a casino that covers 2 spaces and is 3 high has 6 tiles in it - the betting limit
    in this casino is $30 million"; ``spaces`` would count 2 spaces: $10."""
    tall = {"A1": "gold h3 blue 3", "A2": "gold h3 blue 2"}
    assert money(gamble_at("revised", 30, [2, 3], tiles=tall, red=50, blue=50)) == {"red": 20, "blue": 80, "green": 0}
    with pytest.raises(lv.IllegalAction, match="bet"):
        gamble_at("revised,gamble.tiles_counted=spaces", 11, [2, 3], tiles=tall)
    assert money(gamble_at("revised,gamble.tiles_counted=spaces", 10, [2, 3], tiles=tall)) == {
        "red": 40, "blue": 60, "green": 0}


@pins("gamble.cap_at_boss_money")
def test_bet_capped_at_the_boss_money():
    """003 "Action - Gamble": "Blue only has $15 million, so the most Red can bet is $15 million"; 000 does not
    cap (the boss pays what he has)."""
    with pytest.raises(lv.IllegalAction):
        gamble_at("revised", 10, [2, 3], blue=8)
    game = gamble_at("revised,gamble.cap_at_boss_money=false", 10, [2, 3], blue=8)
    assert money(game) == {"red": 40, "blue": 18, "green": 0}


@pins("gamble.lay_off", "gamble.lay_off_double_basis")
def test_lay_off_and_its_basis():
    """000 "Gamble": the boss may lay off half the bet to the bank, which then pays (or takes) the other half. Red
    bets $11 at a 3-tile casino and rolls 2 (double: $22). Without a lay-off blue pays all $22; laid off, blue pays
    half the payout ($11, ``payout``) or half the stake doubled, rounded down ($10, ``stake``), the bank the rest."""
    three = {"A1": "gold blue 3", "A2": "gold blue 2", "A3": "gold blue 5"}
    base = "revised,gamble.cap_at_boss_money=false"
    with pytest.raises(lv.IllegalAction):
        gamble_at("revised", 11, [1, 1], lay_off=True, tiles=three)
    assert money(gamble_at(base, 11, [1, 1], tiles=three)) == {"red": 72, "blue": 28, "green": 0}
    laid = base + ",gamble.lay_off=boss_option"
    assert money(gamble_at(laid, 11, [1, 1], lay_off=True, tiles=three)) == {"red": 72, "blue": 39, "green": 0}
    stake = laid + ",gamble.lay_off_double_basis=stake"
    assert money(gamble_at(stake, 11, [1, 1], lay_off=True, tiles=three)) == {"red": 72, "blue": 40, "green": 0}
    # a lost bet laid off: the boss takes half the stake, the bank the rest
    assert money(gamble_at(laid, 11, [3, 4], lay_off=True, tiles=three)) == {"red": 39, "blue": 55, "green": 0}


@pins("gamble.win_even", "gamble.win_double", "gamble.lose")
def test_gamble_outcome_tables():
    """003 "Action - Gamble": 3, 4, 9, 10, 11 win even; 2 and 12 win double; 5-8 lose. A what-if table moves 7 to
    the winning rolls and 3 to the losing ones, and 12 to even money."""
    assert money(gamble_at("revised", 10, [3, 4])) == {"red": 40, "blue": 60, "green": 0}
    assert money(gamble_at("revised", 10, [1, 2])) == {"red": 60, "blue": 40, "green": 0}
    assert money(gamble_at("revised", 10, [6, 6])) == {"red": 70, "blue": 30, "green": 0}
    what_if = ("revised,gamble.win_even=[4,7,9,10,11,12],gamble.win_double=[2],gamble.lose=[3,5,6,8]")
    assert money(gamble_at(what_if, 10, [3, 4])) == {"red": 60, "blue": 40, "green": 0}
    assert money(gamble_at(what_if, 10, [1, 2])) == {"red": 40, "blue": 60, "green": 0}
    assert money(gamble_at(what_if, 10, [6, 6])) == {"red": 60, "blue": 40, "green": 0}


# =================================================================================================== ties


@pins("ties.check")
def test_ties_checked_at_once_or_after_the_next_action():
    """003 "Settling Who's the Boss": tied top dice are "immediately rerolled"; 000's literal "after each action"
    (``after_each_action``) leaves a tie made on the draw until the end of the next action. Red draws A2, an
    unowned gold tile (printed die 2) next to blue's 2: red's die ties blue's."""
    pos = dict(tiles={"A1": "gold blue 2", "A2": "gold"}, markers={"B2": "red"}, players={"red": {"money": 20}})
    rolls = {"ties": {"A1": [1], "A2": [6]}}
    now = at("revised", ["red", "blue"], current="red", phase="draw", deck=["A2", "END"], draw_dice=rolls, **pos)
    assert len(of_kind(now.current_turn.draw_events, "tie_rerolled")) == 1 and boss_name(now, "A1") == "red"
    later = at("revised,ties.check=after_each_action", ["red", "blue"], current="red", phase="draw",
               deck=["A2", "END"], **pos)
    assert of_kind(later.current_turn.draw_events, "tie_rerolled") == [] and boss_name(later, "A1") is None
    later.apply(Build("B2", "aqua"), dice=rolls)
    assert len(of_kind(later.current_turn.decisions[-1].events, "tie_rerolled")) == 1
    assert boss_name(later, "A1") == "red"


@pins("ties.stop_when")
def test_tie_rerolls_stop_at_one_owner_or_one_die():
    """000 "Reroll if Tied": reroll until "only 1 die" has the top value; our default for both editions stops when
    one player holds it (003 "Settling Who's the Boss": "only 1 player whose die has the largest value"). Red's
    build of A2 (die 2) ties blue's 2 and red's own 2 at A4; the reroll gives red two sixes: the literal reading
    rerolls those two again."""
    pos = dict(markers={"A2": "red"}, tiles={"A1": "gold blue 2", "A4": "gold red 2"},
               players={"red": {"money": 30}})
    owner = acting("revised", **pos)
    owner.apply(Build("A2", "gold"), dice={"ties": {"A1": [1], "A2": [6], "A4": [6]}})
    assert len(of_kind(owner.current_turn.decisions[-1].events, "tie_rerolled")) == 1
    assert (owner.state.tiles["A2"].value, owner.state.tiles["A4"].value) == (6, 6)
    die = acting("revised,ties.stop_when=single_top_die", **pos)
    die.apply(Build("A2", "gold"), dice={"ties": {"A1": [1], "A2": [6, 3], "A4": [6, 5]}})
    rerolls = of_kind(die.current_turn.decisions[-1].events, "tie_rerolled")
    assert [sorted(e.lots) for e in rerolls] == [["A1", "A2", "A4"], ["A2", "A4"]]
    assert (die.state.tiles["A2"].value, die.state.tiles["A4"].value) == (3, 5) and boss_name(die, "A1") == "red"


# ============================================================================================== resources


@pins("resources.markers_exhausted")
def test_no_marker_left():
    """003 "Available Player Markers": "you must remove one of your markers and place it on the new lot"
    (``move_own_marker``, the cheapest by default); ``no_marker``: the lot stays unmarked."""
    spec = "revised,components.markers_per_player=1"
    moved = draw(spec, "A2", markers={"B4": "red"})
    assert moved.state.markers == {"A2": 0}
    kept = draw(spec + ",resources.markers_exhausted=no_marker", "A2", markers={"B4": "red"})
    assert kept.state.markers == {"B4": 0}


@pins("resources.dice_exhausted")
def test_no_die_left():
    """003 "Available Dice": "you must remove 1 of your dice and place it in the tile"; ``no_die``: the new tile
    has no die (it is nobody's)."""
    pos = dict(markers={"A2": "red"}, tiles={"E6": "gold red 4"}, players={"red": {"money": 50}})
    spec = "revised,components.dice_per_player=1"
    moved = acting(spec, **pos)
    moved.apply(Build("A2", "aqua"))
    assert (moved.state.tiles["A2"].owner, moved.state.tiles["E6"].owner) == (0, None)
    kept = acting(spec + ",resources.dice_exhausted=no_die", **pos)
    kept.apply(Build("A2", "aqua"))
    assert (kept.state.tiles["A2"].owner, kept.state.tiles["E6"].owner) == (None, 0)


# ==================================================================================================== end


@pins("end.card_pays_lots", "end.card_pays_strip")
def test_what_the_end_card_pays():
    """003 "Winning": "Pay parking lots (money is a tiebreaker!), then pay and score casinos that touch The
    Strip" (A3 touches the Strip)."""
    pos = dict(markers={"B2": "blue"}, tiles={"A3": "aqua red 5"})

    def end(spec: str) -> tuple[dict, dict]:
        game = at(spec, ["red", "blue"], current="red", phase="draw", deck=["END"], **pos)
        assert game.result.reason == "end_card"
        return money(game), scores(game)

    assert end("revised") == ({"red": 5, "blue": 1}, {"red": 1, "blue": 0})
    assert end("revised,end.card_pays_lots=false") == ({"red": 5, "blue": 0}, {"red": 1, "blue": 0})
    assert end("revised,end.card_pays_strip=false") == ({"red": 0, "blue": 1}, {"red": 0, "blue": 0})


@pins("end.instant_win_points")
def test_instant_win_points():
    """003 "Winning": a player who "reaches 90+ points" wins; a what-if threshold of 29 (red at 26 scores a
    3-point casino: to 29, a space of the track)."""
    pos = dict(players={"red": {"score": 26}}, tiles={"E6": "gold red 4", "E5": "gold red 3", "E4": "gold red 1"})
    shipped = draw("revised", "D8", **pos)
    assert shipped.over is False and scores(shipped)["red"] == 29
    game = draw("revised,end.instant_win_points=29", "D8", **pos)
    assert game.result.reason == "instant_win" and game.player_names[game.result.winner] == "red"


@pins("end.instant_win_mode")
def test_instant_win_at_once_or_after_scoring():
    """000 "Winning": the first to reach 90 "wins immediately"; 003 "Winning": "Finish scoring points, and then
    the player with the most points wins". Blue's 9-point casino scores first and reaches 90; red's 12-point one
    scores after it and reaches 90 too; red has more money."""
    pos = dict(players={"red": {"score": 81, "money": 10}, "blue": {"score": 81}},
               tiles={"E6": "gold h3 blue 4", "E5": "gold h3 blue 3", "E4": "gold h3 blue 1",
                      "C1": "gold h3 red 1", "C2": "gold h3 red 2", "C4": "gold h3 red 3", "C5": "gold h3 red 4"})
    finish = draw("revised", "D8", THREE, **pos)
    assert scores(finish) == {"red": 90, "blue": 90, "green": 0}
    assert finish.result.reason == "instant_win" and finish.player_names[finish.result.winner] == "red"
    first = draw("revised,end.instant_win_mode=immediate", "D8", THREE, **pos)
    assert scores(first) == {"red": 81, "blue": 90, "green": 0}
    assert first.result.reason == "instant_win" and first.player_names[first.result.winner] == "blue"


# ================================================================================================ f-block


@pins("f_block.closed_when", "f_block.block")
def test_closed_block():
    """003 "2-Player Rules": "In a 2-player game, you can't build on F block"; the block and when it is closed are
    parameters: ``always`` closes it with three players too, ``block=E`` closes E instead of F."""
    pos = dict(markers={"F6": "red"}, players={"red": {"money": 50}})
    with pytest.raises(lv.RecordError, match="closed F block"):
        acting("revised", **pos)
    acting("revised", THREE, **pos).apply(Build("F6", "aqua"))
    with pytest.raises(lv.RecordError, match="closed F block"):
        acting("revised,f_block.closed_when=always", THREE, **pos)
    acting("revised,f_block.block=E", **pos).apply(Build("F6", "aqua"))
    with pytest.raises(lv.RecordError, match="closed E block"):
        acting("revised,f_block.block=E", markers={"E2": "red"})


# ================================================================================================== trade


@pins("trade.failed_step")
def test_a_failed_trade_step_stops_the_rest_or_undoes_all():
    """003 "Trading": "If something stops an element of a trade from occurring ... the subsequent steps of the trade
    do not occur" (``stop_rest``); ``undo_all`` undoes the steps already done."""
    pos = dict(players={"red": {"money": 10}, "blue": {"money": 5}})
    trade = Trade((GiveMoney(0, 1, 4), GiveMoney(1, 0, 50), GiveMoney(0, 1, 1)))
    rest = acting("revised", **pos)
    rest.apply(trade)
    assert money(rest) == {"red": 6, "blue": 9}
    undo = acting("revised,trade.failed_step=undo_all", **pos)
    illegal(undo, trade)
    assert money(undo) == {"red": 10, "blue": 5}


# ================================================================== sell (a house rule's own section: lv/actions/sell.py)


@pins("sell.enabled")
def test_sell_enabled_adds_the_action():
    """House rule (variants/house-sell-back.yaml, in no rulebook): off by default, on where a profile says so."""
    pos = dict(markers={"B3": "red"}, players={"red": {"money": 10}})
    off, on = acting("revised", **pos), acting("revised,sell.enabled=true", **pos)
    assert [lv.format_action(a, ["red", "blue"]) for a in on.legal_actions() if a.kind == "sell"] == ["sell B3"]
    assert not any(a.kind == "sell" for a in off.legal_actions())
    assert illegal(off, lv.parse_action("sell B3", ["red", "blue"])).rule == "sell.enabled"


@pins("sell.refund_percent")
def test_sell_refund_percent_sets_the_price_paid():
    """House rule: the bank pays refund_percent percent of the lot's price, rounded down (B3 costs $9)."""
    paid = {}
    for percent in (50, 30, 100):
        game = acting(f"revised,sell.enabled=true,sell.refund_percent={percent}", markers={"B3": "red"},
                      players={"red": {"money": 10}})
        game.apply(lv.parse_action("sell B3", ["red", "blue"]))
        paid[percent] = money(game)["red"] - 10
    assert paid == {50: 4, 30: 2, 100: 9}


# =============================================================================================== coverage


def test_every_parameter_is_pinned():
    """A parameter that no test here sets to a non-shipped value is a rule that could be hard-wired unnoticed."""
    params = set(lv.load_profile("revised").values())
    assert params == set(lv.load_profile("original").values())
    # and the parameters an action family brings in a section of its own (a house rule: Family.parameters)
    assert params <= set(parameter_names())
    params = set(parameter_names())
    assert sorted(params - set(PINNED)) == []
    assert sorted(set(PINNED) - params) == []


# ====================================================== rules once held only by the agreement of legal and rules


def test_a_remodel_must_change_the_colour():
    """000 / 003 "Action - Remodel": change the casino to another colour; the same colour is no remodel."""
    pos = dict(tiles={"A1": "gold red 3"}, players={"red": {"money": 50}})
    illegal(acting("revised", **pos), Remodel("A1", "gold"))
    assert "remodel A1 gold" not in {lv.format_action(a, ["red", "blue"]) for a in
                                     acting("revised", **pos).legal_actions()}


def test_the_marker_moved_by_default_is_on_the_cheapest_lot():
    """003 "Available Player Markers": out of markers, one of your own is moved; which one is the player's choice,
    by default the cheapest lot (then board order): B4 costs 20, A2 costs 6."""
    game = draw("revised,components.markers_per_player=2", "A1", markers={"B4": "red", "A2": "red"})
    assert game.state.markers == {"B4": 0, "A1": 0}
    moved = of_kind(game.current_turn.draw_events, "marker_moved")
    assert [(e.player, e.lot) for e in moved] == [(0, "A2")]


def test_the_die_moved_by_default_is_the_lowest():
    """003 "Available Dice": out of dice, one of your own is moved, by default the lowest (then board order)."""
    pos = dict(markers={"A2": "red"}, tiles={"E6": "gold red 4", "C1": "silver red 2"},
               players={"red": {"money": 50}})
    game = acting("revised,components.dice_per_player=2", **pos)
    game.apply(Build("A2", "aqua"))
    assert (game.state.tiles["C1"].owner, game.state.tiles["E6"].owner) == (None, 0)
