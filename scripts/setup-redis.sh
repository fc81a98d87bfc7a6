#!/usr/bin/env bash
# Installs Debian's Redis server for the scale-out tests when no redis-server can be found (those tests skip without
# it). Nothing is started here: the tests and scripts/cluster.sh start redis-server on a free loopback port.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-redis: redis-server is missing and apt-get is not usable here; the scale-out tests will skip." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends redis-server >/dev/null
