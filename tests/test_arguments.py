"""The public API's arguments checked at its edge, alike in both builds (issue 28.6): of 192 odd-typed calls, 95
differed between the pure and the compiled build in exception class or text (``why_not(Build(lot=1.5))``
answered a reason in one and raised TypeError in the other; ``new_game`` refused a tuple of names compiled and
took ``seed=None`` pure). Now each is an ``ArgumentError`` (an LvError and a TypeError) naming the call and the
argument; CI runs this file against the compiled build too (.ci/run)."""

from __future__ import annotations

import attrs
import pytest

import lv
from lv import Build, EndTurn, Gamble, GiveMoney, Trade
from lv import actions as A
from lv.actions._values import DecisionValue
from lv.arguments import ArgumentError


@pytest.fixture
def game():
    return lv.new_game("revised", ["red", "blue"], seed=1)


@pytest.mark.parametrize("make, words", [
    (lambda: Build(lot=1.5, color="aqua"), "Build.lot 1.5: a text"),
    (lambda: Build(lot="A2", color=None), "Build.color None: a text"),
    (lambda: Gamble(lot="A2", bet=2.5), "Gamble.bet 2.5: a whole number"),
    (lambda: Gamble(lot="A2", bet=True), "Gamble.bet True: a whole number"),
    (lambda: Gamble(lot="A2", bet=5, lay_off="no"),
     "Gamble.lay_off 'no': True, False or None (None: the boss is asked)"),
    (lambda: GiveMoney(0, 1, "5"), "GiveMoney.amount '5': a whole number"),
    (lambda: Trade([GiveMoney(0, 1, 1)]), "Trade.steps [GiveMoney(giver=0, receiver=1, amount=1)]: a tuple of decisions"),
    (lambda: A.Draw(("D5", 5)), "Draw.cards ('D5', 5): a tuple of texts"),
    (lambda: A.Draw(player="blue"), "Draw.player 'blue': a whole number or None"),
    (lambda: A.Reroll((("A1", "6"),)), "Reroll.values (('A1', '6'),): a tuple of (text, whole number) pairs"),
    (lambda: A.LayOff(None), "LayOff.lay_off None: True or False"),
    (lambda: Trade((), by=[0]), "Trade.by [0]: a tuple of whole numbers"),
])
def test_a_decision_of_the_wrong_types_is_refused_when_made_naming_the_field(make, words):
    """The same refusal in both builds (CI runs this file compiled too): the compiled build's native classes would
    otherwise refuse in mypyc's words, the pure build not at all."""
    with pytest.raises(ArgumentError) as err:
        make()
    assert str(err.value) == words
    assert isinstance(err.value, lv.LvError) and isinstance(err.value, TypeError)


def _core_decisions():
    from lv.actions._values import FrozenDecision

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    return sorted({c for c in subclasses(FrozenDecision) if not c.__name__.startswith("_")}, key=lambda c: c.__name__)


# a decision of each core class with every field given, its fields in order
EXAMPLES = {
    "Build": ("A2", "gold"), "Draw": (("D5",), 1), "Reroll": ((("A1", 6),),), "Choose": ("die_from", "A1"),
    "EndTurn": (), "Gamble": ("A2", 5, None), "LayOff": (True,), "Raise": ("A2",), "Remodel": ("A2", "gold"),
    "Reorganize": ("A2",), "Sprawl": ("A3", "A2"), "GiveMoney": (0, 1, 5), "GiveLot": ("A1", 0, 1),
    "GiveDie": ("A1", 0, 1), "GivePoints": (0, 1, 2), "GiveTile": ("A1", 0, 1), "GiveRiser": ("A1", 0, 1),
    "Promise": (0, 1, "a ride"), "ActAs": (1, "anything"), "Trade": ((), (0, 1)),
}


def test_every_core_decision_class_is_in_the_examples():
    assert sorted(c.__name__ for c in _core_decisions()) == sorted(EXAMPLES)


@pytest.mark.parametrize("cls", _core_decisions(), ids=lambda c: c.__name__)
def test_a_core_decision_is_a_frozen_value_of_its_fields(cls):
    """What the attrs classes they replaced gave: the fields in order, by name and by position, ==, hash, repr
    (attrs' form), pickle and copy, and no field assigned once made. A field of the wrong type (an object of no
    kind) is refused when made, naming the field (ActAs.action takes any decision)."""
    import copy
    import inspect
    import pickle

    import attrs

    values = EXAMPLES[cls.__name__]
    made = cls(*values)
    assert tuple(inspect.signature(cls).parameters) == cls._keys
    assert tuple(getattr(made, k) for k in cls._keys) == values
    assert cls(**dict(zip(cls._keys, values))) == made and hash(cls(*values)) == hash(made)
    assert repr(made) == f"{cls.__name__}(" + ", ".join(f"{k}={v!r}" for k, v in zip(cls._keys, values)) + ")"
    assert pickle.loads(pickle.dumps(made)) == made and copy.deepcopy(made) == made and copy.copy(made) == made
    assert made.kind and isinstance(made.kind, str)
    for k in cls._keys:
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(made, k, values[cls._keys.index(k)])
        if (cls.__name__, k) != ("ActAs", "action"):
            wrong = dict(zip(cls._keys, values), **{k: object()})
            with pytest.raises(ArgumentError, match=rf"^{cls.__name__}\.{k} <object object at"):
                cls(**wrong)
    for other, other_values in EXAMPLES.items():
        if other != cls.__name__ and other_values == values:
            assert getattr(A, other)(*values) != made  # the same fields, another kind


@attrs.frozen
class _HouseDecision(DecisionValue):
    """A house rule's decision written as an attrs subclass of ``DecisionValue`` (docs/house-rules.md)."""

    lot: str
    bet: int = 1


_HouseDecision.kind = "house"


def test_an_attrs_subclass_of_the_decisions_base_pickles_and_copies_by_its_fields():
    """``DecisionValue`` (native when compiled) remakes a decision from its fields to pickle and copy it: an attrs
    subclass, which has no ``_keys``, is remade from its attrs fields, in both builds."""
    import copy
    import pickle

    made = _HouseDecision("A2", 3)
    assert pickle.loads(pickle.dumps(made)) == made and copy.deepcopy(made) == made and copy.copy(made) == made
    assert made._values() == ("A2", 3) and repr(made) == "_HouseDecision(lot='A2', bet=3)"


def test_a_house_rules_decision_is_checked_when_played(game):
    """A house rule's decision is an attrs class (Python in both builds, lv/actions/sell.py): its fields are
    checked against their annotations when it is given to the game, naming the call."""
    from lv.actions.sell import Sell

    for call in ("why_not", "apply", "push"):
        with pytest.raises(ArgumentError) as err:
            getattr(game, call)(Sell(lot=1.5))
        assert str(err.value) == f"{call}: Sell.lot 1.5: a text"


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
