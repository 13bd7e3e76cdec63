"""Issue 21: lv.pettingzoo, the AEC environment, checked by PettingZoo's own ``api_test`` and ``seed_test`` under
every shipped profile. Skipped when the extra is absent (pip install 'lv[pettingzoo]')."""

from __future__ import annotations

import warnings

import pytest

import lv

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'lv[pettingzoo]'")
np = pytest.importorskip("numpy")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import lv.pettingzoo  # noqa: E402

PROFILES = [("original", 4), ("original+f-block", 2), ("revised", 2), ("revised", 6), ("house-sell-back", 3)]


def play(env, seed, final=None):
    """A random game; ``final`` gets each agent's reward as the game ended for it."""
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
            if final is not None:
                final[agent] = reward
        else:
            action = int(env.action_space(agent).sample(obs["action_mask"]))
            assert obs["action_mask"][action] == 1
            taken.append((agent, action))
        env.step(action)
    return taken


@pytest.mark.parametrize("spec,players", PROFILES)
def test_pettingzoo_api(spec, players):
    with warnings.catch_warnings():  # its advice on Dict observations, which action masks need
        warnings.simplefilter("ignore")
        api_test(lv.pettingzoo.env(profile=spec, players=players), num_cycles=300)


@pytest.mark.slow
def test_pettingzoo_seeding():
    seed_test(lambda: lv.pettingzoo.env(profile="revised", players=3), num_cycles=200)
    one, two = lv.pettingzoo.env(profile="revised", players=3), lv.pettingzoo.env(profile="revised", players=3)
    assert play(one, 5) == play(two, 5)
    assert one.unwrapped.record() == two.unwrapped.record()


def test_a_game_ends_with_the_ranking_as_rewards():
    env = lv.pettingzoo.env(profile="revised", players=3)
    final: dict[str, float] = {}
    play(env, 1, final)
    result = env.unwrapped.game.game.result
    assert result is not None
    agents = env.unwrapped.possible_agents
    assert final == {agents[result.ranking[0]]: 1, agents[result.ranking[1]]: 0, agents[result.ranking[2]]: -1}


def test_only_the_agent_to_move_has_legal_actions():
    env = lv.pettingzoo.env(profile="revised", players=3)
    env.reset(seed=2)
    mover = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)
    assert env.observe(mover)["action_mask"].nonzero()[0].tolist() == env.unwrapped.game.legal()


def test_rendering():
    env = lv.pettingzoo.env(profile="revised", players=2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "player" in text and "money" in text
    svg = lv.pettingzoo.env(profile="revised", players=2, render_mode="svg")
    svg.reset(seed=3)
    assert svg.render().startswith("<svg")
    rgb = lv.pettingzoo.env(profile="revised", players=2, render_mode="rgb_array")
    rgb.reset(seed=3)
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        with pytest.raises(lv.LvError, match=r"lv\[png\]"):
            rgb.render()
    else:
        picture = rgb.render()
        assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    with pytest.raises(ValueError, match="render_mode"):
        lv.pettingzoo.env(profile="revised", render_mode="human")


@pytest.mark.parametrize("kwargs,message", [
    ({"profile": None}, "profile None: give a Profile or a profile spec"),
    ({"profile": 5}, "profile 5: give a Profile or a profile spec"),
    ({"profile": "revised", "players": "3"}, "players '3': a whole number"),
    ({"profile": "revised", "players": 2.5}, "players 2.5: a whole number"),
    ({"profile": "revised", "players": True}, "players True: a whole number"),
    ({"profile": "revised", "spread": 1.5}, "spread 1.5: a whole number"),
])
def test_a_wrong_profile_or_players_is_lvs_error_not_one_from_inside(kwargs, message):
    with pytest.raises(lv.LvError) as err:
        lv.pettingzoo.env(**kwargs)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize("seed", ["abc", True, -1, 1.5])
def test_a_seed_that_is_no_whole_number_is_refused_by_reset(seed):
    with pytest.raises(ValueError) as err:
        lv.pettingzoo.env(profile="revised", players=2).reset(seed=seed)
    assert str(err.value) == f"reset: seed {seed!r}: a whole number, 0 or more"
