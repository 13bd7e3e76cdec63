"""Lords of Vegas as a PettingZoo AEC environment, for any rule profile (docs/openspiel.md).

    import lv.pettingzoo
    env = lv.pettingzoo.env(profile="original+f-block", players=2, render_mode="ansi")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The agents are ``player_0`` ... (``infos[agent]["name"]`` is the profile's colour of that seat). Each
observation is ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector of lv/observation.py
from that agent's seat, and a 1 for each legal action id (``lv.actionspace``; only the agent to move has any).
Chance (the deal, the draws, every die) is played by the environment from the generator ``reset(seed=...)``
seeds, with the true probabilities of ``lv.explicit``; an agent only sees the decisions it takes, which
include the boss's answer to a gamble where the profile lets the boss lay off. Rewards come at the end: lv's
ranking, the winner 1, the last -1, evenly between. ``render_mode``: ``"ansi"`` (lv's board as text),
``"svg"`` (lv's SVG), ``"rgb_array"`` (the SVG drawn by cairosvg: the extra ``lv[png]``).
``env.unwrapped.record()`` is the game's lv-game/1 record.
"""

from __future__ import annotations

import io
import operator
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the extra
    raise ImportError(f"lv.pettingzoo needs PettingZoo: pip install 'lv[pettingzoo]' ({err})") from None

from . import observation
from .explicit import ExplicitGame
from .profile import Profile, load_profile


def env(**kwargs: Any) -> AECEnv:
    """The environment inside PettingZoo's usual checks (an action out of range, acting before reset)."""
    wrapped: Any = wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs))
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """``profile``: a ``Profile`` or any spec; ``players``: how many; ``spread``: see lv/explicit.py."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "svg", "rgb_array"], "name": "lords_of_vegas_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, profile: Profile | str, players: int = 2, spread: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.profile = load_profile(profile) if isinstance(profile, str) else profile
        self.players, self.spread, self.render_mode = players, spread, render_mode
        self.game = ExplicitGame(self.profile, players, spread=spread)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        n = observation.size(players, self.profile.max_height(players))
        box = spaces.Box(low=-np.inf, high=np.inf, shape=(n,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.game.space.size,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.game.space.size) for a in self.possible_agents}
        self._rng = random.Random()

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the chance of the game (and of the action spaces' ``sample``)."""
        if seed is not None:
            # as Gymnasium's spaces take it: any integer type (NumPy's too, by its __index__), never a bool
            if isinstance(seed, bool) or not hasattr(type(seed), "__index__") or operator.index(seed) < 0:
                raise ValueError(f"reset: seed {seed!r}: a whole number, 0 or more")
            seed = operator.index(seed)
            self._rng = random.Random(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.game = ExplicitGame(self.profile, self.players, spread=self.spread, space=self.game.space)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {"name": name} for a, name in zip(self.agents, self.game.names)}
        self.agent_selection = self.agents[0]
        self._advance()

    def _advance(self) -> None:
        """Play the chance nodes up to the next decision (or the end), and say who decides."""
        game = self.game
        while game.is_chance:
            outcomes = game.chance_outcomes()
            game.apply(self._rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        if game.over:
            for agent, value in zip(self.possible_agents, game.returns()):
                self.rewards[agent] = value
                self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.space.size, np.int8)
        if not self.game.over and self.game.current_player == seat:
            mask[self.game.legal()] = 1
        seen = np.zeros(observation.size(self.players, self.profile.max_height(self.players)), np.float32)
        observation.write(self.game, seat, seen)
        return {"observation": seen, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None  # a live agent acts
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game.apply(int(action))
        self._advance()
        self._accumulate_rewards()
        if self.game.over:  # the last agent to act sees its reward first, the others in turn
            self.agent_selection = agent

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        game = self.game.game
        if game is None:
            return "the deal is under way"
        if self.render_mode == "ansi":
            from rich.console import Console

            from .render import show

            console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system="standard")
            console.print(show(game, width=120))
            text: str = console.file.getvalue()  # type: ignore[attr-defined]
            return text
        from .render import png, svg

        if self.render_mode == "svg":
            return svg(game)
        picture = png(game)  # LvError naming the extra lv[png] when cairosvg is missing
        from PIL import Image  # cairosvg's own dependency

        return np.asarray(Image.open(io.BytesIO(picture)).convert("RGB"))

    def record(self) -> dict[str, Any]:
        """The game so far as an lv-game/1 record."""
        return self.game.to_record()

    def close(self) -> None:
        pass
