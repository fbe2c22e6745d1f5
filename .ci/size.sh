#!/usr/bin/env bash
# `npm run size`: every size figure in one place. Builds the packages and prints what an app bundles
# eagerly per entry point and per public subpath of core, with which modules take the room in each
# targeted row (e2e/consumers/bundle-sizes.ts --explain); then builds the demo and prints what its
# first load weighs (gzip) against the 200 KB goal, lazily loaded chunks apart. Prints figures;
# never fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
npm run --silent build >/dev/null
node_modules/.bin/tsx e2e/consumers/bundle-sizes.ts --explain
echo
node_modules/.bin/vite build --config demo/vite.config.ts --logLevel warn
node_modules/.bin/tsx demo/bench/first-load-size.ts
