#!/usr/bin/env bash
# Installs Debian's chromium for the docs browser test when it is missing (the test skips without it).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-chromium: chromium is missing and apt-get is not usable here; the docs browser test will skip." >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
