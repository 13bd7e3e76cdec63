"""A bot of your own for ``lv selfplay`` and ``lv simulate``: ``--bot my_bot:choose`` (run from this folder, or
with it on PYTHONPATH; from the repository root: ``--bot examples.my_bot:choose``).

A bot is a function ``choose(game, legal, rng) -> decision``:

- ``game``: the ``lv.Game`` being played (read it, never change it): ``game.state.current`` is your seat,
  ``game.state.players[i].money`` and ``.score``, ``game.casinos()``, ``game.board.lots[lot].price``;
- ``legal``: the legal decisions now (``lv.Build``, ``lv.Sprawl``, ``lv.Remodel``, ``lv.Reorganize``,
  ``lv.Raise``, ``lv.Gamble``, ``lv.EndTurn``), ending the turn always among them; a gamble is listed once per
  casino with the largest bet allowed, and any bet from $1 to it is legal;
- ``rng``: your own ``random.Random``, seeded from the game seed and your seat: draw every random choice from
  it (never from the ``random`` module's global functions), so the same seed gives the same game.

Return one of ``legal`` (or a gamble at a smaller stake). Do not look at ``game.state.deck``: its order is the
hidden draw pile.

This one builds on the cheapest lot it can (in the colour with the most tiles left), then ends the turn.
"""

from __future__ import annotations

import random

import lv


def choose(game: lv.Game, legal: list, rng: random.Random):
    builds = [a for a in legal if isinstance(a, lv.Build)]
    if builds:
        lots = game.board.lots
        cheapest = min(lots[a.lot].price for a in builds)
        options = [a for a in builds if lots[a.lot].price == cheapest]
        most_left = max(game.engine.available_tiles(game.state, a.color) for a in options)
        return rng.choice([a for a in options if game.engine.available_tiles(game.state, a.color) == most_left])
    return next(a for a in legal if isinstance(a, lv.EndTurn))
