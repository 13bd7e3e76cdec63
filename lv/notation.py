"""The one-line decision notation, which round-trips: ``format_action(parse_action(text)) == text``.

    build A2 gold              sprawl A5 from A2          remodel A2 brown
    reorg A2                   raise A2                   gamble B3 4        gamble B3 4 layoff
    gamble B3 4 no-layoff      gamble B3 4 ask            layoff             no-layoff
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
The boss's lay-off (000 L194, ``gamble.lay_off: boss_option``) is the boss's answer, ``layoff`` or ``no-layoff``, to
a gamble that waits for it (``gamble B3 4 ask``: chosen without the answer; ``lv move`` asks the boss for a plain
``gamble B3 4``); ``gamble B3 4 layoff`` / ``gamble B3 4 no-layoff`` give the answer up front (records, scripts);
in a record a plain ``gamble B3 4`` is not laid off (lv/actions/layoff.py).
Errors say which word is wrong. Each action family parses and formats its own decisions (``lv/actions/``):
this module finds the family by the verb, or by the decision's class.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from . import actions as A
from .actions import VERBS, whole_number
from .board import Board, load_board
from .errors import LvError, NotationError
from .yamlsource import one_line

__all__ = ["VERBS", "check_names", "format_action", "name_problem", "new_name_problem", "parse_action",
           "whole_number"]


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


NAME_LIMIT = 40  # characters in a new game's player name: a name is printed in every table, turn and trade


def new_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be the name of a player of a new game, or None: ``name_problem``'s reasons first, then
    the notation's: it names a player by one word ('from red to blue', 'by red, blue', steps split at ';', and
    the command line's --deal red=A1 and --rolls red=6+5 at '='), so 'ann lee' could never trade; and at most
    ``NAME_LIMIT`` characters. Checked when a game is made (``lv new``, ``lv.new_game``), not when a record is
    read: a game made before still loads."""
    problem = name_problem(name)
    if problem:
        return problem
    if len(name) > NAME_LIMIT:
        return f"player name {one_line(repr(name[:NAME_LIMIT]))}...: at most {NAME_LIMIT} characters, not {len(name)}"
    odd = next((c for c in name if c.isspace() or c in ",;="), None)
    if odd is not None:
        return (f"player name {one_line(repr(name))}: one word without {odd!r}, as the notation names players "
                "('trade money 2 from red to blue by red, blue')")
    return None


def check_names(names: Sequence[object], error: type[LvError] = NotationError) -> None:
    """``error`` unless ``names`` are valid player names that differ (also in case, as the notation ignores it)."""
    for name in names:
        problem = name_problem(name)
        if problem:
            raise error(problem)
    seen: dict[str, str] = {}
    for name in names:
        assert isinstance(name, str)  # name_problem said so
        key = unicodedata.normalize("NFC", name).lower()  # 'é' typed as one character or as e + accent: alike
        if key in seen:
            first, shown = repr(seen[key]), repr(name)
            if seen[key].lower() != name.lower():  # they look the same: show how each is written
                first, shown = ascii(seen[key]), ascii(name)
            raise error(f"player names must differ (also in case and accents): {first} and {shown}")
        seen[key] = name


def parse_action(text: str, names: Sequence[str], board: Board | None = None) -> A.Decision:
    """Parse one decision. ``names`` are the players in seat order (for trades)."""
    board = board or load_board()
    text = " ".join(text.strip().split())
    if not text:
        raise NotationError("empty decision")
    try:
        return A.parse_decision(text, names, board)
    except NotationError as refused:
        *kept, last = text.split(" ")
        if not kept or not re.fullmatch(r"\+?\$\d+(-\d+)?", last):
            raise
        try:  # a line copied from ``lv legal`` with its cost: say so rather than "expected 'build LOT COLOUR'"
            A.parse_decision(" ".join(kept), names, board)
        except NotationError:
            raise refused from None
        raise NotationError(f"'{text}': {last} is the cost 'lv legal' shows, not part of the decision: "
                            f"give '{' '.join(kept)}'") from None


def format_action(action: A.Decision, names: Sequence[str]) -> str:
    """An action in the notation ``lv move`` and records use (``build A2 gold``); ``names``: the players."""
    return A.format_decision(action, names)
