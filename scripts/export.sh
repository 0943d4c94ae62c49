#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export an editing tree (scripts/worktree.sh) back into the series of its base
# (config/bases SERIES): format-patch output with a cover letter from the
# branch description, the series file, and for the primary base, the
# generated copies of the files the series adds under the kernel paths. For a
# base with overrides (7.2), only the patches whose context differs from
# patches/ are written, into the override dir.
# The subject prefixes and To/Cc come from scripts/send-prep.sh write; the
# version (vN) from BTT_SERIES_V or the cover letter being replaced.
# Usage: export.sh [DIR] (default $CACHE/edit-$BASE).
. "$(dirname "$0")/lib.sh"

need_tool git
dir=${1:-$CACHE/edit-$BASE}
pd=$(series_dir)
[ -e "$dir/.git" ] || die "no editing tree at $dir; run scripts/worktree.sh"
git -C "$dir" diff --quiet HEAD || die "$dir has uncommitted changes; commit them first"
n=$(git -C "$dir" rev-list --count base..HEAD)
od=$(override_dir)
if [ -n "$od" ]; then
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	git -C "$dir" format-patch -q --zero-commit --no-signature -o "$tmp" base..HEAD
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
mkdir -p "$pd"
# The version carries over from the cover letter this export replaces.
v=$(sed -nE 's/^Subject: \[[^]]* v([0-9]+) [0-9]+\/[0-9]+\].*/\1/p' "$pd/0000-cover-letter.patch" 2>/dev/null) || true
export BTT_SERIES_V=${BTT_SERIES_V:-${v:-1}}
rm -f "$pd"/*.patch
if [ "$n" -gt 0 ]; then
	git -C "$dir" config branch.edit.description >/dev/null ||
		die "no cover letter: set it with git -C $dir branch --edit-description"
	git -C "$dir" format-patch -q --zero-commit --no-signature --cover-letter \
		--cover-from-description=subject --subject-prefix="PATCH bpf-next" \
		--base=base -o "$pd" base..HEAD
	# Per-patch subject prefixes (bpf for fixes, RFC, vN) and the To/Cc.
	BTT_PATCHES=$pd "$TOP/scripts/send-prep.sh" write
fi
{
	echo "# Apply in this order with git am, on top of Linux $BASE ($(cat "$CACHE/base-$BASE.version" 2>/dev/null || echo unknown))."
	patch_files "$pd"
} >"$pd/series"
# A backport (6.12) adds other files: it is not the copies' source.
! same_series || "$TOP/scripts/copies.sh" write "$dir"
echo "exported $n patches to $pd"
