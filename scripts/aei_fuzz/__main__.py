"""The command line: the hand-written cases, then the fuzzed sessions, a
summary of what was checked and, for each failure, its transcript and the
command that reproduces it; or `--replay` of a transcript."""

import argparse
import os
import random
import re
import subprocess
import sys
import threading
import time
import traceback

from . import fuzzer
from .cases import CASES
from .common import Failure, HarnessError, short, show, unshow
from .fuzzer import Fuzzer
from .harness import Session, Stats

ENTRY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "aei_fuzz.py")

def run_one(binary, label, seed, body, scale, out_dir, keep):
    """Runs one session; returns (stats, failure message or None, transcript)."""
    rng = random.Random(seed)
    s = Session(binary, label, rng, scale)
    failure = None
    try:
        body(s)
        s.check_stderr()
    except Failure as f:
        failure = str(f)
    except HarnessError as e:
        failure = f"harness error (a bug in aei_fuzz): {e}"
    except Exception:
        failure = "harness error (a bug in aei_fuzz):\n" + traceback.format_exc()
    finally:
        if failure:
            try:
                s.check_stderr()
            except Failure as f:
                failure += f"; and {f}"
        s.close()
    path = None
    if failure or keep:
        os.makedirs(out_dir, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", label)[:60]
        path = os.path.join(out_dir, f"{safe}.txt")
        header = (
            f"# aei_fuzz transcript: {label}\n# binary: {binary}\n# seed: {seed}\n"
            f"# result: {failure or 'ok'}\n"
            "# lines: seconds since start, `>` sent / `<` received, bytes escaped\n"
        )
        s.write_transcript(path, header)
    return s.stats, failure, path


def replay(binary, path):
    """Sends the `>` lines of a transcript and prints what comes back."""
    sent = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if line.startswith("#") or len(parts) < 3:
                continue
            t, d, data = line.rstrip("\n").lstrip().split(" ", 2)
            if d == ">":
                sent.append((float(t), unshow(data)))
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def pump():
        for raw in iter(proc.stdout.readline, b""):
            print("<", show(raw.rstrip(b"\n")), flush=True)

    threading.Thread(target=pump, daemon=True).start()
    start = time.monotonic()
    for t, data in sent:
        delay = t - (time.monotonic() - start)
        if delay > 0:
            time.sleep(delay)
        print(">", short(data, 200), flush=True)
        if data == b"<end of input>":
            proc.stdin.close()
            break
        try:
            proc.stdin.write(data + b"\n")
            proc.stdin.flush()
        except OSError:
            print("# the engine stopped reading")
            break
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = "killed after 10 s"
    time.sleep(0.2)
    print(f"# exit status {code}")


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Hostile AEI sessions against an engine, checked against pyrimaa.board."
    )
    ap.add_argument("binary", help="the engine (speaks AEI on stdin/stdout)")
    ap.add_argument("--sessions", type=int, default=20, help="fuzzed sessions (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="session i is seeded SEED+i (default 1)")
    ap.add_argument("--no-cases", action="store_true", help="skip the hand-written cases")
    ap.add_argument("--cases-only", action="store_true", help="only the hand-written cases")
    ap.add_argument("--case", help="only the hand-written cases whose name contains this")
    ap.add_argument("--out", default=os.path.join("target", "tmp", "aei-fuzz"), help="folder for transcripts")
    ap.add_argument("--keep", action="store_true", help="write every session's transcript, not only failures'")
    ap.add_argument("--timeout-scale", type=float, default=1.0, help="multiply every wait (a slow machine)")
    ap.add_argument("--extreme", action="store_true", help="also fuzz extreme search settings (goal_extensions 8)")
    ap.add_argument("--replay", metavar="TRANSCRIPT", help="send a transcript's lines again and print the answers")
    args = ap.parse_args(argv)
    if not os.path.exists(args.binary):
        ap.error(f"no such binary: {args.binary}")
    if args.replay:
        replay(args.binary, args.replay)
        return 0
    if args.extreme:
        fuzzer.allow_extreme()

    start = time.monotonic()
    total = Stats()
    failures = []
    cases_run = 0
    if not args.no_cases:
        for name, body in CASES:
            if args.case and args.case not in name:
                continue
            stats, failure, path = run_one(args.binary, "case " + name, 0, body, args.timeout_scale, args.out, args.keep)
            total.add(stats)
            cases_run += 1
            if failure:
                failures.append((f"case `{name}`", failure, path, None))
                print(f"FAIL case `{name}`: {failure}", flush=True)
    sessions = 0 if args.cases_only else args.sessions
    for i in range(sessions):
        seed = args.seed + i
        stats, failure, path = run_one(
            args.binary, f"session seed {seed}", seed, lambda s: Fuzzer(s, s.rng).run(), args.timeout_scale, args.out, args.keep
        )
        stats.sessions = 1
        total.add(stats)
        if failure:
            failures.append((f"session seed {seed}", failure, path, seed))
            print(f"FAIL session seed {seed}: {failure}", flush=True)
        if (i + 1) % 50 == 0:
            print(f"... {i + 1}/{sessions} sessions, {len(failures)} failures, {time.monotonic() - start:.0f} s", flush=True)

    t = total
    print()
    print(f"aei_fuzz: {args.binary}")
    print(f"hand-written cases: {cases_run} run, {sum(1 for f in failures if f[3] is None)} failed")
    print(f"fuzzed sessions: {sessions} (seeds {args.seed}..{args.seed + sessions - 1})" if sessions else "fuzzed sessions: 0")
    print(f"lines sent: {t.lines}")
    print(f"makemove verdicts checked against pyrimaa: {t.moves_legal + t.moves_refused} ({t.moves_legal} legal accepted, {t.moves_refused} illegal refused)")
    print(f"bestmoves checked against pyrimaa: {t.bestmoves_setup + t.bestmoves_move} ({t.bestmoves_setup} setups, {t.bestmoves_move} moves); `go` in finished games: {t.go_over}")
    print(f"setpositions: {t.setpositions}; setoptions fuzzed: {t.options}; error/warning lines checked: {t.logs_checked}")
    print(f"searches interrupted: {t.searches_interrupted}; ponders: {t.ponders}; timing notes (answered-for searches): {t.timing_notes}")
    print(f"failures: {len(failures)}")
    # The entry script runs the package however this run was started.
    rerun = f"{sys.executable} {ENTRY}"
    for what, failure, path, seed in failures:
        print(f"  {what}: {failure}")
        print(f"    transcript: {path}")
        if seed is not None:
            print(f"    reproduce: {rerun} {args.binary} --no-cases --sessions 1 --seed {seed}")
        print(f"    replay: {rerun} {args.binary} --replay {path}")
    print(f"time: {time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
