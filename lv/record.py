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
from .board import Board, load_board
from .errors import RecordError
from .files import is_json, write_atomic
from .recordhead import DRAWS as DRAWS, FORMAT as FORMAT, HEADER_KEYS as HEADER_KEYS, RESULT_KEYS as RESULT_KEYS
from .recordhead import STORED_PROFILE_KEYS as STORED_PROFILE_KEYS, TAG_KEYS as TAG_KEYS, read_record
from .recordturns import CHOICE_KEYS as CHOICE_KEYS, DECISION_KEYS as DECISION_KEYS, FIELD_TYPES as FIELD_TYPES
from .recordturns import STEP_KEYS as STEP_KEYS, TURN_KEYS as TURN_KEYS, DecisionRecord as DecisionRecord
from .recordturns import TurnRecord as TurnRecord
from .profile import Profile, is_shipped, load_profile, stored_form
from .yamlsource import Path_, line_of, read_text

if TYPE_CHECKING:
    from .game import Game


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
    """A record from its text (YAML or JSON); ``name`` labels the messages. Read and checked by the compiled
    ``recordhead.read_record`` (the header) and ``recordturns.read_turns`` (the turns)."""
    return Record(**read_record(text, name, board or load_board()))


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
