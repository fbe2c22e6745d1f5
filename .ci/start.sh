#!/usr/bin/env bash
# `npm start`: installs what is missing and serves the demo (development server) on
# http://127.0.0.1:5173. `npm run preview`: builds the demo and serves the build on :4173.
# The port: `--port N` (or `--port=N`, after `npm start --`), else `PORT`, else the default;
# `npm start --port N` (without `--`) reaches here as a bare N (npm takes `--port` for its own
# config), and `npm start N` works as well.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=dev
port="${PORT:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --preview) mode=preview ;;
    --port) [ $# -ge 2 ] || { echo "[threadlens] --port needs a number" >&2; exit 2; }; port="$2"; shift ;;
    --port=*) port="${1#--port=}" ;;
    [0-9]*) port="$1" ;;
    *) echo "[threadlens] unknown argument: $1 (use --port N, or PORT=N)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$port" ]; then
  if [ "$mode" = preview ]; then port=4173; else port=5173; fi
fi
if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
  echo "[threadlens] not a port: '$port' (1 to 65535)" >&2
  exit 2
fi

bash .ci/setup.sh
if [ "$mode" = preview ]; then
  node_modules/.bin/vite build --config demo/vite.config.ts
  echo "[threadlens] demo (built): http://127.0.0.1:$port"
  exec node_modules/.bin/vite preview --config demo/vite.config.ts --host 127.0.0.1 --port "$port" --strictPort
fi
echo "[threadlens] demo: http://127.0.0.1:$port"
exec node_modules/.bin/vite --config demo/vite.config.ts --host 127.0.0.1 --port "$port" --strictPort
