"""The public API's arguments checked at its edge, alike in both builds (issue 28.6): of 192 odd-typed calls, 95
differed between the pure and the compiled build in exception class or text (``why_not(Build(lot=1.5))``
answered a reason in one and raised TypeError in the other; ``new_game`` refused a tuple of names compiled and
took ``seed=None`` pure). Now each is an ``ArgumentError`` (an LvError and a TypeError) naming the call and the
argument; CI runs this file against the compiled build too (.ci/run)."""

from __future__ import annotations

import pytest

import lv
from lv import Build, EndTurn, Gamble, GiveMoney, Trade
from lv.arguments import ArgumentError


@pytest.fixture
def game():
    return lv.new_game("revised", ["red", "blue"], seed=1)


@pytest.mark.parametrize("call", ["why_not", "apply", "push"])
@pytest.mark.parametrize("action, words", [
    (Build(lot=1.5, color="aqua"), "Build.lot 1.5: a text"),
    (Build(lot="A2", color=None), "Build.color None: a text"),
    (Gamble(lot="A2", bet=2.5), "Gamble.bet 2.5: a whole number"),
    (Gamble(lot="A2", bet=True), "Gamble.bet True: a whole number"),
    (Gamble(lot="A2", bet=5, lay_off="no"), "Gamble.lay_off 'no': True, False or None (None: the boss is asked)"),
    (GiveMoney(0, 1, "5"), "GiveMoney.amount '5': a whole number"),
    (Trade([GiveMoney(0, 1, 1)]), "Trade.steps [GiveMoney(giver=0, receiver=1, amount=1)]: a tuple of decisions"),
])
def test_a_decision_of_the_wrong_types_is_refused_naming_the_field(game, call, action, words):
    before = game.state.copy()
    with pytest.raises(ArgumentError) as err:
        getattr(game, call)(action)
    assert str(err.value) == f"{call}: {words}"
    assert isinstance(err.value, lv.LvError) and isinstance(err.value, TypeError)
    assert game.state.players == before.players and game.state.tiles == before.tiles


@pytest.mark.parametrize("call", ["why_not", "apply", "push"])
@pytest.mark.parametrize("action", ["build A2 gold", None, 5, ("build", "A2")])
def test_what_is_no_decision_is_refused(game, call, action):
    with pytest.raises(ArgumentError) as err:
        getattr(game, call)(action)
    assert str(err.value).startswith(f"{call}: {action!r} is not a decision: give an lv.actions value")


def test_decisions_of_the_right_types_are_answered_as_before(game):
    assert game.why_not(Build(lot="A1", color="aqua")) is not None  # a reason: no ArgumentError
    assert game.why_not(EndTurn()) is None or isinstance(game.why_not(EndTurn()), str)
    legal = game.legal_actions()
    game.apply(legal[0])


@pytest.mark.parametrize("kwargs, words", [
    ({"seed": None}, "new_game: seed None: a whole number or a text"),
    ({"seed": 1.5}, "new_game: seed 1.5: a whole number or a text"),
    ({"seed": {}}, "new_game: seed {}: a whole number or a text"),
    ({"seed": True}, "new_game: seed True: a whole number or a text"),
    ({"players": [1, 2]}, "new_game: players [1, 2]: names are texts"),
    ({"players": 2.0}, "new_game: players 2.0: a number of players or a list of names"),
    ({"players": "red,blue"}, "new_game: players 'red,blue': a number of players or a list of names"),
    ({"profile": 5}, "new_game: profile 5: a Profile or a profile spec"),
])
def test_new_game_refuses_arguments_of_the_wrong_type(kwargs, words):
    args = {"profile": "revised", "players": ["red", "blue"], "seed": 0, **kwargs}
    with pytest.raises(ArgumentError) as err:
        lv.new_game(args.pop("profile"), args.pop("players"), **args)
    assert str(err.value).startswith(words)


@pytest.mark.parametrize("seed", [0, 7, "abc"])
def test_new_game_takes_a_tuple_of_names_as_a_list(seed):
    a = lv.new_game("revised", ("red", "blue"), seed)
    b = lv.new_game("revised", ["red", "blue"], seed)
    assert a.player_names == b.player_names == ["red", "blue"] and a.state == b.state


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled build keeps no annotation to compare with")
def test_the_types_the_compiled_build_erases_are_declared_as_the_classes_annotate_them():
    """lv/arguments.py's DECLARED holds, for the compiled build, every decision field annotated with a union or a
    parametrized tuple (what mypyc erases), exactly as annotated: a field added or retyped fails here."""
    import attrs

    from lv.actions._values import DecisionValue
    from lv.arguments import DECLARED

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    found = {(f"{cls.__module__}.{cls.__name__}", f.name): str(f.type).replace(" ", "")
             for cls in subclasses(DecisionValue) if attrs.has(cls) and cls.__module__.startswith("lv.")
             for f in attrs.fields(cls) if "|" in str(f.type) or "[" in str(f.type)}
    assert found == DECLARED
