#!/usr/bin/env bash
# Install everything the tests need (Debian's chromium, Java for Spark, CJK fonts, HAProxy and
# Redis for the workshop, npm and axe-core for accessibility, when missing) and run the whole
# suite: lint, unit and page tests, and the browser tests against a running app (and a workshop
# of two workers behind HAProxy).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if ! command -v java >/dev/null 2>&1; then
    echo "Installing Debian's openjdk-17-jre-headless for the Spark tests..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi

if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
    echo "Installing Debian's fonts-noto-cjk for the Japanese and Chinese screenshots..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-noto-cjk >/dev/null
fi

if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ] || ! command -v redis-server >/dev/null 2>&1; then
    echo "Installing Debian's haproxy and redis-server for the workshop tests..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq haproxy redis-server >/dev/null
fi
export PATH="$PATH:/usr/sbin"

if ! command -v npm >/dev/null 2>&1; then
    echo "Installing Debian's npm for axe-core, the accessibility checker of the browser tests..."
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
AXE_VERSION="4.14.1"
if [ ! -f tests/.axe/node_modules/axe-core/axe.min.js ] \
    || ! grep -q "\"version\": \"$AXE_VERSION\"" tests/.axe/node_modules/axe-core/package.json; then
    echo "Installing axe-core $AXE_VERSION from the npm registry into tests/.axe..."
    npm install --prefix tests/.axe --no-save --no-audit --no-fund --silent "axe-core@$AXE_VERSION"
fi

python3 -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
python3 -m ruff check .
python3 -m ruff format --check .
# Two workers a core: a browser test mostly waits on its server and chromium, so with fewer
# a core sat idle; with four on two cores both stay busy (CPU pressure 58-67%). The slowest
# modules go first (tests/conftest.py, LONG_FIRST).
python3 -m pytest -q -n "$(( $(nproc) * 2 ))" --dist load "$@"
