#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make an editing tree: a git worktree of the base with the series as commits
# on branch "edit". Usage: worktree.sh [DIR] (default $CACHE/edit-$BASE).
# Edit, commit (git add -f for new files: Debian's .gitignore ignores "/*"),
# rebase -i as usual, then run scripts/export.sh DIR.
. "$(dirname "$0")/lib.sh"

need_tool git
src=$CACHE/linux-$BASE
dir=${1:-$CACHE/edit-$BASE}
[ -d "$src/.git" ] || die "no base tree at $src; run scripts/base.sh"
if [ -e "$dir" ]; then
	echo "$dir exists already; export it with scripts/export.sh $dir, or remove it with git -C $src worktree remove $dir"
	exit 0
fi
git -C "$src" worktree add -q -f -B edit "$dir" base
# Commits made here carry the project's git identity, not the base tree's.
git -C "$src" config extensions.worktreeConfig true
for k in user.name user.email; do
	v=$(git -C "$TOP" config "$k") || die "no git $k configured for $TOP"
	git -C "$dir" config --worktree "$k" "$v"
done
BTT_TREE=$dir BTT_BRANCH=edit "$TOP/scripts/apply.sh" >/dev/null
# The cover letter travels as the branch description.
cover=$(series_dir)/0000-cover-letter.patch
if [ -f "$cover" ]; then
	# Subject (unfolded) and body, up to the shortlog's "Author (N):" line.
	awk '/^Subject: / { s = $0; sub(/^Subject: \[[^]]*\] /, "", s); hdr = 1; next }
	     hdr && /^ / { s = s $0; next }
	     hdr { print s; print ""; hdr = 0; body = 1; next }
	     body && /^[^ ].* \([0-9]+\):$/ { exit }
	     body { print }' "$cover" >"$dir/.git-desc"
fi
if [ -s "$dir/.git-desc" ]; then
	git -C "$dir" config branch.edit.description "$(cat "$dir/.git-desc")"
fi
rm -f "$dir/.git-desc"
echo "editing tree: $dir (branch edit, $(git -C "$dir" rev-list --count base..HEAD) patches)"
