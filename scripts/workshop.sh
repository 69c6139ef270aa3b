#!/usr/bin/env bash
# A workshop on one address: install Debian's HAProxy when missing and the app's packages, then
# start the workers behind it (scripts/workshop.py; its options, e.g. --workers 4, pass on).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
    echo "Installing Debian's haproxy for the workshop's workers..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy >/dev/null
fi
export PATH="$PATH:/usr/sbin"

python3 -m pip install --quiet --disable-pip-version-check --no-compile -r requirements.txt
exec python3 scripts/workshop.py "$@"
