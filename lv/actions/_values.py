"""The base of the decision classes, the frozen native base of the core's, and the checks of their fields.

A decision is a small immutable value with a class-level ``kind`` (``Build.kind == "build"``). The core's are plain
classes written the same way each (native ones where the core is compiled: the search reads a decision's fields
millions of times a second, and a native field is a C read where an attrs field is a generic attribute lookup):

    class Build(FrozenDecision):
        kind: ClassVar[str] = "build"
        _keys: ClassVar[tuple[str, ...]] = ("lot", "color")  # the fields, in the order __init__ takes them
        __slots__ = _keys

        def __init__(self, lot: Any, color: Any) -> None:
            self.lot: Final[str] = as_text(self, "lot", lot)
            self.color: Final[str] = as_text(self, "color", color)

        def _values(self) -> tuple[Any, ...]:
            return (self.lot, self.color)

        def __setattr__(self, name: str, value: object) -> None:
            set_once(self, name, value)

Each field is checked when the decision is made (``text``, ``whole``, ... below): ``Build(lot=1.5)`` is an
``ArgumentError`` naming the class, the field and what it takes, alike in both builds (the compiled build would
otherwise refuse it in mypyc's words, the pure build not at all). ``==``, ``hash``, ``repr`` (attrs' form,
``Build(lot='A2', color='gold')``), pickling and copying come from ``DecisionValue``; a field cannot be assigned
once made (``attrs.exceptions.FrozenInstanceError``, as the attrs classes they replace raised). In the pure
build a core class's ``__init__`` sets its fields without going through that ``__setattr__`` (``_construct_open``):
the same checks and the same refusal after, at half the cost of making a decision.

A house rule's decision (Python in both builds) may instead be a frozen attrs class with a ``kind`` (lv/actions/sell.py,
docs/house-rules.md): attrs gives it ``==``, ``hash`` and ``repr``, and ``lv.arguments.check_action`` checks its
fields against their annotations when it is played.
"""

from __future__ import annotations

from functools import update_wrapper
from types import FunctionType
from typing import Any, ClassVar, Final

from attrs.exceptions import FrozenInstanceError
from mypy_extensions import mypyc_attr

from ..errors import ArgumentError
from ..yamlsource import one_line

COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd
# pure, an event made without its ``__init__``'s frame (a family's ``carry_out`` stores each field itself, in the one
# place it makes its main event: ~750 instructions fewer each, a hundred a reference game); compiled, ``__init__``
new_event: Final = object.__new__

# the fields of each class of decision that names none in ``_keys`` (an attrs class's, read from attrs; none), by class
_ATTRS_KEYS: Final[dict[type, tuple[str, ...]]] = {}


# acyclic: a decision holds plain data (a trade its steps) and never a cycle: the compiled build keeps it out of the
# cyclic collector (each class says so again; a Python subclass is tracked as usual)
@mypyc_attr(allow_interpreted_subclasses=True, acyclic=True)
class DecisionValue:
    """The base of every decision class: ``kind`` names it (``build``, ``money``, ...)."""

    kind: ClassVar[str] = ""
    _keys: ClassVar[tuple[str, ...]] = ()  # the fields, in order (an attrs class's are read from attrs)
    __slots__ = ()

    def _values(self) -> tuple[Any, ...]:
        """The fields' values in order (each core class reads its own; a house rule's attrs fields by name)."""
        keys = self._keys
        if not keys:  # a class of no fields (``EndTurn``: its hash in the search's tree) or an attrs class's
            cls = type(self)
            found = _ATTRS_KEYS.get(cls)
            if found is None:  # (looked up once a class: ``getattr`` of a missing attribute raises inside)
                found = _ATTRS_KEYS[cls] = tuple([a.name for a in getattr(cls, "__attrs_attrs__", ())])
            if not found:
                return ()
            keys = found
        return tuple([getattr(self, k) for k in keys])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, DecisionValue):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        # the fields' hash: no tuple made around them, no ``kind`` read (a class attribute: a generic lookup,
        # compiled), no mixing in of the class (hashes are 64-bit: compiled, a combination is arithmetic on boxed
        # ints). Decisions of two classes with the same fields may share a hash (a raise and a reorganization of one
        # casino); ``==`` tells them apart by class. The search's tree keys its children by decision
        return hash(self._values())

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy remake it from its fields (a native class makes none without them)
        return (type(self), self._values())

    def __repr__(self) -> str:
        return type(self).__name__ + "(" + ", ".join(
            [f"{k}={v!r}" for k, v in zip(self._keys, self._values())]) + ")"


@mypyc_attr(acyclic=True)
class FrozenDecision(DecisionValue):
    """The base of the core's decision classes. Each class that writes an ``__init__`` ends with the same
    ``__setattr__``: a field is set once, by ``__init__`` (``set_once``). It is written beside the ``__init__``, not
    here: mypyc makes an ``__init__`` go through an inherited ``__setattr__``, but sets the fields directly past its
    own class's, and allows none in ``DecisionValue``, which Python classes may subclass. Compiled, Python code that
    assigns a field meets it."""

    __slots__ = ()


def set_once(made: object, name: str, value: object) -> None:
    """A decision's ``__setattr__``: ``__init__`` sets each field once; after, the decision is frozen."""
    if hasattr(made, name):
        raise FrozenInstanceError()
    object.__setattr__(made, name, value)


# ------------------------------------------------------------------------------ the pure build's construction

def _construct_open(cls: type) -> None:
    """The pure build only (``FrozenDecision.__init_subclass__`` there): a core class's ``__init__`` sets its
    fields at C speed. Through the class's ``__setattr__`` each field costs two Python frames and ``hasattr``
    raising AttributeError inside on the unset slot (about 5,000 instructions a field, 2-3% of a game); instead
    the ``__init__`` as written runs on the decision while its class is a stand-in (a subclass adding no slot, with
    ``object.__setattr__``), and the class is put back after: a field assigned later meets ``set_once`` as
    before. The compiled build never runs this: mypyc sets a native class's fields directly in ``__init__``.
    Each subclass gets its own (GiveMoney its own, with _Amount's ``__init__``); a Python subclass of a core class
    (pure build only: the compiled build refuses to make one) too, and its ``super().__init__`` runs as written."""
    inherited = getattr(cls, "__init__")
    init = getattr(inherited, "_as_written", inherited)  # as written, not the wrapper made for a base
    if not isinstance(init, FunctionType) or not isinstance(getattr(cls, "__setattr__"), FunctionType):
        return  # a class that sets no field (EndTurn), or not written as the core's are (a stand-in itself)
    opening: type | None = None  # made on first use (start-up: about 80,000 instructions a class)
    set_class = vars(object)["__class__"].__set__  # (the descriptor itself: no lookup)

    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        nonlocal opening
        if type(self) is not cls:  # a subclass's decision, or a stand-in's (a subclass's super().__init__)
            init(self, *args, **kwargs)
            return
        if opening is None:
            opening = type("_" + cls.__name__ + "_opening", (cls,),
                           {"__slots__": (), "__setattr__": object.__setattr__, "__module__": cls.__module__,
                            "_stands_in_for": cls})
        set_class(self, opening)
        try:
            init(self, *args, **kwargs)
        finally:
            set_class(self, cls)

    setattr(__init__, "_as_written", init)
    setattr(cls, "__init__", update_wrapper(__init__, init))


if isinstance(set_once, FunctionType):  # the pure build (compiled, this module's functions are native)
    setattr(FrozenDecision, "__init_subclass__", classmethod(_construct_open))


# ---------------------------------------------------------------------------------------------- the fields' checks


def _refuse(made: object, name: str, value: object, what: str) -> ArgumentError:
    kind = type(made)
    kind = kind.__dict__.get("_stands_in_for", kind)  # the pure build's stand-in while made: the class's name
    return ArgumentError(f"{kind.__name__}.{name} {one_line(repr(value))[:80]}: {what}")


def is_whole(v: object) -> bool:
    """An int, not a bool (True is no number of dollars)."""
    return isinstance(v, int) and not isinstance(v, bool)


def as_text(made: object, name: str, v: Any) -> str:
    if isinstance(v, str):
        return v
    raise _refuse(made, name, v, "a text")


def as_whole(made: object, name: str, v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise _refuse(made, name, v, "a whole number")


def as_flag(made: object, name: str, v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise _refuse(made, name, v, "True or False")


def as_flag_or_none(made: object, name: str, v: Any) -> bool | None:
    if v is None or isinstance(v, bool):
        return v
    raise _refuse(made, name, v, "True, False or None (None: the boss is asked)")


def as_whole_or_none(made: object, name: str, v: Any) -> int | None:
    if v is None or (isinstance(v, int) and not isinstance(v, bool)):
        return v
    raise _refuse(made, name, v, "a whole number or None")


def as_texts(made: object, name: str, v: Any) -> tuple[str, ...]:
    if not isinstance(v, tuple) or not all([isinstance(x, str) for x in v]):
        raise _refuse(made, name, v, "a tuple of texts")
    return v


def as_wholes(made: object, name: str, v: Any) -> tuple[int, ...]:
    if not isinstance(v, tuple) or not all([is_whole(x) for x in v]):
        raise _refuse(made, name, v, "a tuple of whole numbers")
    return v


def as_lot_faces(made: object, name: str, v: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(v, tuple) or not all([isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)
                                            and is_whole(x[1]) for x in v]):
        raise _refuse(made, name, v, "a tuple of (text, whole number) pairs")
    return v


def as_decisions(made: object, name: str, v: Any) -> tuple[Any, ...]:
    if not isinstance(v, tuple):
        raise _refuse(made, name, v, "a tuple of decisions")
    return v
