"""The ``value`` player and ``lv train`` (lv/evaluate.py, lv/learn.py): a model file records its profile and warns
under another, a malformed one is a one-line error, training is reproducible, a game of the bot replays and
verifies, and the same seed and model give the same game. Tiny training runs keep this file fast."""

from __future__ import annotations

import json
import random
import sys
from types import SimpleNamespace

import attrs
import pytest

import lv
from lv import actions as A
from lv import bots as B
from lv import evaluate, learn, mcts
from lv.chance import Dice
from lv.errors import LvError
from lv.record import dumps, parse_record, record_of
from lv.replay import replay

pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    model = learn.train(lv.load_profile("revised"), 4, games=4, rounds=2, seed=3)
    path = tmp_path_factory.mktemp("model") / "revised.model"
    model.save(path)
    return path


@pytest.mark.slow
def test_training_is_reproducible_and_the_file_says_what_it_was_trained_for(model_file):
    again = learn.train(lv.load_profile("revised"), 4, games=4, rounds=2, seed=3)
    data = json.loads(model_file.read_text())
    assert {k: v for k, v in again.to_dict().items() if k != "info"} == {
        k: v for k, v in data.items() if k != "info"}
    assert data["profile"] == "revised"
    assert data["profile_hash"] == evaluate.profile_hash(lv.load_profile("revised"))
    assert data["profile_hash"] != evaluate.profile_hash(lv.load_profile("original"))
    assert data["features"] == list(evaluate.FEATURES)
    other = learn.train(lv.load_profile("revised"), 4, games=4, rounds=1, seed=4)
    assert other.weights != again.weights  # the seed reaches the games


class _CountingEngine:
    """``engine`` as the bot sees it, each ``apply`` recorded in ``tried``: a stand-in that forwards everything else,
    since the compiled build's Engine (a native class) takes no monkeypatched method."""

    def __init__(self, engine, tried: list) -> None:
        object.__setattr__(self, "_engine", engine)
        object.__setattr__(self, "_tried", tried)

    def apply(self, s, action, *args, **kwargs):
        self._tried.append(action)
        return self._engine.apply(s, action, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def __setattr__(self, name, value):  # engine.quiet = True reaches the engine
        setattr(self._engine, name, value)


def seen_through(game, tried: list) -> SimpleNamespace:
    """What a bot reads of ``game`` (its profile, state and engine), the engine's applications recorded in
    ``tried``."""
    return SimpleNamespace(profile=game.profile, state=game.state, engine=_CountingEngine(game.engine, tried))


def _game(spec: str, seed: int, variant: str = "revised"):
    game = lv.new_game(variant, 4, seed)
    B.play(game, [B.bot_named(spec)] + [B.greedy_bot] * 3, seed)
    return game


@pytest.mark.parametrize("spec, seed", [("value:{}", 8), ("value-mcts:8:{}", 5)])
def test_a_game_of_the_bot_replays_verified_and_repeats(model_file, capsys, spec, seed):
    """``value`` and ``value-mcts`` (the search with the model at its leaves): same seed, same game; the record
    replays verified."""
    game = _game(spec.format(model_file), seed)
    text = dumps(record_of(game, "revised"), "json")
    assert dumps(record_of(_game(spec.format(model_file), seed), "revised"), "json") == text
    out = replay(parse_record(text))
    assert out.verified is True and not out.illegal
    assert out.game.state.result == game.state.result
    assert any(not isinstance(d.action, A.EndTurn) for t in game.history[::4] for d in t.decisions)
    assert "warning" not in capsys.readouterr().err  # the profile it was trained for


def test_another_profile_warns_once(model_file, capsys):
    _game(f"value:{model_file}", 9, "original")
    err = capsys.readouterr().err
    assert err.count("warning: model") == 1
    assert "trained for profile 'revised'" in err and "'original' differs" in err


@pytest.mark.parametrize("text, message", [
    ("not json", "not a JSON file"),
    ('{"format": "other"}', "not an lv value model"),
    (None, "'bias' is missing"),
    ("short", "hold"),
])
def test_a_malformed_model_is_a_one_line_error(tmp_path, model_file, text, message):
    data = json.loads(model_file.read_text())
    if text is None:
        del data["bias"]
        text = json.dumps(data)
    elif text == "short":
        data["weights"] = data["weights"][:-1]
        text = json.dumps(data)
    path = tmp_path / "bad.model"
    path.write_text(text)
    with pytest.raises(LvError, match=message) as err:
        B.bot_named(f"value:{path}")
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_missing_model_file_names_it(tmp_path):
    with pytest.raises(LvError, match="nothere.model': cannot read"):
        B.bot_named(f"value:{tmp_path / 'nothere.model'}")


def test_a_decision_that_rolls_dice_is_judged_over_several_rolls(model_file):
    """The engine asking for dice is what makes the bot average: a gamble is tried ``samples`` times, a build
    (no dice) once."""
    bot = B.bot_named(f"value:{model_file}")
    game = lv.new_game("revised", 4, 5)
    rng = random.Random(1)
    while not any(isinstance(a, A.Gamble) for a in game.legal_actions()):
        game.apply(B.greedy_bot(game, game.legal_actions(), rng))
    tried: list = []
    bot(seen_through(game, tried), game.legal_actions(), random.Random(0))
    gamble = next(a for a in tried if isinstance(a, A.Gamble))
    build = next(a for a in tried if isinstance(a, A.Build))
    assert tried.count(gamble) == evaluate.SAMPLES
    assert tried.count(build) == 1


def test_the_learn_extra_is_named_when_numpy_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(LvError, match=r'pip install "lv\[learn\]"'):
        learn.train(lv.load_profile("revised"), 4, games=1, rounds=1)


def test_lv_train_writes_a_model_and_refuses_bad_input(tmp_path):
    from typer.testing import CliRunner

    from lv.cli import app

    out = tmp_path / "m.model"
    result = CliRunner().invoke(app, ["train", "revised", "-o", str(out), "--games", "2", "--rounds", "1",
                                      "--quiet", "--json"])
    assert result.exit_code == 0, result.output
    assert evaluate.load_model(out).profile == "revised"
    again = CliRunner().invoke(app, ["train", "revised", "-o", str(out), "--games", "2"])
    assert again.exit_code == 2 and "exists" in again.output
    zero = CliRunner().invoke(app, ["train", "revised", "-o", str(tmp_path / "z.model"), "--games", "0"])
    assert zero.exit_code == 2 and "at least 1" in zero.output


def test_a_house_rules_new_action_is_tried_too(model_file, capsys):
    """The bot reads the decisions from the engine's legal list: under the sell-back house rule (a new action
    family) the sales are among the decisions it tries on a copy and judges."""
    from conftest import at

    from lv.actions.sell import Sell

    game = at("house-sell-back", ["red", "blue"], current="red", phase="actions",
              markers={"C7": "red", "B3": "red", "A4": "blue"}, tiles={"A1": "gold red 3"},
              players={"red": {"money": 10}, "blue": {"money": 10}})
    legal = game.legal_actions()
    assert any(isinstance(a, Sell) for a in legal)
    tried: list = []
    chosen = B.bot_named(f"value:{model_file}")(seen_through(game, tried), legal, random.Random(0))
    assert chosen in legal
    assert {a for a in legal if isinstance(a, Sell)} <= set(tried)
    assert "trained for profile 'revised'" in capsys.readouterr().err


@pytest.mark.parametrize("variant, players, shipped", [
    ("revised", 4, "revised"), ("original", 4, "original"), ("revised+f-block", 2, "revised+f-block"),
    ("revised", 3, "revised-3p"), ("revised", 2, "revised+f-block"),  # revised's values are revised+f-block's
    ("original,gamble.per_turn=2", 4, "original")])
def test_value_alone_plays_the_shipped_model_for_the_profile(variant, players, shipped, capsys):
    """The shipped models (lv/models): the one whose profile has the game's values (at its player count where
    two have the same values), else the nearest profile's, with the warning."""
    bot = B.bot_named("value")
    model = bot.model_for(lv.load_profile(variant), players)
    assert model.to_dict() == evaluate.load_model(evaluate.MODELS / f"{shipped}.json").to_dict()
    assert ("warning" in capsys.readouterr().err) == ("," in variant)


@pytest.mark.parametrize("text", ["[" * 5000, " " * 1_000_001])
def test_a_hostile_model_file_is_one_line(tmp_path, text):
    """A model nested 5,000 deep (a RecursionError in json) or larger than any model: one LvError naming it."""
    from lv.errors import LvError
    from lv.evaluate import load_model

    path = tmp_path / "hostile.model"
    path.write_text(text)
    with pytest.raises(LvError, match="^model '.*hostile.model': "):
        load_model(path)


# value-mcts: the search with the value model at its leaves and the value player's ranking at its root


def _midgame(seed: int, decisions: int = 40):
    """A revised 4-player game after ``decisions`` decisions of greedy players."""
    game = lv.new_game("revised", 4, seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        game.apply(B.greedy_bot(game, game.legal_actions(), rng))
    return game


def test_the_ranking_is_every_choice_best_first_and_value_plays_its_first(model_file):
    valued = evaluate.value_bot(str(model_file))
    game = _midgame(7)
    legal = game.legal_actions()
    order = valued.ranked(game, legal, random.Random(1))
    options = mcts.choices(legal)
    assert sorted(map(repr, order)) == sorted(map(repr, options)) and len(order) == len(options) > 2
    model = valued.model_for(game.profile, 4)
    s, engine = game.state, game.engine
    odds = evaluate.draw_odds(engine, s)

    def judged(action) -> float:  # judged as the bot does, for decisions that roll no dice (one try is the value)
        if isinstance(action, A.EndTurn):
            return model.value_of(engine, s, s.current, odds)
        t = s.copy()
        engine.apply(t, action, Dice.sampled(random.Random(0)), [])
        return model.value_of(engine, t, s.current, odds)

    plain = [a for a in order if not isinstance(a, (A.Gamble, A.Reorganize))]
    values = [judged(a) for a in plain]
    assert len(set(values)) > 2 and values == sorted(values, reverse=True)
    assert valued(game, legal, random.Random(1)) == order[0]


def _searcher(model_file, **changes):
    return attrs.evolve(B.bot_named(f"value-mcts:12:{model_file}"), **changes)


def test_value_mcts_judges_its_leaves_by_the_model_and_plays_no_game_out(model_file):
    game = _midgame(7)
    legal = game.legal_actions()
    assert len(legal) > 2
    played, judged = [], []
    model_leaf = _searcher(model_file).leaf

    def policy(view, legal, rng):
        played.append(1)
        return B.greedy_bot(view, legal, rng)

    def leaf(engine, s):
        judged.append(1)
        return model_leaf(engine, s)

    _searcher(model_file, policy=policy, leaf=leaf)(game, legal, random.Random(0))
    assert not played  # horizon 0: no imagined game is played on
    assert len(judged) == 12  # each iteration judges the position it reaches (none ends the game here)


def test_value_mcts_tries_the_roots_decisions_in_the_ranked_order(model_file):
    game = _midgame(7)
    legal = game.legal_actions()
    assert len(legal) > 2
    options = mcts.choices(legal)
    last = options[-1]
    # one iteration: the search adds the first decision of the root's order, the only one visited
    bot = _searcher(model_file, playouts=1, root=lambda game, legal, rng: [last] + options[:-1])
    assert bot(game, legal, random.Random(0)) == last
    bot = _searcher(model_file, playouts=1)
    assert bot(game, legal, random.Random(0)) == evaluate.value_bot(str(model_file))(game, legal, random.Random(0))


@pytest.mark.parametrize("spec, message", [
    ("value-mcts:0", "a whole number from 1 to 1,000,000"), ("value-mcts:1e3", "a whole number"),
    ("value-mcts:\u0664", "a whole number"), ("value-mcts:5:/nonexistent.model", "cannot read it")])
def test_value_mcts_bad_specs_are_one_line_errors(spec, message):
    with pytest.raises(LvError, match=message):
        B.bot_named(spec)


def test_value_mcts_never_takes_only_trades():
    assert B.never_takes("value-mcts") == B.never_takes("value") == frozenset({"trade"})
    assert B.never_takes("value-mcts:50/no-raise") == frozenset({"trade", "raise"})


@pytest.mark.parametrize("spec, players, seed, bots, digest", [
    ("revised+f-block", 2, 4, ["value", "greedy"], "5cc56d2d98c2ec44"),
    ("revised", 4, 2, ["value", "greedy", "value", "greedy"], "44f78140fa6455a5")])
def test_value_games_are_pinned(spec, players, seed, bots, digest):
    """``value`` with the shipped models plays the games it played before its ranking was made a method of its own
    (``ValueBot.ranked``, for value-mcts): these records, made before, byte for byte (their hashes); the journals
    of benchmarks/ladders/ go on with the same games. (The 2-player record is of round 8's model, made after; the
    round-6 model's game, 7fc1daf39e96b82a, was the same before and after the change.)"""
    import hashlib

    game = lv.new_game(spec, players, seed)
    B.play(game, [B.bot_named(b) for b in bots], seed)
    text = dumps(record_of(game, spec), "json")
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == digest
