#!/usr/bin/env bash
# Install everything the tests need (Debian's chromium, for Spark Java, and CJK fonts, when missing) and
# run the whole suite: lint, unit and page tests, and the browser tests against a running app.
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

python3 -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m pytest -q -n auto --dist load "$@"
