"""The decisions of Lords of Vegas, one module per action family, found through one table (``FAMILIES``).

    from lv import actions as A
    A.Build("A2", "gold")              # the decision classes, re-exported here
    A.FAMILY_OF[A.Raise].why_not(...)  # everything about an action: its family's methods
    A.FAMILIES                         # every family, in order

A family module (``build``, ``sprawl``, ``remodel``, ``reorganize``, ``raise_``, ``gamble``, ``trade``, ``draw``,
``end``) holds everything lv knows about one action: its decision classes (frozen attrs values with a ``kind``),
its notation (parse and format), its structured record form, its legality predicate, its cost, its generator of
legal decisions (built from the same helpers as the predicate), its application and its events. The engine
(rules.py), the legal list (legal.py), the notation (notation.py), the records (record.py), the narrative, the
bots, session.py and the CLI find actions only through this table.

The table is discovered: every module of this package whose name does not start with ``_`` is imported and
its ``FAMILY`` (an instance of a subclass of ``Family``, see ``_family.py``) is entered, in the order of
``Family.order``. So a new action is one new module here plus the profile keys it reads, and nothing else in lv/
changes.

The protocol: what a family module defines
-------------------------------------------
A subclass of ``Family`` whose methods are the action's rules, and one instance of it with the family's data::

    class BuildFamily(Family):
        def parse(self, w: Words) -> Build: ...
        def why_not(self, engine, s, player, a) -> Reason | None: ...
        ...

    FAMILY = BuildFamily(name="build", order=10, decisions=(Build,), verbs=("build",), generates_before=True, ...)

``Family`` holds the defaults: a method a family does not define does what the family without it does (lists
nothing, costs nothing, tells nothing). A method call on a family is a C call in the compiled build (a native
class); a house rule's module stays Python and its subclass plugs into the compiled core through the same
methods (docs/house-rules.md). Whether a family has an optional method is data the callers read without calling
it: ``applies``, ``generates_before``/``_after``/``_waiting``, ``casinos``, ``rolls``, ``record_kinds``.

The data, required:

- ``name``: the family's name, also the ``action:`` word of its structured record form (``raise``).
- ``order``: an int, its place in the table (draw 0, build 10, sprawl 20, remodel 30, reorganize 40, raise 50,
  gamble 60, layoff 65, trade 70, end 80): the order of verbs in messages and of ``lv legal``'s groups. Leave gaps.
- ``decisions``: its decision classes (the first is the main one). A decision is found its family by its
  exact type (``FAMILY_OF[type(decision)]``).
- ``verbs``: the words of the notation it parses (``("draw", "reroll", "move")``); the first is the ``lv legal``
  group of its decisions unless ``group`` says otherwise. ``aliases``: other spellings of the first verb
  (``reorganize`` for ``reorg``), or other words of its group (``no-layoff`` for ``layoff``), parsed but never
  written as the verb.

The methods, required:

- ``parse(words: Words) -> decision``: read ``words.words`` (``words.words[0]`` is the verb); the helpers
  ``words.lot(i)``, ``.color(i)``, ``.player(i)``, ``.amount(i)``, ``.expect(n, usage)``, ``.fail(msg)`` raise
  NotationError naming the wrong word.
- ``format(decision, names) -> str``: the notation; ``format(parse(text)) == text`` for canonical text.
- ``structured(decision, names) -> dict``: its structured record form (what the engine writes to records).

Optional (leave out what does not apply):

- ``record_kinds`` + ``from_record(d) -> str``: the ``action:`` words of a structured record decision it
  reads, and the decision as notation text.
- ``group(decision) -> str``: its ``lv legal`` group, where not ``verbs[0]`` (the draw's decisions).
- ``why_not(engine, state, player, decision) -> (rule, message) | None``: the referee's check. Rule ids come
  from ``lv/ruleids.py``; a rule a profile parameter decides is named by that parameter.
- ``cost(engine, state, decision) -> int``: dollars a legal decision costs its player now (``lv legal --json``,
  the bots); 0 unless defined.
- ``apply(engine, state, player, decision, dice, events, choices)``: carry it out. It must check ``why_not``
  itself (the referee's safety: anything may be given to ``Engine.apply``), change the state only through the
  state's methods, and append its events (the classes of ``lv.events``, ``Built(...)``; ``main_event`` names
  the one that tells what it did). The engine then settles ties, merges and bosses.
  ``applies=False``: a family that has neither ``why_not`` nor ``apply`` (the draw, the end of a turn: the
  engine refuses their decisions as "not an action").
  ``in_trade=True``: its decisions may also be steps of a trade (the current player's actions).
  ``anytime=True``: applied in the draw step too, and the engine leaves ties and consequences to it (trades).
  ``by_game``: decision classes the game's turn machinery carries out (``Game.apply``): the engine refuses them.
- ``listing(profile, decision) -> dict | None`` and ``listing_text(dict) -> str``: where one decision of its
  generator stands for several (a gamble, listed at its largest bet, stands for every bet from $1), what
  ``lv legal`` shows for it (``--json``: its fields, ``{lot, min, max, lay_off}``; else the text
  ``gamble B3 1..15``); None (the default) for a decision that stands for itself.
- ``carry_out(...)``, the same arguments: ``apply`` without the checks (``apply`` is the checks, then this). The
  engine calls it instead of ``apply`` only for a decision its own generator has just made (the simulation's
  fast path, ``Game.random_legal``), never for one given from outside; by default it is ``apply``, checks and
  all.
- ``rolls`` + ``table_dice(game, decision, faces)``: the key of its dice in a record's ``dice`` mapping
  (``"gamble"``), if it rolls any, and its dice taken from the faces given at a table.
- ``active(profile) -> bool``: does this profile have the action at all (raise: ``raise.enabled``); an
  inactive family lists nothing.
- ``prepare(profile, board)``: tables it computes once per profile and board (costs by size), read by its
  predicate and its generator alike as ``engine.tables[name]``.
- The generators of the legal list, which must list exactly the decisions ``why_not`` allows (with a gamble
  once per casino, at its largest bet), in a fixed order, since the uniform bot picks by index:
  ``generate_before(moment, out)`` (before the casinos: builds; ``generates_before=True``), then for each
  casino in board order the decisions of every family asked about that casino, ``generate_casinos(moment,
  rows)`` (``casinos``: ``BOSSED`` the player's, ``DICED`` those the player has a die in, ``RIVALS`` another
  player's, ``EVERY``; each position ``i`` in ``rows`` is a casino ``moment.casinos[i]`` whose decisions go into
  ``moment.slots[i]``; ``rows`` is read, never changed: legal.py keeps it for the next list), then
  ``generate_after(moment, out)`` (end; ``generates_after=True``). Families run in the order of
  ``legal_order`` (default ``order``): raise runs before reorganize (``legal_order=55``), as the seeded games
  were recorded. ``generate_waiting(engine, state, out)`` (``generates_waiting=True``): decisions
  outside the action step (the draw).
  A ``Moment`` holds what every generator reads, computed once per list (player, money, tiles left, the
  casino index); share the conditions with ``why_not`` through small helpers (``sprawl_cost``, ``locked``).
- Optional, for speed: the list counted without being made (a uniform pick counts every decision and makes
  only the one it draws: ``legal.random_pick``, ``legal_count``). ``count_before(moment)`` and
  ``make_before(moment, i)`` (the ``i``-th decision ``generate_before`` lists), ``count_in(moment, mask,
  counts)`` (for each casino ``i`` whose bit is set in ``mask``, the casinos of its role as the moment keeps them,
  ``moment.bossed``, ``moment.diced``, ``moment.rivals``: adds its number of decisions to ``counts[i]``, returns
  the number added; its default asks ``count_casinos(moment, rows, counts)`` with the positions of the set bits,
  the older protocol, which a family may still define; a family made with ``one_each=True``, at most one decision
  at a casino, is asked ``ones_in(moment, mask)`` instead, the mask of the casinos where it has it, whose default
  works it out from ``count_in``) and ``make_casino(moment, row, i)`` (the
  ``i``-th at the casino ``moment.casinos[row]``), ``count_after`` and
  ``make_after``; ``each_casino(moment)``: the number of decisions it has at every casino of its role now, the
  same at each (-1, the default: not the same, or not said), for pure Python's pick, which then counts a
  family asked last at each casino rather than asking it. The defaults generate into scratch space and count or
  index that, so a family with the
  generators alone is counted and picked from all the same; tests/test_legal_counted.py checks that every
  counted pick is the listed decision at its index.
- ``profile_keys``: the profile parameters it reads. A house rule that adds parameters of its own declares
  them here, and their section as ``parameters``: an attrs class (a default for every key, validators as in
  lv/profile.py) that lv/profile.py loads as the section named after the family (``sell:``), strictly like its
  own; the family reads it as ``profile.extension(name)``. A profile that names none of its keys is unchanged
  (the family sees the defaults: leave the action off by default), and ``lv legal`` shows no group of it.
- ``rules``: a house rule's own rule ids, a class of constants like ``lv.ruleids.Rule`` (the table's
  ``rule_ids()`` lists them; a dotted id is one of its parameters).
- Its events: subclasses of ``lv.events.Event`` with a ``kind``, registered in ``lv.events.EVENTS``, defined
  in its module and listed in its docstring after ``Events:``; lv/events.py holds only the core's. The built-in
  families write them as lv/events.py does (plain classes, native where compiled: ``kind``, ``_keys``,
  ``__slots__ = _keys``, an ``__init__`` taking the fields in order, then ``register(Built)``); a house rule's
  Python module may write an attrs class instead (``@register`` on top of
  ``@attrs.define(slots=True, weakref_slot=False)``), as sell does. Its decisions likewise: the built-in ones are
  plain frozen classes (``FrozenDecision``, each field checked when made, ``_values.py`` shows one); a house rule's
  Python module may write a frozen attrs class with a ``kind`` instead, as sell does.
- ``effect(event, names) -> str`` and ``told(event, names) -> str | None``: the wording of its events (the
  narrative words only the core's events and asks the families for theirs): the effect of its main event after
  its notation (``build A2 gold: -$6, die 2``; ``effect_sep`` is what comes between, ``": "`` unless given), and
  any of its events as a sentence (None for another family's). ``casino_text``, ``dice_text`` and
  ``new_die_text`` are the pieces of wording the families share with the narrative.
"""

from __future__ import annotations

import weakref

import importlib
import pkgutil
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..ruleids import Rule, constants
from ._family import (BOSSED, DICED, EVERY, RIVALS, Decision, Family, Moment, Reason, Words, casino_text,
                      closed_block, dice_text, new_die_text, not_boss, refuse, tile_facts, tiles_left, whole_number)
from ._table import FAMILY_OF, FAMILY_OF_VERB, enter, format_decision, parse_words, structured_decision
from .build import Build
from .draw import DRAW_CHOICES, Choose, Draw, Reroll
from .end import EndTurn
from .gamble import Gamble
from .layoff import LayOff
from .raise_ import Raise
from .remodel import Remodel
from .reorganize import Reorganize
from .sprawl import Sprawl
from .trade import (FORBIDDEN, TRANSFERS, ActAs, GiveDie, GiveLot, GiveMoney, GivePoints, GiveRiser, GiveTile,
                    Promise, Trade)

if TYPE_CHECKING:
    from ..board import Board
    from ..profile import Profile


def discover() -> tuple[Family, ...]:
    """Every family module of this package (a name not starting with ``_``), in the order of ``Family.order``."""
    found: list[Family] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if not isinstance(family, Family):
            raise ImportError(f"lv.actions.{info.name}: an action family module defines FAMILY, an instance of a "
                              "subclass of Family")
        found.append(family)
    found.sort(key=lambda f: (f.order, f.name))
    return tuple(found)


FAMILIES: tuple[Family, ...] = discover()
"""The table: every action family, in order."""

enter(FAMILIES)  # FAMILY_OF (a decision's family, by its exact type) and FAMILY_OF_VERB, in _table.py

CANONICAL: dict[str, str] = {word: f.verbs[0] for f in FAMILIES for word in f.aliases}
"""Other spellings of verbs -> the verb (``reorganize`` -> ``reorg``)."""

VERBS: tuple[str, ...] = tuple(verb for f in FAMILIES for verb in f.verbs)
"""The verbs of the notation (for messages)."""

GROUPS: tuple[str, ...] = tuple(v for f in FAMILIES if f.listed for v in f.verbs)
"""The groups of ``lv legal``: one per listed verb, in table order."""

ACTIONS: tuple[type, ...] = tuple(cls for f in FAMILIES if f.in_trade for cls in f.decisions)
"""The current player's actions (those that may also be steps of a trade)."""

ACTION_EVENTS: tuple[str, ...] = tuple(f.main_event for f in FAMILIES if f.main_event)
"""The main event of each action, which its notation line is followed by (narrative.py)."""

Action = Any
"""Any decision (an instance of a class in ``FAMILY_OF``)."""

# the decision classes of families beyond the built-in ones, as names of this package too
for _family in FAMILIES:
    for _cls in _family.decisions:
        globals().setdefault(_cls.__name__, _cls)


# (id of the profile, id of the board) -> (a weak reference to the profile, the board, the tables): the tables
# live as long as their profile does, and no longer (a run of thousands of profiles, ``lv explain``, keeps only
# the tables of the profiles it still holds)
_TABLES: dict[tuple[int, int], tuple[weakref.ref[Profile], Board, dict[str, Any]]] = {}


def tables_for(profile: Profile, board: Board) -> dict[str, Any]:
    """Every family's prepared tables (``Family.prepare``) for ``profile`` and ``board``, by family name; made
    once per profile and board, shared by the engines of every game under them, and released with the profile."""
    key = (id(profile), id(board))
    found = _TABLES.get(key)
    if found is None or found[0]() is not profile or found[1] is not board:
        made = ((f.name, f.prepare(profile, board)) for f in FAMILIES)
        tables = {name: table for name, table in made if table is not None}

        def release(ref: weakref.ref[Profile], key: tuple[int, int] = key) -> None:
            entry = _TABLES.get(key)
            if entry is not None and entry[0] is ref:
                del _TABLES[key]

        found = _TABLES[key] = (weakref.ref(profile, release), board, tables)
    return found[2]


def families_of(profile: Profile) -> tuple[Family, ...]:
    """The families a game under ``profile`` shows (``lv legal``'s groups, the decisions counted per game): every
    family but a house rule's (one that brings a profile section of its own, ``Family.parameters``) whose section
    the profile does not name."""
    named = {name for name, _ in profile.extensions}
    return tuple(f for f in FAMILIES if f.parameters is None or f.name in named)


def family_of(decision: Decision) -> Family | None:
    return FAMILY_OF.get(type(decision))


def parse_decision(text: str, names: Sequence[str], board: Board) -> Decision:
    """Parse one decision in the notation (spaces already normalised, not empty)."""
    return parse_words(Words(text, text.split(" "), names, board))


def rule_ids() -> dict[str, str]:
    """Every rule id: lv/ruleids.py's table (constant name -> id), then those an action family brings
    (``Family.rules``, a house rule's: ``SELL.ENABLED``), by the family's name."""
    out = constants(Rule)
    for family in FAMILIES:
        if family.rules is not None:
            out.update((f"{family.name.upper()}.{k}", v) for k, v in constants(family.rules).items())
    return out


def group_of(decision: Decision) -> str:
    """The ``lv legal`` group of a decision (``reorg`` for a Reorganize)."""
    return FAMILY_OF[type(decision)].group(decision)


__all__ = [
    "ACTIONS", "ACTION_EVENTS", "BOSSED", "CANONICAL", "DICED", "DRAW_CHOICES", "EVERY", "FAMILIES", "FAMILY_OF", "FAMILY_OF_VERB",
    "FORBIDDEN", "GROUPS", "RIVALS", "TRANSFERS", "VERBS", "ActAs", "Action", "Build", "Choose", "Decision", "Draw",
    "EndTurn", "Family", "Gamble", "GiveDie", "GiveLot", "GiveMoney", "GivePoints", "GiveRiser", "GiveTile",
    "LayOff", "Moment", "Promise", "Raise", "Reason", "Remodel", "Reorganize", "Reroll", "Sprawl", "Trade", "Words",
    "casino_text", "closed_block", "dice_text", "discover", "families_of", "family_of", "format_decision", "group_of",
    "new_die_text", "not_boss", "parse_decision", "parse_words", "refuse", "rule_ids", "structured_decision",
    "tables_for", "tile_facts", "tiles_left", "whole_number",
]
