"""``lv train PROFILE -o FILE``: fit the ``value`` player's evaluation (lv/evaluate.py) for one profile from
self-play. Needs numpy (``pip install "lv[learn]"``).

Rounds of self-play: the first with ``greedy`` players that now and then (``EXPLORE``) take a uniformly random
kind of decision instead (``random-kind``), so the positions cover more than greedy's habits; each later round
with the model of the round before in half the seats. At a share (``SAMPLE``) of the decision points, every
player's features are kept; when the game ends each row is labelled with that player's reward (half the win,
half its share of the points). A ridge regression over the standardized features (numpy's least squares) gives
the weights; every round refits on all the rows so far. Same profile, seed and sizes: the same model, byte for
byte.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from . import actions as A
from .bots import GreedyBot, random_kind_bot
from .chance import rng_for
from .errors import LvError
from .evaluate import FEATURES, Model, ValueBot, cards_left, draw_odds, features, player_figures, profile_hash, reward
from .game import Game, new_game
from .profile import Profile

EXPLORE = 0.1  # the share of decisions a training player takes at random (of a random kind)
SAMPLE = 0.3  # the share of decision points whose features are kept
RIDGE = 1.0  # the ridge penalty, on standardized features
MAX_DECISIONS = 100_000


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise LvError('lv train needs numpy: pip install "lv[learn]"') from None
    return numpy


def self_play(profile: Profile, players: int, games: int, seed: int, model: Model | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[list[list[float]], list[float]]:
    """Rows of features and their labels from ``games`` games of self-play (see the module's docstring)."""
    greedy = GreedyBot()
    rows: list[list[float]] = []
    labels: list[float] = []
    for g in range(games):
        game_seed = f"{seed}/{g}/{0 if model is None else 1}"
        game = new_game(profile, players, game_seed, quiet=True)
        rng = rng_for(seed, "train", g, 0 if model is None else 1)
        bots: list[Any] = [greedy] * players
        if model is not None:  # the model in half the seats, which ones by game
            valued = ValueBot(model, samples=2)
            valued._checked[f"{players} {profile.label}"] = model
            for seat in range(players):
                if (seat + g) % 2 == 0:
                    bots[seat] = valued
        kept: list[tuple[int, list[float]]] = []
        _play(game, bots, rng, kept)
        for p, x in kept:
            rows.append(x)
            labels.append(reward(game.state, p))
        if progress is not None:
            progress(g + 1)
    return rows, labels


def _play(game: Game, bots: list[Any], rng: random.Random, kept: list[tuple[int, list[float]]]) -> None:
    engine = game.engine
    for _ in range(MAX_DECISIONS):
        s = game.state
        if s.phase == "over":
            return
        legal = game.legal_actions()
        if rng.random() < SAMPLE:
            figures = player_figures(engine, s, draw_odds(engine, s))
            left = cards_left(s)
            kept.extend((p, features(figures, p, left)) for p in range(len(s.players)))
        if rng.random() < EXPLORE:
            decision = random_kind_bot(game, legal, rng)
        else:
            decision = bots[s.current](game, legal, rng)
        if isinstance(decision, A.Gamble) and decision.bet < 1:
            decision = A.Gamble(decision.lot, 1)
        game.apply(decision)
    raise RuntimeError(f"a training game did not end within {MAX_DECISIONS} decisions")


def fit(rows: list[list[float]], labels: list[float], profile: Profile, players: int,
        info: dict[str, Any]) -> Model:
    """The ridge regression of ``labels`` on ``rows`` (standardized), as a Model for ``profile``."""
    np = _numpy()
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    bias = float(y.mean())
    gram = z.T @ z + RIDGE * np.eye(z.shape[1])
    weights = np.linalg.solve(gram, z.T @ (y - bias))
    fitted = z @ weights + bias
    info = dict(info, rows=len(rows), r2=round(1 - float(((y - fitted) ** 2).sum() / ((y - bias) ** 2).sum()), 4))
    return Model(profile.label, profile_hash(profile), players, [float(v) for v in mean],
                 [float(v) for v in scale], [float(v) for v in weights], bias, info)


def train(profile: Profile, players: int = 4, games: int = 2000, rounds: int = 1, seed: int = 0,
          progress: Callable[[str, int, int], None] | None = None) -> Model:
    """A model for ``profile``: ``rounds`` rounds of ``games`` self-play games each (see the module's
    docstring)."""
    _numpy()
    if len(FEATURES) == 0 or games < 1 or rounds < 1:
        raise LvError("lv train: --games and --rounds must be at least 1")
    start = time.process_time()
    rows: list[list[float]] = []
    labels: list[float] = []
    model: Model | None = None
    for r in range(rounds):
        def step(done: int, r: int = r) -> None:
            if progress is not None:
                progress(f"round {r + 1} of {rounds}", done, games)
        more_rows, more_labels = self_play(profile, players, games, seed, model, step)
        rows += more_rows
        labels += more_labels
        info = {"games": games * (r + 1), "rounds": r + 1, "seed": seed, "explore": EXPLORE, "sample": SAMPLE,
                "ridge": RIDGE}
        model = fit(rows, labels, profile, players, info)
    assert model is not None
    model.info["cpu_seconds"] = round(time.process_time() - start, 1)
    return model
