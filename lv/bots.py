"""Bots: a function from (game, legal decisions, its own generator) to a decision.

``random``: uniform over the legal decisions of the moment (ending the turn is one of them; a gamble counts once
per casino, at a uniformly random stake from $1 to the cap).
``random-kind``: a uniformly random kind of decision among those available (build, sprawl, remodel, reorganize,
raise, gamble, end), then a uniformly random one of that kind. Still random and legal, but a remodel no longer
crowds out the rest just because it comes in five colours, so its games use every action (``lv selfplay``).
"""

from __future__ import annotations

import random
from typing import Callable

from . import actions as A
from .chance import rng_for

Bot = Callable[["object", list, random.Random], object]


def random_bot(game, legal: list, rng: random.Random):
    action = rng.choice(legal)
    if isinstance(action, A.Gamble):
        return A.Gamble(action.lot, rng.randint(1, action.bet))
    return action


def random_kind_bot(game, legal: list, rng: random.Random):
    kinds: dict[str, list] = {}
    for action in legal:
        kinds.setdefault(type(action).__name__, []).append(action)
    return random_bot(game, kinds[rng.choice(sorted(kinds))], rng)


BOTS: dict[str, Bot] = {"random": random_bot, "random-kind": random_kind_bot}


def play(game, bots: list[Bot], seed: int | str = 0, max_decisions: int = 100_000):
    """Play ``game`` to its end, seat i using ``bots[i]``, each with its own seeded generator."""
    rngs = [rng_for(seed, "bot", i) for i in range(len(bots))]
    for _ in range(max_decisions):
        if game.over:
            return game
        seat = game.state.current
        game.apply(bots[seat](game, game.legal_actions(), rngs[seat]))
    raise RuntimeError(f"game did not end within {max_decisions} decisions")
