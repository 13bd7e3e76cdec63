"""A game record's turns read into decisions: the part of ``record.py``'s loader that runs once per turn and per
decision (its header stays in ``record.py``). Compiled with the core (pyproject.toml's list): a structured
decision (``{action: build, lot: A2, color: gold}``) goes to its family's ``from_record`` and ``parse`` and back
to text (``format``) by native calls, where from ``record.py`` each step was a Python call. Plain classes, not
attrs, so that mypyc makes them native: ``DecisionRecord`` and ``TurnRecord`` compare and print as attrs made them.

Every message is the one ``record.py`` gave: ``fail(key path, message)`` makes the RecordError with the line.
"""

from __future__ import annotations

from typing import Any, Callable, Final

from . import actions as A
from .actions._family import Family, Words
from .actions._table import FAMILY_OF, FAMILY_OF_VERB
from .actions.draw import Draw
from .actions.end import EndTurn
from .actions.trade import ActAs, Trade
from .board import END_CARD, Board
from .errors import NotationError, RecordError
from .notation import format_action, parse_action
from .position import kind_of
from .yamlsource import Path_, line_of, plain

TURN_KEYS: Final = ("player", "cards", "dice", "choices", "decisions")
DECISION_KEYS: Final = {"action", "do", "dice", "choices", "lot", "color", "from", "bet", "lay_off", "steps", "by",
                        "cards"}
STEP_KEYS: Final = {"action", "do", "money", "lot", "die", "from", "to", "color", "bet", "lay_off", "as"}
CHOICE_KEYS: Final = {"die_from", "marker_from"}
_DICE_KEYS: Final = ("gamble", "reorg", "ties")

Fail = Callable[[Path_, str], RecordError]
"""``fail(key path, message)``: the RecordError to raise, with the file and the line of that key."""


class DecisionRecord:
    """One recorded decision: the decision, its recorded dice and choices, its line, and its text in the notation
    (for messages)."""

    def __init__(self, action: Any, dice: dict[str, Any] | None = None, choices: dict[str, str] | None = None,
                 line: int | None = None, text: str = "") -> None:
        self.action = action
        self.dice: dict[str, Any] = {} if dice is None else dice
        self.choices: dict[str, str] = {} if choices is None else choices
        self.line = line
        self.text = text

    def __eq__(self, other: object) -> bool:
        if type(other) is not DecisionRecord:
            return NotImplemented
        assert isinstance(other, DecisionRecord)
        return (self.action, self.dice, self.choices, self.line, self.text) == (
            other.action, other.dice, other.choices, other.line, other.text)

    def __repr__(self) -> str:
        return (f"DecisionRecord(action={self.action!r}, dice={self.dice!r}, choices={self.choices!r}, "
                f"line={self.line!r}, text={self.text!r})")


class TurnRecord:
    """One recorded turn: whose, the cards drawn, the draw's dice and choices, its decisions, its line, and a
    trailing ``end`` as written (it ends the turn even when no turn follows)."""

    def __init__(self, player: str, cards: list[str] | None = None, dice: dict[str, Any] | None = None,
                 choices: dict[str, str] | None = None, decisions: list[DecisionRecord] | None = None,
                 line: int | None = None, end: DecisionRecord | None = None) -> None:
        self.player = player
        self.cards = cards
        self.dice: dict[str, Any] = {} if dice is None else dice
        self.choices: dict[str, str] = {} if choices is None else choices
        self.decisions: list[DecisionRecord] = [] if decisions is None else decisions
        self.line = line
        self.end = end

    def __eq__(self, other: object) -> bool:
        if type(other) is not TurnRecord:
            return NotImplemented
        assert isinstance(other, TurnRecord)
        return (self.player, self.cards, self.dice, self.choices, self.decisions, self.line, self.end) == (
            other.player, other.cards, other.dice, other.choices, other.decisions, other.line, other.end)

    def __repr__(self) -> str:
        return (f"TurnRecord(player={self.player!r}, cards={self.cards!r}, dice={self.dice!r}, "
                f"choices={self.choices!r}, decisions={self.decisions!r}, line={self.line!r}, end={self.end!r})")


def read_turns(turns: list[Any], players: list[str], board: Board, lines: dict[Path_, int],
               fail: Fail) -> list[TurnRecord]:
    """The record's ``turns:`` list, checked turn by turn and decision by decision."""
    out: list[TurnRecord] = []
    lots = board.lots
    families = record_families()
    for ti, t in enumerate(turns):
        path: Path_ = ("turns", ti)
        if not isinstance(t, dict):
            raise fail(path, f"turn {ti + 1}: a mapping with player, cards and decisions")
        for key in t:
            if key not in TURN_KEYS:
                raise fail(path + (key,), f"turn {ti + 1}: unknown key '{plain(key)}' "
                                          f"(known: {', '.join(TURN_KEYS)})")
        player = t.get("player")
        if player not in players:
            raise fail(path + ("player",), f"turn {ti + 1}: unknown player {player!r} (players: {', '.join(players)})")
        written = t.get("cards")
        cards: list[str] | None = None
        if written is not None:
            if not isinstance(written, list):
                raise fail(path + ("cards",), f"turn {ti + 1}: cards: a list of the cards drawn")
            cards = [str(c).upper() for c in written]
            for ci, card in enumerate(cards):
                if card != END_CARD and card not in lots:
                    raise fail(path + ("cards", ci), f"turn {ti + 1}: unknown card {written[ci]!r}")
        dice, choices = t.get("dice"), t.get("choices")
        turn = TurnRecord(str(player), cards,  # a player: one of the players' names
                          {} if dice is None else _mapping(dice, fail, path + ("dice",), ti, board),
                          {} if choices is None else _choices(choices, fail, path + ("choices",), ti, board),
                          line=_line(lines, path))
        decisions = t.get("decisions")
        if decisions is None:
            decisions = []
        if not isinstance(decisions, list):
            raise fail(path + ("decisions",), f"turn {ti + 1}: decisions: a list")
        kept = turn.decisions
        for di, d in enumerate(decisions):
            dpath = path + ("decisions", di)
            try:
                drec = _decision(d, players, board, fail, dpath, ti, families)
            except NotationError as err:
                raise fail(dpath, f"turn {ti + 1}: {err}") from None
            drec.line = _line(lines, dpath)
            kept.append(drec)
        if kept and isinstance(kept[-1].action, EndTurn):
            turn.end = kept.pop()  # implied by a next turn; the last turn's ends it (replay.py)
        for drec in kept:
            if isinstance(drec.action, EndTurn):
                raise fail(path, f"turn {ti + 1}: 'end' can only be the last decision of a turn")
        out.append(turn)
    return out


def _line(lines: dict[Path_, int], path: Path_) -> int | None:
    """``line_of``: the key's own line (every item the reader made has one), else its nearest parent's."""
    found = lines.get(path)
    return found if found is not None else line_of(lines, path)


def _mapping(value: Any, fail: Fail, path: Path_, ti: int, board: Board) -> dict[str, Any]:
    """A turn's or a decision's recorded dice: gamble, reorg (lot -> die), ties (lot -> dice)."""
    if not isinstance(value, dict):
        raise fail(path, f"turn {ti + 1}: dice: a mapping such as {{gamble: [3, 4]}}")
    for key in value:
        if key not in _DICE_KEYS:
            unknown = set(value) - set(_DICE_KEYS)
            raise fail(path, f"turn {ti + 1}: dice: unknown key(s) {', '.join(sorted(map(plain, unknown)))} "
                             "(known: gamble, reorg, ties)")
    out = dict(value)
    lots = board.lots
    for key in ("reorg", "ties"):
        if key in out:
            given = out[key]
            if not isinstance(given, dict):
                raise fail(path, f"turn {ti + 1}: dice.{key}: a mapping of lot to value")
            for lot in given:
                if str(lot).upper() not in lots:
                    raise fail(path + (key, lot), f"turn {ti + 1}: dice.{key}: unknown lot {lot!r}")
            out[key] = {str(k).upper(): v for k, v in given.items()}
    if "ties" in out:
        ties: dict[str, Any] = out["ties"]
        out["ties"] = {k: (v if isinstance(v, list) else [v]) for k, v in ties.items()}
    return out


def _choices(value: Any, fail: Fail, path: Path_, ti: int, board: Board) -> dict[str, str]:
    if not isinstance(value, dict) or set(value) - CHOICE_KEYS:
        raise fail(path, f"turn {ti + 1}: choices: a mapping with die_from and/or marker_from")
    out: dict[str, str] = {}
    lots = board.lots
    for k, v in value.items():
        lot = str(v).upper()
        if lot not in lots:
            raise fail(path, f"turn {ti + 1}: choices.{k}: unknown lot {v!r}")
        out[k] = lot
    return out


def _decision(d: Any, players: list[str], board: Board, fail: Fail, path: Path_, ti: int,
              families: dict[str, Family]) -> DecisionRecord:
    if isinstance(d, str):
        action = parse_action(d, players, board)
        return DecisionRecord(action, text=_text(action, players))
    if not isinstance(d, dict):
        raise fail(path, f"turn {ti + 1}: a decision is text ('build A2 gold') or a mapping")
    for key in d:
        if key not in DECISION_KEYS:
            unknown = set(d) - DECISION_KEYS
            raise fail(path, f"turn {ti + 1}: unknown decision field(s) {', '.join(sorted(map(plain, unknown)))}")
    if "do" in d:
        if not isinstance(d["do"], str):
            raise fail(path + ("do",), f"turn {ti + 1}: do: a decision in the notation ('build A2 gold')")
        action = parse_action(d["do"], players, board)
    else:
        action = _structured(d, players, board, fail, path, ti, families)
    dice, choices = d.get("dice"), d.get("choices")
    return DecisionRecord(action, {} if dice is None else _mapping(dice, fail, path + ("dice",), ti, board),
                          {} if choices is None else _choices(choices, fail, path + ("choices",), ti, board),
                          text=_text(action, players))


def _parsed(text: str, players: list[str], board: Board) -> Any:
    """``parse_action(text)`` of a family's ``from_record`` text: words of letters and digits one space apart (most)
    need no normalising and carry no cost ('$6', which parse_action explains), so the family of the verb parses
    them straight away, with parse_action's message if it refuses them; any other text takes ``parse_action``."""
    words = text.split(" ")
    if "" not in words and text.replace(" ", "").isalnum():
        family = FAMILY_OF_VERB.get(words[0].lower())
        if family is not None:
            return family.parse(Words(text, words, players, board))
    return parse_action(text, players, board)


def _text(action: Any, players: list[str]) -> str:
    """``format_action``: the decision in the notation, by its family."""
    family = FAMILY_OF.get(type(action))
    return format_action(action, players) if family is None else family.format(action, players)


# the fields of a structured decision or trade step: a word each (spliced into the notation), or a number/flag
FIELD_TYPES: Final[dict[str, tuple[type, str]]] = {
    "lot": (str, "a lot"), "color": (str, "a colour"), "from": (str, "a lot or player"), "to": (str, "a player"),
    "die": (str, "a lot"), "bet": (int, "a whole number"), "money": (int, "a whole number"),
    "lay_off": (bool, "true or false"), "action": (str, "an action")}

_ANY_FIELD: Final[tuple[type, str]] = (object, "")
# FIELD_TYPES by kind, for the check of every field read (a set's test, no tuple taken out of a dict a field)
_WORD_FIELDS: Final = frozenset(k for k, (kind, _) in FIELD_TYPES.items() if kind is str)
_WHOLE_FIELDS: Final = frozenset(k for k, (kind, _) in FIELD_TYPES.items() if kind is int)
_FLAG_FIELDS: Final = frozenset(k for k, (kind, _) in FIELD_TYPES.items() if kind is bool)


def _check_fields(d: dict[Any, Any], fail: Fail, path: Path_, ti: int) -> None:
    """Each field of ``d`` of the type FIELD_TYPES gives it (a word: no space in it, not empty); any other field
    may be anything but a text with spaces."""
    for key, value in d.items():
        if key in _WORD_FIELDS:
            if type(value) is str:  # the usual field
                ok = value.isalnum() or (bool(value) and value.split() == [value])  # (no whitespace is alphanumeric)
            else:
                ok = isinstance(value, str) and value.split() == [value]
        elif key in _WHOLE_FIELDS:
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        elif key in _FLAG_FIELDS:  # (a gamble's lay_off may also be "ask": the boss not asked yet, lv/actions/layoff.py)
            ok = isinstance(value, bool) or (key == "lay_off" and value == "ask")
        else:
            ok = not isinstance(value, str) or value.split() == [value]
        if not ok:
            what = FIELD_TYPES.get(key, _ANY_FIELD)[1]
            raise fail(path + (key,), f"turn {ti + 1}: {key}: {what}, not {kind_of(value)}"
                       + (f" {value!r}" if isinstance(value, str) and len(value) < 40 else ""))


def _structured(d: dict[Any, Any], players: list[str], board: Board, fail: Fail, path: Path_, ti: int,
                families: dict[str, Family]) -> Any:
    _check_fields(d, fail, path, ti)
    kind = d.get("action")  # (a word, if there: _check_fields)
    if not isinstance(kind, str):
        raise fail(path, f"turn {ti + 1}: unknown action {kind!r} (actions: {', '.join(families)}, trade, draw)")
    if kind == "draw":
        cards = d.get("cards") or []
        if not isinstance(cards, list):
            raise fail(path, f"turn {ti + 1}: draw: cards: a list of the cards turned over")
        return parse_action(" ".join(["draw"] + [str(c) for c in cards]), players, board)
    if kind == "trade":
        return _trade(d, players, board, fail, path, ti, families)
    family = families.get(kind)
    if family is None:
        raise fail(path, f"turn {ti + 1}: unknown action {kind!r} (actions: {', '.join(families)}, trade, draw)")
    return _parsed(family.from_record(d), players, board)


def _trade(d: dict[Any, Any], players: list[str], board: Board, fail: Fail, path: Path_, ti: int,
           families: dict[str, Family]) -> Any:
    steps = d.get("steps")
    if not isinstance(steps, list) or not steps:
        raise fail(path, f"turn {ti + 1}: trade: give its steps as a list")
    out: list[Any] = []
    for si, step in enumerate(steps):
        if isinstance(step, str):
            out.append(_step_text(step, players, board))
        elif isinstance(step, dict):
            unknown = set(step) - STEP_KEYS
            if unknown:
                raise fail(path + ("steps", si), f"turn {ti + 1}: unknown trade-step field(s) "
                                                 f"{', '.join(sorted(map(plain, unknown)))}")
            if "do" in step:
                if not isinstance(step["do"], str):
                    raise fail(path + ("steps", si, "do"), f"turn {ti + 1}: do: a trade step in the notation "
                                                           "('money 5 from red to blue')")
                out.append(_step_text(step["do"], players, board))
            elif "as" in step:
                inner = _structured({k: v for k, v in step.items() if k != "as"}, players, board, fail,
                                    path + ("steps", si), ti, families)
                if step["as"] not in players:
                    raise fail(path + ("steps", si, "as"), f"turn {ti + 1}: as: unknown player {step['as']!r}")
                out.append(ActAs(players.index(step["as"]), inner))
            elif any(k in step for k in ("money", "lot", "die")) and "action" not in step:
                _check_fields(step, fail, path + ("steps", si), ti)
                kind_s = next(k for k in ("money", "lot", "die") if k in step)
                out.append(_step_text(f"{kind_s} {step[kind_s]} from {step.get('from')} to {step.get('to')}",
                                      players, board))
            else:
                out.append(_structured(step, players, board, fail, path + ("steps", si), ti, families))
        else:
            raise fail(path + ("steps", si), f"turn {ti + 1}: a trade step is text or a mapping")
    by = d.get("by")
    if by is not None:
        if not isinstance(by, list) or not all(x in players for x in by):
            raise fail(path + ("by",), f"turn {ti + 1}: trade: by: the players to the trade, proposer first "
                                       f"(players: {', '.join(players)})")
        return Trade(tuple(out), tuple(players.index(x) for x in by))
    return Trade(tuple(out))


_families: dict[str, Family] = {}
_families_of: list[tuple[Family, ...]] = []  # the FAMILIES ``_families`` was made for


def record_families() -> dict[str, Family]:
    """A structured decision's ``action`` -> its family (whose ``from_record`` reads it): made once for the
    families there are, not for every decision read."""
    families: tuple[Family, ...] = A.FAMILIES
    if not _families_of or _families_of[0] is not families:
        _families.clear()
        for f in families:
            for k in f.record_kinds:
                _families[k] = f
        _families_of.clear()
        _families_of.append(families)
    return _families


def _step_text(text: str, players: list[str], board: Board) -> Any:
    action = parse_action("trade " + text, players, board)
    if len(action.steps) != 1:
        raise NotationError(f"'{text}': one step at a time here")
    return action.steps[0]


__all__ = ["CHOICE_KEYS", "DECISION_KEYS", "DecisionRecord", "FIELD_TYPES", "STEP_KEYS", "TURN_KEYS", "TurnRecord",
           "read_turns", "record_families"]
