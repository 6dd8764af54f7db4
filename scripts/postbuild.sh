#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml [[hooks]]), run on every `trunk build` and `trunk serve`
# rebuild, in Trunk's staging directory before it becomes dist/:
#   1. `amplify prerender`: every page and every figure's embed as static HTML with inline SVG,
#      from the same declarations the app renders (plots/src/prerender.rs);
#   2. scripts/build-compute.sh: the compute module, the compute worker's WebAssembly;
#   3. tools/postbuild.mjs: content-hashed asset names and precompressed .br copies;
#   4. tools/precompress: precompressed .gz copies (Zopfli).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${TRUNK_STAGING_DIR:?postbuild runs as Trunk\'s post_build hook (TRUNK_STAGING_DIR is unset)}
cargo run --quiet --release --locked -p amplify -- prerender --dist "$dir" >&2
scripts/build-compute.sh "$dir"
node tools/postbuild.mjs "$dir"
cargo run --quiet --release --locked -p precompress -- "$dir"
