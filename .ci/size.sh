#!/usr/bin/env bash
# `npm run size`: builds the demo and prints what its first load weighs (gzip) against the 200 KB goal,
# with the lazily loaded chunks (tokenizer, devtools panel) apart. Prints figures; never fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
node_modules/.bin/vite build --config demo/vite.config.ts --logLevel warn
node_modules/.bin/tsx demo/bench/first-load-size.ts
