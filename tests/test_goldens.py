"""Every game stays the same: the outputs of tests/goldens.py must equal the hashes kept in tests/goldens.json.

A mismatch means a change altered games (a replay, a seeded game, a simulation). If that is deliberate, regenerate
with ``python tests/goldens.py --update`` in a commit of its own that says why.
"""

from __future__ import annotations

import goldens
import pytest

KEPT = goldens.load()


@pytest.mark.slow
@pytest.mark.parametrize("family", [goldens.example_outputs, goldens.game_outputs, goldens.simulate_outputs],
                         ids=["examples", "games", "simulate"])
def test_outputs_equal_the_goldens(family) -> None:
    made = {name: goldens.digest(data) for name, data in family()}
    assert made, "no outputs were made"
    missing = sorted(set(made) - set(KEPT))
    changed = sorted(name for name in made if name in KEPT and KEPT[name] != made[name])
    assert not missing, f"outputs with no golden (run tests/goldens.py --update?): {missing[:5]}"
    assert not changed, f"{len(changed)} outputs changed, e.g. {changed[:5]}"


@pytest.mark.slow
def test_every_golden_is_still_made() -> None:
    made = {name for family in (goldens.example_outputs, goldens.simulate_outputs) for name, _ in family()}
    made |= {name for name in KEPT if name.startswith("game/")}  # the games family is compared above
    assert set(KEPT) == made
