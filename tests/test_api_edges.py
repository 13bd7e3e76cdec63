"""The API's edges against odd input (issue 28, points 5 to 7): the OpenSpiel, PettingZoo and ExplicitGame
interfaces refuse what they cannot serve in one line of LvError (or Gymnasium's ValueError), at once."""

from __future__ import annotations

import random

import pytest

import lv
from lv.explicit import ExplicitGame

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
import lv.openspiel  # noqa: E402  registers the game with pyspiel
import lv.pettingzoo  # noqa: E402


@pytest.mark.parametrize("spread", [49, 10**9])
def test_a_spread_beyond_the_deck_is_refused_alike_by_every_interface(spread):
    """``spread=10**9`` took minutes of CPU counting depths one by one: refused when the game is made, with the
    same words everywhere (before: accepted, and the first draw never ended)."""
    message = f"spread {spread}: at most 48, the lot cards in the deck"
    makers = [lambda: ExplicitGame("revised", 2, spread=spread),
              lambda: lv.pettingzoo.env(profile="revised", spread=spread),
              lambda: pyspiel.load_game(f"python_lords_of_vegas(profile=revised,spread={spread})")]
    for make in makers:
        with pytest.raises(lv.LvError) as err:
            make()
        assert str(err.value) == message


def test_the_whole_deck_is_the_widest_spread():
    g, rng = ExplicitGame("revised", 2, spread=48), random.Random(1)
    while g.is_chance and g.game is None:  # the deal, then the starting rolls
        g.apply(rng.choice(g.chance_outcomes())[0])
    assert g.depths == tuple(range(0, g.pile + 1))


@pytest.mark.parametrize("player, action, message", [
    (-1, 10**9, "chance outcome 1000000000 is not an outcome id (0 to 54)"),
    (-1, -1, "chance outcome -1 is not an outcome id (0 to 54)"),
    (0, 10**9, "action 1000000000 is not an action id"),
])
def test_action_to_string_refuses_an_id_out_of_range(player, action, message):
    """Before: ``action_to_string(-1, 10**9)`` answered 'die 999999952'."""
    state = pyspiel.load_game("python_lords_of_vegas(profile=revised)").new_initial_state()
    with pytest.raises(lv.LvError) as err:
        state.action_to_string(player, action)
    assert str(err.value).startswith(message)
    assert state.action_to_string(-1, 54) == "die 6" and state.action_to_string(-1, 0) == "card A1"


@pytest.mark.parametrize("seed", [np.int64(3), np.uint8(3), np.int32(3), 3])
def test_pettingzoo_reset_takes_numpy_integers_as_gymnasium_does(seed):
    env = lv.pettingzoo.env(profile="revised", players=2)
    env.reset(seed=seed)
    plain = lv.pettingzoo.env(profile="revised", players=2)
    plain.reset(seed=3)
    assert env.game.history() == plain.game.history() if hasattr(env.game, "history") else \
        env.game.log == plain.game.log


@pytest.mark.parametrize("seed", [np.float64(3.0), np.int64(-1), np.bool_(True), "3"])
def test_pettingzoo_reset_still_refuses_what_is_no_whole_number(seed):
    with pytest.raises(ValueError) as err:
        lv.pettingzoo.env(profile="revised", players=2).reset(seed=seed)
    assert str(err.value) == f"reset: seed {seed!r}: a whole number, 0 or more"
