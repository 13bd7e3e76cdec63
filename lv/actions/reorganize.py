"""Reorganize: reroll the dice of a casino you have a die in. 000 "Action - Reorganize" L165-169; 003
"Action - Reorganize" L592-631: ``reorg.cost_per_pip`` per pip showing, and each die once a turn.

``reorg A2`` (also ``reorganize A2``).

Events: reorganized(player, lots, cost, values): ``values`` the new dice, lot -> value.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import maxsize
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import i64, mypyc_attr

from ..casinos import _COMPILED, has_die, pips
from ..errors import IllegalAction
from ..events import Event, LotsEvent, register
from ..ruleids import Rule
from ._family import DICED, Counted, Decision, Family, Moment, Reason, Words, add_ones, dice_text, refuse
from ._values import FrozenDecision, as_text, new_event, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, DiceFacts
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Reorganize(FrozenDecision):
    """Reroll the dice of the casino at ``lot``: ``reorg A2``."""

    kind: ClassVar[str] = "reorganize"
    _keys: ClassVar[tuple[str, ...]] = ("lot",)
    __slots__ = _keys

    def __init__(self, lot: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot,)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Reorganized(LotsEvent):
    kind: ClassVar[str] = "reorganized"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lots", "cost", "values")
    __slots__ = ("player", "cost", "values")  # and LotsEvent's _lots

    def __init__(self, player: int, lots: Sequence[str], cost: int, values: dict[str, int]) -> None:
        self.player = player
        self._lots = tuple(lots)
        self.cost = cost
        self.values = values


register(Reorganized)


def reorg_cost(engine: Engine, s: GameState, casino: Casino) -> int:
    return engine.family_tables.reorganize.costs.formula(pips(s, casino))  # (the engine's typed field: no lookup by name)


def locked(s: GameState, lots: Sequence[str]) -> bool:
    """Has a die on ``lots`` been reorganized this turn? 003 L624-627: the lock survives merges."""
    return not s.reorganized.isdisjoint(lots)


class ReorganizeTable:
    """Reorganize's table (``prepare``): the cost by pips (``per`` a pip), and the decisions made so far by casino
    (its first lot's bit, ``Casino.first``): each made once, with the table, one for each lot (``order``: the
    board's lots by bit position): compiled, a list read where a dict by lot name costs a hash lookup; none made
    while listing, so none tested for."""

    __slots__ = ("costs", "per", "made")

    def __init__(self, per: int, order: tuple[str, ...]) -> None:
        self.costs = Counted(lambda n: n * per, 6 * len(order) + 1)
        self.per = per
        self.made: list[Reorganize] = [Reorganize(lot) for lot in order]


class ReorganizeFamily(Family):
    """Reorganize's rules: its notation, predicate, generator, dice and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``-$7, new dice A2 3, A3 5`` (after ``reorg A2: ``)."""
        assert isinstance(ev, Reorganized)
        return f"-${ev.cost}, new dice {dice_text(ev.values)}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Reorganized):
            return None
        return f"{names[ev.player]} reorganizes: {self.effect(ev, names)}"

    def parse(self, w: Words) -> Reorganize:
        w.expect(2, "reorg LOT")
        return Reorganize(w.lot(1))

    def format(self, a: Reorganize, names: Sequence[str]) -> str:
        return f"reorg {a.lot}"

    def structured(self, a: Reorganize, names: Sequence[str]) -> dict[str, Any]:
        return {"action": "reorganize", "lot": a.lot}

    def from_record(self, d: dict[str, Any]) -> str:
        return f"reorg {d.get('lot')}"

    def prepare(self, profile: Profile, board: Board) -> ReorganizeTable:
        """The cost of a reorganize by the pips of every die in the casino: ``reorg.cost_per_pip`` each."""
        return ReorganizeTable(profile.reorg.cost_per_pip, board.order)

    def table_dice(self, game: Any, a: Reorganize, faces: list[int]) -> dict[str, int]:
        """A reorganize rerolls every die in the casino, in board order of their lots."""
        casino = game.casino_at(a.lot)
        lots = [lot for lot in casino.lots if game.state.tiles[lot].owner is not None] if casino else []
        if len(faces) < len(lots):
            raise IllegalAction(f"reorganizing rerolls {len(lots)} dice ({', '.join(lots)}, in that order), "
                                f"{len(faces)} given", Rule.DICE)
        return {lot: faces.pop(0) for lot in lots}

    def cost(self, engine: Engine, s: GameState, a: Reorganize) -> int:
        casino = engine.casino_at(s, a.lot)
        if casino is None:
            raise engine.no_casino(a.lot)
        return engine.family_tables.reorganize.costs.at(pips(s, casino))  # ``reorg_cost``, read from its table

    def why_not(self, engine: Engine, s: GameState, player: int, a: Reorganize) -> Reason | None:
        lot = a.lot
        casino = engine.casino_at(s, lot)
        if casino is None:
            return (Rule.REORGANIZE_CASINO, f"{lot} has no casino")
        if not has_die(s, casino, player):
            return (Rule.REORGANIZE_DIE, f"you have no die in the casino at {lot}")
        if locked(s, casino.lots):
            return (Rule.REORGANIZE_ONCE, f"the casino at {lot} has dice that were already reorganized this turn")
        price = reorg_cost(engine, s, casino)
        if s.players[player].money < price:
            return (Rule.REORG_COST_PER_PIP, f"reorganizing costs ${price}, you have ${s.players[player].money}")
        return None

    def least_budget(self, m: Moment) -> int:
        """``generate_casinos`` lists nothing below its table's ``per`` (its first test)."""
        return m.family_tables.reorganize.per

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """``why_not`` in bulk for the casinos the player has a die in: not locked, the pips paid."""
        table: ReorganizeTable = m.family_tables.reorganize  # typed: compiled, native reads and compares
        money, per = m.budget, table.per
        if money < per:  # no casino's dice affordable (the player's die is 1 pip at least)
            return
        pips = money // per if per else maxsize  # the most pips the player can pay for (``reorg_cost``)
        made, reorganized = table.made, m.state.reorganized
        if not _COMPILED and not reorganized:  # (pure: no lot reorganized this turn, most lists: no lock tested a
            #   casino, and the set's truth, not ``len``)
            casinos, slots = m.casinos, m.slots
            for i in rows:
                casino, facts = casinos[i]
                if facts.pips <= pips:
                    slots[i].append(made[casino.first])
            return
        locked_mask = 0  # the lots reorganized this turn, as a mask: an int test a casino, not a set method call
        if len(reorganized):  # (compiled, a native size read; a set's truth is a generic call)
            bit = m.board.bit
            for lot in reorganized:
                locked_mask |= bit[lot]
        casinos, slots = m.casinos, m.slots
        for i in rows:
            casino, facts = casinos[i]
            if facts.pips <= pips and (not locked_mask or not casino.mask & locked_mask):  # not ``locked`` (no
                #   lot reorganized this turn, most lists: no mask read)
                slots[i].append(made[casino.first])

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The reorganization of the casino (its one decision)."""
        table: ReorganizeTable = m.family_tables.reorganize
        return table.made[m.casinos[row][0].first]

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """``generate_casinos`` counted at the casinos of ``mask``: one at each casino of ``ones_in``."""
        return add_ones(counts, self.ones_in(m, mask))

    def ones_in(self, m: Moment, mask: int) -> int:
        """The casinos of ``mask`` the player can reorganize (``one_each``): not ``locked``, the pips paid for."""
        table: ReorganizeTable = m.family_tables.reorganize
        money, per = m.budget, table.per
        if money < per:
            return 0
        pips = money // per if per else maxsize
        reorganized = m.state.reorganized
        locked_mask = 0
        if len(reorganized):
            bit = m.board.bit
            for lot in reorganized:
                locked_mask |= bit[lot]
        casinos = m.casinos
        out: i64 = 0
        bits: i64 = mask  # (machine ints, compiled: a native shift and test a casino)
        one: i64 = 1
        i: i64 = 0
        while bits:  # each set bit
            if bits & 1 and casinos[i][1].pips <= pips and (not locked_mask or not casinos[i][0].mask & locked_mask):
                out |= one  # (the casino read only where a die is locked: most turns none is)
            bits >>= 1
            one <<= 1
            i += 1
        return out

    def apply(self, engine: Engine, s: GameState, player: int, a: Reorganize, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Reorganize, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        # (``casino_at`` and ``pips`` on the one index, the dice facts read where kept: no call, not four; the index
        # current, as ``gamble``'s)
        index = s._casinos
        assert index is not None
        casino = index.at_bit[engine.board.index[a.lot]]
        assert casino is not None
        f = index._facts[casino.first]
        # ``reorg_cost``, its table's ``per`` a pip (no call of the formula)
        price = engine.family_tables.reorganize.per * (index.facts_of(casino) if f is None else f).pips
        by_owner: dict[int, list[str]] = {}  # the lots by owner, in the casino's order
        tiles = s.tiles
        if _COMPILED:  # the owners by bit (no lookup by lot), no ``setdefault`` (a new list for every lot compiled)
            lots, bits, owners = casino.lots, casino.bits, s.die_owners
            for k in range(len(lots)):
                owner = owners[bits[k]]
                if owner is not None:
                    held = by_owner.get(owner)
                    if held is None:
                        by_owner[owner] = [lots[k]]
                    else:
                        held.append(lots[k])
        else:  # (pure: fewer bytecodes)
            for lot in casino.lots:
                owner = tiles[lot].owner
                if owner is not None:
                    by_owner.setdefault(owner, []).append(lot)
        values = dice.reorg(by_owner)
        s.players[player].money -= price
        s.reroll(values)
        s.reorganizing().update(values)  # 003 L624-627: the lock survives merges
        if not engine.mute:  # (a search's imagined games read no event)
            if _COMPILED:
                events.append(Reorganized(player, casino.lots, price, dict(values)))  # positional (see build.py)
            else:  # (pure: without ``__init__``'s frame, see ``new_event``)
                told = new_event(Reorganized)
                told.player, told._lots, told.cost, told.values = player, casino.lots, price, dict(values)
                events.append(told)


FAMILY = ReorganizeFamily(
    name="reorganize", order=40, decisions=(Reorganize,), verbs=("reorg",), aliases=("reorganize", "reorganise"),
    record_kinds=("reorganize", "reorg"), in_trade=True, main_event="reorganized", rolls="reorg", casinos=DICED,
    legal_order=55, one_each=True, profile_keys=("reorg.cost_per_pip", "reorg.tie_rerolls_count"))
