"""Driving one engine process through an AEI session: lines sent, answers
read up to `readyok` and matched against what each line should get, the
model of the game kept in step, and the transcript for a failure."""

import queue
import re
import subprocess
import threading
import time
import unicodedata

from .common import Failure, command_parts, rust_trim, short, show
from .model import Model, setposition_verdict

REPLIES = ("protocol-version", "id", "aeiok", "readyok", "bestmove", "info", "log")
# A search answered for by the session itself (loaded machine): noted only.
TIMING_NOTE = "answering with the best move known"
ABANDONED = "the search was abandoned"
STOP_IDLE = "`stop`: no search is running"
ALREADY = ("already searching", "already pondering")
# Waits, in seconds (multiplied by --timeout-scale).
T_READY = 30.0
T_SEARCH = 60.0
T_EXIT = 10.0


class Failure(Exception):
    """The engine did something the checks refuse."""


class HarnessError(Exception):
    """The harness itself is wrong (a bug here, not in the engine)."""


class Expect:
    def __init__(self, kind, words=(), readies=0):
        self.kind = kind  # ok, err, warn, log (err or warn)
        self.words = tuple(words)
        self.readies = readies


OK = Expect("ok")
READY = Expect("ok", readies=1)


def ERR(*words):
    return Expect("err", words)


def WARN(*words):
    return Expect("warn", words)


def LOG(*words):
    return Expect("log", words)


class Item:
    def __init__(self, data, expect):
        self.data = data.encode("utf-8") if isinstance(data, str) else data
        self.expect = expect


def partition(lines):
    best = [(i, l[len("bestmove ") :]) for i, l in enumerate(lines) if l.startswith("bestmove ")]
    logs, timing = [], []
    for i, l in enumerate(lines):
        if l.startswith("log Error:") or l.startswith("log Warning:"):
            (timing if TIMING_NOTE in l else logs).append((i, l))
    return best, logs, timing


class Stats:
    FIELDS = (
        "sessions",
        "lines",
        "moves_legal",
        "moves_refused",
        "bestmoves_setup",
        "bestmoves_move",
        "go_over",
        "setpositions",
        "options",
        "logs_checked",
        "searches_interrupted",
        "ponders",
        "timing_notes",
    )

    def __init__(self):
        for f in self.FIELDS:
            setattr(self, f, 0)

    def add(self, other):
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))


class Session:
    """One engine process, its transcript and the model of its game."""

    def __init__(self, binary, name, rng, scale=1.0):
        self.name = name
        self.rng = rng
        self.scale = scale
        self.stats = Stats()
        self.model = Model()
        self.depth = 0
        self.t0 = time.monotonic()
        self.transcript = []
        self.stderr = []
        self.closed_input = False
        # The engine warns once when a game is played before `newgame`
        # (or a `setposition` it accepts): allowed once, and never after a
        # plain `newgame` was sent.
        self.began = False
        self.aei_sent = False
        self.warned_before_newgame = False
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.out = queue.Queue()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.out.put(raw)
        self.out.put(None)

    def _read_err(self):
        for raw in iter(self.proc.stderr.readline, b""):
            self.stderr.append(raw)

    def stamp(self):
        return time.monotonic() - self.t0

    # -- input

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.transcript.append((self.stamp(), ">", data))
        self.stats.lines += 1
        if data.strip() == b"aei":
            self.aei_sent = True
        elif data.strip() == b"newgame" and self.aei_sent:
            self.began = True
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise Failure(
                f"the engine stopped reading its input ({e}; exit status {self.proc.poll()})"
            ) from None

    def close_input(self):
        self.transcript.append((self.stamp(), ">", b"<end of input>"))
        self.closed_input = True
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    # -- output

    def next_line(self, timeout):
        try:
            raw = self.out.get(timeout=timeout * self.scale)
        except queue.Empty:
            return None
        if raw is None:
            self.out.put(None)
            self.transcript.append((self.stamp(), "<", b"<end of output>"))
            raise Failure(f"the engine's output ended (exit status {self.wait_exit(2)})")
        body = raw[:-1] if raw.endswith(b"\n") else raw
        self.transcript.append((self.stamp(), "<", body))
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure(f"output line is not UTF-8: {short(body)}") from None
        if any(unicodedata.category(c) == "Cc" for c in text):
            raise Failure(f"raw control character in output line: {short(body)}")
        if text.split(" ", 1)[0] not in REPLIES:
            raise Failure(f"output line is no AEI message: {short(body)}")
        if text.startswith("log Warning: `") and "before `newgame`" in text:
            if self.began:
                raise Failure(f"`{text}` after `newgame` was sent")
            if self.warned_before_newgame:
                raise Failure(f"`{text}` a second time")
            self.warned_before_newgame = True
            return self.next_line(timeout)
        return text

    def read_until(self, pred, timeout, what):
        got = []
        end = time.monotonic() + timeout * self.scale
        while True:
            left = end - time.monotonic()
            line = self.next_line(max(0.0, left) / self.scale) if left > 0 else None
            if line is None:
                raise Failure(f"no {what} within {timeout * self.scale:.0f} s")
            got.append(line)
            if pred(line):
                return got

    def collect_ready(self, n, what="`readyok` for `isready`"):
        got = []
        seen = 0
        while seen < n:
            got.extend(self.read_until(lambda l: l == "readyok", T_READY, what))
            seen += 1
        return got

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout=timeout * self.scale)
        except subprocess.TimeoutExpired:
            return None

    # -- exchanges

    def exchange(self, items):
        """Sends the items and `isready`; checks what came back to `readyok`
        against the items' expectations, in order. Returns, per item,
        whether the engine accepted it (no `log Error` for it)."""
        for it in items:
            self.send(it.data)
        _, best, logs = self.settle(1 + sum(it.expect.readies for it in items))
        sent = "; ".join(f"`{short(it.data, 80)}`" for it in items) or "`isready`"
        if best:
            raise Failure(f"unexpected `bestmove {best[0][1]}` after {sent}")
        return self.match(items, [l for _, l in logs], sent)

    def match(self, items, logs, sent):
        logs = list(logs)
        accepted = []
        for it in items:
            e = it.expect
            what = f"`{short(it.data, 80)}`"
            if e.kind == "ok":
                accepted.append(True)
                continue
            want = {"err": "log Error:", "warn": "log Warning:", "log": "log "}[e.kind]
            if not logs:
                raise Failure(
                    f"{what} got no `{want.strip()}` (expected one naming {list(e.words)})"
                )
            l = logs.pop(0)
            if not l.startswith(want):
                raise Failure(f"{what} got `{l}`, expected a `{want.strip()}` line")
            low = l.lower()
            missing = [w for w in e.words if w.lower() not in low]
            if missing:
                raise Failure(f"{what} got `{l}`, which does not name {missing}")
            self.stats.logs_checked += 1
            accepted.append(not l.startswith("log Error:"))
        if logs:
            raise Failure(f"unexpected `{logs[0]}` after {sent}")
        return accepted

    def settle(self, readies=1):
        """Sends `isready` and reads up to the last of `readies` `readyok`s
        (the others owed to `isready` lines already sent): (the lines, their
        bestmoves and their error and warning lines as `partition` splits
        them), timing notes counted."""
        self.send("isready")
        lines = self.collect_ready(readies)
        best, logs, timing = partition(lines)
        self.stats.timing_notes += len(timing)
        return lines, best, logs

    def sync(self):
        self.exchange([])

    def line(self, data, expect):
        """One line and its check; applies `newgame` and `depth` to the model."""
        acc = self.exchange([Item(data, expect)])[0]
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        word, rest = command_parts(text)
        if acc and word == "newgame" and rest == "":
            self.model.newgame()
        if acc and word == "setoption":
            self.note_option(rest)
        return acc

    def note_option(self, rest):
        m = re.match(r"name\s+(\S+)\s+value\s+(.*)$", rest)
        if m and m.group(1).lower() == "depth":
            try:
                self.depth = max(0, int(float(m.group(2))))
            except ValueError:
                pass

    def move(self, text, raw=None, want=None):
        """`makemove`: accepted exactly when pyrimaa finds it legal."""
        v = self.model.classify(text)
        if want and v.kind != want:
            raise HarnessError(f"`{text}` should be {want}, pyrimaa: {v.kind} {v.reason}")
        data = raw if raw is not None else f"makemove {text}"
        expect = OK if v.kind == "legal" else ERR("makemove")
        try:
            acc = self.exchange([Item(data, expect)])[0]
        except Failure as f:
            raise Failure(f"{f} [pyrimaa: {v.kind} {v.reason}; {self.model.describe()}]") from None
        if v.kind == "legal":
            self.stats.moves_legal += 1
            self.model.commit(v)
        else:
            self.stats.moves_refused += 1
        return acc

    def setpos_arg(self, arg, raw=None, want=None):
        """`setposition <arg>`: refused exactly when malformed; warns when
        the game it gives is already over."""
        v = setposition_verdict(rust_trim(arg))
        if want and (want == "legal") != isinstance(v, tuple):
            raise HarnessError(f"setposition `{arg}` should be {want}: {v}")
        data = raw if raw is not None else f"setposition {arg}"
        if isinstance(v, tuple):
            trial = self.model.copy()
            trial.set_position(*v)
            over = trial.over()
            expect = WARN("already over", f"{over[0]} won") if over else OK
        else:
            expect = ERR("setposition")
        self.line(data, expect)
        self.stats.setpositions += 1
        if isinstance(v, tuple):
            self.model.set_position(*v)
        return isinstance(v, tuple)

    def setpos(self, side, cells):
        return self.setpos_arg(f"{side} [{cells}]")

    def ensure_depth(self, depth=None):
        if depth is None and 1 <= self.depth <= 5:
            return
        d = depth if depth is not None else self.rng.choice((2, 3, 4))
        self.line(f"setoption name depth value {d}", OK)

    def check_bestmove(self, mv, model=None):
        model = model or self.model
        if not model.known:
            return
        problem = model.bestmove_problem(mv)
        if problem:
            raise Failure(f"`bestmove {mv}` is {problem}; {model.describe()}")
        if model.phase == "setup":
            self.stats.bestmoves_setup += 1
        else:
            self.stats.bestmoves_move += 1

    def search(self, command="go", pause=0.0):
        """Starts a search with no depth limit by `command` (`go` or `go
        ponder`) and lets it run for `pause` seconds."""
        self.ensure_depth(0)
        self.send(command)
        time.sleep(pause)

    def answer(self, what):
        """Waits for the `bestmove` that ends a search (`what` names it for
        a failure), checks its move, then syncs."""
        got = self.read_until(lambda l: l.startswith("bestmove "), T_SEARCH, what)
        self.check_bestmove(got[-1][len("bestmove ") :])
        self.sync()

    def go(self):
        """`go`: a legal bestmove, or the game-over error and none."""
        over = self.model.over()
        if over:
            self.line("go", ERR("game is over", f"{over[0]} won", over[1]))
            self.stats.go_over += 1
            return None
        self.ensure_depth()
        self.send("go")
        got = self.read_until(
            lambda l: l.startswith("bestmove ") or l.startswith("log Error:"),
            T_SEARCH,
            "`bestmove` for `go`",
        )
        _, logs, timing = partition(got)
        self.stats.timing_notes += len(timing)
        if got[-1].startswith("log Error:"):
            raise Failure(f"`go` got `{got[-1]}`; pyrimaa: game not over; {self.model.describe()}")
        if logs:
            raise Failure(f"unexpected `{logs[0][1]}` during `go`")
        mv = got[-1][len("bestmove ") :]
        self.check_bestmove(mv)
        self.sync()
        return mv

    # -- endings

    def finish(self, how):
        """Ends the session: `quit`, end of input or an unrecognised line."""
        if how == "quit":
            self.send("quit")
            code = self.wait_exit(T_EXIT)
            if code != 0:
                raise Failure(f"exit status {code} after `quit`")
        elif how == "eof":
            self.close_input()
            code = self.wait_exit(T_EXIT)
            if code != 0:
                raise Failure(f"exit status {code} after the end of input")
        else:
            data, word = how
            self.send(data)
            got = self.read_until(lambda l: l.startswith("log Error:"), T_READY, "`log Error` for an unrecognised message")
            l = got[-1]
            for w in ("unrecognised", word):
                if w.lower() not in l.lower():
                    raise Failure(f"`{short(data)}` got `{l}`, which does not name `{w}`")
            self.stats.logs_checked += 1
            code = self.wait_exit(T_EXIT)
            if code is None or code == 0:
                raise Failure(f"exit status {code} after an unrecognised message (expected non-zero)")
            # Nothing but log/info lines may follow before the output ends.
            while True:
                try:
                    raw = self.out.get(timeout=2)
                except queue.Empty:
                    raise Failure("output still open after the engine exited") from None
                if raw is None:
                    break
                self.transcript.append((self.stamp(), "<", raw.rstrip(b"\n")))

    def open(self, pre=()):
        """The handshake, after lines sent before `aei` (each refused)."""
        for line in pre:
            self.send(line)
        self.send("aei")
        got = self.read_until(lambda l: l == "aeiok", T_READY, "`aeiok` for `aei`")
        for line, l in zip(pre, got):
            if not (l.startswith("log Error:") and "before `aei`" in l):
                raise Failure(f"`{line}` before `aei` got `{l}`")
            self.stats.logs_checked += 1
        rest = got[len(pre) :]
        if not rest or rest[0] != "protocol-version 1":
            raise Failure(f"the first line after `aei` is not `protocol-version 1`: {rest[:1]}")
        ids = rest[1:-1]
        if not any(l.startswith("id name ") for l in ids) or any(
            not l.startswith("id ") for l in ids
        ):
            raise Failure(f"between `protocol-version 1` and `aeiok`: {ids}")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def check_stderr(self):
        # The reader thread ends with the process; give it a moment.
        for _ in range(50):
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        err = b"".join(self.stderr)
        if b"panicked" in err:
            i = err.index(b"panicked")
            raise Failure(f"stderr: {short(err[max(0, i - 60) : i + 200], 300)}")

    def write_transcript(self, path, header):
        with open(path, "w", encoding="utf-8") as f:
            f.write(header)
            for t, d, data in self.transcript:
                f.write(f"{t:9.3f} {d} {show(data)}\n")
            f.write("# stderr of the engine:\n")
            for raw in self.stderr:
                f.write("# " + show(raw.rstrip(b"\n")) + "\n")
