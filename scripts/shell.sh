#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run a command in the sid root, in the checkout, with the checkout bind-mounted
# (in this script's private mount namespace: the mount ends with it).
# Usage: shell.sh CMD...
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
[ $# -gt 0 ] || die "usage: shell.sh CMD..."
in_root "$TOP" "$*"
