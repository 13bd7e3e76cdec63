"""Sell: a house rule, in no rulebook. The current player sells one of their parking lots (a lot with their
marker and no tile) back to the bank, which pays ``sell.refund_percent`` percent of the lot's price, rounded
down; the marker goes back to the player's supply and the lot is unowned again (a later card for it places a
marker as on any unowned lot).

``sell A2``. Off unless a profile turns it on (``sell.enabled``): variants/house-sell-back.yaml does.

This module is the whole action: its profile section (``Params``), decision, notation, record form, rule ids,
predicate, generator, application, event and wording. docs/house-rules.md walks through it.

Rounding: the refund is ``price * refund_percent // 100``, rounded down (a $5 lot at 50% pays $2): the bank keeps
the fraction, as a bank does, and the amount stays a whole number of millions like every sum in the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs
from attrs.validators import instance_of

from ..bounds import Whole
from ..events import Event, register
from ._family import Decision, Family, Moment, Reason, Words, refuse

if TYPE_CHECKING:
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@attrs.frozen
class Params:
    """The ``sell:`` section of a profile (every key has a default: a profile that names none has no Sell)."""

    enabled: bool = attrs.field(default=False, validator=instance_of(bool))
    refund_percent: int = attrs.field(default=50, validator=Whole(0, 100))


class SellRule:
    """The rule ids of its refusals (``lv.actions.rule_ids()`` lists them as ``SELL.ENABLED``, ...)."""

    ENABLED: Final = "sell.enabled"
    PARKING_LOT: Final = "sell: a parking lot, with no tile"
    OWN_LOT: Final = "sell: a lot you own"


@attrs.frozen
class Sell:
    """Sell the parking lot ``lot`` (the player's marker, no tile) back to the bank: ``sell A2``."""

    lot: str
    kind = "sell"


@register
@attrs.define(slots=True, weakref_slot=False)
class Sold(Event):
    """``player`` sold ``lot`` to the bank for ``amount``."""

    kind: ClassVar[str] = "sold"
    lot: str
    player: int
    amount: int


def params(profile: Profile) -> Params:
    found: Params = profile.extension("sell")
    return found


def refund(profile: Profile, price: int) -> int:
    """What the bank pays for a lot of ``price``: ``sell.refund_percent`` percent, rounded down."""
    return price * params(profile).refund_percent // 100


class SellFamily(Family):
    """The house rule's action: its notation, predicate, generator and application, in Python."""

    def parse(self, w: Words) -> Sell:
        w.expect(2, "sell LOT")
        return Sell(w.lot(1))

    def format(self, a: Sell, names: Sequence[str]) -> str:
        return f"sell {a.lot}"

    def structured(self, a: Sell, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "sell", "lot": a.lot}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"sell {d.get('lot')}"

    def active(self, profile: Profile) -> bool:
        return params(profile).enabled

    def cost(self, engine: Engine, s: GameState, a: Sell) -> int:
        """A sale costs nothing: the player is paid (a negative cost)."""
        return -refund(engine.profile, engine.board.lots[a.lot].price)

    def why_not(self, engine: Engine, s: GameState, player: int, a: Sell) -> Reason | None:
        lot = a.lot
        if not params(engine.profile).enabled:
            return (SellRule.ENABLED, "this profile has no Sell action (a house rule: sell.enabled)")
        if lot in s.tiles:
            return (SellRule.PARKING_LOT, f"{lot} has a casino tile: only a parking lot can be sold")
        owner = s.markers.get(lot)
        if owner != player:
            whose = "nobody's" if owner is None else f"{s.players[owner].name}'s"
            return (SellRule.OWN_LOT, f"{lot} is {whose} lot, not yours")
        return None

    def generate_before(self, m: Moment, out: list[Decision]) -> None:
        """``why_not`` in bulk: each lot the player has a marker on (a marker is only ever on a lot with no tile),
        in board order."""
        player, index = m.player, m.board.index
        mine = [lot for lot, owner in m.markers.items() if owner == player]
        mine.sort(key=index.__getitem__)
        out.extend(Sell(lot) for lot in mine)

    def apply(self, engine: Engine, s: GameState, player: int, a: Sell, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        refuse(self.why_not(engine, s, player, a))
        amount = refund(engine.profile, engine.board.lots[a.lot].price)
        s.players[player].money += amount
        s.remove_marker(a.lot)
        events.append(Sold(lot=a.lot, player=player, amount=amount))

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        assert isinstance(ev, Sold)
        return f"+${ev.amount} from the bank, the marker back to {names[ev.player]}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Sold):
            return None
        return f"{names[ev.player]} sells {ev.lot} back to the bank: +${ev.amount}"


FAMILY = SellFamily(
    name="sell", order=15, decisions=(Sell,), verbs=("sell",), record_kinds=("sell",), main_event="sold",
    profile_keys=("sell.enabled", "sell.refund_percent"), parameters=Params, rules=SellRule, generates_before=True)
