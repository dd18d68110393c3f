#!/bin/sh
# Installs the Debian packages the tests use as oracles or drivers:
# - chromium: the report's browser tests (Playwright's Python package, from the test extra, is
#   pointed at it; no Playwright browser download);
# - default-jre-headless: Java, which runs Stanford CoreNLP 3.4.1's PTB tokenizer (the jar
#   pycocoevalcap ships) as the oracle of bleuprint's `ptb` tokenizer.
# CI runs it as root on a fresh Debian machine; elsewhere it needs root (or sudo) once.
set -eu
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
chromium --version
java -version 2>&1 | head -1
