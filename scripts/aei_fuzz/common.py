"""What every part of the fuzzer shares: the engine's own whitespace and
line splitting, bytes shown escaped for transcripts, and the two kinds of
failure (the engine's and the harness's own)."""

import re


class Failure(Exception):
    """The engine did something the checks refuse."""


class HarnessError(Exception):
    """The harness itself is wrong (a bug here, not in the engine)."""


# Whitespace as Rust's `char::is_whitespace` (the engine's `trim` and
# `split_whitespace`); Python's own also counts \x1c-\x1f.
RUST_WS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
WS_RUN = re.compile("[" + re.escape(RUST_WS) + "]+")

# Waits, in seconds (multiplied by --timeout-scale).
T_READY = 30.0
T_SEARCH = 60.0
T_EXIT = 10.0


def rust_trim(s):
    return s.strip(RUST_WS)


def rust_words(s):
    return [w for w in WS_RUN.split(s) if w]


def command_parts(line):
    """The message word and its trimmed arguments, as the engine splits them."""
    s = rust_trim(line)
    m = WS_RUN.search(s)
    if not m:
        return s, ""
    return s[: m.start()], rust_trim(s[m.end() :])


def show(data):
    """Bytes as printable text for transcripts: backslash escapes."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def unshow(text):
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and text[i + 1 : i + 2] == "\\":
            out.append(0x5C)
            i += 2
        elif c == "\\" and text[i + 1 : i + 2] == "x":
            out.append(int(text[i + 2 : i + 4], 16))
            i += 4
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)


def short(data, n=120):
    s = show(data if isinstance(data, bytes) else data.encode("utf-8", "replace"))
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"
