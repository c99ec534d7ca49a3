#!/usr/bin/env python3
"""Writes the fuzz seeds in fuzz/eventstream/ and the synthetic Bedrock
transcript transcripts/bedrock-bad-crc.eventstream (frames made here, not
copies of recordings). Each seed is: a config byte (bits 0-2: how many
chunk-size bytes follow; bit 3: a 64-byte frame bound), the chunk sizes, then
the stream, as tests/common/eventstream_check.rs reads it.
Run `python3 make_eventstream_seeds.py` from this folder."""
import os, struct, zlib

def header(name, ty, value=b""):
    n = name.encode()
    return bytes([len(n)]) + n + bytes([ty]) + value

def s(name, text):
    v = text.encode()
    return header(name, 7, struct.pack(">H", len(v)) + v)

def frame(headers, payload):
    total = 16 + len(headers) + len(payload)
    pre = struct.pack(">II", total, len(headers))
    pre += struct.pack(">I", zlib.crc32(pre))
    body = pre + headers + payload
    return body + struct.pack(">I", zlib.crc32(body))

def event(ev, payload):
    return frame(s(":event-type", ev) + s(":content-type", "application/json")
                 + s(":message-type", "event"), payload.encode())

start = event("messageStart", '{"p":"abc","role":"assistant"}')
tool = event("contentBlockStart", '{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"t1","name":"get_weather"}},"p":"ab"}')
delta = event("contentBlockDelta", '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\\"location\\":\\"Paris\\"}"}},"p":"a"}')
stop = event("messageStop", '{"stopReason":"tool_use","p":"abcdef"}')
exc = frame(s(":exception-type", "throttlingException") + s(":content-type", "application/json")
            + s(":message-type", "exception"), b'{"message":"slow down"}')
every = frame(header("t", 0) + header("f", 1) + header("b", 2, b"\xfe") + header("s", 3, b"\xfe\xd4")
              + header("i", 4, b"\x00\x01\x11\x70") + header("l", 5, b"\xff" * 8)
              + header("y", 6, b"\x00\x02\x00\xff") + s("str", "\u00e9")
              + header("ts", 8, struct.pack(">q", 1700000000000)) + header("u", 9, bytes(range(16))), b"{}")
stream = start + tool + delta + stop

def bad_prelude(f):
    f = bytearray(f); f[9] ^= 0x40; return bytes(f)

def bad_message(f):
    f = bytearray(f); f[-1] ^= 1; return bytes(f)

seeds = {
    "stream-whole": b"\x00" + stream,
    "stream-1-byte-reads": b"\x01\x01" + stream,
    "stream-7-and-empty-reads": b"\x02\x07\x00" + stream,
    "stream-64-byte-reads": b"\x01\x40" + stream,
    "every-header-type": b"\x03\x03\x0c\x05" + every,
    "exception-frame": b"\x00" + start + exc,
    "empty-frame": b"\x00" + frame(b"", b""),
    "bad-prelude-crc": b"\x01\x05" + start + bad_prelude(tool),
    "bad-message-crc": b"\x01\x0b" + start + bad_message(delta),
    "truncated-in-prelude": b"\x00" + start + tool[:7],
    "truncated-in-payload": b"\x01\x03" + start + delta[:-9],
    "too-large-for-64": b"\x09\x10" + frame(s("k", "v"), b"x" * 8) + start,
    "unknown-header-type": b"\x00" + frame(header("x", 10), b"{}"),
    "string-header-runs-over": b"\x00" + frame(b"\x01a\x07\x00\x09ab", b""),
    "bad-lengths": b"\x00" + (lambda p: p + struct.pack(">I", zlib.crc32(p)))(struct.pack(">II", 16, 1)) + b"\0" * 4,
}
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "fuzz", "eventstream")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

# A ConverseStream whose third frame (a toolUse input delta) has a flipped
# message CRC byte: the stream must stop there, the open call aborted.
bad = (event("messageStart", '{"p":"abcd","role":"assistant"}')
       + event("contentBlockStart", '{"contentBlockIndex":0,"start":{"toolUse":{"toolUseId":"tooluse_synthetic1","name":"get_weather"}},"p":"abcdefg"}')
       + bad_message(event("contentBlockDelta", '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"{\\"location\\":\\"Par"}},"p":"ab"}'))
       + event("contentBlockDelta", '{"contentBlockIndex":0,"delta":{"toolUse":{"input":"is\\"}"}},"p":"a"}')
       + event("contentBlockStop", '{"contentBlockIndex":0,"p":"abc"}')
       + event("messageStop", '{"stopReason":"tool_use","p":"abcdef"}'))
with open(os.path.join(here, "transcripts", "bedrock-bad-crc.eventstream"), "wb") as f:
    f.write(bad)
