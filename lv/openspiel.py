"""Lords of Vegas as an OpenSpiel game, for any rule profile: ``python_lords_of_vegas`` (docs/openspiel.md).

    import pyspiel, lv.openspiel
    game = pyspiel.load_game("python_lords_of_vegas", {"profile": "original+f-block", "players": 2})
    state = game.new_initial_state()
    ... (chance nodes: state.chance_outcomes(); decisions: state.legal_actions())
    record = lv.openspiel.to_record(state)      # an lv-game/1 record: lv check verifies it
    again = lv.openspiel.load_state(game, state.history())  # a state sent as its ids (never as a pickle)

Parameters: ``profile`` (any profile spec: ``revised``, ``original+f-block``, a variant file: required, since
no edition is lv's favourite; overrides go in a variant file, as OpenSpiel's game string cannot hold them),
``players`` (default 2), ``spread`` (the end card's depth: floor(N/4) give or take this many cards; default 0,
the profile's own reading; ``lv.explicit``). Importing this module registers the game (the extra
``lv[openspiel]`` installs OpenSpiel).

The game is lv's ``ExplicitGame`` (lv/explicit.py): explicit chance nodes with their true probabilities, the
action ids of ``lv.actionspace``, returns from lv's ranking. It is a perfect-information game with chance, as
backgammon is in OpenSpiel: nothing is hidden (003 L236) and the deck has no order until it is drawn. The
observation (``observation_tensor``/``string``) is the position (lv/observation.py gives the layout); the
information state is the history of ids (``information_state_string``), and since the position says
everything a player needs, ``information_state_tensor`` is the observation's tensor.
"""

from __future__ import annotations

from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the extra
    raise ImportError(f"lv.openspiel needs OpenSpiel: pip install 'lv[openspiel]' ({err})") from None

from . import observation
from .actionspace import CHANCE_OUTCOMES, ActionSpace
from .explicit import CHANCE, TERMINAL, ExplicitGame
from .errors import LvError
from .profile import Profile, load_profile, profile_names

NAME = "python_lords_of_vegas"
MAX_GAME_LENGTH = 20_000  # decisions: a bound no game comes near (a random game takes a few hundred)
DEFAULTS: dict[str, Any] = {"profile": "", "players": 2, "spread": 0}  # "": the profile must be given

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Lords of Vegas (lv, any rule profile)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class LordsOfVegasGame(pyspiel.Game):  # type: ignore[misc]
    """The game under one profile and number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULTS, **(params or {})}
        if not values["profile"]:
            raise LvError(f"{NAME}: give the profile parameter, a profile spec (one of "
                          f"{', '.join(profile_names())}, PROFILE+OVERLAY, or a variant file)")
        spec = str(values["profile"])
        if any(c in spec for c in ",=()"):  # OpenSpiel's game string ("name(key=value,...)") cannot hold them
            raise LvError(f"{NAME}: profile {spec!r}: a spec with overrides cannot go into OpenSpiel's game string; "
                          "write them in a variant file that extends the profile (docs/openspiel.md)")
        self.profile: Profile = load_profile(spec)
        self.players = int(values["players"])
        self.spread = int(values["spread"])
        first = ExplicitGame(self.profile, self.players, spread=self.spread)  # checks the players and spread
        self.space: ActionSpace = first.space
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(GAME_TYPE, info, values)

    def new_initial_state(self) -> LordsOfVegasState:
        return LordsOfVegasState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.players, self.profile.max_height(self.players), history)


class LordsOfVegasState(pyspiel.State):  # type: ignore[misc]
    """A position: lv's ``ExplicitGame`` behind OpenSpiel's calls (one attribute, copied and pickled cheaply)."""

    def __init__(self, game: LordsOfVegasGame) -> None:
        super().__init__(game)
        self.lv = ExplicitGame(game.profile, game.players, spread=game.spread, space=game.space)

    def current_player(self) -> int:
        player = self.lv.current_player
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.lv.legal() if player == self.lv.current_player else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.lv.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.lv.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return self.lv.outcome_text(action)
        return self.lv.action_text(action)

    def is_terminal(self) -> bool:
        return self.lv.over

    def returns(self) -> list[float]:
        return self.lv.returns()

    def to_record(self) -> dict[str, Any]:
        """The game so far as an lv-game/1 record (``lv.record.dumps`` writes it)."""
        return self.lv.to_record()

    def undo_action(self, player: int, action: int) -> None:
        """Not supported, and said so (issue 28.7): pyspiel keeps a Python game's history and move number in C++
        with no way to set them from Python, so an undo here would leave ``history()`` still holding the action.
        Clone the state before applying (``ExplicitGame``'s copy is cheap), or ``load_state`` the history but
        its last id."""
        raise LvError("undo_action: not supported for this Python game (pyspiel keeps its history in C++): clone "
                      "the state before applying, or lv.openspiel.load_state(game, state.history()[:-1])")

    def __str__(self) -> str:
        return observation.text(self.lv, 0) + " | history " + self.lv.history_text()


class Observer:
    """OpenSpiel's observer for this game: the tensor of lv/observation.py, and as text the position (or, for the
    information state, the history of ids)."""

    def __init__(self, players: int, height: int, history: bool) -> None:
        self.history = history
        self.tensor = np.zeros(observation.size(players, height), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, count in observation.layout(players, height):
            view = self.tensor[at:at + count]
            self.dict[name] = view.reshape(-1, observation.LOTS) if count % observation.LOTS == 0 and \
                count >= observation.LOTS else view
            at += count

    def set_from(self, state: LordsOfVegasState, player: int) -> None:
        self.tensor.fill(0)
        observation.write(state.lv, player, self.tensor)

    def string_from(self, state: LordsOfVegasState, player: int) -> str:
        if self.history:
            return f"{state.lv.names[player]}: {state.lv.history_text()}"
        return observation.text(state.lv, player)


def to_record(state: Any) -> dict[str, Any]:
    """The lv-game/1 record of an OpenSpiel state of this game."""
    if not isinstance(state, LordsOfVegasState):
        raise TypeError(f"not a state of {NAME}: {state!r}")
    return state.to_record()


def load_state(game: Any, history: Any) -> LordsOfVegasState:
    """A state of ``game`` from its history of ids (``state.history()``, or ``state.history_str()``'s text
    "0, 1, 2"), each applied in turn and checked legal where it is applied. The safe way to receive a state:
    pyspiel's own ``deserialize_game_and_state`` unpickles the state of a Python game, which runs whatever code
    the text carries (docs/openspiel.md, "Sending a state"); this reads nothing but numbers."""
    if not isinstance(game, LordsOfVegasGame):
        raise LvError(f"load_state: not a game of {NAME}: {type(game).__name__}")
    if isinstance(history, str):
        words = history.replace(",", " ").split()
        bad = next((w for w in words if not (w.isascii() and w.isdigit() and len(w) <= 6)), None)
        if bad is not None:
            raise LvError(f"load_state: {bad[:40]!r} is not an id: give the history's ids only (a serialized "
                          "state, which holds a pickle, is refused)")
        ids = [int(w) for w in words]
    elif isinstance(history, (list, tuple)):
        if not all(hasattr(type(a), "__index__") and not isinstance(a, bool) for a in history):
            raise LvError("load_state: the history is a list of whole numbers (ids)")
        ids = [a.__index__() for a in history]
    else:
        raise LvError(f"load_state: give the history as ids (a list, or the text of state.history_str()), "
                      f"not {type(history).__name__}")
    if len(ids) > MAX_GAME_LENGTH:
        raise LvError(f"load_state: {len(ids)} ids: no game is longer than {MAX_GAME_LENGTH}")
    state = game.new_initial_state()
    for i, a in enumerate(ids):
        if state.is_terminal():
            raise LvError(f"load_state: id {i + 1} ({a}): the game is over before it")
        legal = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        if a not in legal:
            raise LvError(f"load_state: id {i + 1} ({a}): not legal there")
        state.apply_action(a)
    return state


pyspiel.register_game(GAME_TYPE, LordsOfVegasGame)
