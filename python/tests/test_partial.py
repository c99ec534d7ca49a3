"""PartialParser against outside authorities: Python's json module for the
values, JSONTestSuite for what is and is not JSON, and the monotone preview
contract checked at every chunking (1, 7 and 64 bytes, and whole)."""

import json
import math
import sys
from decimal import Decimal

import pytest

import tooljson
from tooljson import (
    Appended,
    Completed,
    InvalidJsonError,
    JsonError,
    LimitExceededError,
    MisuseError,
    Opened,
    PartialParser,
    TrailingDataError,
    TruncatedError,
)

CHUNKINGS = [1, 7, 64, None]


def pieces(data, n):
    if n is None:
        return [data]
    return [data[i : i + n] for i in range(0, len(data), n)]


def extends(before, after, path="") -> None:
    """The monotone contract: `after` only adds to `before`."""
    assert type(before) is type(after), f"{path}: {before!r} became {after!r}"
    if isinstance(before, str):
        assert after.startswith(before), f"{path}: {before!r} became {after!r}"
    elif isinstance(before, list):
        assert len(after) >= len(before), path
        for i, (b, a) in enumerate(zip(before, after)):
            extends(b, a, f"{path}/{i}")
    elif isinstance(before, dict):
        keys_before, keys_after = list(before), list(after)
        assert keys_after[: len(keys_before)] == keys_before, path
        for k in keys_before:
            extends(before[k], after[k], f"{path}/{k}")
    else:
        assert before == after or (
            isinstance(before, float) and math.isnan(before) and math.isnan(after)
        ), f"{path}: {before!r} became {after!r}"


def no_broken_text(v) -> None:
    if isinstance(v, str):
        assert "\ufffd" not in v
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    elif isinstance(v, list):
        for x in v:
            no_broken_text(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            no_broken_text(x)


def replay(data, n, monotone=True, **options):
    """Feeds `data` in pieces of n bytes; checks the preview after every
    piece; returns the merged events and the final value."""
    p = PartialParser(**options)
    events, previews = [], []
    for piece in pieces(data, n):
        events += p.feed(piece)
        snap = p.snapshot()
        if monotone and previews and previews[-1] is not None:
            assert snap is not None
            extends(previews[-1], snap)
        if snap is not None:
            no_broken_text(snap)
        previews.append(snap)
    events += p.finish()
    return merge_appended(events), p.value(), p


def merge_appended(events):
    """The events with consecutive texts of one string joined: where a text
    is cut depends on the chunks, nothing else does (contract point 6)."""
    out = []
    for e in events:
        if isinstance(e, Appended) and out and out[-1][0] == "appended" and out[-1][1] == e.path:
            out[-1] = ("appended", e.path, out[-1][2] + e.text)
        elif isinstance(e, Appended):
            out.append(("appended", e.path, e.text))
        elif isinstance(e, Opened):
            out.append(("opened", e.path, e.kind))
        else:
            out.append(("completed", e.path, json.dumps(e.value, default=str)))
    return out


WRITE_FILE = json.dumps(
    {
        "path": "src/main.py",
        "content": "def main():\n    print('h\u00e9llo \U0001f600 \\u00e9')\n\t# \"quoted\"\n" * 20,
        "mode": 420,
        "ratio": 0.1,
        "big": 123456789012345678901234567890,
        "flags": [True, False, None, -0.0, 1e-7, 2.5e300],
        "nested": {"a": [[], {}, [{"b": "c"}]], "empty": ""},
    },
    ensure_ascii=False,
).encode()


@pytest.mark.parametrize("n", CHUNKINGS)
def test_a_write_file_call_is_monotone_at_every_chunking_and_ends_as_json_loads(n):
    events, value, _ = replay(WRITE_FILE, n)
    assert value == json.loads(WRITE_FILE)
    whole, _, _ = replay(WRITE_FILE, None)
    assert events == whole
    # One completion per value, the root last.
    completed = [e for e in events if e[0] == "completed"]
    assert completed[-1][1] == ""
    assert len([e for e in completed if e[1] == "/content"]) == 1


def test_each_byte_split_of_utf8_and_escapes_never_shows_half_a_character():
    data = '{"t": "\u00e9\U0001f600\\ud83d\\ude00\\u00e9\\n"}'.encode()
    for cut in range(1, len(data)):
        p = PartialParser()
        p.feed(data[:cut])
        snap = p.snapshot()
        if snap is not None:
            no_broken_text(snap)
            extends(snap, json.loads(data))
        p.feed(data[cut:])
        p.finish()
        assert p.value() == json.loads(data)


def test_numbers_appear_only_once_proven():
    p = PartialParser()
    p.feed('{"n": 12')
    assert p.snapshot() == {}
    p.feed("3, ")
    assert p.snapshot() == {"n": 123}
    p.feed('"s": "ab')
    assert p.snapshot() == {"n": 123, "s": "ab"}


def test_big_integers_are_int_and_inexact_decimals_are_decimal():
    v = tooljson.loads(
        "[123456789012345678901234567890, 0.1, 2.50, 1e400, 0.1000000000000000000001, -0, 1E2]"
    )
    assert v[0] == 123456789012345678901234567890 and isinstance(v[0], int)
    assert v[1] == 0.1 and isinstance(v[1], float)
    assert v[2] == 2.5 and isinstance(v[2], float)
    assert v[3] == Decimal("1e400")
    assert v[4] == Decimal("0.1000000000000000000001")
    assert v[5] == 0 and isinstance(v[5], int)
    assert v[6] == 100.0 and isinstance(v[6], float)
    always = tooljson.loads("[0.5, 7]", decimals="always")
    assert always == [Decimal("0.5"), 7] and isinstance(always[0], Decimal)
    never = tooljson.loads("[1e400]", decimals="never")
    assert never == [float("inf")]
    with pytest.raises(ValueError):
        tooljson.loads("1", decimals="sometimes")


def test_errors_are_typed_with_position_and_path():
    with pytest.raises(InvalidJsonError) as e:
        tooljson.loads('{"a" 1}')
    assert (e.value.offset, e.value.line, e.value.column, e.value.path) == (5, 1, 6, "/a")
    assert e.value.category == "invalid"
    assert str(e.value) == "expected ':', found '1' at line 1 column 6 (at /a)"

    p = PartialParser()
    p.feed('{"a": [1, 2')  # not an error yet: the rest may come
    with pytest.raises(TruncatedError) as e:
        p.finish()
    assert e.value.path == "/a/1" and e.value.category == "truncated"
    assert isinstance(e.value, JsonError) and isinstance(e.value, ValueError)

    with pytest.raises(TrailingDataError):
        PartialParser().feed('{"a":1}{"a":1}')
    with pytest.raises(LimitExceededError):
        PartialParser(max_depth=2).feed("[[[1]]]")
    p = PartialParser()
    p.feed("1 ")
    p.finish()
    with pytest.raises(MisuseError):
        p.feed("2")


def test_hold_keeps_enum_strings_hidden_until_complete():
    p = PartialParser(hold=["/unit"])
    p.feed('{"unit": "cels')
    assert p.snapshot() == {}
    p.feed('ius"}')
    assert p.snapshot() == {"unit": "celsius"}


def test_chunks_may_be_bytes_str_bytearray_or_memoryview_and_nothing_else():
    p = PartialParser()
    p.feed(b'{"a"')
    p.feed(bytearray(b":"))
    p.feed(memoryview(b' "x'))
    p.feed('y"}')
    p.finish()
    assert p.value() == {"a": "xy"}
    with pytest.raises(TypeError):
        PartialParser().feed(7)


# The match statement is Python 3.10's: kept in a string, so that this
# module still compiles on 3.9 (the wheel's floor), where only the
# __match_args__ below are checked.
MATCH_EVENTS = """
def kinds_of(events):
    kinds = []
    for e in events:
        match e:
            case Opened(path, kind):
                kinds.append(("opened", path, kind))
            case Appended(path, text):
                kinds.append(("appended", path, text))
            case Completed(path, value):
                kinds.append(("completed", path, value))
    return kinds
"""


def test_events_match_by_pattern():
    assert Opened.__match_args__ == ("path", "kind")
    assert Appended.__match_args__ == ("path", "text")
    assert Completed.__match_args__ == ("path", "value")
    p = PartialParser()
    events = p.feed('{"a": "b"}') + p.finish()
    by_attributes = [
        (type(e).__name__.lower(), *(getattr(e, a) for a in type(e).__match_args__))
        for e in events
    ]
    want = [
        ("opened", "", "object"),
        ("opened", "/a", "string"),
        ("appended", "/a", "b"),
        ("completed", "/a", "b"),
        ("completed", "", {"a": "b"}),
    ]
    assert by_attributes == want
    if sys.version_info >= (3, 10):
        scope = {"Opened": Opened, "Appended": Appended, "Completed": Completed}
        exec(MATCH_EVENTS, scope)
        assert scope["kinds_of"](events) == want


def suite_files(testdata, prefix):
    root = testdata / "JSONTestSuite" / "test_parsing"
    files = sorted(f for f in root.iterdir() if f.name.startswith(prefix))
    assert files, root
    return files


def test_every_n_file_is_a_typed_error_at_every_chunking(testdata):
    files = suite_files(testdata, "n_")
    assert len(files) > 150
    for f in files:
        data = f.read_bytes()
        for n in (1, 7, None):
            p = PartialParser(max_depth=1024)
            with pytest.raises(JsonError, match=".") as e:
                for piece in pieces(data, n):
                    p.feed(piece)
                p.finish()
            assert e.value.category in ("invalid", "truncated", "trailing_data", "limit_exceeded"), f
            assert isinstance(e.value.offset, int) and e.value.offset <= len(data), f


def has_duplicate_keys(data):
    found = []

    def hook(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            found.append(keys)
        return dict(pairs)

    json.loads(data, object_pairs_hook=hook)
    return bool(found)


def test_every_y_file_parses_to_what_json_loads_gives(testdata):
    files = suite_files(testdata, "y_")
    assert len(files) > 90
    for f in files:
        data = f.read_bytes()
        want = json.loads(data)
        # A dict holds one value per key: an object that repeats a key is
        # the one place a Python preview can replace what it showed (the
        # crate's tree shows every occurrence; the finished object keeps
        # the last, as json.loads does).
        monotone = not has_duplicate_keys(data)
        for n in (1, 7, None):
            _, got, _ = replay(data, n, monotone=monotone, decimals="never")
            assert got == want or (json.dumps(got) == json.dumps(want)), f


def test_every_i_file_is_a_value_or_a_typed_error(testdata):
    for f in suite_files(testdata, "i_"):
        try:
            tooljson.loads(f.read_bytes())
        except JsonError:
            pass
