"""lv: a data-driven rules engine for Lords of Vegas and its rule editions.

    import lv
    game = lv.new_game("revised", ["red", "blue", "green"], seed=7)
    game.apply(lv.parse_action("end", game.player_names))
"""

from __future__ import annotations

__version__ = "0.1.0"

from .actions import (Build, EndTurn, Gamble, GiveDie, GiveLot, GiveMoney, Raise, Remodel, Reorganize, Sprawl,
                      Trade)
from .board import END_CARD, Board, load_board
from .errors import (BoardError, GameOver, IllegalAction, LvError, NotationError, ProfileError, RecordError)
from .events import Event
from .game import Game, new_game
from .notation import format_action, parse_action
from .profile import Profile, load_profile, profile_names

__all__ = [
    "Board", "Build", "END_CARD", "EndTurn", "Event", "Gamble", "Game", "GameOver", "GiveDie", "GiveLot",
    "GiveMoney", "IllegalAction", "LvError", "NotationError", "BoardError", "Profile", "ProfileError", "Raise",
    "RecordError", "Remodel", "Reorganize", "Sprawl", "Trade", "__version__", "format_action", "load_board",
    "load_profile", "new_game", "parse_action", "profile_names",
]
