#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml [[hooks]]), run on every `trunk build` and `trunk serve`
# rebuild, in Trunk's staging directory before it becomes dist/:
#   1. `amplify prerender`: every page and every figure's embed as static HTML with inline SVG,
#      from the same declarations the app renders (site/src/prerender.rs), and at the same time
#   2. scripts/build-compute.sh: the compute module, the compute worker's WebAssembly;
#   3. tools/postbuild.mjs: content-hashed asset names and precompressed .br and .gz copies (the
#      wasm's .gz by tools/precompress, Zopfli).
# The CLI and precompress are built in Cargo's `tool` profile (the release one without LTO: the
# same numbers, bit for bit, in a third of the build time); the end-to-end tests run that CLI.
# Each step prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${TRUNK_STAGING_DIR:?postbuild runs as Trunk\'s post_build hook (TRUNK_STAGING_DIR is unset)}
target=${CARGO_TARGET_DIR:-target}
timed() {
  local name=$1 t=$SECONDS; shift
  "$@"
  echo "postbuild: $name in $((SECONDS - t)) s" >&2
}
timed "CLI and precompress built" cargo build --quiet --profile tool --locked -p amplify -p precompress
# Pre-rendering (the CLI, one core) and the compute module's build (Cargo, wasm-bindgen, wasm-opt)
# write different files: they run at once.
timed "pages pre-rendered" "$target/tool/amplify" prerender --dist "$dir" >&2 & prerender=$!
timed "compute module built" scripts/build-compute.sh "$dir"
wait "$prerender" || { echo "postbuild: pre-rendering failed" >&2; exit 1; }
timed "names hashed and copies compressed" node tools/postbuild.mjs "$dir" "$target/tool/precompress"
