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


def _some_state(game, ids=60, seed=2):
    rng, state = random.Random(seed), game.new_initial_state()
    for _ in range(ids):
        if state.is_terminal():
            break
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    return state


@pytest.mark.parametrize("as_text", [False, True])
def test_a_state_sent_as_its_history_loads_back(as_text):
    game = pyspiel.load_game("python_lords_of_vegas(profile=revised)")
    state = _some_state(game)
    again = lv.openspiel.load_state(game, state.history_str() if as_text else state.history())
    assert again.history() == state.history() and str(again) == str(state)


def test_the_safe_loader_refuses_a_pickle_and_runs_none_of_it(tmp_path):
    """A serialized state carries a pickle that pyspiel's deserializer runs (issue 28.5); load_state reads ids
    only: the pickle's code never runs."""
    import base64
    import pickle

    planted = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(planted), "w"))

    game = pyspiel.load_game("python_lords_of_vegas(profile=revised)")
    text = pyspiel.serialize_game_and_state(game, _some_state(game, 5))
    blob = pickle.dumps(Payload())
    for sent in [text, blob, base64.b64encode(blob).decode(), {"history": [0, 1]}]:
        with pytest.raises(lv.LvError, match="^load_state: "):
            lv.openspiel.load_state(game, sent)
    assert not planted.exists()


@pytest.mark.parametrize("history, words", [
    ([0, 0], "load_state: id 2 (0): not legal there"),
    ("0 1 x", "load_state: 'x' is not an id"),
    ([0, True], "load_state: the history is a list of whole numbers"),
])
def test_the_safe_loader_refuses_what_is_not_a_legal_history(history, words):
    game = pyspiel.load_game("python_lords_of_vegas(profile=revised)")
    with pytest.raises(lv.LvError) as err:
        lv.openspiel.load_state(game, history)
    assert str(err.value).startswith(words)


def test_undo_action_is_refused_with_what_to_do_instead():
    game = pyspiel.load_game("python_lords_of_vegas(profile=revised)")
    state = _some_state(game, 3)
    with pytest.raises(lv.LvError, match="^undo_action: not supported .* clone the state"):
        state.undo_action(-1, state.history()[-1])
    assert len(state.history()) == 3
