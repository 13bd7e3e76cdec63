"""Raise: a riser under every tile of your casino, where the profile has risers (``raise.enabled``). 003
"Action - Raise" L657-739: ``raise.cost_per_space`` per space, up to ``raise.max_height``.

``raise A2``.

Events: raised(player, lots, height, cost): ``height`` the casino's height after.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import maxsize
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import i64, mypyc_attr

from ..casinos import boss
from ..events import Event, LotsEvent, register
from ..ruleids import Rule
from ._family import BOSSED, Counted, Decision, Family, Moment, Reason, Words, add_ones, casino_text, not_boss, refuse
from ._values import FrozenDecision, as_text, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, DiceFacts
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Raise(FrozenDecision):
    """Put a riser under every tile of the casino at ``lot`` (where the profile has risers): ``raise A2``."""

    kind: ClassVar[str] = "raise"
    _keys: ClassVar[tuple[str, ...]] = ("lot",)
    __slots__ = _keys

    def __init__(self, lot: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Raised(LotsEvent):
    kind: ClassVar[str] = "raised"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lots", "height", "cost")
    __slots__ = ("player", "height", "cost")  # and LotsEvent's _lots

    def __init__(self, player: int, lots: Sequence[str], height: int, cost: int) -> None:
        self.player = player
        self._lots = tuple(lots)
        self.height = height
        self.cost = cost


register(Raised)


def raise_cost(engine: Engine, casino: Casino) -> int:
    return engine.family_tables.raise_.costs.formula(casino.spaces)  # (the engine's typed field: no lookup by name)


def raise_price(engine: Engine, casino: Casino) -> int:
    """``raise_cost``, read from its table (the family's ``cost``; greedy's, of the casino it has at hand)."""
    return engine.family_tables.raise_.costs.at(casino.spaces)


class RaiseTable:
    """Raise's table (``prepare``): the cost by spaces (``per`` a space), and the decisions made so far by casino
    (its first lot's bit, ``Casino.first``): decisions are values listed again and again, each made once, with the
    table, one for each lot (``order``: the board's lots by bit position): compiled, a list read where a dict by
    lot name costs a hash lookup; none made while listing, so none tested for."""

    __slots__ = ("costs", "per", "made")

    def __init__(self, per: int, order: tuple[str, ...]) -> None:
        lots = len(order)
        self.costs = Counted(lambda spaces: per * spaces, lots + 1)
        self.per = per
        self.made: list[Raise] = [Raise(lot) for lot in order]


class RaiseFamily(Family):
    """Raise's rules: its notation, predicate, generator and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``-$20, A2+A3 now 2 high`` (after ``raise A2: ``)."""
        assert isinstance(ev, Raised)
        return f"-${ev.cost}, {casino_text(ev.lots)} now {ev.height} high"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Raised):
            return None
        return f"{names[ev.player]} raises: {self.effect(ev, names)}"

    def parse(self, w: Words) -> Raise:
        w.expect(2, "raise LOT")
        return Raise(w.lot(1))

    def format(self, a: Raise, names: Sequence[str]) -> str:
        return f"raise {a.lot}"

    def structured(self, a: Raise, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "raise", "lot": a.lot}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"raise {d.get('lot')}"

    def prepare(self, profile: Profile, board: Board) -> RaiseTable:
        """The cost of a raise by spaces of the casino: a riser's price (``raise.cost_per_space``) for each."""
        return RaiseTable(profile.raise_.cost_per_space, board.order)

    def cost(self, engine: Engine, s: GameState, a: Raise) -> int:
        casino = engine.casino_at(s, a.lot)
        if casino is None:
            raise engine.no_casino(a.lot)
        return raise_price(engine, casino)

    def active(self, profile: Profile) -> bool:
        return profile.raise_.enabled

    def why_not(self, engine: Engine, s: GameState, player: int, a: Raise) -> Reason | None:
        lot = a.lot
        p = engine.profile
        if not p.raise_.enabled:
            return (Rule.RAISE_ENABLED, "this profile has no Raise action")
        casino = engine.casino_at(s, lot)
        if casino is None:
            return (Rule.RAISE_CASINO, f"{lot} has no casino")
        b = boss(s, casino)
        if b != player:
            return (Rule.RAISE_BOSS, not_boss(s, b, lot))
        if casino.height >= engine.max_height(s):
            return (Rule.RAISE_MAX_HEIGHT, f"the casino at {lot} is {casino.height} high, the most with "
                                           f"{len(s.players)} players")
        price = raise_cost(engine, casino)
        if s.players[player].money < price:
            return (Rule.RAISE_COST_PER_SPACE, f"raising costs ${price}, you have ${s.players[player].money}")
        return None

    def least_budget(self, m: Moment) -> int:
        """``generate_casinos`` lists nothing below its table's ``per`` (its first test)."""
        return m.family_tables.raise_.per

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """``why_not`` in bulk for the casinos the player bosses (the family is left out where risers are off)."""
        table: RaiseTable = m.family_tables.raise_  # typed: compiled, native reads and compares
        money, per = m.budget, table.per
        if money < per:  # most lists: not even a 1-space raise affordable, no casino looked at
            return
        spaces = money // per if per else maxsize  # the most spaces the player can pay for (``raise_cost``)
        made, top = table.made, m.max_height
        casinos, slots = m.casinos, m.slots
        for i in rows:
            casino = casinos[i][0]
            if casino.height < top and casino.spaces <= spaces:
                slots[i].append(made[casino.first])

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The raise of the casino (its one decision)."""
        table: RaiseTable = m.family_tables.raise_
        return table.made[m.casinos[row][0].first]

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """``generate_casinos`` counted at the casinos of ``mask``: one at each casino of ``ones_in``."""
        return add_ones(counts, self.ones_in(m, mask))

    def ones_in(self, m: Moment, mask: int) -> int:
        """The casinos of ``mask`` the player can raise (``one_each``)."""
        table: RaiseTable = m.family_tables.raise_
        money, per = m.budget, table.per
        if money < per:
            return 0
        spaces = money // per if per else maxsize
        top = m.max_height
        casinos = m.casinos
        out: i64 = 0
        bits: i64 = mask  # (machine ints, compiled: a native shift and test a casino)
        bit: i64 = 1
        i: i64 = 0
        while bits:  # each set bit
            if bits & 1:
                casino = casinos[i][0]
                if casino.height < top and casino.spaces <= spaces:
                    out |= bit
            bits >>= 1
            bit <<= 1
            i += 1
        return out

    def apply(self, engine: Engine, s: GameState, player: int, a: Raise, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Raise, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        # (``casino_at``, without its call: the index current, as ``gamble``'s)
        index = s._casinos
        assert index is not None
        casino = index.at_bit[engine.board.index[a.lot]]
        assert casino is not None
        price = engine.family_tables.raise_.per * casino.spaces  # ``raise_cost``: its table's ``per`` a space (no call)
        s.players[player].money -= price
        s.raise_tiles(casino.lots, casino.bits)
        events.append(Raised(player, casino.lots, casino.height + 1, price))  # positional (see build.py)


FAMILY = RaiseFamily(
    name="raise", order=50, decisions=(Raise,), verbs=("raise",), record_kinds=("raise",), in_trade=True,
    main_event="raised", casinos=BOSSED, one_each=True,
    profile_keys=("raise.enabled", "raise.cost_per_space", "raise.max_height"))
