#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The fast tests: unit tests of the harness's judges (scripts/tests/) on
# fixtures they make themselves. No root, no network, no cache; seconds.
set -euo pipefail
command -v python3 >/dev/null 2>&1 || { echo "error: missing tool 'python3'" >&2; exit 1; }
exec python3 "$(dirname "$0")/tests/run.py"
