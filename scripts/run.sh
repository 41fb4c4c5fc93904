#!/usr/bin/env bash
# Runs IdeA on a project (default: this repository, which is an IdeA project itself).
# With a display: the desktop window. Without one: `idea serve` on 127.0.0.1 (any free port,
# or $IDEA_PORT), which prints the URL to open, token included.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
project="$(realpath -m "${1:-$repo}")"
"$repo/scripts/setup.sh"
cd "$repo"
# The sandbox helper, beside `idea`: a process must be single-threaded to enter a user
# namespace, which the desktop build of `idea` never is (docs/sandbox.md).
cargo build -q -p idea-infrastructure --bin idea-sandbox-exec
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cargo build -q -p idea-app
  ./target/debug/idea init "$project"
  exec ./target/debug/idea desktop "$project"
fi
mkdir -p "$project"
cargo build -q -p idea-app --no-default-features
echo "No display found: serving IdeA to your browser instead (Ctrl+C stops it and records the running agents)."
exec ./target/debug/idea serve "$project" --port "${IDEA_PORT:-0}"
