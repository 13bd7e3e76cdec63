"""Restricted players (issue 29, item 4; lv/bots.py ``Restricted``): ``SPEC/no-KIND[,KIND...]`` never takes a
decision of those kinds, its games replay and verify, a bad restriction is one line; and ``never_takes``, what each
bot never takes, agrees with what the bots take in games."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import lv
from lv import actions as A
from lv import bots, cli
from lv.board import variants_dir
from lv.errors import LvError

# the sell-back house rule as a file, found where lv keeps its profiles (the checkout's variants/ or the installed
# package's lv/variants): the tests also run from a copy of tests/ outside the checkout (CI's compiled stage)
SELL_BACK = str(variants_dir() / "house-sell-back.yaml")


def recorded(bot, seat, out):
    """``bot``, appending each decision it takes (and the kinds its legal list offered) to ``out``."""
    def play(game, legal, rng):
        decision = bot(game, legal, rng)
        out.append((decision, {A.FAMILY_OF[type(a)].name for a in legal}))
        return decision
    return play


def kinds_taken(spec, profile, players, seeds, others="random-kind"):
    """Play games with ``spec`` in seat 0 (``others`` elsewhere): the kinds it took, and the kinds it was offered."""
    taken: set[str] = set()
    offered: set[str] = set()
    for seed in seeds:
        game = lv.new_game(profile, players, seed=seed)
        out: list = []
        seat_bots = [recorded(bots.bot_named(spec), 0, out)] + [bots.bot_named(others)] * (players - 1)
        bots.play(game, seat_bots, seed)
        assert game.over
        taken |= {A.FAMILY_OF[type(d)].name for d, _ in out}
        for _, kinds in out:
            offered |= kinds
    return taken, offered


@pytest.mark.parametrize("kind", ["build", "sprawl", "remodel", "reorganize", "raise", "gamble"])
def test_a_random_player_restricted_from_a_kind_never_takes_it(kind):
    """``random-kind/no-KIND`` over whole games (hundreds of positions each): the kind was offered (the list it
    was shown had it before the restriction) and never taken; unrestricted, the same bot takes it (the test can
    fail: without the filter, the restricted one would too)."""
    taken, offered = kinds_taken(f"random-kind/no-{kind}", "revised", 4, range(3))
    assert kind in offered and kind not in taken, (taken, offered)
    assert taken >= {"end"}
    free, _ = kinds_taken("random-kind", "revised", 4, range(3))
    assert kind in free


def test_several_kinds_and_a_house_rules_kind_are_restricted():
    """A house rule's family (sell, variants/house-sell-back.yaml) is a kind like the others: read from the table."""
    assert "sell" in bots.restrictable_kinds()
    taken, offered = kinds_taken("random-kind/no-sell,build", SELL_BACK, 3, range(2))
    assert {"sell", "build"} <= offered and not taken & {"sell", "build"}, (taken, offered)
    free, _ = kinds_taken("random-kind", SELL_BACK, 3, range(2))
    assert "sell" in free


@pytest.mark.parametrize("spec,kind", [("greedy/no-gamble", "gamble"), ("greedy/no-sprawl,raise", "raise"),
                                       ("mcts:4/no-build", "build"), ("random:0.1/no-build,no-sprawl", "build")])
def test_the_restriction_holds_for_every_bot(spec, kind):
    taken, offered = kinds_taken(spec, "revised", 4, range(2), others="greedy")
    restricted = bots.split_restriction(spec)[1]
    assert kind in offered and not taken & restricted, (taken, offered)


def test_a_restricted_bot_keeps_its_generator_and_plays_as_the_bot_on_the_rest():
    """The restriction only takes decisions out of the list: on a list with nothing restricted in it, the bot
    plays exactly as itself (same generator draws)."""
    game = lv.new_game("revised", 4, seed=3)
    legal = [a for a in game.legal_actions() if not isinstance(a, A.Raise)]
    for seed in range(20):
        assert bots.bot_named("random/no-raise")(game, legal, random.Random(seed)) \
            == bots.bot_named("random")(game, legal, random.Random(seed))


def test_a_restricted_bot_that_takes_the_kind_anyway_is_refused_in_one_line():
    """A user's bot that does not choose from the list it is shown: refused, not played."""
    stubborn = bots.Restricted(lambda game, legal, rng: A.Raise("A1"), frozenset({"raise"}))
    game = lv.new_game("revised", 4, seed=5)
    with pytest.raises(LvError, match=r"restricted from raise chose Raise") as err:
        stubborn(game, game.legal_actions(), random.Random(0))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("spec,message", [
    ("greedy/raise", "a restriction is /no-KIND[,KIND...] after the bot"),
    ("greedy/no-fly", "unknown kind of decision 'fly'; the kinds are build, sell, sprawl, remodel, reorganize, "
                      "raise, gamble, trade"),
    ("greedy/no-end", "the draw and the end of the turn are never restricted"),
    ("greedy/no-draw", "the draw and the end of the turn are never restricted"),
    ("greedy/no-gamble/no-raise", "a restriction is /no-KIND"),
    ("/no-raise", "name the bot before the restriction"),
    ("nobody/no-raise", "known bots are"),
    ("mcts:0/no-raise", "mcts playouts per decision"),
])
def test_a_bad_restriction_is_one_line(spec, message):
    with pytest.raises(LvError) as err:
        bots.bot_named(spec)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_bot_lists_keep_a_restrictions_kinds_with_their_bot():
    assert bots.split_specs("random/no-build,sprawl,greedy, mcts:9/no-raise,no-gamble") == \
        ["random/no-build,sprawl", "greedy", "mcts:9/no-raise,no-gamble"]
    assert bots.split_specs("greedy,build") == ["greedy", "build"]  # no restriction before: a bot (refused later)
    assert bots.bot_named("random/no-build,sprawl") == bots.Restricted(bots.RandomBot(), frozenset({"build",
                                                                                                   "sprawl"}))


def test_a_restricted_game_replays_and_verifies(tmp_path):
    """lv selfplay with restricted bots: the record (which names its bots) replays and verifies (lv check)."""
    out = tmp_path / "g.yaml"
    runner = CliRunner()
    res = runner.invoke(cli.app, ["selfplay", "--variant", "revised", "--players", "3", "--seed", "4", "--bot",
                                  "random-kind/no-build,gamble,greedy/no-gamble,mcts:3/no-raise", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "random-kind/no-build,gamble,greedy/no-gamble,mcts:3/no-raise" in out.read_text()
    res = runner.invoke(cli.app, ["check", str(out)])
    assert res.exit_code == 0, res.output
    from lv.replay import replay

    game = replay(lv.load_record(out)).game
    first = [d.action for turn in game.history if turn.player == 0 for d in turn.decisions]
    assert first and not any(isinstance(d, (A.Build, A.Gamble)) for d in first)
    assert any(isinstance(d.action, A.Gamble) for turn in game.history if turn.player != 1 for d in turn.decisions)


def test_cli_bad_restriction_is_exit_2_one_line():
    res = CliRunner().invoke(cli.app, ["simulate", "-v", "revised", "--games", "1", "--bot", "greedy/no-fly"])
    assert res.exit_code == 2
    assert res.stderr.startswith("lv: error: bot 'greedy/no-fly': unknown kind of decision 'fly'")
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize("spec", ["uniform", "random", "random-kind", "greedy", "mcts:3", "greedy/no-gamble"])
def test_no_bot_takes_a_kind_it_is_said_never_to_take(spec):
    """``never_takes`` is what the bots do: over games under revised and the sell house rule, a bot takes no kind it
    is said never to take, and greedy's claim is exact for what it was offered (it takes every other kind it met:
    a kind greedy takes wrongly listed as never taken fails here)."""
    never = bots.never_takes(spec)
    assert "trade" in never
    all_taken: set[str] = set()
    all_offered: set[str] = set()
    for profile, players in [("revised", 4), (SELL_BACK, 3)]:
        taken, offered = kinds_taken(spec, profile, players, range(4 if spec == "greedy" else 2), others="greedy")
        assert not taken & never, (spec, taken, never)
        all_taken |= taken
        all_offered |= offered
    if spec == "greedy":
        assert all_taken == all_offered - never - {"draw"}, (all_taken, all_offered)


def test_never_takes_as_data():
    assert bots.never_takes("greedy") == {"remodel", "trade", "sell"}
    assert bots.never_takes("greedy/no-gamble") == {"remodel", "trade", "sell", "gamble"}
    assert bots.never_takes("mcts:50/no-raise") == {"raise", "trade"}
    assert bots.never_takes("random") == bots.never_takes("uniform") == {"trade"}
    assert bots.never_takes("examples.my_bot:choose") == set()  # lv cannot tell
    with pytest.raises(LvError):
        bots.never_takes("nobody")


KINDS = ["build", "sprawl", "remodel", "reorganize", "raise", "gamble"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150), bot=st.sampled_from(["uniform", "random", "greedy"]),
       kinds=st.sets(st.sampled_from(KINDS), min_size=1, max_size=5), profile=st.sampled_from(["revised", "original"]))
def test_in_random_positions_a_restricted_bot_never_takes_the_kinds(seed, steps, bot, kinds, profile):
    """A game played by random-kind bots to a random point, then the restricted bot asked 20 times there (its
    generator drawn anew each time): never a decision of a restricted kind, always one of the legal list."""
    game = lv.new_game(profile, 4, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return
        game.apply(bots.random_kind_bot(game, game.legal_actions(), rng))
    if game.over:
        return
    restricted = bots.bot_named(f"{bot}/no-{','.join(sorted(kinds))}")
    legal = game.legal_actions()
    for k in range(20):
        decision = restricted(game, legal, random.Random(k))
        assert A.FAMILY_OF[type(decision)].name not in kinds
        assert decision in legal or (isinstance(decision, A.Gamble) and A.Gamble(decision.lot, max(
            a.bet for a in legal if isinstance(a, A.Gamble) and a.lot == decision.lot)) in legal)


def test_a_slash_in_a_bots_parameter_is_a_path_not_a_restriction():
    """``value:models/revised.model`` names a file; ``value:models/revised.model/no-raise`` restricts it; a user's
    bot given as a file's path is told what a bot of your own is (it was a restriction's error)."""
    from lv.bots import split_restriction

    assert split_restriction("value:a/b.model") == ("value:a/b.model", frozenset())
    assert split_restriction("value:a/b.model/no-raise") == ("value:a/b.model", frozenset({"raise"}))
    with pytest.raises(LvError, match="MODULE:FUNCTION, a module on the Python path"):
        split_restriction("examples/my_bot.py:choose")
    with pytest.raises(LvError, match="a restriction is /no-KIND"):
        split_restriction("greedy/no-gamble/no-raise")
