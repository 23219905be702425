#!/usr/bin/env bash
# Makes docs/serve/{play,review,watch}.png: aamir serve with a record and
# a running match, headless Chromium on each tab (the play and review
# pictures after the page's self-test has played and analysed), and a
# screenshot through DevTools (scripts/serve_screenshot.mjs, Node 20+).
# Usage: scripts/serve_screenshots.sh [AAMIR_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
AAMIR=${1:-target/release/aamir}
CHROMIUM=${CHROMIUM:-chromium}
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

mkdir -p "$work/games"
cp aei-examples/short-game.txt "$work/games/"
setsid "$AAMIR" match --engine name=deep,option.depth=6,option.hash=8 \
  --engine name=shallow,option.depth=3,option.hash=8 \
  --tc 1s/30s/100/30s --games 8 --concurrency 1 --max-turns 60 \
  --out "$work/games/match" 2>/dev/null &
pids+=($!)
setsid "$AAMIR" serve --port 0 --hash 16 --games "$work/games" > "$work/serve.out" &
pids+=($!)
for _ in $(seq 50); do grep -q http "$work/serve.out" && break; sleep 0.2; done
url=$(grep -o 'http://[^ ]*' "$work/serve.out")
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }

shot() { # name query prefix delay
  local port=$((9400 + RANDOM % 400))
  setsid "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=1250,900 --remote-debugging-port=$port \
    --user-data-dir="$work/profile-$1" "${url}$2" >/dev/null 2>&1 &
  local pid=$!
  node --experimental-websocket scripts/serve_screenshot.mjs "$port" "docs/serve/$1.png" "$3" "$4"
  kill -- -"$pid" 2>/dev/null || true
}
mkdir -p docs/serve
shot play "?selftest=play&strength=d8&keep=1&show=1#play" 'selftest ' 0
shot review "?selftest=review&depth=d4&show=1&tab=review&path=$(enc "$work/games/short-game.txt")#review" 'selftest ' 0
sleep 5
shot watch "?tab=watch&path=$(enc "$work/games/match")#watch" '-' 3000
ls -l docs/serve
