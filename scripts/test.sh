#!/usr/bin/env bash
# Install everything the tests need (Debian's chromium, Java for Spark, CJK fonts, HAProxy and
# Redis for the workshop, npm and axe-core for accessibility, when missing) and run the whole
# suite: lint, unit and page tests, and the browser tests against a running app (and a workshop
# of two workers behind HAProxy).
set -euo pipefail
cd "$(dirname "$0")/.."

# apt_install WHY PACKAGE...: Debian's packages, with sudo unless run as root.
apt_install() {
    local why=$1
    shift
    echo "Installing Debian's $* for $why..."
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

command -v chromium >/dev/null 2>&1 || apt_install "the browser tests" chromium
command -v java >/dev/null 2>&1 || apt_install "the Spark tests" openjdk-17-jre-headless
# grep reads the whole list (-q would stop at the first match, and fc-list's write to the closed
# pipe fails the pipeline under pipefail: the fonts were installed again on some runs).
fc-list 2>/dev/null | grep -i "Noto Sans CJK" >/dev/null \
    || apt_install "the Japanese and Chinese screenshots" fonts-noto-cjk
if ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ] || ! command -v redis-server >/dev/null 2>&1; then
    apt_install "the workshop tests" haproxy redis-server
fi
export PATH="$PATH:/usr/sbin"
command -v npm >/dev/null 2>&1 || apt_install "axe-core, the accessibility checker" npm
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
# a core sat idle; with four on two cores both stay busy (CPU pressure ~90%). The slowest
# modules go first, browser tests on half the workers and the rest on the other half, a test
# at a time (tests/conftest.py: LONG_FIRST, pytest_xdist_make_scheduler).
python3 -m pytest -q -n "$(( $(nproc) * 2 ))" --dist load "$@"
