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

The actions' own events (``built``, ``gambled``, a trade's ``money_given``, ...) are defined, documented and worded
in their family modules (``lv/actions/``, each listing its kinds after ``Events:`` in its docstring), as classes
like those below with ``@register`` on top of ``@attrs.define(slots=True, weakref_slot=False)`` (a house rule's
action too): ``EVENTS``, ``event(kind, ...)`` and the JSON know them once ``lv.actions`` is imported, as the
engine does. This module imports nothing of lv.

The classes are slotted and not frozen: hundreds are made in every game and a frozen class's constructor costs
more (it sets each field through ``object.__setattr__``). Nothing changes an event once it is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

import attrs

FLAG = "flag"  # attrs metadata key: a bool field that to_dict() leaves out when False


def flag() -> bool:
    """A field that is False unless given, and left out of ``to_dict()`` when False (``card_drawn.f_block``)."""
    return attrs.field(default=False, metadata={FLAG: True})


@attrs.define(slots=True, weakref_slot=False)
class Event:
    """The base of every event class: ``kind`` names it in the JSON; ``to_dict()`` gives its data in field
    order."""

    kind: ClassVar[str] = ""
    _keys: ClassVar[tuple[str, ...]] = ()  # the fields, in order (set by ``register``)
    _flags: ClassVar[frozenset[str]] = frozenset()  # the fields left out when False

    def items(self) -> list[tuple[str, Any]]:
        """The event's data as (field, value) pairs in order, flags that are False left out."""
        flags = self._flags
        return [(k, v) for k in self._keys if (v := getattr(self, k)) is not False or k not in flags]

    def to_dict(self) -> dict[str, Any]:
        """The event as plain data: its kind and its data (players as seat numbers)."""
        out: dict[str, Any] = {"kind": self.kind}
        out.update(self.items())
        return out


E = TypeVar("E", bound=type[Event])

EVENTS: dict[str, type[Event]] = {}  # kind -> class


def register(cls: E) -> E:
    """Add an event class to ``EVENTS`` (put it above ``@attrs.define``)."""
    if not cls.kind or cls.kind in EVENTS:
        raise ValueError(f"event class {cls.__name__}: kind {cls.kind!r} is empty or taken")
    fields = attrs.fields(cls)
    cls._keys = tuple(a.name for a in fields)
    cls._flags = frozenset(a.name for a in fields if a.metadata.get(FLAG))
    EVENTS[cls.kind] = cls
    return cls


def registered(kind: str) -> Callable[[E], E]:
    """``register`` for a class whose ``kind`` is given here rather than in its body: what a module mypyc
    compiles writes (there every class-level assignment would reach attrs as a field; see lv/actions/_values.py).
    Put it above ``@attrs.define``: ``@registered("built")``."""

    def add(cls: E) -> E:
        cls.kind = kind
        return register(cls)

    return add


def event(kind: str, **data: Any) -> Event:
    """The event of ``kind`` with ``data`` (``event("paid", player=0, ...)`` is ``Paid(player=0, ...)``): for
    code that names kinds by string."""
    return EVENTS[kind](**data)


# ---------------------------------------------------------------------------------------------- setup


@register
@attrs.define(slots=True, weakref_slot=False)
class Dealt(Event):
    kind: ClassVar[str] = "dealt"
    player: int
    lots: list[str]
    money: int


@register
@attrs.define(slots=True, weakref_slot=False)
class CardSkipped(Event):
    kind: ClassVar[str] = "card_skipped"
    player: int
    card: str
    why: str


@register
@attrs.define(slots=True, weakref_slot=False)
class EndCardPlaced(Event):
    kind: ClassVar[str] = "end_card_placed"
    under: int | None  # cards under the end card; None at a table (unseen)


@register
@attrs.define(slots=True, weakref_slot=False)
class FirstPlayer(Event):
    kind: ClassVar[str] = "first_player"
    player: int
    rolls: list[dict[str, list[int]]]  # each round of starting rolls: player name -> two dice


# ---------------------------------------------------------------------------------------------- draw step


@register
@attrs.define(slots=True, weakref_slot=False)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    turn: int
    player: int


@register
@attrs.define(slots=True, weakref_slot=False)
class CardDrawn(Event):
    kind: ClassVar[str] = "card_drawn"
    player: int
    card: str
    pays: str  # a colour, or the Strip
    f_block: bool = flag()  # the card is on the closed F block: no marker, another card is drawn


@register
@attrs.define(slots=True, weakref_slot=False)
class MarkerPlaced(Event):
    kind: ClassVar[str] = "marker_placed"
    player: int
    lot: str
    moved_from: str | None


@register
@attrs.define(slots=True, weakref_slot=False)
class DieTakenOver(Event):
    kind: ClassVar[str] = "die_taken_over"
    player: int
    lot: str
    value: int
    previous: int | None
    moved_from: str | None


@register
@attrs.define(slots=True, weakref_slot=False)
class Paid(Event):
    kind: ClassVar[str] = "paid"
    player: int
    amount: int
    why: str  # "lots" or "casino"
    lots: list[str]


@register
@attrs.define(slots=True, weakref_slot=False)
class Scored(Event):
    kind: ClassVar[str] = "scored"
    player: int
    lots: list[str]
    award: int
    before: int
    after: int


# ---------------------------------------------------------------------------------------------- consequences


@register
@attrs.define(slots=True, weakref_slot=False)
class TieRerolled(Event):
    kind: ClassVar[str] = "tie_rerolled"
    lots: list[str]
    values: dict[str, int]


@register
@attrs.define(slots=True, weakref_slot=False)
class Merged(Event):
    kind: ClassVar[str] = "merged"
    lots: list[str]
    color: str
    height: int


@register
@attrs.define(slots=True, weakref_slot=False)
class BossChanged(Event):
    kind: ClassVar[str] = "boss_changed"
    lots: list[str]
    previous: int | None
    boss: int | None


@register
@attrs.define(slots=True, weakref_slot=False)
class MarkerMoved(Event):
    kind: ClassVar[str] = "marker_moved"
    player: int
    lot: str


@register
@attrs.define(slots=True, weakref_slot=False)
class DieMoved(Event):
    kind: ClassVar[str] = "die_moved"
    player: int
    lot: str


# ---------------------------------------------------------------------------------------------- end


@register
@attrs.define(slots=True, weakref_slot=False)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    player: int


@register
@attrs.define(slots=True, weakref_slot=False)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    reason: str
    winner: int
    ranking: list[int]
    scores: list[int]
    money: list[int]
    instant_win: bool = flag()


# bookkeeping: a turn started or ended (left out of the JSON of a turn and of comparisons)
BOOKKEEPING: tuple[type[Event], ...] = (TurnStarted, TurnEnded)
