"""``value``: a player that looks one decision ahead and judges each position by a model learned from self-play
(``lv train``, lv/learn.py), for the profile it was trained for.

The evaluation reads the state generically, the same way under any profile: each player's money and points, the
lots it holds unbuilt, its dice and their pips, the casinos it bosses and what they score, and what a draw is
expected to pay and score it (the unseen cards' colours, as the rules pay them: ``Engine.points`` and the
payout per pip). The features of one player are its own figures beside the best and the mean of its rivals',
each alone and times how far the game has gone (the share of the cards still unseen). A linear model over them
(weights fitted by lv/learn.py) says how good the position is for that player: its expected reward, half the
win and half its share of the points, as the ``mcts`` bot counts a game. A finished game is judged by its result.

The player (``ValueBot``) tries every legal decision on a copy of the state (the engine's own legal list and
``Engine.apply``: whatever the profile allows, a house rule's new action too; a gamble at its cap and half of it,
as ``mcts``) and takes the one whose position the model likes best; ending the turn is judged by the position as
it is. A decision that rolls dice (the engine asks for them: reorganize, gamble, or anything a profile adds) is
judged by the mean over ``samples`` rolls from the bot's own generator, an expectation over the chance outcomes.
It knows nothing of the order of the draw pile, nor does it plan a turn as a whole or look at its rivals'
replies: what it knows of them is what the weights learned.

The model is a plain JSON file: the profile's name and a hash of its resolved values, the player count it was
trained at, the feature names, their means and scales, and the weights. Used with another profile, the bot
warns once (on stderr); a file that is not such a model is an ``LvError`` naming it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import actions as A
from .board import END_CARD, STRIP
from .chance import Dice
from .errors import IllegalAction, LvError
from .mcts import choices
from .state import GameState

if TYPE_CHECKING:
    from .profile import Profile
    from .rules import Engine

FORMAT = "lv-value-model-1"
# each player's figures, in this order (``player_figures``)
FIGURES = ("money", "score", "markers", "dice", "pips", "bossed", "boss_points", "draw_points", "draw_money",
           "projected")
FEATURES = tuple([f"{kind}_{f}{when}" for when in ("", "_x_left") for f in FIGURES
                  for kind in ("own", "best_rival", "mean_rival")] + ["cards_left"])
SAMPLES = 6  # rolls a decision that rolls dice is judged over
MODELS = Path(__file__).parent / "models"  # the models lv ships (``value`` alone: the one for the game's profile)


def profile_hash(profile: Profile) -> str:
    """A hash of every resolved value of ``profile`` (names and titles aside): two profiles that play alike share
    it."""
    text = json.dumps(profile.values(every=True), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def draw_odds(engine: Engine, s: GameState) -> tuple[dict[str, float], float, int]:
    """What the next draw pays, as far as a player knows (the unseen cards, not their order): the chance it pays
    each colour, the chance it pays the casinos on the Strip, and the number of unseen cards."""
    lots = engine.board.lots
    counts: dict[str, int] = {}
    unseen = 0
    for card in s.deck:
        if card == END_CARD:
            continue
        unseen += 1
        pays = lots[card].card
        counts[pays] = counts.get(pays, 0) + 1
    total = unseen or 1
    odds = {pays: k / total for pays, k in counts.items()}
    return odds, odds.pop(STRIP, 0.0), unseen


def player_figures(engine: Engine, s: GameState, odds: tuple[dict[str, float], float, int]) -> list[list[float]]:
    """Each player's figures (``FIGURES``), read from the state through the engine (no edition's name)."""
    n = len(s.players)
    colour_odds, strip_odds, unseen = odds
    per_pip = engine.profile.payout.money_per_pip
    strip_mask = engine.board.strip_mask
    owners, values = s.die_owners, s.die_values
    pips = [0.0] * n
    for i, owner in enumerate(owners):
        if owner is not None and owner < n:
            pips[owner] += values[i]
    bossed = [0.0] * n
    boss_points = [0.0] * n
    draw_points = [0.0] * n
    draw_money = [0.0] * n
    for casino, facts in engine.index(s).with_dice():
        chance = colour_odds.get(casino.color, 0.0) + (strip_odds if casino.mask & strip_mask else 0.0)
        if chance:
            for i in casino.bits:
                owner = owners[i]
                if owner is not None and owner < n:
                    draw_money[owner] += chance * values[i] * per_pip
        boss = facts.boss
        if boss is None or boss >= n:
            continue
        points = engine.points(s, casino)
        bossed[boss] += 1
        boss_points[boss] += points
        draw_points[boss] += chance * points
    left = 0.75 * unseen  # the draws left, roughly (the end card lies about a quarter from the bottom)
    out = []
    for p in range(n):
        player = s.players[p]
        out.append([player.money / 10, player.score / 10, float(s.marker_count(p)), float(s.dice_count(p)),
                    pips[p] / 5, bossed[p], boss_points[p] / 5, draw_points[p], draw_money[p],
                    (player.score + draw_points[p] * left) / 10])
    return out


def features(figures: list[list[float]], p: int, cards_left: float) -> list[float]:
    """Player ``p``'s feature vector (``FEATURES``) from every player's figures; ``cards_left``: the share of the
    cards still unseen (0 to 1)."""
    own = figures[p]
    rivals = [f for q, f in enumerate(figures) if q != p]
    base: list[float] = []
    for k in range(len(own)):
        column = [r[k] for r in rivals] or [0.0]
        base += [own[k], max(column), sum(column) / len(column)]
    return base + [x * cards_left for x in base] + [cards_left]


def cards_left(s: GameState) -> float:
    """The share of the play's cards still unseen."""
    total = len(s.deck) + len(s.discards)
    return len(s.deck) / total if total else 0.0


def reward(s: GameState, p: int) -> float:
    """A finished game's reward for player ``p`` (as mcts counts it): half the win, half the share of points."""
    scores = [pl.score for pl in s.players]
    total = sum(scores)
    won = s.result is not None and s.result.winner == p
    return 0.5 * won + 0.5 * (scores[p] / total if total else 1 / len(scores))


class Model:
    """A linear evaluation of a position for one player, for one profile (see the module's docstring)."""

    def __init__(self, profile: str, profile_hash: str, players: int, mean: list[float], scale: list[float],
                 weights: list[float], bias: float, info: dict[str, Any] | None = None) -> None:
        self.profile = profile
        self.profile_hash = profile_hash
        self.players = players
        self.mean = mean
        self.scale = scale
        self.weights = weights
        self.bias = bias
        self.info: dict[str, Any] = info or {}
        # folded once: value = bias' + sum(w' * x)
        self._w = [w / sc for w, sc in zip(weights, scale)]
        self._b = bias - sum(w * m / sc for w, m, sc in zip(weights, mean, scale))

    def value(self, x: list[float]) -> float:
        total = self._b
        for w, v in zip(self._w, x):
            total += w * v
        return total

    def values(self, engine: Engine, s: GameState,
               odds: tuple[dict[str, float], float, int] | None = None) -> list[float]:
        """Each player's value of the position (a finished game: its reward)."""
        n = len(s.players)
        if s.phase == "over":
            return [reward(s, p) for p in range(n)]
        figures = player_figures(engine, s, odds if odds is not None else draw_odds(engine, s))
        left = cards_left(s)
        return [self.value(features(figures, p, left)) for p in range(n)]

    def value_of(self, engine: Engine, s: GameState, p: int, odds: tuple[dict[str, float], float, int]) -> float:
        """Player ``p``'s value of the position (``values``, for one player)."""
        if s.phase == "over":
            return reward(s, p)
        return self.value(features(player_figures(engine, s, odds), p, cards_left(s)))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "profile": self.profile, "profile_hash": self.profile_hash,
                "players": self.players, "features": list(FEATURES), "mean": self.mean, "scale": self.scale,
                "weights": self.weights, "bias": self.bias, "info": self.info}

    def save(self, path: str | Path) -> None:
        """Write the model as JSON, atomically under the folder's lock, as lv writes every file."""
        from .files import write_atomic

        write_atomic(path, json.dumps(self.to_dict(), indent=1) + "\n")


def model_digest(model: Model) -> str:
    """A hash of what a model plays by (its profile's values, player count, features, means, scales, weights and
    bias; how it was made aside): two files that play alike share it."""
    text = json.dumps({k: v for k, v in model.to_dict().items() if k != "info"}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def model_of(bot: Any, profile: Profile, players: int) -> Model | None:
    """The value model ``bot`` plays games of ``profile`` at ``players`` with: a ``value`` player's, a
    ``value-mcts`` player's (its leaves'), either restricted; None for a bot that plays by none. Nothing printed
    (``ValueBot.model_for`` warns when the bot plays)."""
    inner = getattr(bot, "bot", bot)  # a restricted player's own (bots.Restricted)
    valued = getattr(getattr(inner, "leaf", None), "__self__", inner)  # value-mcts: its leaves' ValueBot
    if not isinstance(valued, ValueBot):
        return None
    return valued.model if valued.model is not None else shipped_model(profile, players)


MAX_MODEL_BYTES = 1_000_000


def load_model(path: str | Path) -> Model:
    """The model in ``path`` (``Model.save``). LvError, naming the file, when it cannot be read or is not one."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_MODEL_BYTES + 1)  # a model is a few kB: never read an endless file whole
        if len(raw) > MAX_MODEL_BYTES:
            raise LvError(f"model '{path}': larger than {MAX_MODEL_BYTES:,} bytes: not an lv value model")
        data = json.loads(raw.decode("utf-8"))
    except OSError as err:
        raise LvError(f"model '{path}': cannot read it ({err.strerror or err})") from None
    except (ValueError, UnicodeDecodeError) as err:
        raise LvError(f"model '{path}': not a JSON file ({err})") from None
    except RecursionError:
        raise LvError(f"model '{path}': not a JSON file (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LvError(f"model '{path}': not an lv value model (no \"format\": \"{FORMAT}\"; make one with lv train)")
    n = len(FEATURES)
    try:
        if data["features"] != list(FEATURES):
            raise ValueError("its features are not this lv's")
        lists = [[float(v) for v in data[k]] for k in ("mean", "scale", "weights")]
        if any(len(v) != n for v in lists):
            raise ValueError(f"mean, scale and weights must hold {n} numbers each")
        if not all(math.isfinite(v) for lst in lists for v in lst) or any(v <= 0 for v in lists[1]):
            raise ValueError("a number is not finite, or a scale is not positive")
        bias = float(data["bias"])
        players = int(data["players"])
        profile, digest = str(data["profile"]), str(data["profile_hash"])
        info = data.get("info") or {}
        if not isinstance(info, dict):
            raise ValueError("info is not a mapping")
    except KeyError as err:
        raise LvError(f"model '{path}': malformed, {err.args[0]!r} is missing") from None
    except (TypeError, ValueError) as err:
        raise LvError(f"model '{path}': malformed, {err}") from None
    return Model(profile, digest, players, lists[0], lists[1], lists[2], bias, info)


class _Counting(random.Random):
    """A generator that counts the dice drawn from it: the engine asking for dice is how the bot learns that a
    decision rolls them (whatever the profile's decisions are)."""

    rolls = 0

    def randint(self, a: int, b: int) -> int:
        self.rolls += 1
        return super().randint(a, b)


class ValueBot:
    """``value:FILE``: one decision ahead, each position judged by the model in FILE (see the module's
    docstring). A value: compared and hashed by its model file and samples."""

    def __init__(self, model: Model | None, source: str = "", samples: int = SAMPLES) -> None:
        self.model = model  # None: the shipped model trained for the game's profile (``shipped_model``)
        self.source = source or (model.profile if model is not None else "")
        self.samples = samples
        self._checked: dict[str, Model] = {}  # profile label -> the model used (checked, warned once)

    def check(self, profile: Profile, model: Model | None = None) -> str | None:
        """The warning owed when the model was trained for another profile than ``profile`` (None: the same)."""
        model = model or self.model
        assert model is not None
        digest = profile_hash(profile)
        if digest == model.profile_hash:
            return None
        return (f"warning: model '{self.source or model.profile}' was trained for profile '{model.profile}' "
                f"({model.profile_hash}); this game's profile '{profile.label}' differs ({digest})")

    def check_profile(self, profile: Profile) -> None:
        """``lv ladder``'s question before any game (issue 29: a model for another profile is an error there, not
        a rating of a player in a game it was not trained for); in a game it only warns (``model_for``). LvError
        for a model given as a file (``value:FILE``) trained for another profile; the shipped models (``value``
        alone) take the one trained for the profile nearest to it, as in play."""
        model = self.model
        if model is None:
            return
        digest = profile_hash(profile)
        if digest != model.profile_hash:
            raise LvError(f"model '{self.source or model.profile}' was trained for profile '{model.profile}' "
                          f"({model.profile_hash}), not for '{profile.label}' ({digest}): make one for it with "
                          f"lv train {profile.label} -o FILE")

    def model_for(self, profile: Profile, players: int) -> Model:
        """The model to play ``profile`` with, its check made (and its warning printed) once per profile."""
        key = f"{players} {profile.label}"
        model = self._checked.get(key)
        if model is None:
            model = self.model if self.model is not None else shipped_model(profile, players)
            message = self.check(profile, model)
            if message:
                print(message, file=sys.stderr)
            self._checked[key] = model
        return model

    def __call__(self, game: Any, legal: list[A.Decision], rng: random.Random) -> A.Decision:
        return self.ranked(game, legal, rng)[0]

    def ranked(self, game: Any, legal: list[A.Decision], rng: random.Random) -> list[A.Decision]:
        """The decisions the bot tells apart (``choices``: a gamble at its cap and half of it), the one whose
        position the model likes best first, ties in the order listed; ``value-mcts`` searches them in this
        order."""
        model = self.model_for(game.profile, len(game.state.players))
        options = choices(legal)
        if len(options) == 1:
            return options
        s, engine = game.state, game.engine
        me = s.current
        odds = draw_odds(engine, s)
        dice_rng = _Counting(rng.getrandbits(64))
        quiet = engine.quiet
        engine.quiet = True
        values: list[float] = []
        try:
            for action in options:
                if isinstance(action, A.EndTurn):
                    values.append(model.value_of(engine, s, me, odds))
                else:
                    values.append(self._after(model, engine, s, action, me, odds, dice_rng))
        finally:
            engine.quiet = quiet
        order = sorted(range(len(options)), key=lambda i: (-values[i], i))
        return [options[i] for i in order]

    def leaf(self, engine: Engine, s: GameState) -> list[float]:
        """Each player's value of the position by the model for its game's profile (``value-mcts``'s leaves)."""
        return self.model_for(engine.profile, len(s.players)).values(engine, s)

    def _after(self, model: Model, engine: Engine, s: GameState, action: A.Decision, me: int,
               odds: tuple[dict[str, float], float, int], dice: _Counting) -> float:
        """The model's value for ``me`` after ``action``: the mean over ``samples`` rolls if it rolls dice."""
        total, tries = 0.0, 0
        for _ in range(self.samples):
            t = s.copy()
            dice.rolls = 0
            try:
                engine.apply(t, action, Dice.sampled(dice), [])
            except IllegalAction:
                return -math.inf
            total += model.value_of(engine, t, me, odds)
            tries += 1
            if not dice.rolls:
                break
        return total / tries

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ValueBot) and (self.source, self.samples) == (other.source, other.samples)

    def __hash__(self) -> int:
        return hash(("value", self.source, self.samples))

    def __repr__(self) -> str:
        return f"ValueBot({self.source!r})"


def shipped_model(profile: Profile, players: int) -> Model:
    """The model lv ships (``MODELS``) trained for ``profile`` (by the hash of its values), at this player count
    if there is one (else at the nearest count); else the one trained for the shipped profile nearest to it, the
    fewest values apart (the bot then warns)."""
    from .profile import load_profile

    digest = profile_hash(profile)
    models = [load_model(path) for path in sorted(MODELS.glob("*.json"))]
    # at the game's player count, else the nearest count (a model plays at any count, but was fitted at one)
    same = sorted((m for m in models if m.profile_hash == digest), key=lambda m: abs(m.players - players))
    if same:
        return same[0]
    if not models:
        raise LvError(f"bot 'value': no model shipped in {MODELS}; make one with lv train and play value:FILE")
    mine = profile.values(every=True)

    def apart(model: Model) -> int:
        theirs = load_profile(model.profile).values(every=True)
        return sum(theirs.get(k) != v for k, v in mine.items())

    return min(models, key=apart)


def value_bot(param: str) -> ValueBot:
    """``value:FILE`` (a model made by ``lv train``; ``value:NAME``, a shipped model by its file's name) or
    ``value`` alone (the shipped model for the game's profile)."""
    if not param:
        return ValueBot(None)
    path = Path(param)
    if not path.exists() and (MODELS / f"{param}.json").exists():
        path = MODELS / f"{param}.json"
    return ValueBot(load_model(path), param)
