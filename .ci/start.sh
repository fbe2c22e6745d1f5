#!/usr/bin/env bash
# `npm start`: installs what is missing and serves the demo on http://127.0.0.1:5173.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup.sh
echo "[threadlens] demo: http://127.0.0.1:5173"
exec node_modules/.bin/vite --config demo/vite.config.ts --host 127.0.0.1 --port 5173 --strictPort
