#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch BASE's linux-source package (config/bases), check its pinned version
# and checksum, and commit the pristine tree into a git repository at
# $CACHE/linux-$BASE (tag "base").
. "$(dirname "$0")/lib.sh"

need_root
need_tool git
need_disk "$CACHE" 5
pkg=$(base_field PACKAGE)
archive=$(base_field ARCHIVE)
dl=$CACHE/dl
repo=$CACHE/linux-$BASE
mkdir -p "$dl"

if [ "$archive" = host ]; then
	# A base from the host's own archive (6.12).
	apt() { "$@"; }
	cd "$dl"
else
	need_sid_root
	apt() { chroot "$ROOT" sh -c "cd '$dl' && $*"; }
	mount_same "$dl"
fi

versions() { apt apt-cache show "$pkg" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -u | paste -sd' '; }
avail=$(versions) || true
# ARCHIVE experimental (7.3): experimental, for this package only. Its
# address is sid's, from the root's own apt configuration.
if [ -z "$avail" ] && [ "$archive" = experimental ]; then
	sed -n 's/^\(deb .*\) sid \(.*\)$/\1 experimental \2/p' "$ROOT/etc/apt/sources.list" \
		>"$ROOT/etc/apt/sources.list.d/btt-experimental.list"
	printf 'Package: *\nPin: release a=experimental\nPin-Priority: -1\n\nPackage: %s\nPin: release a=experimental\nPin-Priority: 100\n' \
		"$pkg" >"$ROOT/etc/apt/preferences.d/btt-experimental"
	[ -s "$ROOT/etc/apt/sources.list.d/btt-experimental.list" ] && apt apt-get update -q >/dev/null 2>&1 &&
		avail=$(versions) || true
fi
[ -n "$avail" ] || die "the mirror serves no $pkg package (apt-cache show $pkg found nothing)"
# The base is pinned: the series is against one exact version.
ver=$(base_field VERSION) want_sum=$(base_field SHA256)
[ "$want_sum" != - ] || want_sum=
# A downloaded package of the pinned version needs no archive.
deb=$(ls "$dl/${pkg}_${ver}_"*.deb 2>/dev/null | head -n1) || true
if [ -z "$deb" ]; then
	tr ' ' '\n' <<<"$avail" | grep -qxF -- "$ver" ||
		die "$pkg $ver (pinned in ${BASES#"$TOP"/}) is gone from the archive; available: $avail"
	note "downloading $pkg $ver"
	out=$(apt apt-get download -q "$pkg=$ver" 2>&1 >/dev/null) || die "apt-get download $pkg=$ver failed: $out"
	deb=$(ls "$dl/${pkg}_${ver}_"*.deb | head -n1)
fi

sum=$(sha256sum "$deb" | cut -d' ' -f1)
[ -z "$want_sum" ] || [ "$sum" = "$want_sum" ] ||
	die "$deb has sha256 $sum, ${BASES#"$TOP"/} pins $want_sum; remove $deb to download it again"
old=$(cat "$CACHE/base-$BASE.sha256" 2>/dev/null || true)
if [ -n "$old" ] && [ "$old" != "$sum" ]; then
	note "base changed: $(cat "$CACHE/base-$BASE.version") ($old) -> $ver ($sum)"
	[ ! -e "$CACHE/edit-$BASE" ] ||
		die "$CACHE/edit-$BASE holds commits made on the old base tree: export it (scripts/export.sh), remove it, then run base.sh again"
	rm -rf "$repo"
fi

if [ ! -e "$repo/.git/base-done" ] || [ "$(cat "$repo/.git/base-done")" != "$sum v2" ]; then
	note "extracting $pkg $ver"
	rm -rf "$repo" "$repo.tmp"
	# The scratch worktrees belong to the old tree: drop them (base_worktree
	# makes them again). An editing tree may hold work: only say so.
	rm -rf "$repo.apply" "$repo.base" "$repo.bisect" "$repo.send"
	mkdir -p "$repo.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO --wildcards "./usr/src/$pkg.tar.*" | tar -xJ -C "$repo.tmp" ||
		die "could not extract the kernel tarball from $deb"
	mv "$repo.tmp/$pkg" "$repo"
	rmdir "$repo.tmp"
	cd "$repo"
	git init -q
	git config user.name "base"
	git config user.email "base@localhost"
	git config gc.auto 0
	# Debian's .gitignore ignores the whole top level ("/*"): force.
	git add -f -A
	# A fixed date makes the base commit id the same on every machine.
	GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z git commit -q -m "Linux $ver (Debian $pkg)"
	git tag -f base >/dev/null
	echo "$sum v2" >.git/base-done
fi
echo "$sum" >"$CACHE/base-$BASE.sha256"
echo "$pkg $ver sha256:$sum" >"$CACHE/base-$BASE.version"
echo "base: $(cat "$CACHE/base-$BASE.version")"
