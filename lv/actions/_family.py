"""The protocol of an action family (``Family``), what its parser is given (``Words``) and what its generator
is given (``Moment``). See the package's docstring (``lv/actions/__init__.py``) for how a family module uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from mypy_extensions import i64, mypyc_attr

from ..casinos import casino_index
from ..errors import IllegalAction, LvError, NotationError
from ..ruleids import Rule
from ..yamlsource import MAX_DIGITS, one_line

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, CasinoIndex, DiceFacts
    from ..chance import Dice
    from ..events import Event
    from ..profile import Profile
    from ..rules import Engine, FamilyTables
    from ..state import GameState

T = TypeVar("T")

Reason = tuple[str, str]
"""Why a decision is refused: (rule id, message). Rule ids: ``lv/ruleids.py``."""

Decision = Any
"""A decision: an instance of one of the families' classes (frozen attrs classes with a ``kind``)."""

# who a per-casino generator is asked about, relative to the player to move (``Family.casinos``)
BOSSED = "bossed"  # casinos the player is the boss of
DICED = "diced"  # casinos the player has a die in (bossed or not)
RIVALS = "rivals"  # casinos another player is the boss of
EVERY = "every"  # every casino
ROLES = (BOSSED, DICED, RIVALS, EVERY)


@mypyc_attr(allow_interpreted_subclasses=True)
class Family:
    """One action family: everything lv knows about an action, found through the table (``lv.actions.FAMILIES``).

    A family module defines a subclass whose methods are the action's rules (the defaults here are what a family
    without the hook does) and makes one instance of it with the family's data: ``FAMILY = BuildFamily(name=
    "build", order=10, ...)``. Compiled, a method call on a family is a C call; a house rule's subclass, written in
    Python (lv/actions/sell.py), plugs into the compiled core through the same methods (mypyc's
    ``allow_interpreted_subclasses``).

    Required: ``name``, ``order``, ``decisions``, ``verbs`` and the methods ``parse``, ``format``,
    ``structured``. The rest is optional: a family that does not ``apply`` (``applies=False``) is carried out by
    the game's turn machinery (the draw, the end of a turn); one without generators lists nothing (trades are
    open-ended). The flags ``applies``, ``generates_*``, ``casinos`` and ``rolls`` say which optional methods
    it has, so the callers ask only the families that do."""

    name: str  # "raise": the family's name, and the word of its structured record form (``action: raise``)
    order: int  # where it comes in the table: the order of verbs in help, of ``lv legal``'s groups
    decisions: tuple[type, ...]  # its decision classes; the first is its main one
    verbs: tuple[str, ...]  # words of the notation it parses; the first of each decision class is its group
    aliases: tuple[str, ...]  # other spellings of its first verb that it parses (``reorganize``)
    record_kinds: tuple[str, ...]  # ``action:`` words of a structured record decision it reads (``from_record``)
    listed: bool  # its decisions are listed by ``lv legal`` (a trade is not: any exchange may be proposed)
    in_trade: bool  # its decisions may be steps of a trade (the current player's actions)
    applies: bool  # the engine carries out its decisions: it has ``why_not`` and ``apply``
    anytime: bool  # applied in the draw step as well as the action step, by anyone (a trade)
    by_game: tuple[type, ...]  # decisions the game's turn machinery carries out, refused by the engine
    main_event: str | None  # the kind of the event that tells what it did (narrative.py, ``effect``)
    rolls: str | None  # the key of its dice in a record's ``dice`` mapping (it has ``table_dice``)
    generates_before: bool  # it has ``generate_before``: legal decisions listed before the casinos' (builds)
    casinos: str | None  # which casinos ``generate_casinos`` is given (ROLES); None: it has none
    generates_after: bool  # it has ``generate_after``: legal decisions listed after the casinos' (end)
    generates_waiting: bool  # it has ``generate_waiting``: legal decisions outside the action step (the draw)
    position: int  # its place among the generators (``legal_order``, default ``order``; see lv/actions)
    profile_keys: tuple[str, ...]  # profile parameters it reads (a house rule's new keys go here)
    parameters: type | None
    # ^ a house rule's own profile section, named after the family (``sell:``): an attrs class with a default for
    #   every key and validators like the profile's sections; lv/profile.py loads it strictly, and the family reads
    #   it as ``profile.extension(name)`` (the defaults where a profile does not name the section)
    rules: type | None
    # ^ a house rule's own rule ids: a class of constants like lv/ruleids.py's ``Rule`` (dotted ids are its
    #   parameters); ``lv.actions.rule_ids()`` lists them with lv/ruleids.py's
    effect_sep: str
    # ^ what comes between its notation and its effect (a gamble's is a space: ``gamble B3 4 at blue's casino: ...``)
    one_each: bool
    # ^ at most one decision at a casino, and ``ones_in`` says where: the pick counts it by a mask (lv/legal.py)

    def __init__(self, *, name: str, order: int, decisions: tuple[type, ...], verbs: tuple[str, ...],
                 aliases: tuple[str, ...] = (), record_kinds: tuple[str, ...] = (), listed: bool = True,
                 in_trade: bool = False, applies: bool = True, anytime: bool = False, by_game: tuple[type, ...] = (),
                 main_event: str | None = None, rolls: str | None = None, generates_before: bool = False,
                 casinos: str | None = None, generates_after: bool = False, generates_waiting: bool = False,
                 legal_order: int | None = None, profile_keys: tuple[str, ...] = (), parameters: type | None = None,
                 rules: type | None = None, effect_sep: str = ": ", one_each: bool = False) -> None:
        if casinos is not None and casinos not in ROLES:
            raise ValueError(f"action family {name}: casinos={casinos!r}, not one of {ROLES}")
        self.name = name
        self.order = order
        self.decisions = decisions
        self.verbs = verbs
        self.aliases = aliases
        self.record_kinds = record_kinds
        self.listed = listed
        self.in_trade = in_trade
        self.applies = applies
        self.anytime = anytime
        self.by_game = by_game
        self.main_event = main_event
        self.rolls = rolls
        self.generates_before = generates_before
        self.casinos = casinos
        self.generates_after = generates_after
        self.generates_waiting = generates_waiting
        self.position = order if legal_order is None else legal_order
        self.profile_keys = profile_keys
        self.parameters = parameters
        self.rules = rules
        self.effect_sep = effect_sep
        self.one_each = one_each

    def __repr__(self) -> str:
        return f"<action family {self.name}>"

    def __deepcopy__(self, memo: dict[int, Any]) -> Family:
        """One family per action: a copy of anything that holds one holds the same (a compiled class has no
        default deep copy)."""
        return self

    def _missing(self, method: str) -> NotImplementedError:
        return NotImplementedError(f"action family {self.name} has no {method}")

    # ------------------------------------------------------------------ notation and records (required)
    def parse(self, w: Words) -> Decision:
        """Words -> decision (raises NotationError)."""
        raise self._missing("parse")

    def format(self, a: Decision, names: Sequence[str]) -> str:
        """Decision, names -> text in the notation; format(parse(text)) == text."""
        raise self._missing("format")

    def structured(self, a: Decision, names: Sequence[str]) -> dict[str, Any]:
        """Decision, names -> its structured record form (what the engine writes)."""
        raise self._missing("structured")

    def from_record(self, d: dict[str, Any]) -> str:
        """A structured record decision (one of ``record_kinds``) -> notation text."""
        raise self._missing("from_record")

    def group(self, a: Decision) -> str:
        """A decision -> its ``lv legal`` group."""
        return self.verbs[0]

    # ------------------------------------------------------------------ the rules
    def active(self, profile: Profile) -> bool:
        """Does ``profile`` have this action at all? An inactive family lists nothing."""
        return True

    def prepare(self, profile: Profile, board: Board) -> Any:
        """Tables it computes once per profile and board (costs by size), read by its predicate and its generator
        alike as ``engine.tables[name]``: one formula, written once, and no call per casino. None: no tables."""
        return None

    def why_not(self, engine: Engine, s: GameState, player: int, a: Decision) -> Reason | None:
        """The referee's check: why ``player`` may not make decision ``a`` now, or None (``applies``)."""
        return None

    def cost(self, engine: Engine, s: GameState, a: Decision) -> int:
        """Dollars a legal decision costs its player now."""
        return 0

    def apply(self, engine: Engine, s: GameState, player: int, a: Decision, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        """Carry out a decision (``applies``): it checks ``why_not`` itself, the referee's safety."""
        raise IllegalAction(f"not an action: {a!r}", Rule.ACTIONS)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Decision, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without its checks: for decisions of the family's own generator (default: with them)."""
        self.apply(engine, s, player, a, dice, events, choices)

    def table_dice(self, game: Any, a: Decision, faces: list[int]) -> Any:
        """(game, decision, faces) -> its ``dice`` value (``rolls``), taking the faces it rolls from the front of
        the list given at a table (raises IllegalAction naming the rule ``dice`` when too few are given)."""
        raise self._missing("table_dice")

    # ------------------------------------------------------------------ the legal list (lv/legal.py)
    def generate_before(self, m: Moment, out: list[Decision]) -> None:
        """Legal decisions listed before the casinos' (``generates_before``)."""

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """Legal decisions at each casino (``casinos``): for each position ``i`` in ``rows`` (in board order: the
        set bits of the role's mask, ``Moment.bossed`` ...), ``m.casinos[i]`` is (casino, dice facts) and its
        decisions go into ``m.slots[i]``. ``rows`` is read, never changed (legal.py keeps it for the next
        list)."""

    def each_casino(self, m: Moment) -> int:
        """(Pure Python's uniform pick, ``legal.random_pick``.) How many decisions ``generate_casinos`` would put
        at each casino of its role now, where it is the same number ``k`` at every one of them (``make_casino(m,
        row, j)`` makes the ``j``-th, ``j`` below ``k``): the pick then counts them without asking the generator
        and makes only the one it draws. -1 (the default: a family that says nothing about its decisions): it is
        asked."""
        return -1

    def least_budget(self, m: Moment) -> int:
        """(Pure Python's uniform pick, ``legal.random_pick``.) A budget (``Moment.budget``) below which
        ``generate_casinos`` lists nothing at any casino, whatever the rest of the moment: read once a profile and
        board (from its tables), the pick then does not ask the family at a smaller budget. 0 (the default): it is
        always asked."""
        return 0

    def generate_after(self, m: Moment, out: list[Decision]) -> None:
        """Legal decisions listed after the casinos' (``generates_after``)."""

    def generate_waiting(self, engine: Engine, s: GameState, out: list[Decision]) -> None:
        """Legal decisions outside the action step (``generates_waiting``)."""

    # ------------------------------------------------------------------ the legal list counted (lv/legal.py's pick)
    # A uniform pick counts every decision and makes only the one it draws (issue 31 item 4). A family may count
    # its decisions without making them; these defaults generate them into scratch space and count that, so a
    # family written with the generators alone (a house rule) is counted and picked from all the same.
    def count_before(self, m: Moment) -> int:
        """``len`` of what ``generate_before`` lists."""
        scratch: list[Decision] = []
        self.generate_before(m, scratch)
        return len(scratch)

    def make_before(self, m: Moment, i: int) -> Decision:
        """The ``i``-th decision ``generate_before`` lists (``i`` below ``count_before``)."""
        scratch: list[Decision] = []
        self.generate_before(m, scratch)
        return scratch[i]

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """For each casino in ``mask`` (bit ``i``: the casino ``m.casinos[i]``; the casinos of the family's role,
        ``Moment.bossed``, ...), the number of decisions ``generate_casinos`` puts in ``m.slots[i]``, added to
        ``counts[i]``; returns the number added in all. The built-in families walk the set bits (compiled: native
        shifts and tests, no list of positions). Default: ``count_casinos`` on the positions (``rows_of``)."""
        return self.count_casinos(m, m.rows_of(mask), counts)

    def count_casinos(self, m: Moment, rows: list[int], counts: list[int]) -> int:
        """``count_in`` by the positions of the casinos (the older protocol: a family that defines it is
        still counted by it). Default: generated into the slots (empty when asked), counted and emptied again."""
        self.generate_casinos(m, rows)
        slots = m.slots
        total = 0
        for i in rows:
            slot = slots[i]
            k = len(slot)
            counts[i] = counts[i] + k  # (compiled: ``+=`` on a list item is a generic in-place add)
            total += k
            slot.clear()
        return total

    def ones_in(self, m: Moment, mask: int) -> int:
        """(A family made with ``one_each``: at most one decision at a casino.) The casinos of ``mask`` (as
        ``count_in``'s) where ``generate_casinos`` puts its one decision, as a mask: the pick adds these up as bits,
        no count written at each casino (``lv/legal.py``). Default: from ``count_in``."""
        counts = [0] * len(m.casinos)
        self.count_in(m, mask, counts)
        out = 0
        for i in range(len(counts)):
            if counts[i]:
                out |= 1 << i
        return out

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The ``i``-th decision ``generate_casinos`` puts in ``m.slots[row]`` (``i`` below its count there);
        default: generated for that casino alone into its slot (empty when asked, emptied again)."""
        one = m.one
        one[0] = row
        slot = m.slots[row]
        try:
            self.generate_casinos(m, one)
            return slot[i]
        finally:
            slot.clear()

    def count_after(self, m: Moment) -> int:
        """``len`` of what ``generate_after`` lists."""
        scratch: list[Decision] = []
        self.generate_after(m, scratch)
        return len(scratch)

    def fixed_after(self) -> int:
        """(Pure Python's uniform pick, ``legal.random_pick``.) The number ``count_after`` answers at every moment,
        where it never changes (the end of the turn: 1): the pick then adds it up once a plan, not asking it each
        list. -1 (the default): ``count_after`` is asked."""
        return -1

    def make_after(self, m: Moment, i: int) -> Decision:
        """The ``i``-th decision ``generate_after`` lists (``i`` below ``count_after``)."""
        scratch: list[Decision] = []
        self.generate_after(m, scratch)
        return scratch[i]

    def listing(self, profile: Profile, a: Decision) -> dict[str, Any] | None:
        """The decisions a decision of its generator stands for, as ``lv legal`` shows them, where one listed
        decision stands for several (a gamble, listed at its largest bet: ``{lot, min, max, lay_off}``); None
        where it stands for itself."""
        return None

    def listing_text(self, g: dict[str, Any]) -> str:
        """That listing as text (``gamble B3 1..15 (the boss may lay off)``); goes with ``listing``."""
        raise self._missing("listing_text")

    # ------------------------------------------------------------------ its events' wording (lv/narrative.py)
    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """(its main event, names) -> what it did, written after its notation (``build A2 gold: -$6, die 2``)."""
        return ""

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        """(event, names) -> one of its events as a sentence (``red builds gold on A2: ...``), None for an event
        not its own."""
        return None


class Words:
    """A decision as words, with the board and the players' names: what a family's ``parse`` reads. Its
    helpers raise NotationError naming the word that is wrong."""

    __slots__ = ("text", "words", "names", "board")

    def __init__(self, text: str, words: list[str], names: Sequence[str], board: Board) -> None:
        self.text = text  # the decision as written, spaces normalised (for messages)
        self.words = words  # text.split(" "): words[0] is the verb, as written
        self.names = names
        self.board = board

    def __len__(self) -> int:
        return len(self.words)

    def word(self, i: int) -> str:
        return self.words[i]

    def fail(self, what: str) -> NotationError:
        return NotationError(f"'{self.text}': {what}")

    def expect(self, n: int, usage: str) -> None:
        if len(self.words) != n:
            raise self.fail(f"expected '{usage}'")

    def lot(self, i: int) -> str:
        word = self.words[i]
        lot = word.upper()
        if lot not in self.board.lots:
            raise self.fail(f"unknown lot '{word}' (lots are A1-A6, B1-B6, C1-C12, D1-D9, E1-E6, F1-F9)")
        return lot

    def color(self, i: int) -> str:
        word = self.words[i]
        color = word.lower()
        if color not in self.board.colors:
            raise self.fail(f"unknown colour '{word}' (colours: {', '.join(self.board.colors)})")
        return color

    def player(self, i: int) -> int:
        word = self.words[i]
        for seat, name in enumerate(self.names):
            if name.lower() == word.lower():
                return seat
        raise self.fail(f"unknown player '{word}' (players: {', '.join(self.names)})")

    def amount(self, i: int) -> int:
        word = self.words[i]
        amount = whole_number(word.lstrip("$"))
        if amount is None:
            raise self.fail(f"'{word}' is not a whole number of dollars")
        return amount

    def sub(self, text: str) -> Words:
        """Other words (a step of a trade) read against the same board and players."""
        return Words(text, text.split(" "), self.names, self.board)


def add_ones(counts: list[int], ones: int) -> int:
    """``count_in`` of a family with one decision at each casino of ``ones`` (its ``ones_in``): 1 added to
    ``counts[i]`` for each set bit ``i``; returns the number added."""
    total = 0
    bits: i64 = ones  # (machine ints, compiled: a native shift and test a casino)
    i: i64 = 0
    while bits:
        if bits & 1:
            counts[i] = counts[i] + 1
            total += 1
        bits >>= 1
        i += 1
    return total


def whole_number(word: str, error: type[LvError] = NotationError) -> int | None:
    """``word`` as a whole number if it is ASCII digits (``str.isdigit`` also takes '²' and Arabic-Indic
    digits), else None; more than MAX_DIGITS digits is ``error``."""
    if not (word.isascii() and word.isdigit()):
        return None
    if len(word) > MAX_DIGITS:
        raise error(f"{one_line(word[:20])}...: number too large (more than {MAX_DIGITS} digits)")
    return int(word)


class Moment:
    """What every generator of the legal list reads, computed once per list: the player to move, their money,
    the tiles left per colour, the closed F block. Generators read the profile and board from here too."""

    __slots__ = ("state", "profile", "board", "lots", "player", "money", "budget", "markers", "closed", "_left",
                 "open_colors", "colors_with", "_with", "index", "max_height", "tables", "casinos", "slots", "players",
                 "bossed", "diced", "rivals", "roles_of", "roles_player", "structure", "join_rule",
                 "per_color", "_by_counts", "family_tables", "counts", "before_counts", "after_counts", "bossed_rows", "diced_rows", "rivals_rows", "rows_stale",
                 "masks_stale", "roles_facts", "one", "by_role", "ones_low", "ones_high", "written",
                 "build_masks", "build_top", "rivals_count")

    def __init__(self, engine: Engine, s: GameState) -> None:
        p = engine.profile
        # no reference to the engine kept: the engine keeps its moment (``Engine.moment``), and a moment that kept
        # its engine would make the two a cycle, every game's engine, state and lists left to the cyclic collector
        self.profile = p
        self.board = engine.board
        self.lots = engine.board.lots
        self.tables = engine.tables
        # the built-in families' tables, typed (compiled: a native read each, not a lookup by name in ``tables``)
        self.family_tables: FamilyTables = engine.family_tables
        self.join_rule: str = p.casino.join_rule
        self.per_color: int = p.components.tiles_per_color  # read once (compiled: two generic attribute reads)
        # the tile facts by the tiles on the board of each colour, packed into one int (``_counted``): kept with the
        # families' tables of the profile and board, so shared by its games (a search's and a simulation's)
        by_counts: dict[int, TileFacts] | None = engine.tables.get("tile facts by counts")
        if by_counts is None:
            by_counts = engine.tables["tile facts by counts"] = {}
        self._by_counts: dict[int, TileFacts] = by_counts
        self.open_colors: tuple[str, ...] = ()
        # the tiles left by colour (``left``), made when first read after a renewal (None: not yet; most lists
        # never read it), and the moment's own table of the colours with at least N left (``colors_with`` outside
        # a search), kept from renewal to renewal and emptied: no dict made a renewal
        self._left: dict[str, int] | None = None
        self._with: dict[int, tuple[str, ...]] = {}
        self.casinos: list[tuple[Casino, DiceFacts]] = []  # every casino with its dice facts, in board order
        self.slots: list[list[Decision]] = engine.slots  # the decisions at each casino, in family order
        # the casinos of each role (``Family.casinos``) as masks, bit ``i`` the casino ``casinos[i]`` (legal.py
        # works them out, and keeps them while the list and the player are the same)
        self.bossed = 0
        self.diced = 0
        self.rivals = 0
        # the positions of their set bits (what ``generate_casinos`` is given). Compiled, legal.py works out the
        # masks, and writes the positions from them only for a list made, not a count (``rows_stale``); pure Python
        # lists the positions, in fewer bytecodes than bits in new ints, and nothing of it reads the masks
        # (``masks_stale``: worked out from the positions where a count is asked of it, as tests do)
        self.bossed_rows: list[int] = []
        self.diced_rows: list[int] = []
        self.rivals_rows: list[int] = []
        # (pure Python's ``fill``) those three lists and every position (EVERY's, written where a family asks),
        # by the role's place in ROLES: a family's casinos one list read, and no tuple made a list
        self.by_role: list[list[int]] = [self.bossed_rows, self.diced_rows, self.rivals_rows, []]
        self.rows_stale = False
        self.masks_stale = False
        # (pure Python's pick) the number of the rivals' casinos where it listed the player's alone (every other
        # casino a rival's, ``legal.random_pick``): their place in ``by_role`` then holds ``legal._UNLISTED``
        self.rivals_count = 0
        self.roles_of: list[tuple[Casino, DiceFacts]] | None = None  # the list and player those three are for
        self.roles_player = -1
        # (pure Python's ``legal._list_roles``) the casino index's dice facts by first lot when it listed them last
        self.roles_facts: list[DiceFacts | None] = []
        # a count of the list (legal.py's pick): the decisions at each casino, of each family before and after the
        # casinos (in the plan's order), and the one casino whose decisions are then made
        self.counts: list[int] = []
        self.before_counts: list[int] = []
        self.after_counts: list[int] = []
        self.one: list[int] = [0]  # the one casino whose decisions are made (``make_casino``'s default)
        self.players = 0  # the number of players ``closed`` and ``max_height`` are for (0: not worked out yet)
        # (pure Python's ``build.count_before``) the lots a player with ``money`` can pay for (the board's masks by
        # price, ``Board._price_masks``), less the closed block, by ``money`` up to the dearest lot's price: set with
        # ``closed`` (``build_top``: their number)
        self.build_masks: tuple[int, ...] = ()
        self.build_top = 0
        self.state = s
        self.structure = -1  # the structure stamp of ``state`` that ``left``, ... are for (-1: none yet)
        self.moment(engine, s)
        # a count of the list (legal.py's pick), of the families with one decision at a casino (``one_each``): the
        # number at each casino as two bit planes (bit ``i`` of ``ones_low`` 1, of ``ones_high`` 2: three families
        # at most), and the casinos whose ``counts`` the other families may have written
        self.ones_low = 0
        self.ones_high = 0
        self.written = 0

    def moment(self, engine: Engine, s: GameState) -> Moment:
        """This moment of ``s``: what depends on the state worked out again (``engine``, whose moment this is,
        keeps one ``Moment`` and renews it for each list, since the profile, board and tables stay)."""
        stamp = s.structure
        if stamp != self.structure or s is not self.state:  # the tiles moved since the last list (the same
            #   state with the same stamp has the same tiles and players)
            self.renew(engine, s, stamp)
        self.state = s
        self.player = player = s.current
        self.money: int = s.players[player].money
        # the most a purchase listed may cost (a build, sprawl, remodel, raise, reorganization; a gamble's stake is
        # the player's to choose, listed by ``money``): the player's money, less what a caller of ``legal.fill``
        # asks to keep (a bot that values nothing that would leave it less: greedy's reserve)
        self.budget: int = self.money
        self.markers = s.markers
        index = s._casinos  # (``Engine.index``'s test, written out: pure, a call a list fewer; the index is current)
        if index is None or index.dirty or index.join_rule != self.join_rule:
            index = casino_index(self.board, s, self.join_rule)
        self.index: CasinoIndex = index
        return self

    def renew(self, engine: Engine, s: GameState, stamp: int) -> None:
        """(``moment``, and pure Python's pick where a colour is shut.) What depends on the tiles of ``s``, whose
        structure stamp is ``stamp``, and on its number of players (the same state, the same number): the tiles'
        facts, by the tile counts in a search's imagined games (``mute``), which meet the same counts again and again
        (compiled: the key is a few native steps), else worked out (a game's lists meet most counts once: the kept
        facts would cost the collector more than their hits save; pure, the key costs more bytecodes than they save;
        and not kept in the state's ``structure_memo``: a game's lists never met a stamp there again, the reference
        and greedy workloads' 1,060 renewals all missed, and the memo cost a dict and a tuple each); both from the
        state's counts by colour number; outside a search no dict made (the moment's own ``colors_with`` emptied,
        the tiles left by colour made only if read: ``left``)."""
        if _COMPILED and engine.mute:
            self._left, opened, self.colors_with = self._counted(s)
        else:  # the open colours from the counts; the tiles left by colour made only if read (``left``)
            colors, counts, per_color = self.board.colors, s.color_counts, self.per_color
            if _COMPILED:
                shut = 0  # colours with no tile left
                for k in range(len(colors)):
                    if per_color - counts[k] <= 0:
                        shut += 1
            else:  # (pure: whether any colour is shut: at its supply, where a state never has more on the board,
                #   position.py; one ``in``)
                shut = 1 if per_color in counts else 0
            # while every colour has a tile left (most of a game), the board's own tuple (as ``_facts_of``)
            opened = colors if not shut else tuple([colors[k] for k in range(len(colors))
                                                  if per_color - counts[k] > 0])
            with_ = self._with
            if len(with_) != 1:  # (a dict emptied frees its table: only when more than the one entry is there)
                with_.clear()
            with_[1] = opened
            self.colors_with = with_
            self._left = None
        # the same colours open: the same tuple kept (build keeps its decisions by it: an identity test, where a
        #   key costs a tuple hashed); the very same tuple is not compared
        if opened is not self.open_colors and opened != self.open_colors:
            self.open_colors = opened
        self.structure = stamp
        n = len(s.players)
        if n != self.players:  # the same in every list of a game: no lookup by number of players
            per = engine.per_players.get(n)
            if per is None:
                per = engine.per_players[n] = (closed_block(self.profile, n), self.profile.max_height(n))
            self.closed, self.max_height = per  # the closed block, the highest a casino may be raised in this game
            self.players = n
            if not _COMPILED:
                masks = self.board._price_masks
                closed = self.closed
                if closed is not None:
                    off = ~self.board.block_mask[closed]
                    masks = tuple([mask & off for mask in masks])
                self.build_masks = masks
                self.build_top = len(masks)

    def _counted(self, s: GameState) -> TileFacts:
        """``tile_facts`` for the tiles of ``s`` on the board by colour, kept by the counts packed into one int (6
        bits a colour, in the board's colour order: the state's counts by colour number, no lookup by name): the
        same counts, the very same facts, whichever state and structure they are met in (they are values:
        ``colors_with`` only grows by what ``left`` says). A count the int cannot hold is not kept."""
        key = 0
        for n in s.color_counts:
            if n < 0 or n > 63:
                return _facts_of(self.per_color, self.board.colors, s.color_counts)
            key = key * 64 + n
        found = self._by_counts.get(key)
        if found is None:
            if len(self._by_counts) > 100_000:  # a long run of many games: start again rather than grow without end
                self._by_counts.clear()
            found = self._by_counts[key] = _facts_of(self.per_color, self.board.colors, s.color_counts)
        return found

    def rows_of(self, mask: int) -> list[int]:
        """The positions of the set bits of ``mask`` (``mask`` >= 0), in order: the casinos of a role as
        ``generate_casinos`` is given them (a new list: for the protocol's defaults, not the built-in families)."""
        out: list[int] = []
        i = 0
        while mask:
            if mask & 1:
                out.append(i)
            mask >>= 1
            i += 1
        return out

    @property
    def left(self) -> dict[str, int]:
        """The tiles left of each colour (``tiles_left``, in bulk), made when first read after the tiles moved."""
        left = self._left
        if left is None:
            left = self._left = _facts_of(self.per_color, self.board.colors, self.state.color_counts)[0]
        return left

    def colors_with_at_least(self, needed: int) -> tuple[str, ...]:
        """The colours with at least ``needed`` tiles left (``tiles_left(...) >= needed``, in bulk)."""
        colors: tuple[str, ...] | None = self.colors_with.get(needed)
        if colors is None:  # from the state's counts by colour number (no dict of the tiles left read)
            board_colors, counts, least = self.board.colors, self.state.color_counts, self.per_color - needed
            every = not _COMPILED  # (pure: every colour, the board's own tuple, where none is below ``needed``)
            if every:
                for count in counts:
                    if count > least:
                        every = False
                        break
            if every:
                colors = self.colors_with[needed] = board_colors
            else:
                colors = self.colors_with[needed] = tuple([board_colors[k] for k in range(len(board_colors))
                                                           if counts[k] <= least])
        return colors


# ------------------------------------------------------------------------------ conditions shared by the
# predicates and the generators (each written once)

def closed_block(profile: Profile, players: int) -> str | None:
    """The block nobody may build on (the F block in a 2-player game, where the profile closes it), or None.
    003 "2-Player Rules" L893-907."""
    return profile.f_block.block if profile.f_block_closed(players) else None


def tiles_left(engine: Engine, s: GameState, color: str) -> int:
    """Tiles of ``color`` still off the board (``components.tiles_per_color``)."""
    return engine.tiles_per_color - s.tiles_on_board(color)


TileFacts = tuple[dict[str, int], tuple[str, ...], dict[int, tuple[str, ...]]]


def tile_facts(engine: Engine, s: GameState) -> TileFacts:
    """``tiles_left`` of every colour in bulk, kept until the tiles change: tiles left per colour, the colours
    with any left, and the colours with at least N left, filled in per N on demand (``colors_with_at_least``)."""
    memo = s.structure_memo()
    found: TileFacts | None = memo.get("tile_facts")
    if found is None:
        found = memo["tile_facts"] = _facts_of(engine.tiles_per_color, engine.board.colors, s.color_counts)
    return found


def _facts_of(per_color: int, colors: tuple[str, ...], counts: list[int]) -> TileFacts:
    """``tile_facts`` of these tiles on the board by colour number (``GameState.color_counts``, in the board's colour
    order; kept in the state's structure memo by ``tile_facts``, compiled in a search by ``Moment._counted``)."""
    left: dict[str, int] = {}
    shut = 0  # colours with no tile left
    for k in range(len(colors)):  # one loop, no generator (compiled, a generator is an object and calls)
        n = per_color - counts[k]
        left[colors[k]] = n
        if n <= 0:
            shut += 1
    # while every colour has a tile left (most of a game), the board's own tuple: no list and tuple made, and the
    # very same tuple each time (``Moment.moment`` and build's kept decisions test it by identity)
    opened = colors if not shut else tuple([c for c in colors if left[c] > 0])
    found: TileFacts = (left, opened, {1: opened})  # at least 1 left: the open colours (the most asked)
    return found


_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd

K = TypeVar("K")
V = TypeVar("V")


class Lazy(dict[K, V]):
    """A table of ``formula(key)`` (a cost by number of spaces, by pips): ``keys`` computed at once, any other
    key on first use."""

    def __init__(self, formula: Callable[[K], V], keys: Iterable[K] = ()) -> None:
        super().__init__((k, formula(k)) for k in keys)
        self.formula = formula

    def __missing__(self, key: K) -> V:
        value = self[key] = self.formula(key)
        return value


class Counted:
    """A cost or a cap by a count (tiles, spaces, pips): ``formula(n)``, worked out once for every count below
    ``top`` (the most a game on the board reaches) into ``dense``, a tuple the generators index (compiled, a
    native read; a dict by int costs a hash lookup), and the families' ``cost`` (``at``). The predicates call
    ``formula`` itself, so tests/test_legal_agrees.py compares the two."""

    __slots__ = ("formula", "dense", "top")

    def __init__(self, formula: Callable[[int], int], top: int) -> None:
        self.formula = formula
        self.dense: tuple[int, ...] = tuple([formula(n) for n in range(top)])
        self.top = top

    def at(self, n: int) -> int:
        """``formula(n)``, read from ``dense`` below ``top`` (the cost paths: compiled, a tuple read, not a call)."""
        if 0 <= n < self.top:
            return self.dense[n]
        return self.formula(n)


def not_boss(s: GameState, b: int | None, lot: str) -> str:
    """Why the player is not the boss: nobody is (no die, or a tie), or someone else is."""
    if b is None:
        return f"nobody is the boss of the casino at {lot}"
    return f"you are not the boss of the casino at {lot} ({s.players[b].name} is)"


def refuse(reason: Reason | None) -> None:
    """Raise the refusal ``reason`` as IllegalAction (nothing if None)."""
    if reason is not None:
        raise IllegalAction(reason[1], reason[0])


# ------------------------------------------------------------------------------ wording shared by the families'
# events (``Family.effect``, ``Family.told``) and the narrative (lv/narrative.py)

def casino_text(lots: Iterable[str]) -> str:
    """A casino by its lots: ``C4+C5+C8``."""
    return "+".join(lots)


def dice_text(values: dict[str, int]) -> str:
    """Dice by lot: ``B2 3, B3 5``."""
    return ", ".join(f"{lot} {v}" for lot, v in values.items())


def new_die_text(value: int | None) -> str:
    """The die a new tile got (a build's, a sprawl's): ``die 2``, or none when the player had none left."""
    return f"die {value}" if value is not None else "no die left: the tile has none"
