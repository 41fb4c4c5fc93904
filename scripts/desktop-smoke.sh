#!/usr/bin/env bash
# Smoke run of the desktop build under Xvfb: the window opens, WebKit loads the embedded
# frontend, and the page's first API request reaches the backend (IDEA_DESKTOP_SMOKE makes
# the app print a line and quit then). With SCREENSHOT=path and ImageMagick's `import`, a
# picture of the window is saved too.
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
  if [ -n "${SCREENSHOT:-}" ] && command -v import >/dev/null; then
    sleep 8 && import -window root "$SCREENSHOT" || true
  fi
  wait "$app"'
if IDEA_USER_DIR="$project/.user" xvfb-run -a -s "-screen 0 1280x800x24" bash -c "$inner" "$bin" "$project" "$log" \
  && grep -q "the frontend reached the backend" "$log"; then
  echo "desktop smoke: ok (window opened, frontend reached the backend)"
else
  echo "desktop smoke: FAILED" >&2
  cat "$log" >&2
  exit 1
fi
