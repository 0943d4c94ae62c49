#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files the series adds under kernel/bpf/, tools/lib/bpf/, tools/testing/selftests/bpf/ and
# Documentation/ also live at those paths in this repository, generated from the
# series. Usage: copies.sh write|check TREE (TREE has the series applied).
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: copies.sh write|check TREE}
tree=${2:?usage: copies.sh write|check TREE}
roots="kernel/bpf tools/lib/bpf tools/testing/selftests/bpf Documentation"
added=$(git -C "$tree" diff --name-only --diff-filter=A base..HEAD -- $roots)
have=$(cd "$TOP" && for r in $roots; do [ ! -d "$r" ] || find "$r" -type f; done | sort)
bad=0
case $mode in
write)
	for f in $have; do rm -f "$TOP/$f"; done
	for f in $added; do
		mkdir -p "$(dirname "$TOP/$f")"
		cp "$tree/$f" "$TOP/$f"
	done
	(cd "$TOP" && for r in $roots; do [ ! -d "$r" ] || find "$r" -type d -empty -delete; done)
	;;
check)
	for f in $added; do
		cmp -s "$tree/$f" "$TOP/$f" || { echo "copy differs from the series: $f"; bad=1; }
	done
	for f in $have; do
		echo "$added" | grep -qxF "$f" || { echo "not a file the series adds: $f"; bad=1; }
	done
	[ "$bad" = 0 ] || die "kernel-path copies are out of date; run scripts/export.sh"
	echo "copies: $(echo "$added" | grep -c . || true) files identical to the series"
	;;
*) die "unknown mode $mode" ;;
esac
