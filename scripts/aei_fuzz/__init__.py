"""Hostile AEI sessions against an engine binary, every verdict checked
against pyrimaa.board (the AEI reference board from the PyPI `aei` package).

Run with a venv that has `aei` (for example the tests' own), through the
entry script or as a module from `scripts/`:

    target/tmp/aei-venv/bin/python scripts/aei_fuzz.py target/release/aamir \
        --sessions 500 --seed 1
    cd scripts && ../target/tmp/aei-venv/bin/python -m aei_fuzz \
        ../target/release/aamir --sessions 500 --seed 1

The modules: `model` (what the engine's game should be: pyrimaa.board's
verdicts), `harness` (driving the engine process and matching its answers),
`fuzzer` (random hostile sessions), `cases` (the hand-written cases) and
`__main__` (the command line and the report).

What it runs, each session against a fresh engine process:

* hand-written cases (`cases`): every AEI message with good and bad
  arguments, one small session per case;
* N fuzzed sessions, session i seeded with SEED+i: the handshake, `newgame`,
  setups (good, handicap and broken), a game driven by legal moves from
  pyrimaa.board and by the engine's own answers, interleaved with hostile
  lines: malformed messages, illegal moves (mutations of legal ones), bad
  `setposition` strings, unknown options and out-of-range values, control
  characters, invalid UTF-8, very long lines, `go` with a small `depth`,
  `isready`, `stop`, `go ponder`, `newgame`/`setposition`/`makemove` in the
  middle of a search; each session ends by `quit`, end of input or an
  unrecognised message (which AEI asks the engine to exit on).

What is checked:

* the process never dies (its output never ends before the session does;
  exit status 0 after `quit` or end of input, non-zero after an
  unrecognised message) and never panics (stderr has no `panicked`);
* every `isready` gets a `readyok` (the harness sends one after nearly
  every line, so that each answer belongs to the line before it);
* every `makemove` is accepted exactly when pyrimaa.board finds the move
  legal (steps checked one by one with its `check_step`, piece letters and
  capture tokens against its own notation, no unfinished push, no
  unchanged board, no third repetition of the game given so far; setups by
  the placement rules, handicaps allowed as the engine documents);
* every `bestmove` is legal in pyrimaa.board's view of the position the
  engine was given, written as pyrimaa writes it (capture tokens included),
  and a setup is a full 16-piece setup of the side to set up; `go` in a
  finished game gets `log Error` naming the winner and rule pyrimaa finds,
  and no `bestmove`;
* a refused line leaves the engine's game unchanged: the harness's model
  is left as it was, so the next legal move must be accepted and the next
  `bestmove` must be legal in the unchanged position;
* every refusal is one `log Error:` (a `log Warning:` for unknown options,
  negative times and a `stop` with nothing to stop) naming the message or
  option concerned; any other error or warning is a failure;
* every output line is an AEI message (`protocol-version`, `id`, `aeiok`,
  `readyok`, `bestmove`, `info`, `log`) and holds no raw control character.

Tolerances: warnings that the engine answered for a search that overran
its time are counted as timing notes, not failures (a loaded machine or a
clock with no time left causes them); the move sent must still be legal.
Any search may end by itself before the `stop` or `makemove` meant to end
it (a goal at hand is answered at once, a clock may be set), so for a
search interrupted by a line exactly one of "its bestmove" and "the
engine's word that it was abandoned" must come, and a `stop` that finds
nothing to stop must come after the answer.

Searches stay tiny (the `depth` option at 2-4, or no limit and a `stop`
within a fraction of a second). `eval_tempo` is fuzzed up to +-10000, which
used to make a depth-limited search never end; they are now in the
default set, and `--extreme` adds `goal_extensions` 8.

Exit status: 0 when nothing failed, 1 when something did (each failure is
printed with its seed and a transcript file), 2 for a usage error.
`--replay FILE` sends the lines of a transcript again and prints what the
engine answers.
"""
