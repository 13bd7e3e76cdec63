"""Issue 21: lv.openspiel, the OpenSpiel game ``python_lords_of_vegas``, checked by OpenSpiel's own tests
(``pyspiel.random_sim_test`` with serialization) under every shipped profile and number of players, and
lv.pettingzoo, checked by PettingZoo's ``api_test`` and ``seed_test``. Skipped when the extras are absent."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import lv
import lv.observation
from lv import cli
from lv.record import dumps

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'lv[openspiel]'")
np = pytest.importorskip("numpy")
import lv.openspiel  # noqa: E402  (registers the game)

NAME = "python_lords_of_vegas"


def shipped() -> list[tuple[str, int]]:
    """Every shipped full profile with each number of players it allows, and the F-block overlay (2 players:
    the only count it changes)."""
    out = []
    for name in lv.profile_names():
        try:
            profile = lv.load_profile(name)
        except lv.ProfileError:  # an overlay alone
            out.append((f"original+{name}", 2))
            continue
        out += [(name, n) for n in range(profile.players.min, profile.players.max + 1)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("spec,players", shipped())
def test_openspiel_random_simulation(spec, players):
    """OpenSpiel's own checks: legal actions sorted and unique in their strings, masks, chance outcomes summing to
    1, clones equal, serialize/deserialize, observation and information-state sizes, returns within bounds."""
    game = pyspiel.load_game(NAME, {"profile": spec, "players": players})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_issues_example_plays_a_random_game_to_the_end():
    game = pyspiel.load_game(NAME, {"profile": "original+f-block", "players": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert game.num_distinct_actions() == 819 + 48 * 60 and game.max_chance_outcomes() == 55


def test_a_game_played_through_openspiel_is_a_record_lv_check_verifies(tmp_path):
    game = pyspiel.load_game(f"{NAME}(profile=revised,players=3)")
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    path = tmp_path / "game.yaml"
    path.write_text(dumps(lv.openspiel.to_record(state)))
    result = CliRunner().invoke(cli.app, ["check", str(path)])
    assert result.exit_code == 0 and "result verified" in result.output, result.output
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.returns() == state.returns() and again.history() == state.history()


def test_observations_are_each_players_and_the_information_state_is_the_history():
    game = pyspiel.load_game(NAME, {"profile": "revised", "players": 3})
    state = game.new_initial_state()
    for _ in range(6):  # the deal: two cards each
        state.apply_action(state.chance_outcomes()[0][0])
    # the first outcome is the first unseen lot: A1 to seat 0, A2 to seat 1, A3 to seat 2, A4 to seat 0, ...
    tensors = [np.array(state.observation_tensor(p)) for p in range(3)]
    assert len(tensors[0]) == game.observation_tensor_size() == lv.observation.size(3, 3)
    assert tensors[0][0] == 1 and tensors[1][0] == 0  # seat 0's marker on A1: its own plane (0) for seat 0
    assert tensors[1][2 * 48 + 0] == 1  # ... and seat 1 sees it as the player two seats on (plane 2)
    assert tensors[0][1 * 48 + 1] == 1  # seat 1's A2, the next seat for seat 0
    assert state.information_state_string(0) != state.information_state_string(1)
    later = state.clone()
    later.apply_action(later.chance_outcomes()[0][0])
    assert later.information_state_string(0) != state.information_state_string(0)
    assert np.array_equal(state.information_state_tensor(0), state.observation_tensor(0))


def test_a_variant_file_is_a_profile_and_survives_serialization(tmp_path):
    path = tmp_path / "big-bets.yaml"
    path.write_text("name: big-bets\ntitle: bigger bets\nextends: revised\n"
                    "gamble:\n  bet_per_tile: {value: 10, source: a house rule}\n")
    game = pyspiel.load_game(NAME, {"profile": str(path), "players": 2})
    assert game.num_distinct_actions() == 819 + 48 * 10 * 12 * 2
    state = game.new_initial_state()
    for _ in range(4):
        state.apply_action(state.chance_outcomes()[0][0])
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game) and again.history() == state.history()


def test_openspiels_mcts_plays_it():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(NAME, {"profile": "revised", "players": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    bot = mcts.MCTSBot(game, 2, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    assert bot.step(state) in state.legal_actions()


def test_bad_parameters_are_refused():
    with pytest.raises(lv.LvError, match="allows 2 to 4"):
        pyspiel.load_game(NAME, {"profile": "original", "players": 5})
    with pytest.raises(lv.LvError, match="give the profile parameter"):
        pyspiel.load_game(NAME)
    with pytest.raises(lv.LvError, match="variant file"):
        pyspiel.load_game(NAME, {"profile": "revised,gamble.bet_per_tile=10"})
    with pytest.raises(lv.LvError, match="nosuch"):
        pyspiel.load_game(NAME, {"profile": "nosuch"})


def test_the_evaluation_example_of_the_docs_runs_as_written(capsys, monkeypatch):
    """docs/openspiel.md, "Evaluating an agent on a variant": its code, run from the repository's root, prints
    the figure the page gives."""
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "openspiel.md").read_text(encoding="utf-8")
    section = page.split("## Evaluating an agent on a variant", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(root)
    exec(compile(code, "docs/openspiel.md", "exec"), {"__name__": "docs_example"})
    said = code.rsplit("# ", 1)[1].strip()  # "13 of 20 here"
    assert said.replace(" here", "") in capsys.readouterr().out
