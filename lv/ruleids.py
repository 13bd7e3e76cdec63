"""The rule ids that refusals carry (``IllegalAction.rule``, printed as ``[rule]``): one table.

A rule that a profile parameter decides is named by that parameter, dotted (``sprawl.cost_multiplier``): so a
refusal tells a designer which key to change (tests/test_ruleids.py checks that every dotted id here is a
parameter of the profile). A rule every edition shares is named in words, ``family: what it says``, after the
rulebooks' own wording; turn-order rules carry the section titles that print them (the 2010 rulebook's first,
then the revised one's, as docs/rules.md's O: / R: columns).
"""

from __future__ import annotations

from typing import Final


class Rule:
    """Rule ids as constants. Profile parameters (dotted) first, then the shared rules by family."""

    # ---------------------------------------------------------------- profile parameters
    COMPONENTS_TILES_PER_COLOR: Final = "components.tiles_per_color"
    F_BLOCK_CLOSED_WHEN: Final = "f_block.closed_when"
    SPRAWL_COST_MULTIPLIER: Final = "sprawl.cost_multiplier"
    REMODEL_COUNTS: Final = "remodel.counts"
    REMODEL_COST_PER_UNIT: Final = "remodel.cost_per_unit"
    REORG_COST_PER_PIP: Final = "reorg.cost_per_pip"
    RAISE_ENABLED: Final = "raise.enabled"
    RAISE_MAX_HEIGHT: Final = "raise.max_height"
    RAISE_COST_PER_SPACE: Final = "raise.cost_per_space"
    GAMBLE_PER_TURN: Final = "gamble.per_turn"
    GAMBLE_LAY_OFF: Final = "gamble.lay_off"
    GAMBLE_CAP_AT_BOSS_MONEY: Final = "gamble.cap_at_boss_money"
    GAMBLE_BET_PER_TILE: Final = "gamble.bet_per_tile"
    RESOURCES_MARKERS_EXHAUSTED: Final = "resources.markers_exhausted"
    RESOURCES_DICE_EXHAUSTED: Final = "resources.dice_exhausted"
    TIES_STOP_WHEN: Final = "ties.stop_when"

    # ---------------------------------------------------------------- shared rules, in words
    BOARD: Final = "board"  # an unknown lot or colour
    ACTIONS: Final = "actions"  # not a decision at all
    END: Final = "end"  # the game is over
    BUILD_OWN_LOT: Final = "build: a lot you own"
    BUILD_PRICE: Final = "build: pay the lot price"
    SPRAWL_FROM_CASINO: Final = "sprawl: from a casino"
    SPRAWL_BOSS: Final = "sprawl: you must be the boss"
    SPRAWL_EMPTY: Final = "sprawl: an empty lot"
    SPRAWL_UNOWNED: Final = "sprawl: an unowned lot"
    SPRAWL_ADJACENT: Final = "sprawl: adjacent lot"
    REMODEL_CASINO: Final = "remodel: a casino"
    REMODEL_BOSS: Final = "remodel: you must be the boss"
    REMODEL_NEW_COLOR: Final = "remodel: a new colour"
    REORGANIZE_CASINO: Final = "reorganize: a casino"
    REORGANIZE_DIE: Final = "reorganize: you need a die in the casino"
    REORGANIZE_ONCE: Final = "reorganize: each die once a turn"  # 003 L624-627 (was "reorg.lock")
    RAISE_CASINO: Final = "raise: a casino"
    RAISE_BOSS: Final = "raise: you must be the boss"
    GAMBLE_CASINO: Final = "gamble: a casino"
    GAMBLE_OTHERS: Final = "gamble: another player's casino"
    GAMBLE_OWN_MONEY: Final = "gamble: you can't bet more money than you have"
    TRADE: Final = "trade"
    TRADE_ITEMS: Final = "trade: only what the giver has"  # (was "trade.items")
    TRADE_FORBIDDEN: Final = 'trade: no points, casino tiles or risers (rulebooks: "At Any Time: Trading")'
    TRADE_PROMISE: Final = 'trade: no promises for future turns (rulebooks: "At Any Time: Trading")'
    TRADE_ACTIONS: Final = 'trade: actions of the current player, this turn (rulebooks: "At Any Time: Trading")'
    TRADE_PARTIES: Final = 'trade: any number of players (rulebooks: "At Any Time: Trading")'
    TURN_ORDER: Final = 'turn order (rulebooks: "Game Play"; "Taking Turns")'
    TURN_ORDER_SHORT: Final = "turn order"  # a draw or an end given to the rules instead of the game
    DRAW_FIRST: Final = 'turn order: draw first (rulebooks: "Step 1: Draw"; "Taking Turns")'
    DRAW_TURN: Final = 'turn order: the current player draws (rulebooks: "Game Play"; "Taking Turns")'
    DRAW_ONCE: Final = 'turn order: one draw a turn (rulebooks: "Step 1: Draw", "Ending Step 1"; "Taking Turns")'
    DRAW_NAMED: Final = 'the draw: the card on top (rulebooks: "Step 1: Draw"; "Step 1: Draw a Property Card")'
    TIE_REROLL: Final = ('ties: reroll until settled (rulebooks: "After each Action: Reroll if Tied"; "Settling '
                         'Who\'s the Boss": no trade until the rerolling is done)')
    DICE: Final = "dice"  # dice given at a table that do not fit the decision
    NOTATION: Final = "notation"


def constants(table: type) -> dict[str, str]:
    """The rule ids of a class of constants (``Rule``, a family's ``rules``): constant name -> id. Every rule id,
    the families' too, is ``lv.actions.rule_ids()``: the families import this module, so it cannot read them."""
    return {k: v for k, v in vars(table).items() if k.isupper() and isinstance(v, str)}
