"""A game record's header read and checked: the part of ``record.py``'s loader before the turns (format, profile,
players, tags, seed, deck or deal, position, result), then the turns by ``recordturns.read_turns``. Compiled with
the core (pyproject.toml's list): interpreted, the header's checks (the deck's 48 cards, the keys) cost about as
much as a replay's decisions. ``record.py`` keeps the attrs ``Record`` (a compiled module cannot hold an attrs class
with ``attrs.field`` defaults: lv/replaydata.py) and makes it of ``read_record``'s fields.

Every message is the one ``record.py`` gave: ``fail(key path, message)`` makes the RecordError with the line.
"""

from __future__ import annotations

from typing import Any

from .board import END_CARD, Board
from .errors import RecordError
from .notation import check_names
from .position import check_shape, kind_of
from .recordturns import Fail, read_turns
from .yamlsource import Path_, line_of, load_located, plain

FORMAT = "lv-game/1"
TAG_KEYS = ("event", "site", "date", "round")  # like PGN's Seven Tag Roster: where and when the game was played
HEADER_KEYS = ("format", "engine", "profile", *TAG_KEYS, "tags", "players", "seed", "table", "draws", "first_player",
               "starting_rolls", "deal", "deck", "under_end_card", "position", "turns", "result", "comment")
STORED_PROFILE_KEYS = ("name", "title", "label", "base", "values")
DRAWS = ("with_end", "explicit")  # the draw made by ending the previous turn, or a decision of its own


def read_record(text: str, name: str, board: Board) -> dict[str, Any]:
    """``parse_record``: the record's fields (``Record``'s keywords) from its text (YAML or JSON), each checked;
    ``name`` labels the messages."""
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
    fields = {"path": name, "profile": label, "stored_profile": stored, "tags": tags, "players": list(players),
              "seed": seed, "engine": str(data.get("engine", "")), "first_player": data.get("first_player"),
              "starting_rolls": data.get("starting_rolls"), "deck": deck,
              "under_end_card": data.get("under_end_card"), "position": data.get("position"),
              "result": data.get("result"), "comment": data.get("comment"), "table": table, "draws": draws,
              "deal": deal, "lines": lines}
    turns = data.get("turns")
    turns = [] if turns is None else turns  # 'turns: 0' or 'turns: ""' is not "no turns"
    if not isinstance(turns, list):
        raise fail(("turns",), "turns: a list of turns")
    fields["turns"] = read_turns(turns, players, board, lines, fail)
    return fields


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
        for name, v in free.items():  # (not ``key``: compiled, that is a str above, and a tag's name may be a number)
            if not isinstance(name, str) or not name:
                raise fail(("tags", name), f"tags: {name!r}: a tag name is text")
            if name in TAG_KEYS:
                raise fail(("tags", name), f"tags: '{name}' is a header key of its own: write '{name}:' at the top")
            out[name] = _tag_text(v, ("tags", name), fail)
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
