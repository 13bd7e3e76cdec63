"""YAML loading that remembers where each key was written, so errors can name the file and line.

Two ways to the same result (``load_located``):

- the **fast path** (``_load_plain``) builds the data straight from libyaml's parser events in one pass, for the
  plain files lv writes and reads most (records, profiles without anchors): no anchors, aliases, tags, merge
  keys, duplicate keys, mappings or lists as keys, nor nesting deeper than MAX_DEPTH, and every scalar one that
  reads as plain data. Anything else, or any error, and it gives up;
- the **general path** (``_compose`` and ``_walk``) builds the node tree with its bounds, then the data: every
  feature lv accepts, and every message. It is the reference: the fast path gives the same data, the same lines,
  in the same order, or gives the file to it (tests/test_yamlsource.py compares the two).
"""

from __future__ import annotations

import datetime
import os
import stat
import functools
from pathlib import Path
from typing import Any, Callable, NoReturn

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from .errors import LvError

Path_ = tuple[Any, ...]  # a key path such as ("gamble", "lay_off") or ("turns", 3, "decisions", 0)


# libyaml's parser when PyYAML has it: the same events and marks, several times faster on a game record
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
try:  # the bare event parser of libyaml, without the constructor and resolver a CSafeLoader also sets up
    from yaml._yaml import CParser as _CParser
    _EventParser: Any = _CParser
except ImportError:  # PyYAML without libyaml: its pure-Python parser gives the same events, slower
    _EventParser = yaml.SafeLoader

# Limits on what a file may make the loader build (docs/design.md, "Limits on input"). A record nests about 6
# levels deep and uses no aliases; a profile may share a few values through anchors and merge keys (``<<: *base``).
MAX_DEPTH = 64  # mappings and lists inside one another, counting the levels an alias brings in
MAX_ALIAS_NODES = 10_000  # nodes reached through aliases, each time an alias is used ("billion laughs")
MAX_DIGITS = 100  # digits of a whole number (Python refuses to print more than 4,300)

_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"


# ---------------------------------------------------------------------------------------------- fast path

_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("null", "bool", "int", "float", "str", "timestamp"))
_SCALAR_TYPES = (type(None), str, int, float, datetime.date)  # immutable: one value may serve every file
_MISS: Any = object()
_plain_values: dict[str, Any] = {}  # plain (unquoted, untagged) scalar text -> its value, for short texts
_PLAIN_CACHE_SIZE = 4096
_PLAIN_CACHE_TEXT = 64  # longer texts are read each time (the cache stays small whatever the files hold)
_resolver = yaml.SafeLoader("")  # its resolver (plain text -> implicit tag) and scalar constructors; no state
_resolve: Callable[[type[yaml.Node], str, tuple[bool, bool]], str] = _resolver.resolve


def _plain_value(text: str) -> Any:
    """The value of a plain scalar (``12``, ``true``, ``~``, ``2026-11-23``, ``gold``) as SafeLoader reads it, or
    _MISS for one the fast path leaves to the general one (a merge key ``<<``, ``=``, a bad or huge number)."""
    tag = _resolve(yaml.ScalarNode, text, (True, False))
    if tag not in _PLAIN_TAGS:
        return _MISS
    try:
        value = _resolver.yaml_constructors[tag](_resolver, yaml.ScalarNode(tag, text))
    except Exception:  # int() of more than 4,300 digits, a date such as 2024-13-40: the general path says why
        return _MISS
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
        return _MISS
    if len(text) <= _PLAIN_CACHE_TEXT and isinstance(value, _SCALAR_TYPES):
        if len(_plain_values) >= _PLAIN_CACHE_SIZE:
            _plain_values.clear()
        _plain_values[text] = value
    return value


def _load_plain(text: str) -> tuple[Any, dict[Path_, int]] | None:
    """(data, lines) as the general path gives them, built in one pass over the parser's events; None when the
    text needs the general path (see the module's docstring), which then reads it from the start."""
    lines: dict[Path_, int] = {}
    known = _plain_values
    # each open mapping or list: [container, its path, is a mapping, pending key (or _MISS), the key's line]
    stack: list[list[Any]] = []
    root: Any = None
    documents = 0
    parser = _EventParser(text)
    get = parser.get_event
    try:
        while True:
            ev = get()
            kind = type(ev)
            if kind is ScalarEvent:
                if ev.anchor is not None or ev.tag is not None:
                    return None
                value = ev.value
                if ev.implicit[0]:  # plain: its text decides its type; quoted or a block (|, >): a string
                    value = known.get(value, _MISS)
                    if value is _MISS:
                        value = _plain_value(ev.value)
                        if value is _MISS:
                            return None
                opens = False
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if ev.anchor is not None or ev.tag is not None or len(stack) >= MAX_DEPTH:
                    return None
                value = {} if kind is MappingStartEvent else []
                opens = True
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                stack.pop()
                continue
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    return None
                continue
            elif kind is StreamEndEvent:
                break
            elif kind is AliasEvent:
                return None
            else:  # the stream's start, a document's end
                continue
            if not stack:
                root = value
                path: Path_ = ()
                lines[path] = ev.start_mark.line + 1
            else:
                frame = stack[-1]
                parent = frame[0]
                if frame[2]:  # a mapping: a key, or the value of the pending key (on the key's line)
                    key = frame[3]
                    if key is _MISS:
                        if opens or value in parent:  # a mapping or list as a key, a duplicate: general path
                            return None
                        frame[3], frame[4] = value, ev.start_mark.line + 1
                        continue
                    path = frame[1] + (key,)
                    parent[key] = value
                    lines[path] = frame[4]
                    frame[3] = _MISS
                else:
                    path = frame[1] + (len(parent),)
                    parent.append(value)
                    lines[path] = ev.start_mark.line + 1
            if opens:
                stack.append([value, path, kind is MappingStartEvent, _MISS, 0])
    except yaml.YAMLError:
        return None  # the general path reads it again and says where and what
    finally:
        parser.dispose()
    return root, lines


# ---------------------------------------------------------------------------------------------- general path

def _compose(text: str, fail: Callable[[Any, str], NoReturn], loader: Any = _Loader) -> Any:
    """The node tree of one YAML document, built from the parser's events without recursion, refusing
    (``fail(mark, message)``) nesting deeper than MAX_DEPTH and aliases that reach more than MAX_ALIAS_NODES
    nodes before anything big is built."""
    resolve = functools.lru_cache(maxsize=None)(yaml.SafeLoader("").resolve)  # implicit tags: int, bool, null
    anchors: dict[str, tuple[yaml.Node, int, int] | None] = {}  # anchor -> (node, size, height); None while open
    # each open mapping or list: [node, children, size (nodes in it), height (levels in it), anchor]
    stack: list[list[Any]] = [[None, [], 0, 0, None]]  # the bottom frame holds the document's root
    aliased = documents = 0
    node: yaml.Node
    parser = loader(text)
    try:
        while (ev := parser.get_event()) is not None:
            kind = type(ev)
            if kind is yaml.ScalarEvent:
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(yaml.ScalarNode, ev.value, ev.implicit)
                node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style)
                if ev.anchor is not None:
                    anchors[ev.anchor] = (node, 1, 0)
                size, height = 1, 0
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if len(stack) > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
                node_kind = yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(node_kind, None, ev.implicit)
                if ev.anchor is not None:
                    anchors[ev.anchor] = None
                stack.append([node_kind(tag, [], ev.start_mark, None, flow_style=ev.flow_style), [], 1, 1,
                              ev.anchor])
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                node, children, size, height, anchor = stack.pop()
                node.end_mark = ev.end_mark
                node.value = children if kind is yaml.SequenceEndEvent else list(zip(children[::2], children[1::2]))
                if anchor is not None:
                    anchors[anchor] = (node, size, height)
            elif kind is yaml.AliasEvent:
                if ev.anchor not in anchors:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} names no anchor defined before it")
                target = anchors[ev.anchor]
                if target is None:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} is inside its own anchor (a loop)")
                node, size, height = target
                aliased += size
                if aliased > MAX_ALIAS_NODES:
                    fail(ev.start_mark, f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes")
                if len(stack) - 1 + height > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels (through alias "
                                        f"*{one_line(ev.anchor)})")
            else:
                if kind is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        fail(ev.start_mark, "expected one YAML document, found another")
                continue
            frame = stack[-1]
            frame[1].append(node)
            frame[2] += size
            if height >= frame[3]:
                frame[3] = height + 1
    finally:
        parser.dispose()
    children = stack[0][1]
    return children[0] if children else None


def load_located(text: str, filename: str, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML (or JSON, a subset) and return (data, {key path: 1-based line}).

    Safe: only plain data (no ``!!python/...`` tags), bounded (MAX_DEPTH, MAX_ALIAS_NODES, MAX_DIGITS), and
    every problem is ``error`` with one line naming the file and line. Merge keys (``<<: *base``) are applied."""
    fast = _load_plain(text)
    return fast if fast is not None else _load_general(text, filename, error)


def _load_general(text: str, filename: str, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    """``load_located`` by the general path: the node tree with its bounds (``_compose``), then the data."""

    def fail(mark: yaml.Mark | None, message: str) -> NoReturn:
        raise error(message, path=filename, line=mark.line + 1 if mark is not None else None)

    try:
        try:
            node = _compose(text, fail)
        except yaml.YAMLError:
            # libyaml's scanner looks ahead, and refuses by its own limits (PyYAML 6.0.4: "exceeded maximum
            # nesting depth" at 1,000 levels) before lv's bounds see the events: read the file again with the
            # pure-Python parser, which has no limit of its own, so lv's bounds refuse first where they apply and
            # any other error is worded the same whatever libyaml PyYAML bundles
            node = _compose(text, fail, yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        fail(mark, f"malformed YAML: {one_line(problem)}")
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    constructor = yaml.SafeLoader("")  # only used for its scalar constructors and merge keys
    known_scalars: dict[tuple[str, str], Any] = {}  # (tag, text) -> value of the immutable scalars seen so far

    def scalar(n: yaml.Node) -> Any:
        if not isinstance(n, yaml.ScalarNode):
            fail(n.start_mark, "a key must be a plain value")
        known = known_scalars.get((n.tag, n.value), known_scalars)
        if known is not known_scalars:
            return known
        if n.tag not in constructor.yaml_constructors:  # SafeLoader's tags only: never !!python/...
            fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed (plain data only)")
        try:
            value = constructor.construct_object(n, deep=True)
        except ValueError as exc:  # int() of more than 4,300 digits, a date such as 2024-13-40
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)" if "digits" in str(exc)
                 else f"bad value {one_line(repr(n.value))}: {one_line(str(exc))}")
        except yaml.YAMLError as exc:
            fail(n.start_mark, f"malformed YAML: {one_line(getattr(exc, 'problem', None) or str(exc))}")
        except Exception:  # a tag on text it cannot read: "!!bool maybe", "!!timestamp ", "!!float " ...
            fail(n.start_mark, f"bad value {one_line(repr(n.value))} for YAML tag '{_tag(n.tag)}'")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)")
        if value is None or isinstance(value, (str, int, float)):
            known_scalars[n.tag, n.value] = value
        return value

    def walk(n: yaml.Node, path: Path_) -> Any:
        lines[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            if n.tag != _MAP:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a mapping (plain data only)")
            own = len([k for k, _ in n.value if k.tag != _MERGE])
            if own != len(n.value):
                try:
                    constructor.flatten_mapping(n)  # the merged pairs first, then the mapping's own
                except yaml.YAMLError as exc:
                    fail(getattr(exc, "problem_mark", None) or n.start_mark,
                         f"malformed merge key: {one_line(getattr(exc, 'problem', None) or str(exc))}")
            merged = len(n.value) - own
            out: dict[Any, Any] = {}
            own_keys: set[Any] = set()
            for i, (key_node, value_node) in enumerate(n.value):
                key = scalar(key_node)
                if i >= merged:
                    if key in own_keys:
                        fail(key_node.start_mark, f"duplicate key {one_line(repr(key))}")
                    own_keys.add(key)
                out.pop(key, None)  # a later pair wins: the mapping's own keys over merged ones
                out[key] = walk(value_node, path + (key,))
                lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            if n.tag != _SEQ:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a list (plain data only)")
            return [walk(item, path + (i,)) for i, item in enumerate(n.value)]
        return scalar(n)

    return walk(node, ()), lines


def _tag(tag: str) -> str:
    return one_line(tag.replace("tag:yaml.org,2002:", "!!"))


def plain(key: Any) -> str:
    """A key or word from a file, shown in a message: escaped like repr (no line break, no ESC), no quotes."""
    text = repr(key)
    return one_line(text[1:-1] if isinstance(key, str) else text)


def one_line(text: str) -> str:
    """Text from a file, for a one-line message: no line breaks or control characters (escaped), not too long."""
    text = " ".join(str(text).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 80 else text[:77] + "..."


MAX_FILE_BYTES = 8 * 1024 * 1024  # a game record or a profile is kilobytes; anything bigger is refused unread


def read_bytes(path: str | Path, error: type[LvError] = LvError) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES, or ``error`` naming the file.

    The file is opened without blocking and checked with ``fstat`` before any read, so a FIFO, a device such
    as /dev/zero or a folder is refused at once instead of hanging or filling the memory."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: a folder, not a file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{path}: not a regular file (a pipe or a device): lv reads only regular files")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise error(f"{path}: too large: lv reads files of at most {MAX_FILE_BYTES >> 20} MiB")
    return b"".join(chunks)


def decode(data: bytes, name: str, error: type[LvError] = LvError) -> str:
    """``data`` as UTF-8 text, or ``error``: not a text file, with where (a picture, a zip, a file in another
    encoding), in lv's words rather than Python's codec message."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: not a text file (UTF-8): byte 0x{data[exc.start]:02x} at offset {exc.start}") from None


def read_text(path: str | Path, error: type[LvError] = LvError) -> str:
    """A regular file's text (UTF-8, at most MAX_FILE_BYTES), or ``error`` naming the file."""
    return decode(read_bytes(path, error), str(path), error)


def read_located(path: str | Path, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    return load_located(read_text(path, error), str(path), error)


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())
