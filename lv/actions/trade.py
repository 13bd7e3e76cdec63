"""Trades: steps carried out in order, transfers between any players and the current player's actions. 000 "At
Any Time: Trading" L216-226; 003 "Trading" L803-836. Made at any time, by any players (``anytime``); not listed
among the legal decisions, since any exchange may be proposed.

    trade money 7 from green to black; lot D2 from black to green; die B4 from blue to black; remodel B1 aqua
    trade money 5 from green to black; lot D2 from black to green by green, black

A step may be any action of the current player (``as black build A2 gold`` names who takes it). Steps the
rulebooks forbid parse (``points 5 from red to blue``, ``tile A2 ...``, ``riser A2 ...``, ``promise from red to
blue sprawl next turn``) so that the rules refuse them with the rule, not the notation with a syntax error.

Events: money_given(giver, receiver, amount), lot_given(lot, giver, receiver, moved_from), die_given(lot, giver,
receiver, value, moved_from), trade_step_failed(step, reason, rule); an action step's own events come from its
family.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, cast

from mypy_extensions import mypyc_attr

from ..errors import IllegalAction
from ..events import Event, register
from ..ruleids import Rule
from ._family import Decision, Family, Reason, Words, refuse
from ._table import FAMILY_OF, FAMILY_OF_VERB, format_decision, parse_words, structured_decision
from ._values import FrozenDecision, as_decisions, as_text, as_whole, as_wholes, set_once

if TYPE_CHECKING:
    from ..chance import Dice
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class _Amount(FrozenDecision):
    """A step of a trade that gives ``amount`` from seat ``giver`` to seat ``receiver``: money, points."""

    _keys: ClassVar[tuple[str, ...]] = ("giver", "receiver", "amount")
    __slots__ = _keys

    def __init__(self, giver: Any, receiver: Any, amount: Any) -> None:
        self.giver: Final[int] = as_whole(self, "giver", giver)
        self.receiver: Final[int] = as_whole(self, "receiver", receiver)
        self.amount: Final[int] = as_whole(self, "amount", amount)

    def _values(self) -> tuple[Any, ...]:
        return (self.giver, self.receiver, self.amount)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class _Piece(FrozenDecision):
    """A step of a trade that gives a piece at ``lot`` from seat ``giver`` to seat ``receiver``: a marker, a die, a
    tile, a riser."""

    _keys: ClassVar[tuple[str, ...]] = ("lot", "giver", "receiver")
    __slots__ = _keys

    def __init__(self, lot: Any, giver: Any, receiver: Any) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)
        self.giver: Final[int] = as_whole(self, "giver", giver)
        self.receiver: Final[int] = as_whole(self, "receiver", receiver)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot, self.giver, self.receiver)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class GiveMoney(_Amount):
    """A step of a trade: ``amount`` of money from seat ``giver`` to seat ``receiver``."""

    kind: ClassVar[str] = "money"
    __slots__ = ()


@mypyc_attr(acyclic=True)
class GiveLot(_Piece):
    """A step of a trade: the marker on ``lot`` (a parking lot) from seat ``giver`` to seat ``receiver``."""

    kind: ClassVar[str] = "lot"
    __slots__ = ()


@mypyc_attr(acyclic=True)
class GiveDie(_Piece):
    """A step of a trade: the die on the tile at ``lot`` from seat ``giver`` to seat ``receiver``."""

    kind: ClassVar[str] = "die"
    __slots__ = ()


# Elements a trade may name but the rulebooks forbid (000 "At Any Time: Trading" L226; 003 "Trading" L827-832).
# They parse, so that the rules refuse them with the rule, not the notation with a syntax error.


@mypyc_attr(acyclic=True)
class GivePoints(_Amount):
    kind: ClassVar[str] = "points"
    __slots__ = ()


@mypyc_attr(acyclic=True)
class GiveTile(_Piece):
    kind: ClassVar[str] = "tile"
    __slots__ = ()


@mypyc_attr(acyclic=True)
class GiveRiser(_Piece):
    kind: ClassVar[str] = "riser"
    __slots__ = ()


@mypyc_attr(acyclic=True)
class Promise(FrozenDecision):
    """A promise of a future action or transfer: ``text`` is what was promised, as written."""

    kind: ClassVar[str] = "promise"
    _keys: ClassVar[tuple[str, ...]] = ("giver", "receiver", "text")
    __slots__ = _keys

    def __init__(self, giver: Any, receiver: Any, text: Any) -> None:
        self.giver: Final[int] = as_whole(self, "giver", giver)
        self.receiver: Final[int] = as_whole(self, "receiver", receiver)
        self.text: Final[str] = as_text(self, "text", text)

    def _values(self) -> tuple[Any, ...]:
        return (self.giver, self.receiver, self.text)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class ActAs(FrozenDecision):
    """An action step that names who takes it (``as black build A2 gold``): legal only for the current player."""

    kind: ClassVar[str] = "as"
    _keys: ClassVar[tuple[str, ...]] = ("player", "action")
    __slots__ = _keys

    def __init__(self, player: Any, action: Any) -> None:
        self.player: Final[int] = as_whole(self, "player", player)
        self.action: Final[Any] = action

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.action)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Trade(FrozenDecision):
    """Steps carried out in order: transfers between any players, and the current player's actions.

    ``by``: the players to the trade, the proposer first (``trade ... by green, black``); empty when the record
    does not say (then the current player proposes, and the parties are the players the steps name)."""

    kind: ClassVar[str] = "trade"
    _keys: ClassVar[tuple[str, ...]] = ("steps", "by")
    __slots__ = _keys

    def __init__(self, steps: Any, by: Any = ()) -> None:
        self.steps: Final[tuple[Any, ...]] = as_decisions(self, "steps", steps)
        self.by: Final[tuple[int, ...]] = as_wholes(self, "by", by)

    def _values(self) -> tuple[Any, ...]:
        return (self.steps, self.by)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class MoneyGiven(Event):
    kind: ClassVar[str] = "money_given"
    _keys: ClassVar[tuple[str, ...]] = ("giver", "receiver", "amount")
    __slots__ = _keys

    def __init__(self, giver: int, receiver: int, amount: int) -> None:
        self.giver = giver
        self.receiver = receiver
        self.amount = amount


register(MoneyGiven)


@mypyc_attr(acyclic=True)
class LotGiven(Event):
    kind: ClassVar[str] = "lot_given"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "giver", "receiver", "moved_from")
    __slots__ = _keys

    def __init__(self, lot: str, giver: int, receiver: int, moved_from: str | None) -> None:
        self.lot = lot
        self.giver = giver
        self.receiver = receiver
        self.moved_from = moved_from


register(LotGiven)


@mypyc_attr(acyclic=True)
class DieGiven(Event):
    kind: ClassVar[str] = "die_given"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "giver", "receiver", "value", "moved_from")
    __slots__ = _keys

    def __init__(self, lot: str, giver: int, receiver: int, value: int, moved_from: str | None) -> None:
        self.lot = lot
        self.giver = giver
        self.receiver = receiver
        self.value = value
        self.moved_from = moved_from


register(DieGiven)


@mypyc_attr(acyclic=True)
class TradeStepFailed(Event):
    kind: ClassVar[str] = "trade_step_failed"
    _keys: ClassVar[tuple[str, ...]] = ("step", "reason", "rule")
    __slots__ = _keys

    def __init__(self, step: int, reason: str, rule: str) -> None:
        self.step = step  # 1-based
        self.reason = reason
        self.rule = rule


register(TradeStepFailed)


TRANSFERS = (GiveMoney, GiveLot, GiveDie)
FORBIDDEN = (GivePoints, GiveTile, GiveRiser, Promise)
_GIVE: dict[str, type] = {"money": GiveMoney, "points": GivePoints, "lot": GiveLot, "die": GiveDie,
                          "tile": GiveTile, "riser": GiveRiser}


# ------------------------------------------------------------------------------ notation

def _split_by(body: str, names: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """``STEPS by green, black`` -> (STEPS, (green, black)); the tail counts only when it is all player names."""
    at = body.lower().rfind(" by ")
    if at < 0:
        return body, ()
    tail = [w.strip() for w in body[at + 4:].split(",")]
    lower = [n.lower() for n in names]
    if not tail or not all(w.lower() in lower for w in tail):
        return body, ()
    return body[:at], tuple(lower.index(w.lower()) for w in tail)


def parse_step(w: Words) -> Any:
    """One step of a trade: a transfer, a forbidden element, ``as PLAYER ACTION``, or an action."""
    words = w.words
    verb = words[0].lower()
    if verb in _GIVE:
        what = "AMOUNT" if verb in ("money", "points") else "LOT"
        w.expect(6, f"{verb} {what} from PLAYER to PLAYER")
        if words[2].lower() != "from" or words[4].lower() != "to":
            raise w.fail(f"expected '{verb} ... from PLAYER to PLAYER'")
        giver, receiver = w.player(3), w.player(5)
        if verb in ("money", "points"):
            return _GIVE[verb](giver, receiver, w.amount(1))
        return _GIVE[verb](w.lot(1), giver, receiver)
    if verb == "promise":
        if len(words) < 6 or words[1].lower() != "from" or words[3].lower() != "to":
            raise w.fail("expected 'promise from PLAYER to PLAYER WHAT'")
        return Promise(w.player(2), w.player(4), " ".join(words[5:]))
    if verb == "as":
        if len(words) < 3:
            raise w.fail("expected 'as PLAYER ACTION', e.g. 'as red build A2 gold'")
        return ActAs(w.player(1), parse_step(w.sub(" ".join(words[2:]))))
    family = FAMILY_OF_VERB.get(verb)
    if family is not None and not family.in_trade:
        raise w.fail(f"'{verb}' cannot be a step of a trade")
    return parse_words(w)


# ------------------------------------------------------------------------------ the rules

def transfer(engine: Engine, s: GameState, step: Any, events: list[Event], choices: dict[str, str]) -> None:
    """Carry out one transfer between players."""
    n = len(s.players)
    for who in (step.giver, step.receiver):  # whole numbers: checked when the step was made
        if not 0 <= who < n:
            raise IllegalAction(f"no such player: {who!r}", Rule.TRADE)
    if step.giver == step.receiver:
        raise IllegalAction("a player cannot trade with themselves", Rule.TRADE)
    giver, receiver = s.players[step.giver], s.players[step.receiver]
    if isinstance(step, GiveMoney):
        if step.amount < 1:
            raise IllegalAction(f"give a whole number of dollars, at least $1, not {step.amount!r}",
                                Rule.TRADE_ITEMS)
        if giver.money < step.amount:
            raise IllegalAction(f"{giver.name} has ${giver.money}, not ${step.amount}", Rule.TRADE_ITEMS)
        giver.money -= step.amount
        receiver.money += step.amount
        events.append(MoneyGiven(giver=step.giver, receiver=step.receiver, amount=step.amount))
    elif isinstance(step, GiveLot):
        engine.lot_check(step.lot)
        if s.markers.get(step.lot) != step.giver:
            raise IllegalAction(f"{giver.name} has no marker on {step.lot}", Rule.TRADE_ITEMS)
        s.remove_marker(step.lot)
        ok, moved = engine.free_marker(s, step.receiver, events, choices.get("marker_from"))
        if not ok:
            s.put_marker(step.lot, step.giver)
            raise IllegalAction(f"{receiver.name} has no marker left", Rule.RESOURCES_MARKERS_EXHAUSTED)
        s.put_marker(step.lot, step.receiver)
        events.append(LotGiven(lot=step.lot, giver=step.giver, receiver=step.receiver, moved_from=moved))
    elif isinstance(step, GiveDie):
        engine.lot_check(step.lot)
        tile = s.tiles.get(step.lot)
        if tile is None or tile.owner != step.giver:
            raise IllegalAction(f"{giver.name} has no die on {step.lot}", Rule.TRADE_ITEMS)
        ok, moved = engine.free_die(s, step.receiver, step.lot, events, choices.get("die_from"))
        if not ok:
            raise IllegalAction(f"{receiver.name} has no die left", Rule.RESOURCES_DICE_EXHAUSTED)
        s.set_die(step.lot, step.receiver, tile.value)  # 000 L224 / 003: "The new die has the same value as the die it is replacing"
        events.append(DieGiven(lot=step.lot, giver=step.giver, receiver=step.receiver,
                               value=cast(int, tile.value), moved_from=moved))  # the giver's die: it has a face
    else:
        raise IllegalAction(f"not a trade step: {step!r}", Rule.TRADE)


class TradeFamily(Family):
    """Trade's rules: the notation of a trade and its steps, its predicate and its application."""

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        """A trade's events as sentences (a trade has no main event: its notation line is followed by them all)."""
        if isinstance(ev, MoneyGiven):
            return f"{names[ev.giver]} gives {names[ev.receiver]} ${ev.amount}"
        if isinstance(ev, LotGiven):
            return f"{names[ev.giver]}'s lot {ev.lot} goes to {names[ev.receiver]}"
        if isinstance(ev, DieGiven):
            return f"{names[ev.giver]}'s die on {ev.lot} ({ev.value}) goes to {names[ev.receiver]}"
        if isinstance(ev, TradeStepFailed):
            return f"trade step {ev.step} fails: {ev.reason} [{ev.rule}]; the later steps do not happen"
        return None

    def parse(self, w: Words) -> Trade:
        text = w.text
        body = text[len(w.words[0]):].strip()
        if not body:
            raise w.fail("a trade needs steps, e.g. 'trade money 5 from red to blue; lot A2 from blue to red'")
        body, by = _split_by(body, w.names)
        steps = tuple(parse_step(w.sub(part.strip())) for part in body.split(";") if part.strip())
        return Trade(steps, by)

    def format(self, a: Any, names: Sequence[str]) -> str:
        """A trade, or one of its steps."""
        if isinstance(a, (GiveMoney, GivePoints)):
            return f"{a.kind} {a.amount} from {names[a.giver]} to {names[a.receiver]}"
        if isinstance(a, (GiveLot, GiveDie, GiveTile, GiveRiser)):
            return f"{a.kind} {a.lot} from {names[a.giver]} to {names[a.receiver]}"
        if isinstance(a, Promise):
            return f"promise from {names[a.giver]} to {names[a.receiver]} {a.text}"
        if isinstance(a, ActAs):
            return f"as {names[a.player]} {format_decision(a.action, names)}"
        by = f" by {', '.join(names[i] for i in a.by)}" if a.by else ""
        return "trade " + "; ".join(format_decision(s, names) for s in a.steps) + by

    def structured(self, a: Any, names: Sequence[str]) -> dict[str, Any]:
        """The structured record form of a trade, or of one of its steps."""
        if isinstance(a, ActAs):
            return {"as": names[a.player], **structured_decision(a.action, names)}
        if isinstance(a, GiveMoney):
            return {"money": a.amount, "from": names[a.giver], "to": names[a.receiver]}
        if isinstance(a, GiveLot):
            return {"lot": a.lot, "from": names[a.giver], "to": names[a.receiver]}
        if isinstance(a, GiveDie):
            return {"die": a.lot, "from": names[a.giver], "to": names[a.receiver]}
        if isinstance(a, FORBIDDEN):  # never in a record the engine writes: the rules refuse them
            return {"do": self.format(a, names)}
        out: dict[str, Any] = {"action": "trade", "steps": [structured_decision(s, names) for s in a.steps]}
        if a.by:
            out["by"] = [names[i] for i in a.by]
        return out

    def why_not(self, engine: Engine, s: GameState, player: int, trade: Trade) -> Reason | None:
        """What a trade may hold and who may make it, before any step is carried out (a forbidden element makes
        the whole trade illegal; it is not a step that fails). 000 "At Any Time: Trading" L216-226; 003
        "Trading" L803-836."""
        n = len(s.players)
        names = [p.name for p in s.players]
        by = trade.by
        if by:
            if not all(isinstance(i, int) and 0 <= i < n for i in by):
                return (Rule.TRADE, f"no such player among {by!r}")
            if len(set(by)) != len(by):
                return (Rule.TRADE, "a player is named twice among the parties")
            if len(by) < 2:  # 003 L808-809: any number of players may be involved in a trade
                return (Rule.TRADE_PARTIES, "a trade is between two or more players")
        named: set[Any] = set()  # seats as given (a step naming no seat of the game is refused when it is carried out)
        for i, step in enumerate(trade.steps, start=1):
            if isinstance(step, GivePoints):
                return (Rule.TRADE_FORBIDDEN, f"step {i}: points cannot be traded")
            if isinstance(step, GiveTile):
                return (Rule.TRADE_FORBIDDEN, f"step {i}: casino tiles cannot be traded")
            if isinstance(step, GiveRiser):
                return (Rule.TRADE_FORBIDDEN, f"step {i}: risers cannot be traded")
            if isinstance(step, Promise):
                return (Rule.TRADE_PROMISE, f"step {i}: a promise of an action or a transfer on a future turn cannot "
                                            "be traded")
            if isinstance(step, ActAs):
                if step.player != s.current:
                    who = names[step.player] if isinstance(step.player, int) and 0 <= step.player < n else step.player
                    return (Rule.TRADE_ACTIONS, f"step {i}: {who} cannot take an action on "
                                                f"{names[s.current]}'s turn")
                step = step.action
            family = FAMILY_OF.get(type(step))
            if family is not None and family.in_trade:
                if s.phase != "actions":  # an action "you perform this turn": in the action step only
                    return (Rule.TRADE_ACTIONS, f"step {i}: {names[s.current]} has not drawn yet, so cannot trade an "
                                                "action now")
                named.add(s.current)
            elif isinstance(step, TRANSFERS):
                named.update((step.giver, step.receiver))
        if by and not named <= set(by):
            outside = sorted(i for i in named - set(by) if isinstance(i, int) and 0 <= i < n)
            if outside:
                return (Rule.TRADE_PARTIES, f"{', '.join(names[i] for i in outside)} "
                                            f"{'is' if len(outside) == 1 else 'are'} not a party to the trade "
                                            f"(by {', '.join(names[i] for i in by)})")
        return None

    def apply(self, engine: Engine, s: GameState, player: int, trade: Trade, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        """Steps in the agreed order; a step that fails stops the rest (``trade.failed_step: stop_rest``) or undoes
        the whole trade (``undo_all``)."""

        if not trade.steps:
            raise IllegalAction("a trade needs at least one step", Rule.TRADE)
        refuse(self.why_not(engine, s, player, trade))
        saved = s.copy()
        done: list[Event] = []
        immediate = engine.profile.ties.check == "immediate"
        for i, step in enumerate(trade.steps):
            before = engine.snapshot(s)
            step_saved = saved if i == 0 else s.copy()  # a step that fails half-way must leave no trace
            step_events: list[Event] = []
            try:
                action = step.action if isinstance(step, ActAs) else step
                family = FAMILY_OF.get(type(action))
                if isinstance(step, TRANSFERS):
                    transfer(engine, s, step, step_events, choices)
                    if immediate:
                        engine.resolve_ties(s, dice, step_events)
                elif isinstance(step, ActAs) or (family is not None and family.in_trade):
                    engine.act(s, s.current, action, dice, step_events, choices)
                    engine.resolve_ties(s, dice, step_events)
                else:
                    raise IllegalAction(f"not a trade step: {step!r}", Rule.TRADE)
            except IllegalAction as err:
                if i == 0 or engine.profile.trade.failed_step == "undo_all":
                    s.restore(saved)
                    raise IllegalAction(f"trade step {i + 1} fails: {err.reason}", err.rule) from None
                s.restore(step_saved)
                done.append(TradeStepFailed(step=i + 1, reason=err.reason, rule=err.rule))
                break
            engine.consequences(s, before, step_events)
            done.extend(step_events)
        events.extend(done)


FAMILY = TradeFamily(
    name="trade", order=70, verbs=("trade",), listed=False, anytime=True, profile_keys=("trade.failed_step",),
    decisions=(Trade, GiveMoney, GiveLot, GiveDie, GivePoints, GiveTile, GiveRiser, Promise, ActAs))
