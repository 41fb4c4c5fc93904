#!/usr/bin/env bash
# Runs every check and test of IdeA, as CI does: set-up, formatting, lints with no warnings
# (desktop and headless builds), the frontend type-check and build, the generated TypeScript
# types, all Rust tests (real PTYs, fake agent CLIs), the browser tests (Chromium) and the
# desktop window end to end (Xvfb + tauri-driver), and the real agent CLIs against a fake model
# server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

step "frontend type-check"
(cd frontend && npm run --silent typecheck)

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (desktop build, all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "headless build (no WebKit): cargo clippy -p idea-app --no-default-features"
cargo clippy -p idea-app --no-default-features --all-targets --locked -- -D warnings
if cargo tree -p idea-app --no-default-features -e normal | grep -qE '^.*(webkit2gtk|tauri|zbus) '; then
  echo "the headless build pulls WebKit/Tauri/D-Bus" >&2; exit 1
fi
if cargo tree -p idea-domain -e normal | grep -q tokio; then
  echo "idea-domain depends on tokio" >&2; exit 1
fi

step "generated TypeScript types are current (ts-rs)"
scripts/gen-types.sh --check

step "Rust tests"
cargo test --workspace --locked

step "real agent CLIs (pinned Claude Code, Codex, Gemini CLI) through idea serve, against a fake model server"
# Installed once into a cache (scripts/real-clis.sh); an unreachable npm registry is a loud skip.
real_cli_status=0
real_cli_bin=$(scripts/real-clis.sh) || real_cli_status=$?
if [ "$real_cli_status" = 0 ]; then
  IDEA_REAL_CLI_BIN="$real_cli_bin" cargo test -p idea-e2e --test realcli --locked -- --ignored --test-threads=1
elif [ "$real_cli_status" = 3 ]; then
  echo "SKIPPED: the real-CLI suite: the pinned CLIs could not be installed (npm registry unreachable)" >&2
else
  exit "$real_cli_status"
fi

step "browser tests (Debian's Chromium + playwright-core against idea serve)"
(cd tests/browser && IDEA_BIN="$PWD/../../target/debug/idea" npm test --silent)

step "desktop end to end (Xvfb + WebKitGTK, driven by tauri-driver + WebKitWebDriver)"
timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" env IDEA_BIN="$PWD/target/debug/idea" node --test tests/desktop/
