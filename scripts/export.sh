#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export an editing tree (scripts/worktree.sh) back into the series of its base
# (config/bases SERIES): format-patch output with a cover letter from the
# branch description, the series file, and for the primary base, the
# generated copies of the files the series adds under the kernel paths. For a
# base with overrides (7.2), only the patches whose context differs from
# patches/ are written, into the override dir. The first commits (git config
# branch.edit.prereq, set by worktree.sh) go to the prerequisite series
# (config/bases PREREQ, patches/bpf), with the description of branch
# "prereq" as its cover letter; the series' cover letter then lists them as
# prerequisite-patch-id lines.
# The subject prefixes and To/Cc come from scripts/send-prep.sh write; the
# version (vN) from BTT_SERIES_V or the cover letter being replaced.
# Usage: export.sh [DIR] (default $CACHE/edit-$BASE).
. "$(dirname "$0")/lib.sh"

need_tool git
dir=${1:-$CACHE/edit-$BASE}
pd=$(series_dir)
[ -e "$dir/.git" ] || die "no editing tree at $dir; run scripts/worktree.sh"
git -C "$dir" diff --quiet HEAD || die "$dir has uncommitted changes; commit them first"
[ "$(git -C "$dir" symbolic-ref -q --short HEAD)" = edit ] || die "$dir is not on branch edit (a rebase in progress?)"
n=$(git -C "$dir" rev-list --count base..HEAD)
# The first npre commits are the prerequisite series (worktree.sh); the
# series proper starts at branch "prereq" (base without one).
pre=$(prereq_dirs)
npre=$(git -C "$dir" config branch.edit.prereq 2>/dev/null || echo 0)
[ -n "$pre" ] || [ "$npre" = 0 ] || die "branch.edit.prereq is $npre, but BASE $BASE has no prerequisite series"
[ "$npre" -le "$n" ] || die "branch.edit.prereq ($npre) is more than the $n commits of $dir"
git -C "$dir" branch -f prereq "HEAD~$((n - npre))"
n=$((n - npre))
od=$(override_dir)
if [ -n "$od" ]; then
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	# The prerequisite series applies unchanged to this base.
	git -C "$dir" format-patch -q --zero-commit --no-signature -o "$tmp/pre" base..prereq
	for f in "$tmp"/pre/*.patch; do
		[ -e "$f" ] || continue
		p=${f##*/}
		cmp -s <(patch_body "$f") <(patch_body "$pre/$p") ||
			die "${pre#"$TOP"/}/$p differs on $BASE: export the prerequisite series from the primary base's tree"
	done
	git -C "$dir" format-patch -q --zero-commit --no-signature -o "$tmp" prereq..HEAD
	rm -f "$od"/*.patch; mkdir -p "$od"; k=0
	for f in "$tmp"/*.patch; do
		p=${f##*/}
		[ -f "$pd/$p" ] || die "$p is not a patch of ${pd#"$TOP"/}/: export the primary series first"
		# The primary patch's subject prefix and To/Cc, this base's diff.
		if ! cmp -s <(patch_body "$f") <(patch_body "$pd/$p"); then
			{ sed '/^diff --git /,$d' "$pd/$p"; sed -n '/^diff --git /,$p' "$f"; } >"$od/$p"; k=$((k + 1))
		fi
	done
	"$TOP/scripts/series-same.sh" >/dev/null
	echo "exported $k overrides of $n patches to ${od#"$TOP"/}/"
	exit 0
fi
# write DIR BRANCH RANGE PREFIX WHAT: RANGE as DIR's series, with a cover
# letter from BRANCH's description, and its series file saying WHAT it
# applies on. The version carries over from the cover letter it replaces.
write() {
	local d=$1 br=$2 range=$3 v
	mkdir -p "$d"
	v=$(sed -nE 's/^Subject: \[[^]]* v([0-9]+) [0-9]+\/[0-9]+\].*/\1/p' "$d/0000-cover-letter.patch" 2>/dev/null) || true
	rm -f "$d"/*.patch
	if [ -n "$(git -C "$dir" rev-list "$range")" ]; then
		git -C "$dir" config "branch.$br.description" >/dev/null ||
			die "no cover letter: set it with git -C $dir branch --edit-description $br"
		# format-patch takes the description of the range's branch.
		git -C "$dir" format-patch -q --zero-commit --no-signature --cover-letter \
			--cover-from-description=subject --subject-prefix="$4" \
			--base=base -o "$d" "$range"
		# Per-patch subject prefixes (bpf for fixes, RFC, vN) and the To/Cc.
		BTT_SERIES_V=${BTT_SERIES_V:-${v:-1}} BTT_PATCHES=$d "$TOP/scripts/send-prep.sh" write
	fi
	{
		echo "# Apply in this order with git am, on top of $5."
		patch_files "$d"
	} >"$d/series"
}
on="Linux $BASE ($(cat "$CACHE/base-$BASE.version" 2>/dev/null || echo unknown))"
if [ -n "$pre" ]; then
	write "$pre" prereq base..prereq "PATCH bpf" "$on"
	echo "exported $npre patches to ${pre#"$TOP"/}"
	on="$on and ${pre#"$TOP"/}"
fi
# format-patch --base lists the prerequisite's patches as
# prerequisite-patch-id lines after the base-commit.
write "$pd" edit prereq..edit "PATCH bpf-next" "$on"
# A backport (6.12) adds other files: it is not the copies' source.
! same_series || "$TOP/scripts/copies.sh" write "$dir"
echo "exported $n patches to $pd"
