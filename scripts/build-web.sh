#!/usr/bin/env bash
# Builds the web demo (examples/web_demo) into examples/web_demo/pkg: cargo for wasm32, then
# wasm-bindgen, whose CLI must be the exact version of the wasm-bindgen crate in Cargo.lock.
#
#   scripts/build-web.sh
#   python3 -m http.server -d examples/web_demo 8765 --bind 127.0.0.1   # then open the page
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3 }' Cargo.lock)"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen ${version}"; then
  echo "wasm-bindgen ${version} is needed: cargo install wasm-bindgen-cli --version ${version}" >&2
  exit 1
fi
cargo build -p web_demo --release --locked --target wasm32-unknown-unknown
wasm-bindgen --target web --no-typescript --out-dir examples/web_demo/pkg \
  target/wasm32-unknown-unknown/release/web_demo.wasm
echo "built examples/web_demo/pkg (wasm-bindgen ${version})"
