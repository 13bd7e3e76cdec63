"""The game record ``lv-game/1``: a human-readable YAML (or JSON) file holding a header, the physical deck (or a
starting position), the turns with their decisions and dice, and optionally the result.

The loader turns the file into decisions (it knows no rules); ``replay.py`` applies them. Decisions may be
written in the one-line notation (``build A2 gold``) or the structured form the engine writes::

    - {action: build, lot: A2, color: gold}
    - {action: reorganize, lot: A2, dice: {reorg: {A2: 5, A5: 1, A3: 4}}}
    - {action: gamble, lot: B3, bet: 4, dice: {gamble: [1, 2]}}
    - {do: "sprawl A5 from A2"}                 # notation plus dice/choices

See docs/record-format.md and docs/lv-game-1.schema.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import yaml

from . import __version__
from . import actions as A
from .board import END_CARD, Board, load_board
from .errors import RecordError
from .files import is_json, write_atomic
from .notation import check_names
from .position import check_shape, kind_of
from .recordturns import CHOICE_KEYS as CHOICE_KEYS, DECISION_KEYS as DECISION_KEYS, FIELD_TYPES as FIELD_TYPES
from .recordturns import STEP_KEYS as STEP_KEYS, TURN_KEYS as TURN_KEYS, DecisionRecord as DecisionRecord
from .recordturns import Fail, TurnRecord as TurnRecord, read_turns
from .profile import Profile, is_shipped, load_profile, stored_form
from .yamlsource import Path_, line_of, load_located, plain, read_text

if TYPE_CHECKING:
    from .game import Game

FORMAT = "lv-game/1"
TAG_KEYS = ("event", "site", "date", "round")  # like PGN's Seven Tag Roster: where and when the game was played
HEADER_KEYS = ("format", "engine", "profile", *TAG_KEYS, "tags", "players", "seed", "table", "draws", "first_player",
               "starting_rolls", "deal", "deck", "under_end_card", "position", "turns", "result", "comment")
STORED_PROFILE_KEYS = ("name", "title", "label", "base", "values")
DRAWS = ("with_end", "explicit")  # the draw made by ending the previous turn, or a decision of its own


@attrs.define
class Record:
    """A game record (lv-game/1) as read: the header (profile spec, players, seed, setup), the turns with
    their decisions, dice and choices, the result if recorded, and the line of each key for messages."""

    path: str
    profile: str  # the profile spec, or for a stored profile its label (the spec it was made with)
    players: list[str]
    seed: int | str = 0
    engine: str = ""
    first_player: str | None = None
    starting_rolls: list[dict[str, list[int]]] | None = None
    deck: list[str] | None = None
    under_end_card: int | None = None
    position: dict[str, Any] | None = None
    table: bool = False  # cards and dice come from a table: the deal, and each card named as it is drawn
    draws: str = "with_end"  # "explicit": every draw is a decision of its own (a turn without one is to draw)
    deal: dict[str, list[str]] | None = None  # {player: [cards dealt]} instead of a whole deck order
    turns: list[TurnRecord] = attrs.field(factory=list)
    result: dict[str, Any] | None = None
    comment: str | None = None
    # key path -> line, for errors found after loading: ``line_of(lines, path)`` (``at``) gives any key's (a flow
    # collection on one row may stand for what it holds: ``load_located``'s sparse lines)
    lines: dict[Path_, int] = attrs.field(factory=dict, repr=False)
    stored_profile: dict[str, Any] | None = None  # the resolved profile (name, title, base, values) if the file has it
    tags: dict[str, str] = attrs.field(factory=dict)  # event, site, date, round, then the free tags, as text

    def where(self, line: int | None) -> str:
        """``file:line`` (or just the file when the line is unknown)."""
        return f"{self.path}:{line}" if line else self.path

    def at(self, *path: Any) -> str:
        """``file:line`` of a key path such as ("position", "tiles", "A2") (or of its nearest parent)."""
        return self.where(line_of(self.lines, path))


# ---------------------------------------------------------------------------------------------- reading


def load_record(path: str | Path) -> Record:
    """Read and check a record file (YAML or JSON); RecordError names the file, line and what is wrong."""
    return parse_record(read_text(path, RecordError), str(path))


def parse_record(text: str, name: str = "<record>", board: Board | None = None) -> Record:
    """A record from its text (YAML or JSON); ``name`` labels the messages."""
    board = board or load_board()
    data, lines = load_located(text, name, RecordError, sparse=True)

    def fail(path: Path_, message: str) -> RecordError:
        line = line_of(lines, path)
        return RecordError(message, path=name, line=line, key=path)

    if not isinstance(data, dict):
        raise fail((), f"not a game record (expected a mapping with format: {FORMAT})")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise fail(("format",), ("no 'format' line" if fmt is None else f"unknown format {fmt!r}")
                   + f": this lv reads '{FORMAT}'")
    for key in data:
        if key not in HEADER_KEYS:
            raise fail((key,), f"unknown key '{plain(key)}' (known: {', '.join(HEADER_KEYS)})")
    for key in ("profile", "players"):
        if key not in data:
            raise fail((), f"missing '{key}'")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(x, str) for x in players) or len(players) < 2:
        raise fail(("players",), "players: give at least two player names, in seat order")
    try:
        check_names(players, RecordError)
    except RecordError as err:
        raise fail(("players",), f"players: {err}") from None
    label, stored = _profile_header(data["profile"], fail)
    tags = _tags(data, fail)
    deck = data.get("deck")
    if deck is not None:
        if not isinstance(deck, list):
            raise fail(("deck",), "deck: a list of the 48 lot cards, top first")
        deck = [str(c).upper() for c in deck]
        for i, card in enumerate(deck):
            if card not in board.lots:
                raise fail(("deck", i), f"deck: unknown lot card {data['deck'][i]!r}")
    table = data.get("table", False)
    if not isinstance(table, bool):
        raise fail(("table",), f"table {table!r}: true or false")
    draws = data.get("draws", "with_end")
    if draws not in DRAWS:
        raise fail(("draws",), f"draws {draws!r}: one of {', '.join(DRAWS)}")
    deal = data.get("deal")
    if deal is not None:
        if not isinstance(deal, dict) or set(deal) != set(players) or not all(
                isinstance(v, list) for v in deal.values()):
            raise fail(("deal",), f"deal: the cards dealt to each player ({', '.join(players)}), e.g. {{red: [A1, C4]}}")
        for who, cards in deal.items():
            for i, card in enumerate(cards):
                if str(card).upper() not in board.lots:
                    raise fail(("deal", who, i), f"deal: {who}: unknown lot card {card!r}")
        deal = {who: [str(c).upper() for c in cards] for who, cards in deal.items()}
    if deck is None and data.get("position") is None and deal is None:
        raise fail((), "give either 'deck' (a standard setup), 'deal' (a table) or 'position'")
    seed = data.get("seed", 0)
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise fail(("seed",), f"seed {'with no value' if seed is None else repr(seed)}: a whole number or a string")
    _check_header(data, players, deck, board, fail)
    rec = Record(path=name, profile=label, stored_profile=stored, tags=tags, players=list(players), seed=seed,
                 engine=str(data.get("engine", "")), first_player=data.get("first_player"),
                 starting_rolls=data.get("starting_rolls"), deck=deck, under_end_card=data.get("under_end_card"),
                 position=data.get("position"), result=data.get("result"), comment=data.get("comment"),
                 table=table, draws=draws, deal=deal, lines=lines)
    turns = data.get("turns")
    turns = [] if turns is None else turns  # 'turns: 0' or 'turns: ""' is not "no turns"
    if not isinstance(turns, list):
        raise fail(("turns",), "turns: a list of turns")
    rec.turns = read_turns(turns, players, board, lines, fail)
    return rec


def _profile_header(value: Any, fail: Fail) -> tuple[str, dict[str, Any] | None]:
    """(label, stored profile or None): ``profile:`` is a spec (``revised``) or the resolved profile itself."""
    if isinstance(value, str):
        return value, None
    if not isinstance(value, dict):
        raise fail(("profile",), "profile: give a profile spec (NAME, NAME+OVERLAY, see 'lv variants list') or the "
                                 "stored profile {name, base, values}")
    for key in value:
        if key not in STORED_PROFILE_KEYS:
            raise fail(("profile", key), f"profile: unknown key '{key}' (known: {', '.join(STORED_PROFILE_KEYS)})")
    for key in ("name", "title", "label", "base"):
        if key in value and not isinstance(value[key], str):
            raise fail(("profile", key), f"profile: {key}: text")
    if "name" not in value:
        raise fail(("profile",), "profile: a stored profile needs its name")
    values = value.get("values")
    if values is None:
        values = {}
    if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
        raise fail(("profile", "values"), "profile: values: a mapping of section.key to value, e.g. "
                                          "{raise.cost_per_space: 10}")
    stored = {k: value[k] for k in ("name", "title", "base") if k in value}
    stored["values"] = dict(values)
    return value.get("label") or value["name"], stored


def _tags(data: dict[str, Any], fail: Fail) -> dict[str, str]:
    """event, site, date, round and the free ``tags``, as text (a YAML date or number is written back as text)."""
    out: dict[str, str] = {}
    for key in TAG_KEYS:
        if data.get(key) is not None:
            out[key] = _tag_text(data[key], (key,), fail)
    free = data.get("tags")
    if free is not None:
        if not isinstance(free, dict):
            raise fail(("tags",), "tags: a mapping of name to text, e.g. {white_box: 'yes'}")
        for key, v in free.items():
            if not isinstance(key, str) or not key:
                raise fail(("tags", key), f"tags: {key!r}: a tag name is text")
            if key in TAG_KEYS:
                raise fail(("tags", key), f"tags: '{key}' is a header key of its own: write '{key}:' at the top")
            out[key] = _tag_text(v, ("tags", key), fail)
    return out


def _tag_text(value: Any, path: Path_, fail: Fail) -> str:
    if isinstance(value, bool) or isinstance(value, (dict, list)) or value is None:
        raise fail(path, f"{'.'.join(map(str, path))}: text, e.g. '2026-11-23' or 'Essen club night'")
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def _check_header(data: dict[str, Any], players: list[str], deck: list[str] | None, board: Board,
                  fail: Fail) -> None:
    """What can be checked without the rules: the deck is the 48 lot cards once each, names are players,
    the position names real lots and colours, the result names real players."""
    if deck is not None and data.get("deal") is None:
        seen: dict[str, int] = {}
        for i, card in enumerate(deck):
            if card in seen:
                raise fail(("deck", i), f"deck: {card} appears twice (cards {seen[card] + 1} and {i + 1})")
            seen[card] = i
        missing = [lot for lot in board.order if lot not in seen]
        if missing:
            raise fail(("deck",), f"deck: the 48 lot cards, each once; missing {', '.join(missing)}")
    if data.get("position") is not None and deck is not None:
        raise fail(("position",), "give either 'deck' (a standard setup) or 'position', not both")
    first = data.get("first_player")
    if first is not None and first not in players:
        raise fail(("first_player",), f"first_player {first!r} is not one of the players ({', '.join(players)})")
    if first is not None and data.get("starting_rolls") is not None:
        raise fail(("starting_rolls",), "give either first_player or starting_rolls, not both")
    rolls = data.get("starting_rolls")
    if rolls is not None:
        if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
            raise fail(("starting_rolls",), "starting_rolls: a list of rounds, each {player: [die, die]}")
        for ri, r in enumerate(rolls):
            for who, dice in r.items():
                if who not in players:
                    raise fail(("starting_rolls", ri, who), f"starting_rolls: unknown player {who!r}")
                if (not isinstance(dice, list) or len(dice) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in dice)):
                    raise fail(("starting_rolls", ri, who), f"starting_rolls: {who}: two die faces, e.g. [3, 5]")
    under = data.get("under_end_card")
    if under is not None and (not isinstance(under, int) or isinstance(under, bool) or under < 0):
        raise fail(("under_end_card",), f"under_end_card {under!r}: a whole number of cards, 0 or more")
    for key in ("comment", "engine"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise fail((key,), f"{key}: text")
    position = data.get("position")
    if position is not None:
        _check_position(position, players, board, fail)
    result = data.get("result")
    if result is not None:
        _check_result(result, players, fail)


def _check_position(position: Any, players: list[str], board: Board, fail: Fail) -> None:
    """The shape of a position, its lots and colours, with their lines; the rules (counts of pieces, heights,
    closed blocks) are checked by ``position.py`` at setup."""
    if not isinstance(position, dict):
        raise fail(("position",), "position: a mapping (see docs/record-format.md)")
    check_shape(position, lambda path, message: fail(("position",) + path, message))
    for i, lot in enumerate(position.get("reorganized") or []):
        if str(lot).upper() not in board.lots:
            raise fail(("position", "reorganized", i), f"position: reorganized: unknown lot {lot!r}")
    for section in ("markers", "tiles"):
        value = position.get(section)
        if value is None:
            continue
        assert isinstance(value, dict)  # check_shape refused anything else, at its line
        for lot, spec in value.items():
            where = ("position", section, lot)
            if str(lot).upper() not in board.lots:
                raise fail(where, f"position: {section}: unknown lot {lot!r}")
            if section == "markers" and spec not in players:
                raise fail(where, f"position: markers.{lot}: unknown player {spec!r} (players: {', '.join(players)})")
            if section == "tiles" and not isinstance(spec, (str, dict)):
                raise fail(where, f"position: tile {lot}: give 'COLOUR [hN] [OWNER VALUE]' or a mapping, not "
                                  f"{kind_of(spec)}")
            if section == "tiles":
                color = spec.split()[0] if isinstance(spec, str) and spec.split() else (
                    spec.get("color") if isinstance(spec, dict) else None)
                if color not in board.colors:
                    raise fail(where, f"position: tile {lot}: unknown colour {color!r} "
                                      f"(colours: {', '.join(board.colors)})")
    for i, card in enumerate(position.get("deck") or []):
        if str(card).upper() != END_CARD and str(card).upper() not in board.lots:
            raise fail(("position", "deck", i), f"position: deck: unknown card {card!r}")
    for who in position.get("players") or {}:
        if who not in players:
            raise fail(("position", "players", who), f"position: players: unknown player {who!r}")
    if "current" in position and position["current"] not in players:
        raise fail(("position", "current"), f"position: current: unknown player {position['current']!r}")


RESULT_KEYS = ("reason", "winner", "scores", "money")


def _check_result(result: Any, players: list[str], fail: Fail) -> None:
    if not isinstance(result, dict):
        raise fail(("result",), "result: a mapping with reason, winner, scores, money")
    for key in result:
        if key not in RESULT_KEYS:
            raise fail(("result", key), f"result: unknown key '{plain(key)}' (known: {', '.join(RESULT_KEYS)})")
    if "reason" in result and not isinstance(result["reason"], str):
        raise fail(("result", "reason"), f"result: reason: text, not {kind_of(result['reason'])}")
    if "winner" in result and result["winner"] not in players:
        raise fail(("result", "winner"), f"result: winner {result['winner']!r} is not one of the players")
    for key in ("scores", "money"):
        value = result.get(key)
        if value is None:
            continue
        if not isinstance(value, dict) or set(value) != set(players) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
            raise fail(("result", key), f"result: {key}: a whole number for each player ({', '.join(players)})")


# ---------------------------------------------------------------------------------------------- writing


def structured(action: A.Decision, players: list[str]) -> dict[str, Any]:
    """The structured form of a decision (what the engine writes): its family's (lv/actions)."""
    return A.structured_decision(action, players)


def result_of(game: Game) -> dict[str, Any] | None:
    r = game.result
    if r is None:
        return None
    names = game.player_names
    return {"reason": r.reason, "winner": names[r.winner],
            "scores": {n: p.score for n, p in zip(names, game.state.players)},
            "money": {n: p.money for n, p in zip(names, game.state.players)}}


def profile_header(profile: Profile, label: str | None = None) -> str | dict[str, Any]:
    """How a record names its profile: a spec of shipped profiles as it is (``revised``, ``original+f-block``);
    anything else (a .yaml file, overrides) as the resolved profile, with the spec kept only as its label, so the
    record replays anywhere, without the file."""
    label = label or profile.label
    if is_shipped(label) and load_profile(label).values() == profile.values():
        return label
    stored = stored_form(profile)
    out = _Block({"name": stored["name"], "title": stored["title"], "label": label})
    if "base" in stored:
        out["base"] = stored["base"]
    out["values"] = _Block(stored["values"])
    return out


def record_of(game: Game, profile_spec: str | None = None, *, position: dict[str, Any] | None = None,
              comment: str | None = None, tags: dict[str, str] | None = None) -> dict[str, Any]:
    """The record of ``game`` as plain data, ready for YAML or JSON. ``profile_spec`` labels the game's profile
    (see ``profile_header``); ``tags``: event, site, date, round and free tags (as ``Record.tags`` holds them)."""
    names = game.player_names
    out: dict[str, Any] = {"format": FORMAT, "engine": f"lv {__version__}",
                           "profile": profile_header(game.profile, profile_spec)}
    free = {}
    for key, value in (tags or {}).items():
        if key in TAG_KEYS:
            out[key] = value
        else:
            free[key] = value
    if free:
        out["tags"] = _Block(free)
    out.update({"players": list(names), "seed": game.seed})
    if comment:
        out["comment"] = comment
    if game.table:
        out["table"] = True
    elif game.explicit_draws:
        out["draws"] = "explicit"
    if position is not None:
        out["position"] = position
    else:
        if game.starting_rolls:
            out["starting_rolls"] = game.starting_rolls
        else:
            assert game.first_player is not None  # a game set up from a deck (not a position) has its first player
            out["first_player"] = names[game.first_player]
        if game.deal is not None:
            out["deal"] = {k: list(v) for k, v in game.deal.items()}
        if not game.table:
            out["deck"] = list(game.deck)
            out["under_end_card"] = game.under_end_card
    turns = []
    for t in game.history:
        explicit = any(isinstance(d.action, A.Draw) for d in t.decisions)
        entry: dict[str, Any] = {"player": names[t.player]}
        if not explicit and (t.cards or not game.explicit_draws):
            entry["cards"] = list(t.cards)
        if t.draw_dice:
            entry["dice"] = t.draw_dice
        if t.draw_choices:
            entry["choices"] = t.draw_choices
        decisions = []
        for d in t.decisions:
            if isinstance(d.action, A.EndTurn):
                continue
            item = structured(d.action, names)
            if d.dice:
                item["dice"] = d.dice
            if d.choices:
                item["choices"] = d.choices
            decisions.append(item)
        if decisions:
            entry["decisions"] = decisions
        turns.append(entry)
    out["turns"] = turns
    result = result_of(game)
    if result:
        out["result"] = result
    return out


class _Dumper(yaml.SafeDumper):
    pass


class _Block(dict[str, Any]):
    """A mapping written in block style (one key a line), whatever its depth: the stored profile, the tags."""


def _represent_block(dumper: yaml.SafeDumper, data: _Block) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)


def _represent_dict(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.MappingNode:
    # a decision, its dice or a result on one line; the header, turns and trades in block style
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=_depth(data) <= 3)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data,
                                     flow_style=all(not isinstance(v, (dict, list)) for v in data))


def _depth(v: Any) -> int:
    """Nesting depth, counting a list of mappings as deep (turns, decisions, trade steps)."""
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 9 if any(isinstance(x, dict) for x in v) else 1
    return 0


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    # a comment of several lines stays a readable block (``comment: |``) when a command rewrites the record
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|" if "\n" in data else None)


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(_Block, _represent_block)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(str, _represent_str)


def dumps(data: dict[str, Any], fmt: str = "yaml") -> str:
    """A record's data (``record_of``) as text: ``"yaml"`` or ``"json"``."""
    if fmt == "json":
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=160)


def save_record(game: Game, path: str | Path, profile_spec: str | None = None, **kwargs: Any) -> None:
    """Write ``game``'s record to ``path`` (JSON for a .json name, else YAML), atomically; keyword arguments
    as for ``record_of``."""
    fmt = "json" if is_json(path) else "yaml"
    write_atomic(path, dumps(record_of(game, profile_spec, **kwargs), fmt))
