#!/usr/bin/env bash
# Regenerates frontend/src/generated/ (TypeScript types and the API's method map) from the
# Rust types with ts-rs.
#   scripts/gen-types.sh          rewrite the files
#   scripts/gen-types.sh --check  fail when the committed files are out of date
set -euo pipefail
cd "$(dirname "$0")/.."
out=frontend/src/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TS_RS_EXPORT_DIR="$tmp" cargo test -q --locked -p idea-application --features ts --lib export_bindings >/dev/null
TS_RS_EXPORT_DIR="$tmp" cargo test -q --locked -p idea-domain --features ts --lib export_bindings >/dev/null
TS_RS_EXPORT_DIR="$tmp" cargo test -q --locked -p idea-api --features ts --lib export_bindings >/dev/null
if [ "${1:-}" = "--check" ]; then
  # Generated files belong in $out only: a `bindings/` folder left in a crate is stale output.
  stray=$(find crates app-tauri tests -type d -name bindings -not -path '*/target/*' 2>/dev/null)
  if [ -n "$stray" ]; then
    echo "stray generated types (delete them; they belong in $out): $stray" >&2
    exit 1
  fi
  if ! diff -r "$tmp" "$out" >/dev/null 2>&1; then
    echo "frontend/src/generated is out of date: run scripts/gen-types.sh" >&2
    diff -r "$tmp" "$out" | head -20 >&2 || true
    exit 1
  fi
  exit 0
fi
rm -rf "$out"
mkdir -p "$out"
cp -r "$tmp"/. "$out"/
echo "wrote $(find "$out" -name "*.ts" | wc -l) files to $out"
