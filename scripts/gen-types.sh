#!/usr/bin/env bash
# Regenerates frontend/src/generated/ (TypeScript types) from the Rust types with ts-rs.
#   scripts/gen-types.sh          rewrite the files
#   scripts/gen-types.sh --check  fail when the committed files are out of date
set -euo pipefail
cd "$(dirname "$0")/.."
out=frontend/src/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TS_RS_EXPORT_DIR="$tmp" cargo test -q --locked -p idea-application --features ts export_bindings >/dev/null
TS_RS_EXPORT_DIR="$tmp" cargo test -q --locked -p idea-domain --features ts export_bindings >/dev/null
if [ "${1:-}" = "--check" ]; then
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
