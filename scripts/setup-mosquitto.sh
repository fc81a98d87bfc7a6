#!/usr/bin/env bash
# Installs Debian's mosquitto (the broker of the load runner's baseline and bare-broker target) when it is missing.
# Nothing is started here: the runner and its tests start it on a free loopback port with a config of their own.
set -euo pipefail
if command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-mosquitto: mosquitto is missing and apt-get is not usable here; the bare-broker load tests will skip." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends mosquitto mosquitto-clients >/dev/null
