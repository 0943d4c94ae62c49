#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make an editing tree: a git worktree of the base with the series as commits
# on branch "edit". Usage: worktree.sh [DIR] (default $CACHE/edit-$BASE).
# Edit, commit (git add -f for new files: Debian's .gitignore ignores "/*"),
# rebase -i as usual, then run scripts/export.sh DIR. The first commits are
# the prerequisite series (config/bases PREREQ); git config branch.edit.prereq
# holds their number (change it when you add or drop one of them).
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
# describe BRANCH COVER: the cover letter travels as a branch description:
# its subject (unfolded) and body, up to the shortlog's "Author (N):" line.
describe() {
	[ -f "$2" ] || return 0
	awk '/^Subject: / { s = $0; sub(/^Subject: \[[^]]*\] /, "", s); hdr = 1; next }
	     hdr && /^ / { s = s $0; next }
	     hdr { print s; print ""; hdr = 0; body = 1; next }
	     body && /^[^ ].* \([0-9]+\):$/ { exit }
	     body { print }' "$2" >"$dir/.git-desc"
	[ ! -s "$dir/.git-desc" ] || git -C "$dir" config "branch.$1.description" "$(cat "$dir/.git-desc")"
	rm -f "$dir/.git-desc"
}
describe edit "$(series_dir)/0000-cover-letter.patch"
# The first "prereq" commits are the prerequisite series (config/bases
# PREREQ; export.sh writes them back there), described as branch "prereq".
pre=$(prereq_dirs)
[ "$(echo "$pre" | grep -c .)" -le 1 ] || die "worktree.sh handles one prerequisite series, not: $pre"
k=0
if [ -n "$pre" ]; then
	k=$(list_file "$pre/series" | wc -l)
	describe prereq "$pre/0000-cover-letter.patch"
fi
git -C "$dir" config branch.edit.prereq "$k"
echo "editing tree: $dir (branch edit, $(git -C "$dir" rev-list --count base..HEAD) patches${pre:+, the first $k from ${pre#"$TOP"/}})"
