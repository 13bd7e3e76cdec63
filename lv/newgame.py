"""``lv.new_game``: ``lv.game.new_game`` with its arguments checked first, outside the compiled core, so that
both builds answer alike (issue 28.6; lv/arguments.py checks the decisions given to a game)."""

from __future__ import annotations

from typing import Any

from .arguments import ArgumentError, is_whole
from .game import Game, new_game as make
from .profile import Profile
from .yamlsource import one_line


def new_game(profile: Profile | str, players: list[str] | tuple[str, ...] | int, seed: int | str = 0,
             **kwargs: Any) -> Game:
    """``lv.new_game``: create a game (``lv.game.new_game``) after checking its arguments: a profile (object or
    spec), player names (a list or tuple) or a count, a seed (a whole number or
    a text); keyword arguments as for ``Game``."""
    if not isinstance(profile, (str, Profile)):
        raise ArgumentError(f"new_game: profile {one_line(repr(profile))[:80]}: a Profile or a profile spec (a "
                            "variant's name or file, as 'lv variants list' shows)")
    if isinstance(players, (list, tuple)):
        if not all(isinstance(p, str) for p in players):
            raise ArgumentError(f"new_game: players {one_line(repr(players))[:80]}: names are texts")
        players = list(players)
    elif not is_whole(players):
        raise ArgumentError(f"new_game: players {one_line(repr(players))[:80]}: a number of players or a list "
                            "of names")
    if not (is_whole(seed) or isinstance(seed, str)):
        raise ArgumentError(f"new_game: seed {one_line(repr(seed))[:80]}: a whole number or a text")
    return make(profile, players, seed, **kwargs)
