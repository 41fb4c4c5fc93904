#!/usr/bin/env bash
# Installs what IdeA needs on a Debian machine, idempotently and without prompts:
# system libraries (WebKitGTK for the desktop shell, Chromium + Xvfb for tests), the
# frontend's npm packages, and builds the frontend. Rust crates come with `cargo build`.
#   scripts/setup.sh          what running the product needs
#   scripts/setup.sh --test   plus what the test suite needs
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

apt_packages=(build-essential pkg-config curl file libwebkit2gtk-4.1-dev libgtk-3-dev librsvg2-dev libsoup-3.0-dev libjavascriptcoregtk-4.1-dev)
if [ "$want_tests" = 1 ]; then
  # dbus: the desktop test's own session bus (dbus-run-session) for its fake notification service.
  apt_packages+=(xvfb xauth chromium webkit2gtk-driver tmux dbus)
fi

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null 2>&1; then missing+=(nodejs npm); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v cargo >/dev/null 2>&1 || { echo "setup: cargo is missing: install Rust (rustup) first" >&2; exit 1; }
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || { echo "setup: Node.js >= 20 is needed (found $(node --version))" >&2; exit 1; }

# tauri-driver drives the desktop window in the tests (WebDriver over WebKitWebDriver).
if [ "$want_tests" = 1 ] && ! command -v tauri-driver >/dev/null 2>&1; then
  echo "setup: installing tauri-driver"
  cargo install --quiet --locked tauri-driver --version 2.1.0
fi
export PATH="$HOME/.cargo/bin:$PATH"

# npm packages: reinstall only when the lock file changed since the last install.
if [ ! -f frontend/node_modules/.package-lock.json ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "setup: installing the frontend's npm packages"
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ "$want_tests" = 1 ] && [ ! -f tests/browser/node_modules/.package-lock.json -o tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ] && [ -f tests/browser/package-lock.json ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: building the frontend"
(cd frontend && npm run --silent build >/dev/null)
