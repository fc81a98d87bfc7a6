#!/usr/bin/env bash
# Installs Debian's Mosquitto broker and clients when missing: the ingest tests publish with `mosquitto_pub` (they skip
# with a notice without it) and `bench/ingest.ts` and the load runner
# (`--target mosquitto`, `npm run load:baseline`) run the broker side by side. Nothing is started here.
set -euo pipefail
if command -v mosquitto_pub >/dev/null 2>&1 && { command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; }; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-mosquitto: mosquitto is missing and apt-get is not usable here; the mosquitto_pub tests will skip." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients >/dev/null
