"""Events: the single record of what happened. Narrative, JSON, replay, diff and metrics read these.

An event is one small class per kind (``Paid``, ``Built``, ...) holding plain data (player indices, lots,
amounts), so it serialises to the same JSON bytes every time. Read it by attribute (``ev.player``) and tell the
kinds apart with ``isinstance`` (or the class's ``kind``, the string the JSON and the records use). The core's
kinds, defined here, and their fields, in the order ``to_dict()`` gives them:

setup:        dealt(player, lots, money), card_skipped(player, card, why), end_card_placed(under),
              first_player(player, rolls)
draw step:    turn_started(turn, player), card_drawn(player, card, pays, [f_block]),
              marker_placed(player, lot, moved_from), die_taken_over(player, lot, value, previous, moved_from),
              paid(player, amount, why, lots), scored(player, lots, award, before, after)
consequences: tie_rerolled(lots, values), merged(lots, color, height), boss_changed(lots, previous, boss),
              marker_moved(player, lot), die_moved(player, lot)
end:          turn_ended(player), game_ended(reason, winner, ranking, scores, money, [instant_win])

``[f_block]`` and ``[instant_win]`` are flags: ``to_dict()`` leaves them out when they are False.

``lots``. An event's ``lots`` (``dealt``, ``paid``, ``scored``, ``tie_rerolled``, ``merged``, ``boss_changed``, and the
families' ``raised``, ``remodeled``, ``reorganized``) reads as a list of lot ids, a new one at each read (change it
freely: the event does not change), so ``ev.lots == ["A1", "A2"]``, ``to_dict()``, the JSON, ``repr`` and ``==`` are
what they were. The event keeps them as a tuple (``LotsEvent``): the engine hands it the casino's own tuple
(``Casino.lots``), so a decision makes no list of lots, and a finished game keeps none for the cyclic collector to walk
(a tuple of strings is untracked by it, a list is not). The constructors take any sequence of lot ids.

The actions' own events (``built``, ``gambled``, a trade's ``money_given``, ...) are defined, documented and worded
in their family modules (``lv/actions/``, each listing its kinds after ``Events:`` in its docstring), as classes
like those below, each followed by ``register(Cls)``: ``EVENTS``, ``event(kind, ...)`` and the JSON know them once
``lv.actions`` is imported, as the engine does. This module imports nothing of lv.

The classes are plain classes (native ones where the core is compiled: the engine makes hundreds a game, and a
compiled module makes a native event with a C call where an attrs class's ``__init__`` is Python), written the same
way each: ``kind``, ``_keys`` (the fields in order, which ``items()``, ``==`` and ``repr`` read), ``_flags`` if any,
``__slots__ = _keys`` (an event with ``lots``: the other fields; ``LotsEvent`` keeps ``_lots``) and an ``__init__``
taking the fields in that order, with ``@mypyc_attr(acyclic=True)`` above (see ``Event``). Nothing changes an event
once it is made, and a reader must not either: an event is a value, which the engine may hand out again (the pure
build gives a seat the same ``paid`` event for its markers at every draw while they are unchanged), so compare events
with ``==``, never by identity. A house rule's module (Python in both builds) may instead write an attrs class (``@register`` above
``@attrs.define(slots=True, weakref_slot=False)``, a subclass of ``Event`` with a ``kind``), as lv/actions/sell.py
does: ``register`` reads its fields from attrs, and attrs gives it ``==`` and ``repr``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr


# acyclic: events hold plain data and never a cycle, so the compiled build keeps them out of the cyclic collector
# (each class says so again: mypyc asks it of a class and its bases; a Python subclass is tracked as usual)
@mypyc_attr(allow_interpreted_subclasses=True, acyclic=True)
class Event:
    """The base of every event class: ``kind`` names it in the JSON; ``to_dict()`` gives its data in field
    order. Two events are equal when they are of the same class with equal fields; ``repr`` is attrs' form,
    ``Paid(player=0, amount=3, why='lots', lots=['A1'])`` (the digests of lv explain hash it)."""

    kind: ClassVar[str] = ""
    _keys: ClassVar[tuple[str, ...]] = ()  # the fields, in order (an attrs class's: set by ``register``)
    _flags: ClassVar[frozenset[str]] = frozenset()  # the fields left out when False
    __slots__ = ()

    def items(self) -> list[tuple[str, Any]]:
        """The event's data as (field, value) pairs in order, flags that are False left out."""
        flags = self._flags
        return [(k, v) for k in self._keys if (v := getattr(self, k)) is not False or k not in flags]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: its kind and its data (players as seat numbers)."""
        out: dict[str, Any] = {"kind": self.kind}
        out.update(self.items())
        return out

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, k) for k in self._keys])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Event):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # changeable (as attrs made them): not hashable

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and deepcopy remake it from its fields (a native class makes none without them)
        return (type(self), self._values())

    def __repr__(self) -> str:
        name = type(self).__qualname__.rsplit(">.", 1)[-1]
        return name + "(" + ", ".join([f"{k}={getattr(self, k)!r}" for k in self._keys]) + ")"


# acyclic: see Event
@mypyc_attr(acyclic=True)
class LotsEvent(Event):
    """An event with ``lots`` (see the module's docstring): kept as a tuple (``_lots``), read as a new list. A
    subclass lists ``lots`` in its ``_keys`` and sets ``self._lots = tuple(lots)`` (the same tuple if given one)."""

    __slots__ = ("_lots",)
    _lots: tuple[str, ...]

    @property
    def lots(self) -> list[str]:
        """The lots, in the order given (board order for a casino's): a new list at each read."""
        return list(self._lots)


E = TypeVar("E", bound=type[Event])

EVENTS: dict[str, type[Event]] = {}  # kind -> class


def register(cls: E) -> E:
    """Add an event class to ``EVENTS``: ``register(Paid)`` after a plain class (a decorator would keep mypyc
    from compiling it), ``@register`` above ``@attrs.define`` (whose fields become its ``_keys``)."""
    if not cls.kind or cls.kind in EVENTS:
        raise ValueError(f"event class {cls.__name__}: kind {cls.kind!r} is empty or taken")
    fields = getattr(cls, "__attrs_attrs__", None)
    if fields is not None:
        cls._keys = tuple(a.name for a in fields)
    elif "_keys" not in vars(cls):
        raise ValueError(f"event class {cls.__name__}: no _keys (its fields, in order) and not an attrs class")
    EVENTS[cls.kind] = cls
    return cls


def event(kind: str, **data: Any) -> Event:
    """The event of ``kind`` with ``data`` (``event("paid", player=0, ...)`` is ``Paid(player=0, ...)``): for
    code that names kinds by string."""
    return EVENTS[kind](**data)


# ---------------------------------------------------------------------------------------------- setup


@mypyc_attr(acyclic=True)
class Dealt(LotsEvent):
    kind: ClassVar[str] = "dealt"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lots", "money")
    __slots__ = ("player", "money")  # and LotsEvent's _lots

    def __init__(self, player: int, lots: Sequence[str], money: int) -> None:
        self.player = player
        self._lots = tuple(lots)
        self.money = money


register(Dealt)


@mypyc_attr(acyclic=True)
class CardSkipped(Event):
    kind: ClassVar[str] = "card_skipped"
    _keys: ClassVar[tuple[str, ...]] = ("player", "card", "why")
    __slots__ = _keys

    def __init__(self, player: int, card: str, why: str) -> None:
        self.player = player
        self.card = card
        self.why = why


register(CardSkipped)


@mypyc_attr(acyclic=True)
class EndCardPlaced(Event):
    kind: ClassVar[str] = "end_card_placed"
    _keys: ClassVar[tuple[str, ...]] = ("under",)
    __slots__ = _keys

    def __init__(self, under: int | None) -> None:
        self.under = under  # cards under the end card; None at a table (unseen)


register(EndCardPlaced)


@mypyc_attr(acyclic=True)
class FirstPlayer(Event):
    kind: ClassVar[str] = "first_player"
    _keys: ClassVar[tuple[str, ...]] = ("player", "rolls")
    __slots__ = _keys

    def __init__(self, player: int, rolls: list[dict[str, list[int]]]) -> None:
        self.player = player
        self.rolls = rolls  # each round of starting rolls: player name -> two dice


register(FirstPlayer)


# ---------------------------------------------------------------------------------------------- draw step


@mypyc_attr(acyclic=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    _keys: ClassVar[tuple[str, ...]] = ("turn", "player")
    __slots__ = _keys

    def __init__(self, turn: int, player: int) -> None:
        self.turn = turn
        self.player = player


register(TurnStarted)


@mypyc_attr(acyclic=True)
class CardDrawn(Event):
    kind: ClassVar[str] = "card_drawn"
    _keys: ClassVar[tuple[str, ...]] = ("player", "card", "pays", "f_block")
    _flags: ClassVar[frozenset[str]] = frozenset({"f_block"})
    __slots__ = _keys

    def __init__(self, player: int, card: str, pays: str, f_block: bool = False) -> None:
        self.player = player
        self.card = card
        self.pays = pays  # a colour, or the Strip
        self.f_block = f_block  # the card is on the closed F block: no marker, another card is drawn


register(CardDrawn)


@mypyc_attr(acyclic=True)
class MarkerPlaced(Event):
    kind: ClassVar[str] = "marker_placed"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot", "moved_from")
    __slots__ = _keys

    def __init__(self, player: int, lot: str, moved_from: str | None) -> None:
        self.player = player
        self.lot = lot
        self.moved_from = moved_from


register(MarkerPlaced)


@mypyc_attr(acyclic=True)
class DieTakenOver(Event):
    kind: ClassVar[str] = "die_taken_over"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot", "value", "previous", "moved_from")
    __slots__ = _keys

    def __init__(self, player: int, lot: str, value: int, previous: int | None, moved_from: str | None) -> None:
        self.player = player
        self.lot = lot
        self.value = value
        self.previous = previous
        self.moved_from = moved_from


register(DieTakenOver)


@mypyc_attr(acyclic=True)
class Paid(LotsEvent):
    kind: ClassVar[str] = "paid"
    _keys: ClassVar[tuple[str, ...]] = ("player", "amount", "why", "lots")
    __slots__ = ("player", "amount", "why")  # and LotsEvent's _lots

    def __init__(self, player: int, amount: int, why: str, lots: Sequence[str]) -> None:
        self.player = player
        self.amount = amount
        self.why = why  # "lots" or "casino"
        self._lots = tuple(lots)


register(Paid)


@mypyc_attr(acyclic=True)
class Scored(LotsEvent):
    kind: ClassVar[str] = "scored"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lots", "award", "before", "after")
    __slots__ = ("player", "award", "before", "after")  # and LotsEvent's _lots

    def __init__(self, player: int, lots: Sequence[str], award: int, before: int, after: int) -> None:
        self.player = player
        self._lots = tuple(lots)
        self.award = award
        self.before = before
        self.after = after


register(Scored)


# ---------------------------------------------------------------------------------------------- consequences


@mypyc_attr(acyclic=True)
class TieRerolled(LotsEvent):
    kind: ClassVar[str] = "tie_rerolled"
    _keys: ClassVar[tuple[str, ...]] = ("lots", "values")
    __slots__ = ("values",)  # and LotsEvent's _lots

    def __init__(self, lots: Sequence[str], values: dict[str, int]) -> None:
        self._lots = tuple(lots)
        self.values = values


register(TieRerolled)


@mypyc_attr(acyclic=True)
class Merged(LotsEvent):
    kind: ClassVar[str] = "merged"
    _keys: ClassVar[tuple[str, ...]] = ("lots", "color", "height")
    __slots__ = ("color", "height")  # and LotsEvent's _lots

    def __init__(self, lots: Sequence[str], color: str, height: int) -> None:
        self._lots = tuple(lots)
        self.color = color
        self.height = height


register(Merged)


@mypyc_attr(acyclic=True)
class BossChanged(LotsEvent):
    kind: ClassVar[str] = "boss_changed"
    _keys: ClassVar[tuple[str, ...]] = ("lots", "previous", "boss")
    __slots__ = ("previous", "boss")  # and LotsEvent's _lots

    def __init__(self, lots: Sequence[str], previous: int | None, boss: int | None) -> None:
        self._lots = tuple(lots)
        self.previous = previous
        self.boss = boss


register(BossChanged)


@mypyc_attr(acyclic=True)
class MarkerMoved(Event):
    kind: ClassVar[str] = "marker_moved"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot")
    __slots__ = _keys

    def __init__(self, player: int, lot: str) -> None:
        self.player = player
        self.lot = lot


register(MarkerMoved)


@mypyc_attr(acyclic=True)
class DieMoved(Event):
    kind: ClassVar[str] = "die_moved"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot")
    __slots__ = _keys

    def __init__(self, player: int, lot: str) -> None:
        self.player = player
        self.lot = lot


register(DieMoved)


# ---------------------------------------------------------------------------------------------- end


@mypyc_attr(acyclic=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    _keys: ClassVar[tuple[str, ...]] = ("player",)
    __slots__ = _keys

    def __init__(self, player: int) -> None:
        self.player = player


register(TurnEnded)


@mypyc_attr(acyclic=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    _keys: ClassVar[tuple[str, ...]] = ("reason", "winner", "ranking", "scores", "money", "instant_win")
    _flags: ClassVar[frozenset[str]] = frozenset({"instant_win"})
    __slots__ = _keys

    def __init__(self, reason: str, winner: int, ranking: list[int], scores: list[int], money: list[int],
                 instant_win: bool = False) -> None:
        self.reason = reason
        self.winner = winner
        self.ranking = ranking
        self.scores = scores
        self.money = money
        self.instant_win = instant_win


register(GameEnded)


# bookkeeping: a turn started or ended (left out of the JSON of a turn and of comparisons)
BOOKKEEPING: tuple[type[Event], ...] = (TurnStarted, TurnEnded)
