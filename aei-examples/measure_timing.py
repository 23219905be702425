#!/usr/bin/env python3
"""Measures an AEI engine's responsiveness through AEI's own controller code.

Usage: $VENV/bin/python aei-examples/measure_timing.py target/release/aamir

Prints, over a few runs: the time from starting the engine to its first
`readyok` (the controllers allow 5 s for `aeiok`), how fast `isready` is
answered during an unlimited `go`, and how long `stop` takes to bring the
`bestmove` (the aim is under 50 ms). A search that ends before `stop` is
sent (the placeholder search does) is reported as such.
"""
import sys
import time

from pyrimaa import aei

OPENING = "[rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]"
cmd = sys.argv[1]

starts = []
for _ in range(5):
    t = time.time()
    eng = aei.get_engine("stdio", cmd)
    ctl = aei.EngineController(eng)  # aei ... aeiok, isready ... readyok
    starts.append(f"{time.time() - t:.4f}")
    ctl.quit()
    eng.cleanup()
print("start to first readyok (s):", starts)

eng = aei.get_engine("stdio", cmd)
ctl = aei.EngineController(eng)
ready, stops = [], []
for _ in range(5):
    eng.send(f"setposition g {OPENING}\n")
    eng.send("go\n")
    time.sleep(0.5)
    t = time.time()
    responses = ctl.isready()
    ready.append(f"{time.time() - t:.4f}")
    if any(r.type == "bestmove" for r in responses):
        stops.append("ended before stop")
        continue
    t = time.time()
    ctl.stop()
    eng.waitfor("bestmove", 5)
    stops.append(f"{time.time() - t:.4f}")
print("isready during go (s):", ready)
print("stop to bestmove (s):", stops)
ctl.quit()
eng.cleanup()
