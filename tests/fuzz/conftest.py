"""The fuzz suite's Hypothesis profiles and the ``tally`` fixture (see hostile.py for the rule it checks).

Bounded by default (a few hundred cases, well under a minute); ``LV_FUZZ=long`` runs 100 times as many, with fresh
random cases on every run (docs/design.md, "Hostile input").
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                      HealthCheck.function_scoped_fixture, HealthCheck.large_base_example])
settings.register_profile("lv-fuzz", derandomize=True, **_COMMON)
settings.register_profile("lv-fuzz-long", **_COMMON)


@pytest.fixture()
def tally():
    """Known failures met by one test (hostile.KNOWN); the test calls ``tally.settle()`` at its end."""
    from hostile import Tally

    return Tally()
