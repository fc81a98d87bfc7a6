#!/usr/bin/env bash
# Installs Debian's PostgreSQL for the storage contract tests when no initdb can be found (those tests skip without
# it). Nothing is started here: the tests create a throwaway cluster on a free loopback port and remove it again.
set -euo pipefail
if command -v initdb >/dev/null 2>&1 || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-postgres: initdb is missing and apt-get is not usable here; the PostgreSQL contract tests will skip." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The package also creates the `postgres` user, which the tests run PostgreSQL as when they run as root.
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
