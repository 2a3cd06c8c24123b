#!/bin/sh
# sanitizer_reports_clear: the sanitizer build's first test (a ctest
# fixture's setup, cmake/sanitize.cmake): empties the directory the
# sanitizers write their reports to, world-writable (tests run stubbench
# as nobody).
# usage: sanitizer_reports_clear.sh DIR
set -u
rm -rf "$1" && mkdir -p "$1" && chmod 1777 "$1"
