#!/usr/bin/env bash
# Runs IdeA on a project (default: this repository, which is an IdeA project itself).
# With a display: the desktop window. Without one: the headless CLI (the `idea serve` web UI
# arrives with the next milestone; until then this prints the project's state and doctor).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
project="$(realpath -m "${1:-$repo}")"
"$repo/scripts/setup.sh"
cd "$repo"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  cargo build -q -p idea-app
  ./target/debug/idea init "$project"
  exec ./target/debug/idea desktop "$project"
fi
cargo build -q -p idea-app --no-default-features
./target/debug/idea init "$project"
echo "No display found. The browser UI (idea serve) is not built yet; here is the headless CLI:"
./target/debug/idea doctor
./target/debug/idea agent list --project "$project"
echo "Try: ./target/debug/idea agent create --name Ada --profile shell --project '$project'"
