"""A game's own bookkeeping made cheaper (round 17, branch game17): the same numbers drawn, the same games.

The deck is shuffled by ``chance.shuffle`` (no random.py frames): it must give the order ``random.Random.shuffle``
gives from the same generator, for any length and any generator state, and ``shuffled_deck`` the order the game
always dealt (``rng_for(seed, "deck").shuffle``).

A step's dice stream starts from the BLAKE2b of "lv/seed/k1/k2/..." (``stream_start``): a decision's key is written
without a list joined, and the compiled ``Dice`` reads its stream's halves from the digest's bytes; both must give
the documented start and the same dice.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import hashlib

from lv.board import load_board
from lv.chance import Dice, HalvesStream, Stream, _halves_of, rng_for, shuffle, stream_digest, stream_start
from lv.game import Game, shuffled_deck


@given(st.integers(min_value=0, max_value=2**70) | st.text(max_size=12), st.integers(min_value=0, max_value=300),
       st.integers(min_value=0, max_value=5))
def test_shuffle_gives_random_shuffles_order_and_leaves_the_generator_where_it_does(seed: int | str, n: int,
                                                                                   drawn: int) -> None:
    """Lengths 0 to 300 (the draws of ``_randbelow`` reject at every power of two), after some draws already
    made; the generators' next numbers are the same after the shuffle too."""
    a, b = random.Random(seed), random.Random(seed)
    for _ in range(drawn):
        a.random(), b.random()
    want, got = list(range(n)), list(range(n))
    a.shuffle(want)
    shuffle(b, got)
    assert got == want
    assert a.getstate() == b.getstate()


def test_shuffle_asks_another_generator_itself() -> None:
    """A generator that is not the standard ``random.Random`` (its own ``random``): the order its ``shuffle``
    gives, through its own draws."""

    class Mine(random.Random):
        def random(self) -> float:
            return super().random() ** 2

    a, b = Mine(5), Mine(5)
    want, got = list(range(50)), list(range(50))
    a.shuffle(want)
    shuffle(b, got)
    assert got == want


@given(st.integers(min_value=0, max_value=2**64) | st.text(max_size=12))
def test_the_deck_is_the_order_the_seeds_generator_always_shuffled(seed: int | str) -> None:
    board = load_board()
    deck = list(board.order)
    rng_for(seed, "deck").shuffle(deck)
    assert shuffled_deck(board, seed) == deck


def _documented(seed: object, key: tuple[object, ...]) -> bytes:
    text = "/".join(["lv", str(seed), *(str(k) for k in key)])
    return hashlib.blake2b(text.encode(), digest_size=8).digest()


_PART = st.integers(min_value=-3, max_value=1200) | st.booleans() | st.text(max_size=4)


@given(st.integers(min_value=-5, max_value=2**65) | st.text(max_size=6) | st.booleans(), _PART, _PART, _PART, _PART)
def test_a_four_part_key_is_hashed_as_its_parts_written_by_str(seed: int | str, k0: int | str, k1: int | str,
                                                                k2: int | str, k3: int | str) -> None:
    """The decision's key ("turn", n, "decision", i) written directly, and any other four parts (a bool is
    "True", a number past the table or below 0 written by str), give the documented digest and start."""
    for key in ((k0, k1, k2, k3), ("turn", k1, "decision", k3), ("turn", k1, k2, k3), (k0, k1, "draw")):
        want = _documented(seed, key)
        assert stream_digest(seed, key) == want, key
        assert stream_start(seed, key) == int.from_bytes(want, "little"), key


@given(st.binary(min_size=8, max_size=8))
def test_the_halves_read_from_a_digest_are_those_of_its_start(digest: bytes) -> None:
    start = int.from_bytes(digest, "little")
    made, want = _halves_of(digest), HalvesStream(start)
    assert (made.hi, made.lo) == (want.hi, want.lo)
    plain = Stream(start)
    assert [made.next64() for _ in range(3)] == [plain.next64() for _ in range(3)]


@given(st.integers(min_value=0, max_value=2**64) | st.text(max_size=6), st.integers(min_value=0, max_value=1100),
       st.integers(min_value=0, max_value=30))
def test_a_steps_dice_are_the_stream_of_its_documented_start(seed: int | str, turn: int, index: int) -> None:
    """In either build, a decision's generated dice (two gambles, then a reorganization) are the plain stream's
    from the documented start."""
    for key in (("turn", turn, "decision", index), ("turn", turn, "draw"), ()):
        dice = Dice(seed, key)
        rolled = [*dice.gamble(), *dice.gamble(), *dice.reorg({0: ["A1", "B2"]}).values()]
        text = "lv/" + str(seed) if not key else "/".join(["lv", str(seed), *map(str, key)])
        stream = Stream(int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little"))
        assert rolled == [stream.die() for _ in range(6)], key


def _played() -> "Game":
    import lv
    from lv import bots

    game = lv.new_game("revised", 4, 11)
    return bots.play(game, [bots.uniform_bot] * 4, 11)


def test_a_decision_makes_its_dice_choices_and_generated_only_when_it_has_them_or_they_are_read() -> None:
    """What a game keeps per decision: no empty dict or list for the choices and dice generated it has not got
    (most decisions), yet each reads as one, and one read and changed keeps the change, as a field would."""
    game = _played()
    decisions = [d for t in game.history for d in t.decisions]
    assert decisions and all(d._choices is None for d in decisions)
    # which dice were generated kept as a number (``Dice._gen``, round 18), a list made only when read
    assert all(d._generated is None for d in decisions)
    rolled = [d for d in decisions if d._gen]
    assert rolled and all(d.generated for d in rolled)
    assert len(rolled) < len(decisions)
    assert all(t._draw_choices is None for t in game.history)
    assert all(t._draw_dice is None or t._draw_dice for t in game.history)  # an empty one is not kept
    assert any(t._draw_dice is None for t in game.history)
    assert all(d._dice is None or d._dice for d in decisions) and any(d._dice is None for d in decisions)
    d = next(d for d in decisions if not d._gen)
    assert d.generated == [] and d.choices == {} and d._generated == [] and d._choices == {}
    d.generated.append("gamble")
    d.choices["die_from"] = "A2"
    assert d.generated == ["gamble"] and d.choices == {"die_from": "A2"}
    d.generated = ["reorg"]
    assert d.generated == ["reorg"]


def test_a_decision_and_a_turn_copied_compare_equal_and_share_nothing() -> None:
    from lv.game import Decision, Turn

    fresh = Decision("x")
    copied = fresh.copy()
    assert copied._generated is None and copied._choices is None  # a copy makes none either
    assert copied == fresh == Decision("x", {}, {}, [], [])
    copied.generated.append("ties")
    copied.dice["gamble"] = [1, 2]
    assert fresh.generated == [] and fresh.dice == {} and copied != fresh
    turn = Turn(3, 1, ["A1"], decisions=[Decision("y", generated=["reorg"], choices={"die_from": "B2"})])
    twin = turn.copy()
    assert twin._draw_dice is None and twin == turn and twin.draw_generated == [] and twin.draw_choices == {}
    twin.draw_dice["ties"] = {"A1": [4]}
    assert turn.draw_dice == {}
    twin.decisions[0].generated.append("gamble")
    twin.draw_choices["marker_from"] = "C3"
    assert turn.decisions[0].generated == ["reorg"] and turn.draw_choices == {}
    saved = turn.copy()
    turn.draw_generated.append("ties")
    turn.restore(saved)
    assert turn == saved and turn.draw_generated == []


def test_dice_note_what_they_generated_once_in_order_and_forget_it() -> None:
    dice = Dice(4, ("turn", 2, "decision", 0), {"gamble": [3, 4]})
    dice.gamble()  # recorded: nothing generated
    assert dice._gen == 0 and dice.generated == []
    dice.reorg({1: ["A1"]})
    dice.gamble()
    dice.reorg({0: ["B2"]})
    assert dice.generated == ["reorg", "gamble"]
    dice.forget()
    assert dice.generated == []


def test_players_names_found_good_are_remembered_and_bad_ones_refused_every_time() -> None:
    """``Game`` checks its players' names (``check_names``) once per set of good names; names that fail are
    refused every time, with the check's own reason, whatever was remembered before."""
    import pytest

    import lv
    from lv import game as G
    from lv.errors import RecordError
    from lv.profile import load_profile

    profile = load_profile("revised")
    G._GOOD_NAMES.clear()
    lv.game.Game(profile, ["ann", "bob", "cy"], 1)
    assert ("ann", "bob", "cy") in G._GOOD_NAMES
    for bad, why in ((["ann", "Ann", "cy"], "must differ"), (["ann", "", "cy"], "non-empty"),
                     (["ann", "b\x1bb", "cy"], "control character"), (["ann", " bob", "cy"], "spaces"),
                     (["ann", 7, "cy"], "non-empty text")):
        for _ in range(2):
            with pytest.raises(RecordError, match=why):
                lv.game.Game(profile, bad, 1)  # type: ignore[arg-type]
        assert tuple(bad) not in G._GOOD_NAMES
    for i in range(300):  # bounded
        G._check_players([f"p{i}", "q"])
    assert 0 < len(G._GOOD_NAMES) <= 256


def test_a_deck_given_is_still_checked_and_one_shuffled_here_deals_as_before() -> None:
    import pytest

    from lv.errors import RecordError
    from lv.game import Game
    from lv.profile import load_profile

    profile, board = load_profile("revised"), load_board()
    deck = shuffled_deck(board, 9)
    assert Game(profile, ["a", "b", "c"], 9).deck == deck
    assert Game(profile, ["a", "b", "c"], 9, deck=list(deck)).deck == Game(profile, ["a", "b", "c"], 9).deck
    for bad in (deck[:-1], deck[:-1] + deck[:1], deck[:-1] + ["Z9"]):
        with pytest.raises(RecordError, match="each of the 48 lot cards once"):
            Game(profile, ["a", "b", "c"], 9, deck=bad)


_STEP = st.tuples(st.integers(min_value=0, max_value=2**64) | st.text(max_size=4),
                  st.integers(min_value=1, max_value=80), st.integers(min_value=0, max_value=12),
                  st.sampled_from([None, {"gamble": [2, 5]}, {"reorg": {"A1": 6}}, {"ties": {"B2": [3, 1]}}]))


def _use(dice: Dice) -> list[object]:
    """A step's dice: a gamble, a reorganization of two tiles, a tie round."""
    return [dice.gamble(), dice.reorg({1: ["A1"], 0: ["C3"]}), dice.tie(["B2"])]


@given(st.lists(_STEP, min_size=1, max_size=4), st.lists(st.booleans(), min_size=4, max_size=4))
def test_dice_made_ready_again_roll_as_new_dice_and_leave_what_was_taken_alone(steps: list[tuple[object, ...]],
                                                                              rolls: list[bool]) -> None:
    """``Dice.again`` (one Dice a game, ``Game.apply``): each step rolls and notes exactly what a new ``Dice`` of
    that step would, whatever the steps before rolled (or not), and what a step before handed over (its ``used``
    and ``generated``) is not changed by the steps after."""
    kept = Dice(0, ("start",))
    taken = []
    for (seed, turn, index, recorded), roll in zip(steps, rolls):
        key = ("turn", turn, "decision", index)
        d = kept.again(seed, key, recorded)  # type: ignore[arg-type]
        new = Dice(seed, key, recorded)  # type: ignore[arg-type]
        if roll:
            assert _use(d) == _use(new)
        assert (d.used, d.generated) == (new.used, new.generated)
        if d.used:  # what a Decision takes
            taken.append((d.used, d.generated, repr((d.used, d.generated))))
    for used, generated, shown in taken:
        assert repr((used, generated)) == shown


def _first_by_sums(seed: int | str, n: int) -> tuple[int, list[dict[int, list[int]]]]:
    """The rulebooks' starting roll, written plainly: each rolls two dice, the highest sum starts, ties roll again."""
    dice, contenders, rounds = Dice(seed, ("start",)), list(range(n)), []
    while len(contenders) > 1:
        roll = dice.start(contenders)
        rounds.append({i: list(v) for i, v in roll.items()})
        best = max(sum(v) for v in roll.values())
        contenders = [i for i in contenders if sum(roll[i]) == best]
    return contenders[0], rounds


@given(st.integers(min_value=0, max_value=2**40) | st.text(max_size=5), st.integers(min_value=2, max_value=4))
def test_the_first_player_is_the_highest_sum_of_the_starting_rolls(seed: int | str, n: int) -> None:
    from lv.game import Game
    from lv.profile import load_profile

    names = ["ann", "bob", "cy", "dee"][:n]
    game = Game(load_profile("revised"), names, seed)
    first, rounds = _first_by_sums(seed, n)
    assert game.first_player == first
    assert game.starting_rolls == [{names[i]: v for i, v in r.items()} for r in rounds]
    again = Game(load_profile("revised"), names, seed, starting_rolls=game.starting_rolls)
    assert (again.first_player, again.starting_rolls) == (first, game.starting_rolls)
