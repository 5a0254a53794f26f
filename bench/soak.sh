#!/usr/bin/env bash
# Soak test: public load plus an article save every 10 s; SOAK_SECONDS=600 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -qq wrk; } || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
node -e 'import("./scripts/lib.mjs").then(m => { m.ensureDependencies(); m.ensureBuild(); })'
exec node bench/soak.mjs
