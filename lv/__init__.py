"""lv: a data-driven rules engine for Lords of Vegas and its rule editions.

    import lv
    game = lv.new_game("revised", ["red", "blue", "green"], seed=7)
    game.apply(lv.parse_action("end", game.player_names))

The names below are imported on first use (PEP 562), so ``import lv`` and the command line's start stay fast:
a command that only prints help never loads the engine, attrs, cattrs or YAML.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

# public name -> the module that defines it
_LAZY = {
    **dict.fromkeys(("Build", "EndTurn", "Gamble", "GiveDie", "GiveLot", "GiveMoney", "Raise", "Remodel",
                     "Reorganize", "Sprawl", "Trade"), "actions"),
    **dict.fromkeys(("END_CARD", "Board", "load_board"), "board"),
    **dict.fromkeys(("BoardError", "GameOver", "IllegalAction", "LvError", "NotationError", "ProfileError",
                     "RecordError"), "errors"),
    "Event": "events",
    "Game": "game",
    "new_game": "newgame",  # lv.game.new_game, its arguments checked first (both builds alike)
    "Result": "state",
    **dict.fromkeys(("format_action", "parse_action"), "notation"),
    **dict.fromkeys(("Profile", "load_profile", "profile_names"), "profile"),
    **dict.fromkeys(("Record", "load_record", "parse_record", "record_of", "save_record"), "record"),
    "Replay": "replay",  # the function lv.replay.replay: ``lv.replay`` is the module's name
}

__all__ = sorted(_LAZY) + ["__version__", "build_name"]


def build_name() -> str:
    """Which build of lv runs: ``"compiled"`` when the core was compiled with mypyc (``LV_COMPILE=1 pip install
    .``), else ``"pure Python"``; ``lv --version`` prints it. Found by where the engine's module would load from
    (a ``.so``/``.pyd`` file), without loading it."""
    spec = importlib.util.find_spec(f"{__name__}.rules")
    origin = spec.origin if spec is not None else None
    return "compiled" if origin is not None and origin.endswith((".so", ".pyd")) else "pure Python"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lv' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


if TYPE_CHECKING:  # what type checkers and editors see: the same names, imported eagerly ("X as X": re-exported)
    from .actions import (Build as Build, EndTurn as EndTurn, Gamble as Gamble, GiveDie as GiveDie,
                          GiveLot as GiveLot, GiveMoney as GiveMoney, Raise as Raise, Remodel as Remodel,
                          Reorganize as Reorganize, Sprawl as Sprawl, Trade as Trade)
    from .board import END_CARD as END_CARD, Board as Board, load_board as load_board
    from .errors import (BoardError as BoardError, GameOver as GameOver, IllegalAction as IllegalAction,
                         LvError as LvError, NotationError as NotationError, ProfileError as ProfileError,
                         RecordError as RecordError)
    from .events import Event as Event
    from .newgame import new_game as new_game
    from .game import Game as Game
    from .notation import format_action as format_action, parse_action as parse_action
    from .profile import Profile as Profile, load_profile as load_profile, profile_names as profile_names
    from .record import (Record as Record, load_record as load_record, parse_record as parse_record,
                         record_of as record_of, save_record as save_record)
    from .replay import Replay as Replay
    from .state import Result as Result
