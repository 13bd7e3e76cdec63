"""Golden outputs: what every game looks like today, so a change to the engine can prove it changed none.

Three families, each an exact byte string whose SHA-256 is kept in ``tests/goldens.json``:

- ``example/NAME``: ``lv replay --json`` of every record in examples/;
- ``game/PROFILE/PLAYERS/BOT/SEED``: a seeded self-played game under every shipped profile and player count,
  its record (JSON) and its replay (``replay --json``), ``uniform`` and ``greedy`` bots;
- ``simulate/...``: ``lv simulate --json`` for fixed seeds.

``python tests/goldens.py --update`` rewrites the hashes; do that only in a commit of its own that says why
every game changed (a deliberate change of seeding, for example). ``tests/test_goldens.py`` compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = Path(__file__).with_name("goldens.json")

# (profile spec, player counts): every shipped profile and overlay, 2 to 6 players where it allows them
PROFILES: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("original", (2, 3, 4)),
    ("original+f-block", (2,)),
    ("revised", (2, 3, 4, 5, 6)),
)
BOTS = ("uniform", "greedy")
SEEDS_PER_SETUP = 15  # 9 setups x 2 bots x 15 seeds = 270 games


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n").encode()


def example_outputs() -> Iterator[tuple[str, bytes]]:
    from lv.record import parse_record
    from lv.replay import replay

    for path in sorted((ROOT / "examples").glob("*.yaml")):
        # named relative to the checkout: the replay names its file, and the goldens must not depend on where
        # the repository lies
        name = f"examples/{path.name}"
        yield f"example/{path.name}", _json(replay(parse_record(path.read_text(encoding="utf-8"), name)).to_dict())


def game_outputs(seeds: int = SEEDS_PER_SETUP) -> Iterator[tuple[str, bytes]]:
    import lv
    from lv import bots
    from lv.record import dumps, parse_record, record_of
    from lv.replay import replay

    for spec, counts in PROFILES:
        profile = lv.load_profile(spec)
        for n in counts:
            for bot in BOTS:
                for seed in range(seeds):
                    game = lv.new_game(profile, n, seed)
                    bots.play(game, [bots.bot_named(bot)] * n, seed)
                    data = record_of(game, spec)
                    data["engine"] = "lv"  # the version that wrote it, not the game: a release changes no golden
                    text = dumps(data, "json")
                    key = f"game/{spec}/{n}p/{bot}/{seed}"
                    yield f"{key}/record", text.encode()
                    yield f"{key}/replay", _json(replay(parse_record(text, key)).to_dict())


def simulate_outputs() -> Iterator[tuple[str, bytes]]:
    from lv.simulate import simulate

    runs = (
        (["original", "revised"], 4, 40, 1, ["greedy"]),
        (["revised", "original+f-block"], 2, 40, 3, ["greedy", "uniform"]),
        (["revised"], 5, 20, 2, ["random-kind"]),
    )
    for profiles, players, games, seed, bot in runs:
        key = f"simulate/{'|'.join(profiles)}/{players}p/{games}g/seed{seed}/{','.join(bot)}"
        yield key, _json(simulate(profiles, players, games, seed, bot, workers=1))


def outputs() -> Iterator[tuple[str, bytes]]:
    yield from example_outputs()
    yield from game_outputs()
    yield from simulate_outputs()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load() -> dict[str, str]:
    return json.loads(GOLDENS.read_text())


def main(argv: list[str]) -> int:
    if argv != ["--update"]:
        print("usage: python tests/goldens.py --update   (rewrites tests/goldens.json)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    hashes = {name: digest(data) for name, data in outputs()}
    GOLDENS.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(hashes)} golden hashes to {GOLDENS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
