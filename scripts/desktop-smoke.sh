#!/usr/bin/env bash
# Smoke run of the desktop build under Xvfb: the window opens, WebKit loads the embedded
# frontend, and the page's first API request reaches the backend (IDEA_DESKTOP_SMOKE makes
# the app print a line and quit 2 s later). A screenshot (ImageMagick) must show a rendered
# page; SCREENSHOT=path keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/debug/idea
project=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$project" "$log"' EXIT
"$bin" init "$project" >/dev/null
inner='
  IDEA_DESKTOP_SMOKE=1 timeout 120 "$0" desktop "$1" >"$2" 2>&1 &
  app=$!
  for _ in $(seq 600); do grep -q "reached the backend" "$2" && break; sleep 0.1; done
  sleep 1
  import -window root "$3" || true
  wait "$app"'
shot=${SCREENSHOT:-$project/desktop.png}
if IDEA_USER_DIR="$project/.user" xvfb-run -a -s "-screen 0 1280x800x24" bash -c "$inner" "$bin" "$project" "$log" "$shot" \
  && grep -q "the frontend reached the backend" "$log"; then
  # A rendered page has many colours; a blank or crashed window has one or two.
  colours=$(convert "$shot" -format %k info: 2>/dev/null || echo 0)
  if [ "$colours" -lt 16 ]; then
    echo "desktop smoke: FAILED (the window looks blank: $colours colours)" >&2
    exit 1
  fi
  echo "desktop smoke: ok (window opened, frontend reached the backend, screenshot has $colours colours)"
else
  echo "desktop smoke: FAILED" >&2
  cat "$log" >&2
  exit 1
fi
