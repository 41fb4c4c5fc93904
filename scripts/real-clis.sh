#!/usr/bin/env bash
# Installs the real agent CLIs at the versions pinned in tests/realcli/package.json into a
# cache folder (reused while the pins do not change) and prints the folder holding their
# executables. Exit 3 when the npm registry cannot be reached (the caller reports a skip).
#   IDEA_REAL_CLI_CACHE  the cache (default ~/.cache/idea/real-clis)
set -euo pipefail
cd "$(dirname "$0")/.."
pins=tests/realcli/package.json
key=$(sha256sum "$pins" | cut -c1-16)
cache="${IDEA_REAL_CLI_CACHE:-$HOME/.cache/idea/real-clis}/$key"
if [ ! -f "$cache/.installed" ]; then
  rm -rf "$cache"
  mkdir -p "$cache"
  cp "$pins" "$cache/package.json"
  if ! (cd "$cache" && npm install --no-audit --no-fund --loglevel=error --no-package-lock >&2); then
    echo "real-clis: npm install failed (is the npm registry reachable?)" >&2
    rm -rf "$cache"
    exit 3
  fi
  touch "$cache/.installed"
fi
echo "$cache/node_modules/.bin"
