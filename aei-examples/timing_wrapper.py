#!/usr/bin/env python3
"""Sit between an AEI controller and an engine and log, for every search,
when `go` arrived, when `bestmove` left, and the clock the controller had
sent (tcmove and the mover's reserve), plus the engine's own end-of-search
`log Searched N nodes in T s (X nodes/s), depth D, ...` line.

Use it as the engine's command line in a `roundrobin` config:

    cmdline = python3 aei-examples/timing_wrapper.py /tmp/timing.tsv target/release/aamir

then summarise with `python3 aei-examples/timing_wrapper.py --report /tmp/timing.tsv`.
The times are measured here, on the controller's side of the pipe, so they
include the process and pipe latency the controller also sees.
"""

import re
import subprocess
import sys
import threading
import time

SEARCHED = re.compile(
    r"Searched (\d+) nodes in ([\d.]+) s \((\d+) nodes/s\), depth (\d+)"
)


def relay(log_path, cmd):
    engine = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    state = {"tcmove": None, "greserve": None, "sreserve": None, "plies": 0,
             "go": None, "ponder": False, "last": None}
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1)

    def from_controller():
        for line in sys.stdin:
            words = line.split()
            with lock:
                if words[:1] == ["newgame"]:
                    state["plies"] = 0
                elif words[:1] == ["makemove"]:
                    state["plies"] += 1
                    state["go"] = None
                elif words[:1] == ["setposition"]:
                    state["plies"] = 0 if words[1] in ("g", "w") else 1
                elif words[:3] == ["setoption", "name", "tcmove"]:
                    state["tcmove"] = float(words[4])
                elif words[:2] == ["setoption", "name"] and words[2] in (
                    "greserve", "sreserve", "wreserve", "breserve"
                ):
                    key = {"wreserve": "greserve", "breserve": "sreserve"}.get(
                        words[2], words[2])
                    state[key] = float(words[4])
                elif words[:1] == ["go"]:
                    state["go"] = time.monotonic()
                    state["ponder"] = words[1:2] == ["ponder"]
            engine.stdin.write(line)
            engine.stdin.flush()
        engine.stdin.close()

    threading.Thread(target=from_controller, daemon=True).start()
    for line in engine.stdout:
        now = time.monotonic()
        with lock:
            m = SEARCHED.search(line)
            if m:
                state["last"] = m
            if line.startswith("bestmove") and state["go"] is not None:
                side = "g" if state["plies"] % 2 == 0 else "s"
                reserve = state[side + "reserve"]
                m = state["last"]
                fields = [
                    side,
                    state["plies"],
                    f"{now - state['go']:.4f}",
                    state["tcmove"],
                    reserve,
                    m.group(1) if m else "",
                    m.group(3) if m else "",
                    m.group(4) if m else "",
                    int(state["ponder"]),
                ]
                log.write("\t".join("" if f is None else str(f) for f in fields) + "\n")
                state["go"] = None
                state["last"] = None
        sys.stdout.write(line)
        sys.stdout.flush()
    sys.exit(engine.wait())


def report(log_path):
    rows = []
    for line in open(log_path):
        side, plies, used, tcmove, reserve, nodes, nps, depth, ponder = line.rstrip(
            "\n").split("\t")
        # Setups (plies 0 and 1) are answered at once and have no search.
        if int(plies) < 2 or ponder == "1" or not tcmove:
            continue
        rows.append((float(used), float(tcmove), float(reserve or 0),
                     int(nodes or 0), int(nps or 0), int(depth or 0)))
    if not rows:
        print("no searches logged")
        return
    n = len(rows)
    over = [u - t for u, t, _, _, _, _ in rows]
    slack = [t + r - u for u, t, r, _, _, _ in rows]
    print(f"searches: {n}")
    print(f"mean depth (steps): {sum(r[5] for r in rows) / n:.2f}, "
          f"min {min(r[5] for r in rows)}, max {max(r[5] for r in rows)}")
    total_nodes = sum(r[3] for r in rows)
    print(f"nodes/second over all searches: {total_nodes / sum(r[0] for r in rows):,.0f}"
          f" (engine's own mean {sum(r[4] for r in rows) / n:,.0f})")
    print(f"mean time used: {sum(r[0] for r in rows) / n:.3f} s")
    print(f"largest time past tcmove (drawn from reserve): {max(over):.3f} s")
    print(f"smallest slack before the controller's deadline (tcmove + reserve - used): "
          f"{min(slack):.3f} s")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        report(sys.argv[2])
    elif len(sys.argv) >= 3:
        relay(sys.argv[1], sys.argv[2:])
    else:
        sys.exit(__doc__)
