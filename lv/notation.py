"""The one-line decision notation, which round-trips: ``format_action(parse_action(text)) == text``.

    build A2 gold              sprawl A5 from A2          remodel A2 brown
    reorg A2                   raise A2                   gamble B3 4        gamble B3 4 layoff
    end                        draw                       draw D5            draw F3 D5
    trade money 7 from green to black; lot D2 from black to green; die B4 from blue to black; remodel B1 aqua
    trade money 5 from green to black; lot D2 from black to green by green, black

Lots are case-insensitive (``a2`` = ``A2``). A trade's steps run in the order written; a step may be any
action of the current player (``as black build A2 gold`` names who takes it). ``by`` names the players to the
trade, the proposer first. Steps the rulebooks forbid parse (``points 5 from red to blue``, ``tile A2 ...``,
``riser A2 ...``, ``promise from red to blue sprawl next turn``) so that the rules refuse them with the rule.
``draw CARD...`` names the cards turned over (checked against the deck, or at a table, the cards themselves).
At a table a draw may wait for its own decisions: ``reroll C5 4 C6 2`` (a tie's dice), ``move marker A3`` /
``move die C5`` (which piece moves when none is left).
Errors say which word is wrong.
"""

from __future__ import annotations

import unicodedata

from . import actions as A
from .board import END_CARD, Board, load_board
from .errors import LvError, NotationError
from .yamlsource import MAX_DIGITS, one_line

VERBS = ("build", "sprawl", "remodel", "reorg", "raise", "gamble", "trade", "end", "draw", "reroll", "move")
_GIVE = {"money": A.GiveMoney, "points": A.GivePoints, "lot": A.GiveLot, "die": A.GiveDie, "tile": A.GiveTile,
         "riser": A.GiveRiser}


def _lot(word: str, board: Board, text: str) -> str:
    lot = word.upper()
    if lot not in board.lots:
        raise NotationError(f"'{text}': unknown lot '{word}' (lots are A1-A6, B1-B6, C1-C12, D1-D9, E1-E6, F1-F9)")
    return lot


def _color(word: str, board: Board, text: str) -> str:
    color = word.lower()
    if color not in board.colors:
        raise NotationError(f"'{text}': unknown colour '{word}' (colours: {', '.join(board.colors)})")
    return color


def _player(word: str, names: list[str], text: str) -> int:
    for i, name in enumerate(names):
        if name.lower() == word.lower():
            return i
    raise NotationError(f"'{text}': unknown player '{word}' (players: {', '.join(names)})")


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or None. A name is printable text: a control character (ESC, a
    line break) would reach the terminal from a file."""
    if not isinstance(name, str) or not name:
        return f"player name {one_line(repr(name))}: give a non-empty text"
    bad = next((c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs")), None)
    if bad is not None:
        return f"player name {one_line(ascii(name))}: control character U+{ord(bad):04X} is not allowed"
    if name != name.strip():
        return f"player name {one_line(repr(name))}: no spaces before or after it"
    return None


def check_names(names: list, error: type[LvError] = NotationError) -> None:
    """``error`` unless ``names`` are valid player names that differ (also in case, as the notation ignores it)."""
    for name in names:
        problem = name_problem(name)
        if problem:
            raise error(problem)
    seen: dict[str, str] = {}
    for name in names:
        if name.lower() in seen:
            raise error(f"player names must differ (also in case): {seen[name.lower()]!r} and {name!r}")
        seen[name.lower()] = name


def whole_number(word: str, error: type[LvError] = NotationError) -> int | None:
    """``word`` as a whole number if it is ASCII digits (``str.isdigit`` also takes '²' and Arabic-Indic
    digits), else None; more than MAX_DIGITS digits is ``error``."""
    if not (word.isascii() and word.isdigit()):
        return None
    if len(word) > MAX_DIGITS:
        raise error(f"{one_line(word[:20])}...: number too large (more than {MAX_DIGITS} digits)")
    return int(word)


def _amount(word: str, text: str) -> int:
    amount = whole_number(word.lstrip("$"))
    if amount is None:
        raise NotationError(f"'{text}': '{word}' is not a whole number of dollars")
    return amount


def _expect(words: list[str], n: int, usage: str, text: str) -> None:
    if len(words) != n:
        raise NotationError(f"'{text}': expected '{usage}'")


def parse_action(text: str, names: list[str], board: Board | None = None):
    """Parse one decision. ``names`` are the players in seat order (for trades)."""
    board = board or load_board()
    text = " ".join(text.strip().split())
    if not text:
        raise NotationError("empty decision")
    words = text.split(" ")
    verb = words[0].lower()
    if verb == "trade":
        body = text[len(words[0]):].strip()
        if not body:
            raise NotationError(f"'{text}': a trade needs steps, e.g. 'trade money 5 from red to blue; lot A2 from blue to red'")
        body, by = _split_by(body, names)
        steps = tuple(_step(part.strip(), names, board) for part in body.split(";") if part.strip())
        return A.Trade(steps, by)
    if verb == "reroll":  # reroll C5 4 C6 2 (bare 'reroll': the dice come with --dice)
        pairs = words[1:]
        if len(pairs) % 2:
            raise NotationError(f"'{text}': expected 'reroll LOT FACE [LOT FACE ...]', e.g. 'reroll C5 4 C6 2'")
        values = []
        for lot_w, face in zip(pairs[::2], pairs[1::2]):
            if not (face.isascii() and face.isdigit()) or not 1 <= int(face) <= 6:
                raise NotationError(f"'{text}': '{face}' is not a die face (1-6)")
            values.append((_lot(lot_w, board, text), int(face)))
        return A.Reroll(tuple(values))
    if verb == "move":
        if len(words) != 3 or words[1].lower() not in ("marker", "die"):
            raise NotationError(f"'{text}': expected 'move marker LOT' or 'move die LOT'")
        return A.Choose(f"{words[1].lower()}_from", _lot(words[2], board, text))
    if verb == "draw":
        cards, player = [], None
        if len(words) >= 3 and words[-2].lower() == "by":  # who says they draw: only the current player may
            player, words = _player(words[-1], names, text), words[:-2]
        for w in words[1:]:
            card = w.upper()
            if card != END_CARD and card not in board.lots:
                raise NotationError(f"'{text}': unknown card '{w}' (a lot, A1-F9, or {END_CARD})")
            cards.append(card)
        return A.Draw(tuple(cards), player)
    return _single(words, text, names, board)


def _split_by(body: str, names: list[str]) -> tuple[str, tuple[int, ...]]:
    """``STEPS by green, black`` -> (STEPS, (green, black)); the tail counts only when it is all player names."""
    at = body.lower().rfind(" by ")
    if at < 0:
        return body, ()
    tail = [w.strip() for w in body[at + 4:].split(",")]
    lower = [n.lower() for n in names]
    if not tail or not all(w.lower() in lower for w in tail):
        return body, ()
    return body[:at], tuple(lower.index(w.lower()) for w in tail)


def _step(text: str, names: list[str], board: Board):
    words = text.split(" ")
    verb = words[0].lower()
    if verb in _GIVE:
        what = "AMOUNT" if verb in ("money", "points") else "LOT"
        _expect(words, 6, f"{verb} {what} from PLAYER to PLAYER", text)
        if words[2].lower() != "from" or words[4].lower() != "to":
            raise NotationError(f"'{text}': expected '{verb} ... from PLAYER to PLAYER'")
        giver, receiver = _player(words[3], names, text), _player(words[5], names, text)
        if verb in ("money", "points"):
            return _GIVE[verb](giver, receiver, _amount(words[1], text))
        return _GIVE[verb](_lot(words[1], board, text), giver, receiver)
    if verb == "promise":
        if len(words) < 6 or words[1].lower() != "from" or words[3].lower() != "to":
            raise NotationError(f"'{text}': expected 'promise from PLAYER to PLAYER WHAT'")
        return A.Promise(_player(words[2], names, text), _player(words[4], names, text), " ".join(words[5:]))
    if verb == "as":
        if len(words) < 3:
            raise NotationError(f"'{text}': expected 'as PLAYER ACTION', e.g. 'as red build A2 gold'")
        return A.ActAs(_player(words[1], names, text), _step(" ".join(words[2:]), names, board))
    if verb in ("trade", "end", "draw", "reroll", "move"):
        raise NotationError(f"'{text}': '{verb}' cannot be a step of a trade")
    return _single(words, text, names, board)


def _single(words: list[str], text: str, names: list[str], board: Board):
    verb = words[0].lower()
    if verb == "build":
        _expect(words, 3, "build LOT COLOUR", text)
        return A.Build(_lot(words[1], board, text), _color(words[2], board, text))
    if verb == "sprawl":
        _expect(words, 4, "sprawl LOT from LOT", text)
        if words[2].lower() != "from":
            raise NotationError(f"'{text}': expected 'sprawl LOT from LOT'")
        return A.Sprawl(_lot(words[1], board, text), _lot(words[3], board, text))
    if verb == "remodel":
        _expect(words, 3, "remodel LOT COLOUR", text)
        return A.Remodel(_lot(words[1], board, text), _color(words[2], board, text))
    if verb in ("reorg", "reorganize", "reorganise"):
        _expect(words, 2, "reorg LOT", text)
        return A.Reorganize(_lot(words[1], board, text))
    if verb == "raise":
        _expect(words, 2, "raise LOT", text)
        return A.Raise(_lot(words[1], board, text))
    if verb == "gamble":
        if len(words) == 4 and words[3].lower() in ("layoff", "lay-off", "lay_off"):
            return A.Gamble(_lot(words[1], board, text), _amount(words[2], text), True)
        _expect(words, 3, "gamble LOT BET [layoff]", text)
        return A.Gamble(_lot(words[1], board, text), _amount(words[2], text))
    if verb == "end":
        _expect(words, 1, "end", text)
        return A.EndTurn()
    raise NotationError(f"'{text}': unknown decision '{words[0]}' (decisions: {', '.join(VERBS)})")


def format_action(action, names: list[str]) -> str:
    """An action in the notation ``lv move`` and records use (``build A2 gold``); ``names``: the players."""
    if isinstance(action, A.Build):
        return f"build {action.lot} {action.color}"
    if isinstance(action, A.Sprawl):
        return f"sprawl {action.lot} from {action.source}"
    if isinstance(action, A.Remodel):
        return f"remodel {action.lot} {action.color}"
    if isinstance(action, A.Reorganize):
        return f"reorg {action.lot}"
    if isinstance(action, A.Raise):
        return f"raise {action.lot}"
    if isinstance(action, A.Gamble):
        return f"gamble {action.lot} {action.bet}" + (" layoff" if action.lay_off else "")
    if isinstance(action, A.EndTurn):
        return "end"
    if isinstance(action, A.Reroll):
        return " ".join(["reroll"] + [f"{lot} {v}" for lot, v in action.values])
    if isinstance(action, A.Choose):
        return f"move {action.what.split('_')[0]} {action.lot}"
    if isinstance(action, A.Draw):
        drawer = ("by", names[action.player]) if action.player is not None else ()
        return " ".join(("draw",) + tuple(action.cards) + drawer)
    if isinstance(action, (A.GiveMoney, A.GivePoints)):
        return f"{action.kind} {action.amount} from {names[action.giver]} to {names[action.receiver]}"
    if isinstance(action, (A.GiveLot, A.GiveDie, A.GiveTile, A.GiveRiser)):
        return f"{action.kind} {action.lot} from {names[action.giver]} to {names[action.receiver]}"
    if isinstance(action, A.Promise):
        return f"promise from {names[action.giver]} to {names[action.receiver]} {action.text}"
    if isinstance(action, A.ActAs):
        return f"as {names[action.player]} {format_action(action.action, names)}"
    if isinstance(action, A.Trade):
        by = f" by {', '.join(names[i] for i in action.by)}" if action.by else ""
        return "trade " + "; ".join(format_action(s, names) for s in action.steps) + by
    raise TypeError(f"not a decision: {action!r}")
