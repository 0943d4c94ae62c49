#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Remove the caches safely. Usage: clean.sh [all|builds]: "all" (default) the
# whole $CACHE; "builds" the kernel trees (not editing trees), build dirs and runs, keeping the sid
# root, the downloads and ccache. Everything mounted below what is removed
# (left by an older harness, or by a script killed before its mount namespace
# ended) is unmounted first; if any mount stays, nothing is removed. Only a
# folder the harness marked as its cache is cleaned, never one that holds the
# checkout, and never while an editing tree (scripts/worktree.sh) holds
# commits (BTT_CLEAN_FORCE=1 removes it anyway).
BTT_NS=host
. "$(dirname "$0")/lib.sh"

need_root
need_tool findmnt "util-linux"
what=${1:-all}
[ -d "$CACHE" ] || { echo "clean: nothing at $CACHE"; exit 0; }
c=$(cd "$CACHE" && pwd -P)
case $c in
/ | /bin | /boot | /dev | /etc | /home | /lib* | /proc | /root | /run | /sys | /tmp | /usr | /var | /work)
	die "refusing to clean $c: BTT_CACHE names a system folder" ;;
esac
[[ $c =~ ^[A-Za-z0-9/._+-]+$ ]] || die "refusing to clean '$c': unusual characters in the path"
# Caches made before the mark have a sid root made by toolchain.sh.
[ -e "$c/.btt-cache" ] || [ -e "$c/sid/.debootstrap-done" ] || [ -z "$(ls -A "$c")" ] ||
	die "refusing to clean $c: it is not marked as the harness's cache (no .btt-cache)"
case $(cd "$TOP" && pwd -P)/ in
"$c"/*) die "refusing to clean $c: it holds the checkout $TOP" ;;
esac
# Not while a run uses the cache.
cache_lock
edits=$(ls -d "$c"/edit-* 2>/dev/null || true)
if [ -n "$edits" ] && ! flag "${BTT_CLEAN_FORCE:-}"; then
	die "editing trees hold commits of the series: $edits
export them (scripts/export.sh DIR), then remove them (git -C $c/linux-BASE worktree remove DIR),
or clean with BTT_CLEAN_FORCE=1"
fi
case $what in
all) targets=("$c") ;;
# Every build dir the scripts make: kernel trees and worktrees, kernel and
# selftest builds, test modules, and the cells' result dirs.
builds) targets=("$c"/linux-* "$c"/kbuild-* "$c"/st-* "$c"/kmods-* "$c"/basecmp-* "$c"/regress-*
	"$c"/vcost-* "$c"/libbpf-old-* "$c"/gccwa-* "$c"/fixes-* "$c"/runs) ;;
*) die "usage: clean.sh [all|builds]" ;;
esac
# mounts: every mount point strictly below the cache, deepest first.
mounts() {
	findmnt -rn -o TARGET | awk -v c="$c/" 'index($0, c) == 1' | sort -r
}
for m in $(mounts); do
	umount -R "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
done
left=$(mounts)
[ -z "$left" ] || die "still mounted under $c, nothing removed:
$left"
for t in "${targets[@]}"; do
	[ -e "$t" ] || continue
	if [ "$t" = "$c" ]; then
		# The cache may itself be a mount point: empty it.
		find "$c" -mindepth 1 -maxdepth 1 -exec rm -rf --one-file-system {} +
	else
		rm -rf --one-file-system "$t"
	fi
done
echo "clean: removed $what under $c"
