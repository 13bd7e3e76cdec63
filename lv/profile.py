"""Rule profiles: typed, frozen parameters loaded strictly from YAML in ``variants/``.

A profile file names each parameter once, with the rulebook passage it comes from::

    casino:
      join_rule: {value: color_and_height, source: '003 "Who Owns What" L221-229'}

A plain value (``join_rule: color``) is accepted too (overlays and overrides). ``extends: NAME`` starts from
another profile.

Besides the sections below, an action family (``lv/actions``) may bring a section of its own: a house rule's
parameters, typed as an attrs class in its module with a default for every key (``Family.parameters``; the
section is named after the family: ``sell:``). Such a section is loaded, checked, overridden
(``sell.refund_percent=40``), cited and stored exactly like the others, but a profile has it only where some file
or override names one of its keys: a profile that does not is what it was before the family existed
(``Profile.values()`` and the records leave the section out); the family reads its defaults then
(``profile.extension("sell")``). A *spec* combines profiles and overrides in one string, for the command line and the API::

    revised                      original+f-block            revised,gamble.lay_off=boss_option
    path/to/my-variant.yaml      revised+f-block,raise.cost_per_space=10

The engine reads these fields and never the profile's name.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any, Callable

import attrs
import cattrs
import yaml
from attrs.validators import in_, instance_of

from . import actions
from .board import load_board, variants_dir
from .bounds import Whole
from .notation import name_problem
from .errors import ProfileError
from .files import is_yaml
from .yamlsource import ONE_LINE, line_of, load_located, one_line, plain, read_text

# Every whole-number parameter has a bound (``Whole``) in its definition: generous for any variant, small enough
# that set-up and a game stay quick whatever a received record asks for (see lv/bounds.py).
MONEY = Whole(0, 1000)  # an amount in millions: $1 billion, fifty times the starting money
LOTS = 48  # the board's lots: no player can place more dice or markers than that
MAX_HEIGHT = 12  # casinos up to 12 high: twice the most players, whose number the rulebook's limit is
MAX_COLORS = 12  # player colours (at most 6 players)


def _choice(*values: str) -> Callable[[Any, Any, Any], None]:
    return in_(values)


@attrs.frozen
class Players:
    min: int = attrs.field(validator=Whole(2, 6))
    max: int = attrs.field(validator=Whole(2, 6))
    colors: tuple[str, ...] = attrs.field(converter=tuple)

    def __attrs_post_init__(self) -> None:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        if len(self.colors) < self.max:
            raise ValueError(f"{len(self.colors)} colours for up to {self.max} players")
        if len(self.colors) > MAX_COLORS:
            raise ValueError(f"colors: at most {MAX_COLORS} colours, not {len(self.colors)}")
        for color in self.colors:  # the default player names ('lv new --players 3')
            problem = name_problem(color)
            if problem:
                raise ValueError(problem.replace("player name", "colour", 1))
        if len({c.lower() for c in self.colors}) != len(self.colors):
            raise ValueError(f"colours: each once, {list(self.colors)} repeats one")


@attrs.frozen
class Components:
    dice_per_player: int = attrs.field(validator=Whole(1, LOTS))
    markers_per_player: int = attrs.field(validator=Whole(1, LOTS))
    tiles_per_color: int = attrs.field(validator=Whole(1, LOTS * MAX_HEIGHT))  # every lot covered, full height


@attrs.frozen
class Setup:
    starting_cards: int = attrs.field(validator=Whole(0, 8))  # 8 each for 6 players: the 48 cards
    starting_money: str = attrs.field(validator=_choice("sum_card_values", "twenty_minus_dice"))


@attrs.frozen
class Deck:
    # floor(N/4) cards under the end card: the deck split into four "roughly equal" stacks (row 9)
    end_card_depth: str = attrs.field(validator=_choice("quarter", "bottom"))


@attrs.frozen
class Payout:
    lot_income: int = attrs.field(validator=MONEY)
    money_per_pip: int = attrs.field(validator=MONEY)


@attrs.frozen
class Casino:
    join_rule: str = attrs.field(validator=_choice("color", "color_and_height"))
    dieless_tile_scores: bool = attrs.field(validator=instance_of(bool))


@attrs.frozen
class Scoring:
    points: str = attrs.field(validator=_choice("physical_tiles", "spaces"))
    order: str = attrs.field(validator=_choice("ascending_points", "ascending_spaces"))


@attrs.frozen
class Sprawl:
    cost_multiplier: int = attrs.field(validator=Whole(0, 100))  # times the lot's price ($12 at most)
    riser_cost: int = attrs.field(validator=MONEY)


@attrs.frozen
class Remodel:
    cost_per_unit: int = attrs.field(validator=MONEY)
    counts: str = attrs.field(validator=_choice("physical_tiles", "spaces"))


@attrs.frozen
class Reorg:
    cost_per_pip: int = attrs.field(validator=MONEY)
    tie_rerolls_count: bool = attrs.field(validator=instance_of(bool))


@attrs.frozen
class Raise:
    enabled: bool = attrs.field(validator=instance_of(bool))
    cost_per_space: int = attrs.field(validator=MONEY)
    # set-up builds a table per height
    max_height: int | str = attrs.field(validator=Whole(1, MAX_HEIGHT, "players"))


def _dice_sums(_inst: Any, attr: Any, value: Any) -> None:
    for v in value:
        if not isinstance(v, int) or not 2 <= v <= 12:
            raise ValueError(f"{attr.name}: {v!r} is not a 2d6 total (2..12)")


@attrs.frozen
class Gamble:
    per_turn: int = attrs.field(validator=Whole(0, 100))
    bet_per_tile: int = attrs.field(validator=Whole(1, MONEY.high))
    tiles_counted: str = attrs.field(validator=_choice("physical_tiles", "spaces"))
    cap_at_boss_money: bool = attrs.field(validator=instance_of(bool))
    lay_off: str = attrs.field(validator=_choice("none", "boss_option"))
    lay_off_double_basis: str = attrs.field(validator=_choice("payout", "stake"))
    win_even: tuple[int, ...] = attrs.field(converter=tuple, validator=_dice_sums)
    win_double: tuple[int, ...] = attrs.field(converter=tuple, validator=_dice_sums)
    lose: tuple[int, ...] = attrs.field(converter=tuple, validator=_dice_sums)

    def __attrs_post_init__(self) -> None:
        sums = list(self.win_even) + list(self.win_double) + list(self.lose)
        if sorted(sums) != list(range(2, 13)):
            raise ValueError("win_even, win_double and lose must share the totals 2..12 between them, once each")


@attrs.frozen
class Ties:
    check: str = attrs.field(validator=_choice("immediate", "after_each_action"))
    stop_when: str = attrs.field(validator=_choice("single_top_owner", "single_top_die"))


@attrs.frozen
class Resources:
    markers_exhausted: str = attrs.field(validator=_choice("move_own_marker", "no_marker"))
    dice_exhausted: str = attrs.field(validator=_choice("move_own_die", "no_die"))


@attrs.frozen
class End:
    card_pays_lots: bool = attrs.field(validator=instance_of(bool))
    card_pays_strip: bool = attrs.field(validator=instance_of(bool))
    instant_win_points: int = attrs.field(validator=Whole(1, 1000))
    instant_win_mode: str = attrs.field(validator=_choice("finish_scoring", "immediate"))


@attrs.frozen
class FBlock:
    closed_when: str = attrs.field(validator=_choice("never", "two_players", "always"))
    block: str = attrs.field(validator=instance_of(str))

    @block.validator
    def _check(self, _attr: Any, value: Any) -> None:
        blocks = load_board().blocks
        if value not in blocks:
            raise ValueError(f"block: {value!r} is not a block of the board ({', '.join(sorted(blocks))})")


@attrs.frozen
class Trade:
    failed_step: str = attrs.field(validator=_choice("stop_rest", "undo_all"))


@attrs.frozen
class Profile:
    """A rule profile: every rule parameter of an edition or variant, by section (``profile.gamble.lay_off``),
    with the rulebook passage each comes from (``sources``). Made by ``lv.load_profile(spec)``."""

    name: str
    title: str
    players: Players
    components: Components
    setup: Setup
    deck: Deck
    payout: Payout
    casino: Casino
    scoring: Scoring
    sprawl: Sprawl
    remodel: Remodel
    reorg: Reorg
    raise_: Raise = attrs.field(alias="raise_")
    gamble: Gamble
    ties: Ties
    resources: Resources
    end: End
    f_block: FBlock
    trade: Trade
    # the sections of action families (Family.parameters) that the profile names, in table order, as
    # (section, its attrs instance): only those set, so a profile without them is unchanged
    extensions: tuple[tuple[str, Any], ...] = ()
    sources: dict[str, str] = attrs.field(factory=dict, eq=False, repr=False)
    spec: str = attrs.field(default="", eq=False)
    base: str = attrs.field(default="", eq=False)  # the shipped profile the values are measured from ("": none)

    @property
    def label(self) -> str:
        """How to name the profile to people and in files: its spec as given, else its name."""
        return self.spec or self.name

    def values(self, every: bool = False) -> dict[str, Any]:
        """Every parameter as ``{"section.key": value}``, in declaration order (the sections of action families
        that the profile names last, in table order). ``every``: also the families' sections it does not name,
        at their defaults (what the rules read then), for comparing two profiles."""
        values = flatten(_converter.unstructure(self)["params"])
        if every:
            named = {name for name, _ in self.extensions}
            for name, cls in extension_sections().items():
                if name not in named:
                    values.update(flatten({name: _converter.unstructure(_default(cls))}))
        return values

    def extension(self, section: str) -> Any:
        """The parameters of an action family's own section (``Family.parameters``, an attrs instance): as the
        profile sets them, or the defaults when it does not name the section. KeyError: no family has it."""
        for name, values in self.extensions:
            if name == section:
                return values
        return _default(extension_sections()[section])

    def f_block_closed(self, num_players: int) -> bool:
        """Is block F closed in a game of ``num_players``?"""
        rule = self.f_block.closed_when
        return rule == "always" or (rule == "two_players" and num_players == 2)

    def max_height(self, num_players: int) -> int:
        """The highest a casino may be raised in a game of ``num_players`` (1: no risers)."""
        if not self.raise_.enabled:
            return 1
        h = self.raise_.max_height
        return num_players if h == "players" else int(h)


attrs.resolve_types(Profile)
SECTIONS = {a.name.rstrip("_"): a for a in attrs.fields(Profile) if a.type is not None and attrs.has(a.type)}
# each section's class and its parameters, in order
SECTION_TYPES: dict[str, type[Any]] = {name: a.type for name, a in SECTIONS.items() if a.type is not None}
SECTION_FIELDS: dict[str, tuple[str, ...]] = {name: tuple(f.name for f in attrs.fields(cls))
                                              for name, cls in SECTION_TYPES.items()}

_converter = cattrs.Converter(forbid_extra_keys=True)

_EXTENSIONS: dict[str, type[Any]] | None = None
_DEFAULTS: dict[type[Any], Any] = {}


def extension_sections() -> dict[str, type[Any]]:
    """The profile sections the action families bring (``Family.parameters``), by section name (the family's),
    in table order: read from the table (``lv.actions.FAMILIES``) once."""
    global _EXTENSIONS
    if _EXTENSIONS is None:
        found: dict[str, type[Any]] = {}
        for family in actions.FAMILIES:
            cls = family.parameters
            if cls is None:
                continue
            if family.name in SECTIONS or not attrs.has(cls):
                raise ImportError(f"action family {family.name}: its parameters must be an attrs class, and "
                                  f"its section name ({family.name}) not one of the profile's own")
            try:
                cls()
            except TypeError as exc:
                raise ImportError(f"action family {family.name}: every parameter of its section needs a default "
                                  f"({exc})") from None
            found[family.name] = cls
        _EXTENSIONS = found
    return _EXTENSIONS


def _default(cls: type[Any]) -> Any:
    """An extension section at its defaults (made once)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = cls()
    return found


def section_fields(section: str) -> tuple[str, ...] | None:
    """The keys of a section (the profile's own or an action family's), or None if there is no such section."""
    fields = SECTION_FIELDS.get(section)
    if fields is None:
        cls = extension_sections().get(section)
        if cls is not None:
            fields = tuple(a.name for a in attrs.fields(cls))
    return fields


def known_parameter(key: str) -> bool:
    """Is ``section.key`` a parameter of a section (the profile's own or an action family's)?"""
    section, _, field = key.partition(".")
    fields = section_fields(section)
    return fields is not None and field in fields


class _SectionError(Exception):
    def __init__(self, section: str, key: str | None, message: str):
        self.section, self.key, self.message = section, key, message


def _got(value: Any) -> str:
    """A wrong value in a message: its type and value (``str 'x'``); an empty one (``key:`` in a file,
    ``key=`` in a spec, which YAML reads as null) as "no value", not Python's "NoneType None"."""
    return "no value" if value is None else f"{type(value).__name__} {value!r}"


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    def hook(value: Any, _type: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {_got(value)}")
        return value
    return hook


for _kind in (int, bool, str):
    _converter.register_structure_hook(_kind, _strict(_kind))
_converter.register_structure_hook(int | str, lambda value, _t: value)


def _strict_list(kind: type) -> Callable[[Any, Any], tuple[Any, ...]]:
    def hook(value: Any, _type: Any) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)):  # a bare string would otherwise become a tuple of letters
            raise TypeError(f"expected a list of {kind.__name__}, got {_got(value)}")
        return tuple(_strict(kind)(v, kind) for v in value)
    return hook


def _is(seq: Any) -> Callable[[Any], bool]:
    return lambda t: bool(t == seq)


_converter.register_structure_hook_func(_is(tuple[int, ...]), _strict_list(int))
_converter.register_structure_hook_func(_is(tuple[str, ...]), _strict_list(str))


def _structure_section(section: str, data: dict[str, Any], cls: type[Any], partial: bool = False) -> Any:
    """``partial``: keys left out take the class's defaults (an action family's section)."""
    fields = [a.name for a in attrs.fields(cls)]
    missing = [f for f in fields if f not in data]
    if missing and not partial:
        raise _SectionError(section, missing[0], "missing (no profile in the chain sets it)")
    try:
        return _converter.structure(data, cls)
    except cattrs.BaseValidationError as exc:
        leaf: BaseException = exc
        while isinstance(leaf, cattrs.BaseValidationError) and leaf.exceptions:
            leaf = leaf.exceptions[0]
        text = leaf.args[0] if leaf.args and isinstance(leaf.args[0], str) else str(leaf)
        m = re.match(r"'(\w+)' (.*)|(\w+): (.*)", text)
        if m and (m.group(1) or m.group(3)) in fields:  # an attrs validator: "'lay_off' must be in (...)"
            raise _SectionError(section, m.group(1) or m.group(3), m.group(2) or m.group(4)) from None
        message = cattrs.transform_error(exc, path="$")[0]
        text, _, path = message.rpartition(" @ $")
        key = path.lstrip(".").split(".")[0].split("[")[0] or None
        if isinstance(leaf, TypeError) and str(leaf).startswith("expected "):  # our strict hook: say what was found
            text = str(leaf)
        raise _SectionError(section, key, text if text != "invalid value" else str(leaf)) from None


def _structure_profile(d: dict[str, Any], _cls: Any) -> Profile:
    params = d["params"]
    kwargs = {attr.name: _structure_section(section, params.get(section, {}), SECTION_TYPES[section])
              for section, attr in SECTIONS.items()}
    extensions = tuple((section, _structure_section(section, params[section], cls, partial=True))
                       for section, cls in extension_sections().items() if params.get(section))
    return Profile(name=d["name"], title=d["title"], sources=d.get("sources", {}), spec=d.get("spec", ""),
                   base=d.get("base", ""), extensions=extensions, **kwargs)


def _unstructure_profile(p: Profile) -> dict[str, Any]:
    params = {}
    for section, attr in SECTIONS.items():
        params[section] = _converter.unstructure(getattr(p, attr.name))
    for section, values in p.extensions:
        params[section] = _converter.unstructure(values)
    return {"name": p.name, "title": p.title, "params": params}


_converter.register_structure_hook(Profile, _structure_profile)
_converter.register_unstructure_hook(Profile, _unstructure_profile)
_converter.register_unstructure_hook(tuple, list)


def flatten(params: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for section, values in params.items():
        for key, value in values.items():
            out[f"{section}.{key}"] = value
    return out


# --------------------------------------------------------------------------- loading


@attrs.frozen
class _RawProfile:
    """A profile file before typing: values, sources and the line each key stands on."""

    name: str
    title: str
    file: str
    extends: tuple[str, ...]
    values: dict[str, Any]  # "section.key" -> value
    sources: dict[str, str]
    lines: dict[str, int | None]
    overlay: bool
    extends_line: int | None = None


def _split_leaf(node: Any) -> tuple[Any, str | None]:
    if isinstance(node, dict) and "value" in node:
        extra = set(node) - {"value", "source", "note"}
        if extra:
            raise ValueError(f"unknown field(s) {sorted(extra)} beside value")
        source = node.get("source")
        if node.get("note"):
            source = f"{source} - {node['note']}" if source else node["note"]
        return node["value"], source
    return node, None


def _read_raw(file: Path) -> _RawProfile:
    """The profile file as read, kept for as long as its bytes are the same, so a file edited between two loads
    in one process (a notebook, a long-lived tool) is read again."""
    text = read_text(file, ProfileError)
    key = (str(file), text)
    found = _RAW.get(key)
    if found is None:
        if len(_RAW) >= 256:  # a long-lived process reading many files keeps the recent ones
            _RAW.clear()
        found = _RAW[key] = _parse_raw(file, text)
    return found


_RAW: dict[tuple[str, str], _RawProfile] = {}  # (file name, text) -> the profile it holds


def _parse_raw(file: Path, text: str) -> _RawProfile:
    data, lines = load_located(text, str(file), ProfileError)
    fname = str(file)
    if not isinstance(data, dict):
        raise ProfileError("a profile must be a mapping of sections", path=fname, line=1)
    every_section = {**SECTION_FIELDS, **{name: section_fields(name) or () for name in extension_sections()}}
    top_keys = {"name", "title", "extends", "overlay", "description"} | set(every_section)
    if str(data.get("format", "")).startswith("lv-game/"):  # a record's header has players: a section's name
        raise ProfileError("a game record, not a rule profile (a record's own profile is its 'profile' line)",
                           path=fname, line=line_of(lines, ("format",)))
    if not any(key in every_section or key in ("extends", "overlay") for key in data):
        # any YAML file can be named as a profile: say where, never what it holds (it may be a secret)
        raise ProfileError(f"not a rule profile: no section ({', '.join(SECTIONS)}) and no 'extends'",
                           path=fname, line=line_of(lines, (next(iter(data), None),)))
    for key in data:
        if key not in top_keys:
            raise ProfileError(f"unknown key {one_line(repr(key))} (sections are: {', '.join(every_section)})",
                               path=fname, line=line_of(lines, (key,)))
    values, sources, where = {}, {}, {}
    for section in every_section:
        block = data.get(section)
        if block is None:
            continue
        if not isinstance(block, dict):
            raise ProfileError(f"'{section}' must be a mapping", path=fname, line=line_of(lines, (section,)))
        fields = set(every_section[section])
        for key, node in block.items():
            dotted = f"{section}.{key}"
            line = line_of(lines, (section, key))
            if key not in fields:
                raise ProfileError(f"unknown key '{section}.{plain(key)}' "
                                   f"(known: {', '.join(sorted(fields))})", path=fname, line=line)
            try:
                value, source = _split_leaf(node)
            except ValueError as exc:
                raise ProfileError(f"{dotted}: {exc}", path=fname, line=line) from None
            values[dotted] = value
            where[dotted] = line
            if source:
                sources[dotted] = source
    extends = data.get("extends") or ()
    if isinstance(extends, str):
        extends = (extends,)
    if not isinstance(extends, (list, tuple)) or not all(isinstance(e, str) for e in extends):
        raise ProfileError("extends: a profile name or path, or a list of them", path=fname,
                           line=line_of(lines, ("extends",)))
    for key, kind, what in (("name", str, "text"), ("title", str, "text"), ("overlay", bool, "true or false")):
        if data.get(key) is not None and not isinstance(data[key], kind):  # 'overlay: "no"' is not true
            raise ProfileError(f"{key}: {what}", path=fname, line=line_of(lines, (key,)))
    name = data.get("name") or file.stem
    return _RawProfile(name=str(name), title=str(data.get("title", name)), file=fname, extends=tuple(extends),
                       values=values, sources=sources, lines=where, overlay=data.get("overlay") is True,
                       extends_line=line_of(lines, ("extends",)) if "extends" in data else None)


def profile_names() -> list[str]:
    """The names of the shipped profiles and overlays (``variants/*.yaml``)."""
    return sorted(p.stem for p in variants_dir().glob("*.yaml") if p.stem != "board")


def _find(name: str) -> Path:
    p = Path(name)
    # cut in the middle past ONE_LINE characters: a path's start and its file's name stay
    shown = one_line(repr(name)) + (f" ({len(name)} characters)" if len(repr(name)) > ONE_LINE else "")
    problem = ""
    try:
        if is_yaml(p):
            if p.is_file():
                return p
            # a path to a profile file was meant: say what is wrong with it, not "unknown profile ... or a path
            # to a .yaml file" of a path to a .yaml file
            problem = ("a folder, not a file" if p.is_dir() else
                       "not a regular file" if p.exists() else "no such file")
        candidate = variants_dir() / f"{name}.yaml"
        if "/" not in name and "\\" not in name and candidate.is_file() and name != "board":
            return candidate
    except (OSError, ValueError):  # a name too long for the file system, a NUL character
        pass
    if problem:
        raise ProfileError(f"profile file {shown}: {problem}")
    raise ProfileError(f"unknown profile {shown} (known: {', '.join(profile_names())}, or a path to a .yaml file)")


MAX_EXTENDS = 32  # profiles in one chain of 'extends'


def confined(name: str, folder: Path, base: Path | None = None) -> str:
    """A profile path written in a record (or in a profile file it names), read relative to ``base`` (default:
    the record's ``folder``) and never outside ``folder`` (an absolute path or '..' leaving it is refused): a
    record from elsewhere cannot make lv read any file. The user can still give any path with --variant."""
    p = Path(name)
    target = ((base or folder) / p).resolve()
    if p.is_absolute() or not target.is_relative_to(folder.resolve()):
        raise ProfileError(f"profile file {one_line(repr(name))}: a record names its profile file relative to "
                           "its own folder, inside it (give another file with --variant)")
    return str(target)


def _read_parent(path: Path) -> _RawProfile:
    """A profile file reached through ``extends``: its errors say where, never what the file holds (issue
    28.5: an unknown key's name was quoted, from whatever YAML file a profile named)."""
    try:
        return _read_raw(path)
    except ProfileError as err:
        if "unknown key" not in err.reason:
            raise
        raise ProfileError("extends: a file that is not a rule profile (an unknown key here)", path=err.path,
                           line=err.line) from None


def _resolve(name: str, chain: tuple[str, ...] = (), folder: str | None = None, home: str | None = None
             ) -> tuple[dict[str, Any], dict[str, str], dict[str, str], str, str, bool]:
    """(values, sources, {key: 'file:line'}, name, title, overlay) of one profile with its ``extends`` applied.
    ``folder``: the profile comes from a record there, and so must every .yaml file it extends. Otherwise a
    profile extends shipped profiles by name and files in ``home``, the folder of the profile file named first
    (issue 28.5: any YAML file on the machine could be named)."""
    if name in chain:
        raise ProfileError(f"profile '{name}' extends itself (through {' -> '.join(chain + (name,))})")
    if len(chain) >= MAX_EXTENDS:
        raise ProfileError(f"profile '{chain[0]}': a chain of more than {MAX_EXTENDS} profiles through 'extends'")
    raw = _read_parent(_find(name)) if chain else _read_raw(_find(name))
    home = home or str(Path(raw.file).parent)
    values, sources, origin = {}, {}, {}
    for parent in raw.extends:
        # a .yaml path is read relative to the file that extends it, inside the record's folder or ``home``
        if is_yaml(parent):
            try:
                parent = confined(parent, Path(folder or home), Path(raw.file).parent)
            except ProfileError as err:
                if folder is not None:
                    raise ProfileError(f"extends: {err}", path=raw.file, line=raw.extends_line) from None
                raise ProfileError(f"extends: profile file {one_line(repr(parent))}: a profile extends a shipped "
                                   "profile by name, or a file in its own folder", path=raw.file,
                                   line=raw.extends_line) from None
        if parent in chain + (name,):
            raise ProfileError(f"extends '{parent}', which leads back here ({' -> '.join(chain + (name, parent))})",
                               path=raw.file, line=raw.extends_line)
        try:
            _find(parent)
        except ProfileError as err:
            raise ProfileError(f"extends: {err}", path=raw.file, line=raw.extends_line) from None
        pv, ps, po, *_ = _resolve(parent, chain + (name,), folder, home)
        values.update(pv)
        sources.update(ps)
        origin.update(po)
    for k, value in raw.values.items():
        # a citation follows its value: a value this file changes is cited as its own (its source, or where it
        # is set), never with the parent's rulebook passage; a value restated unchanged keeps the parent's
        if k in raw.sources:
            sources[k] = raw.sources[k]
        elif k not in values or values[k] != value or k not in sources:
            sources[k] = f"set by {raw.name}, {raw.file}:{raw.lines[k]}"
    values.update(raw.values)
    for k, line in raw.lines.items():  # re-inserted: the origin dict lists keys in the order they were last set
        origin.pop(k, None)
        origin[k] = f"{raw.file}:{line}"
    return values, sources, origin, raw.name, raw.title, raw.overlay


def parse_value(text: str, key: str = "value") -> Any:
    """A command-line override value, read as YAML: ``10`` is an int, ``true`` a bool, ``[5, 6]`` a list;
    text that is not YAML stays text. Bounded like a file: too deep, too many aliases, a number too large
    is a ProfileError."""
    try:
        return load_located(text, key, ProfileError)[0]
    except ProfileError as err:
        if "malformed YAML" in str(err):
            return text
        raise


def _split_spec(spec: str) -> list[str]:
    """Split at commas outside brackets, so ``revised,gamble.win_even=[3, 4, 9]`` keeps its list."""
    parts, depth, current = [], 0, ""
    for ch in spec:
        depth += (ch in "[{") - (ch in "]}")
        if ch == "," and depth <= 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


def load_profile(spec: str, overrides: dict[str, Any] | None = None, *, folder: Path | None = None) -> Profile:
    """Load ``NAME[+OVERLAY...][,section.key=value...]`` (names or .yaml paths), then apply ``overrides``.
    ``folder``: the spec comes from a record in this folder, so its .yaml paths are read there (``confined``)."""
    spec = spec.strip()
    if not spec:
        raise ProfileError("empty profile spec")
    quoted = one_line(repr(spec))
    head, *assignments = [part.strip() for part in _split_spec(spec)]
    overrides_all: dict[str, Any] = {}
    for item in assignments:
        if "=" not in item:
            raise ProfileError(f"profile spec {quoted}: {one_line(repr(item))} is not section.key=value")
        key, value = (x.strip() for x in item.split("=", 1))
        if key in overrides_all:
            raise ProfileError(f"profile spec {quoted}: {one_line(key)} is given twice")
        try:
            overrides_all[key] = parse_value(value, key)
        except ProfileError as err:
            raise ProfileError(f"profile spec {quoted}: {err}") from None
    overrides_all.update(overrides or {})
    names = [n.strip() for n in head.split("+")]
    if folder is not None:
        names = [confined(n, folder) if is_yaml(n) else n for n in names]
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    origin: dict[str, str] = {}
    titles, own_names = [], []
    for i, name in enumerate(names):
        v, s, o, pname, title, overlay = _resolve(name, (), None if folder is None else str(folder.resolve()))
        own_names.append(pname)
        if i == 0 and overlay:
            raise ProfileError(f"'{name}' is an overlay: put it after a full profile, as in 'PROFILE+{name}' "
                               f"(see 'lv variants list')")
        values.update(copy.deepcopy(v))
        sources.update(s)
        for k, where in o.items():
            origin.pop(k, None)
            origin[k] = where
        titles.append(title)
    for key, value in overrides_all.items():
        if not known_parameter(key):
            raise ProfileError(f"profile spec {quoted}: unknown parameter {one_line(repr(key))} "
                               f"(see 'lv variants show {one_line(names[0])}')")
        values[key] = value
        sources[key] = f"override in {spec!r}"  # in full (a citation), escaped by repr
        origin.pop(key, None)
        origin[key] = f"profile spec {quoted}"
    name = "+".join(own if Path(n).suffix else n for n, own in zip(names, own_names))  # a file's own name
    base = "+".join(names) if is_shipped(head) else (_root(names[0]) or "")
    return _build(name, " + ".join(titles), values, sources, origin, spec, base)


def _build(name: str, title: str, values: dict[str, Any], sources: dict[str, str], origin: dict[str, str],
           spec: str, base: str) -> Profile:
    """The typed profile of resolved values; a bad value is reported at the place that set it (``origin``)."""
    params: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
    for key, value in values.items():
        section, field = key.split(".", 1)
        params.setdefault(section, {})[field] = value
    try:
        return _converter.structure({"name": name, "title": title, "params": params,
                                     "sources": sources, "spec": spec, "base": base}, Profile)
    except _SectionError as err:
        key = f"{err.section}.{err.key}" if err.key else err.section
        in_section = [o for k, o in origin.items() if k.startswith(err.section + ".")]
        where = origin.get(key) or (in_section[-1] if in_section else None)  # a section-wide check: its last setter
        where = where or f"profile {one_line(repr(spec))}"
        raise ProfileError(f"{where}: {key}: {err.message}") from None


def is_shipped(spec: str) -> bool:
    """Does ``spec`` name shipped profiles and overlays only (no file path, no override)? Such a spec means the
    same wherever lv is installed, so a record may store it as it is."""
    parts = [p.strip() for p in _split_spec(spec)]
    return len(parts) == 1 and all(n.strip() in profile_names() for n in parts[0].split("+"))


def _root(name: str, seen: tuple[str, ...] = ()) -> str | None:
    """The shipped profile at the root of a profile file's ``extends`` chain (its first parent's, ...), if any."""
    if not Path(name).suffix and name in profile_names():
        return name
    if name in seen:
        return None
    raw = _read_raw(_find(name))
    if not raw.extends:
        return None
    parent = raw.extends[0]
    beside = Path(raw.file).parent / parent
    if is_yaml(parent) and beside.is_file():
        parent = str(beside.resolve())
    return _root(parent, seen + (name,))


def stored_form(profile: Profile) -> dict[str, Any]:
    """The profile as a record stores it so that it replays anywhere: its name, title, base (a shipped profile)
    and every value that differs from the base (all of them when there is no base)."""
    base_values = load_profile(profile.base).values() if profile.base else {}
    values = {k: v for k, v in profile.values().items() if k not in base_values or base_values[k] != v}
    out: dict[str, Any] = {"name": profile.name, "title": profile.title}
    if profile.base:
        out["base"] = profile.base
    out["values"] = values
    return out


def from_stored(stored: dict[str, Any], label: str) -> Profile:
    """The profile a record stores (see ``stored_form``); ``label`` names it (the spec it was made with, kept only
    as a label: no file is read). Raises ProfileError."""
    base = stored.get("base") or ""
    if base:
        if not is_shipped(base):
            raise ProfileError(f"profile: base {base!r}: give a shipped profile (known: {', '.join(profile_names())})")
        resolved = load_profile(base)
        values, sources = dict(resolved.values()), dict(resolved.sources)
    else:
        values, sources = {}, {}
    stored_values = stored.get("values") or {}
    origin = {}
    for key, value in stored_values.items():
        if not known_parameter(str(key)):
            raise ProfileError(f"profile: values: unknown parameter '{key}' (see 'lv variants show {base or label}')")
        values[key] = value
        sources[key] = f"{label}, stored in the record"
        origin[key] = "profile: values"
    return _build(str(stored.get("name") or label), str(stored.get("title") or label), values, sources, origin,
                  label, base)


def from_values(values: dict[str, Any], name: str, title: str = "", spec: str = "") -> Profile:
    """A profile from its resolved parameters (``Profile.values()``): what a simulation sends to a worker that
    has no profile files."""
    for key in values:
        if not known_parameter(key):
            raise ProfileError(f"profile '{spec or name}': unknown parameter '{key}'")
    return _build(name, title or name, dict(values), {}, {}, spec or name, "")


def bounds() -> dict[str, Whole]:
    """The bound of every whole-number parameter (its definition's ``Whole``), as ``{"section.key": bound}``:
    the profile's own sections', then the action families'."""
    sections = {**SECTION_TYPES, **extension_sections()}
    return {f"{section}.{a.name}": a.validator for section, cls in sections.items() for a in attrs.fields(cls)
            if isinstance(a.validator, Whole)}


def parameter_names() -> list[str]:
    """Every parameter a profile may have, as ``section.key``: its own sections', then those the action families
    bring (``extension_sections``), which a profile has only where it names them."""
    own = [f"{section}.{name}" for section, names in SECTION_FIELDS.items() for name in names]
    return own + [f"{section}.{a.name}" for section, cls in extension_sections().items() for a in attrs.fields(cls)]


# Parameters that no rule reads under some values of the others, and why (``lv simulate --set`` warns when a
# sweep varies one of them: its values would give the same games).
UNREAD: dict[str, tuple[str, Callable[[Profile, int], bool]]] = {
    "raise.cost_per_space": ("raise.enabled is false", lambda p, n: not p.raise_.enabled),
    "raise.max_height": ("raise.enabled is false", lambda p, n: not p.raise_.enabled),
    "sprawl.riser_cost": ("no casino is ever more than 1 high (raise.enabled, raise.max_height)",
                          lambda p, n: p.max_height(n) == 1),
    "gamble.lay_off_double_basis": ("gamble.lay_off is none", lambda p, n: p.gamble.lay_off == "none"),
    "f_block.block": ("no block is closed (f_block.closed_when)", lambda p, n: not p.f_block_closed(n)),
}


def unread(profile: Profile, key: str, players: int) -> str | None:
    """Why no rule of ``profile`` reads ``key`` in a game of ``players`` players, or None if a rule does."""
    why, test = UNREAD.get(key, (None, None))
    return why if test is not None and test(profile, players) else None


# What a parameter amounts to in a game of N players, where two of its values can give the same game: key ->
# (kind, what the amount is, the amount). ``lv explain`` calls a change whose values amount to the same under
# both profiles of a pair "cannot apply here", with the reason. Kinds: "players" (the rule is for other player
# counts: the text says so), "same" (the two values give the same amounts: the text says which).
AMOUNTS: dict[str, tuple[str, str, Callable[[Profile, int], Any]]] = {
    "players.min": ("players", "for other player counts: both allow N players", lambda p, n: p.players.min <= n),
    "players.max": ("players", "for other player counts: both allow N players", lambda p, n: n <= p.players.max),
    "players.colors": ("same", "seating: colours for N players, and no rule reads a colour's name",
                       lambda p, n: len(p.players.colors) >= n),
    "f_block.closed_when": ("players", "for other player counts: block F is closed at N players under both or "
                                       "neither", lambda p, n: p.f_block_closed(n)),
    # 000 L39 against 003 L186-190: a lot card's money and $10 minus its die, lot by lot on this board
    "setup.starting_money": ("same", "starting money on every deal of this board (each card's money is $10 minus "
                                     "its lot's die)",
                             lambda p, n: tuple(lot.card_money if p.setup.starting_money == "sum_card_values"
                                                else 10 - lot.die for lot in load_board().lots.values())),
    "remodel.counts": ("same", "remodel: with no casino more than 1 high a casino's tiles are its spaces",
                       lambda p, n: "spaces" if p.max_height(n) == 1 else p.remodel.counts),
    "raise.max_height": ("same", "highest casino at N players", lambda p, n: p.max_height(n)),
    # where every casino is 1 high (no Raise action), "same colour and height" is "same colour", and a casino's
    # points are its spaces (rules-diff rows 14 and 20)
    "casino.join_rule": ("same", "casinos: with no casino more than 1 high, a colour's tiles are all of one height",
                         lambda p, n: "color" if p.max_height(n) == 1 else p.casino.join_rule),
    "scoring.order": ("same", "scoring order: with no casino more than 1 high a casino's points are its spaces",
                      lambda p, n: "ascending_spaces" if p.max_height(n) == 1 else p.scoring.order),
}


def amount(profile: Profile, key: str, players: int) -> tuple[str, str, Any] | None:
    """(kind, what, the amount) of ``key`` under ``profile`` in a game of ``players`` (``AMOUNTS``), or None."""
    entry = AMOUNTS.get(key)
    if entry is None:
        return None
    kind, what, fn = entry
    return kind, what.replace("N players", f"{players} players"), fn(profile, players)


def describe_parameters(profile: Profile) -> list[tuple[str, Any, str]]:
    """(key, value, citation) rows for ``lv variants show``."""
    return [(k, v, profile.sources.get(k, "")) for k, v in profile.values().items()]


def profile_info() -> list[dict[str, Any]]:
    """One row per shipped profile file: name, whether it is an overlay, player range, title."""
    rows = []
    for name in profile_names():
        values, _, _, pname, title, overlay = _resolve(name)
        players = "" if overlay else f"{values.get('players.min')}-{values.get('players.max')}"
        rows.append({"name": name, "overlay": overlay, "players": players, "title": title})
    return rows
