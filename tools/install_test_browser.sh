#!/bin/sh
# Installs the browser the report's tests drive: Debian's headless Chromium (Playwright's
# Python package, from the test extra, is pointed at it; no Playwright browser download).
# CI runs it as root on a fresh Debian machine; elsewhere it needs root (or sudo) once.
set -eu
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi
chromium --version
