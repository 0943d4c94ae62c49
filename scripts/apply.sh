#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check out branch "series" in the base tree: tag "base" plus every patch of
# BASE's series (config/bases SERIES: patches/, patches/6.12, or patches/ with
# the overrides of patches/7.2), applied with git am. BTT_PATCHES names one
# patch dir instead.
. "$(dirname "$0")/lib.sh"

need_tool git
pdir=$(series_dir)
src=${BTT_TREE:-$CACHE/linux-$BASE}
[ -e "$src/.git" ] || die "no base tree at $src; run scripts/base.sh"
[ -f "$pdir/series" ] || die "no series file in $pdir"
branch=${BTT_BRANCH:-series}
cd "$src"
gd=$(git rev-parse --git-dir)

# Nothing to do when the same patches were applied to the same base already.
mapfile -t patches < <(series_patches)
stamp=$( (git rev-parse base; for p in "${patches[@]}"; do
	cat "$p" 2>/dev/null || echo "missing $p"; done) | sha256sum | cut -c1-16)
if [ "$(cat "$gd/series-stamp" 2>/dev/null)" = "$stamp" ] &&
	[ "$(git symbolic-ref -q --short HEAD)" = "$branch" ] && git diff --quiet HEAD; then
	echo "series: $(git rev-list --count base..HEAD) patches, unchanged"
	exit 0
fi
rm -f "$gd/series-stamp"

# Apply in a scratch worktree, then check the result out here: only files
# whose content changed get a new mtime, so the kernel build stays incremental.
# (An editing worktree, whose .git is a file, is fresh and applies in place.)
work=$src
if [ -d "$src/.git" ]; then
	work=$src.apply
	base_worktree "$src" "$work"
fi
git -C "$work" am --abort >/dev/null 2>&1 || true
if [ "$work" = "$src" ]; then
	git checkout -q -f -B "$branch" base
else
	git -C "$work" checkout -q -f --detach base
fi
n=0
for p in "${patches[@]}"; do
	[ -f "$p" ] || die "patch ${p##*/} listed in $pdir/series does not exist"
	if ! out=$(git -C "$work" am -q --keep-cr "$p" 2>&1); then
		git -C "$work" am --abort >/dev/null 2>&1 || true
		die "patch ${p#"$TOP"/} does not apply to $(git log -1 --format=%s base):
$out"
	fi
	n=$((n + 1))
done
[ "$work" = "$src" ] || git checkout -q -f -B "$branch" "$(git -C "$work" rev-parse HEAD)"
echo "$stamp" >"$gd/series-stamp"
echo "series: $n patches applied on $(git log -1 --format=%s base)"
