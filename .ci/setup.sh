#!/usr/bin/env bash
# Installs what the project needs on a machine that has only Node, npm and apt:
# the workspace's packages (pnpm bootstrapped through npx) and, when asked for, Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.34.9
if command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$PNPM_VERSION" ]; then
  PNPM=(pnpm)
else
  PNPM=(npx -y "pnpm@$PNPM_VERSION")
fi
# Under CI=true pnpm refuses to touch the lockfile; locally this is a no-op when nothing changed.
"${PNPM[@]}" install --prefer-offline --reporter=append-only 2>&1 | grep -v -E 'nodedir|^Progress' || true
[ -x node_modules/.bin/vite ] || { echo "[threadlens] pnpm install failed: node_modules/.bin/vite is missing" >&2; exit 1; }

if [ "${1:-}" = "--with-chromium" ]; then
  if ! command -v chromium >/dev/null 2>&1; then
    echo "[threadlens] chromium not found: installing Debian's chromium (about 30 s)"
    SUDO=""
    [ "$(id -u)" = "0" ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  fi
  command -v chromium >/dev/null 2>&1 || { echo "[threadlens] chromium is still missing after apt-get" >&2; exit 1; }
fi
