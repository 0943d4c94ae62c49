#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Check the series of BTT_BASE (config/bases SERIES): the series file matches
# the patch files, the cover letter is filled in, every patch applies
# (scripts/apply.sh; a prerequisite series of config/bases PREREQ also alone), checkpatch --strict is clean on every patch (on a base
# with overrides: on its overrides, the rest are the primary series'), the
# kernel-path copies are identical (not for a backport, whose series adds
# other files) and the overrides make the primary series' changes.
. "$(dirname "$0")/lib.sh"

pd=$(series_dir)
src=$CACHE/linux-$BASE
od=$(override_dir)
# Each series dir: the prerequisite series (config/bases PREREQ) and the
# series itself.
for d in $(prereq_dirs) "$pd"; do
	listed=$(list_file "$d/series")
	files=$(patch_files "$d")
	[ "$listed" = "$files" ] || die "${d#"$TOP"/}/series does not list exactly the patch files in ${d#"$TOP"/}/, in order"
	if [ -n "$files" ]; then
		[ -f "$d/0000-cover-letter.patch" ] || die "${d#"$TOP"/} has no cover letter"
		! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$d/0000-cover-letter.patch" ||
			die "the cover letter of ${d#"$TOP"/} is still git's template"
	fi
done
"$TOP/scripts/apply.sh"
# The prerequisite series also apply alone (they are mailed to another tree).
mapfile -t pre < <(prereq_patches)
if [ ${#pre[@]} -gt 0 ]; then
	base_worktree "$src" "$src.prereq"
	git -C "$src.prereq" am --abort >/dev/null 2>&1 || true
	git -C "$src.prereq" checkout -q -f --detach base
	for p in "${pre[@]}"; do
		out=$(git -C "$src.prereq" am -q "$p" 2>&1) ||
			die "${p#"$TOP"/} does not apply to $BASE without the series: $out"
	done
	echo "$(prereq_dirs | sed "s|^$TOP/||" | paste -sd' '): ${#pre[@]} patches apply alone on $(git -C "$src" log -1 --format=%s base)"
fi
need_sid_root
mount_same "$TOP"
# checkpatch: every patch of the primary base's series dirs; a base with
# overrides, only its overrides (the rest are the primary's).
if [ -n "$od" ]; then
	files=$(patch_files "$od" | sed "s|^|$od/|")
else
	files=$(for d in $(prereq_dirs) "$pd"; do patch_files "$d" | sed "s|^|$d/|"; done)
fi
bad=0
all_ign=$(list_file "$TOP/config/checkpatch.series-ignore" | awk '{ print $1 }' | paste -sd, -)
ign=$all_ign,$(list_file "$TOP/config/checkpatch.selftests-ignore" | awk '{ print $1 }' | paste -sd, -)
for f in $files; do
	p=${f##*/}
	opt=(--ignore "$all_ign")
	# Selftest-only patches: the documented exceptions, nothing else.
	if ! grep '^diff --git ' "$f" | grep -qv ' a/tools/testing/selftests/bpf/'; then
		opt=(--ignore "$ign")
	fi
	# In the sid root: its python3 has ply, which checkpatch's SPDX check needs.
	if ! out=$(in_root "$src" "perl scripts/checkpatch.pl --strict --quiet --no-summary ${opt[*]} $f" 2>&1); then
		echo "checkpatch --strict: $p"; echo "$out"; bad=1
	fi
done
[ "$bad" = 0 ] || die "checkpatch found problems"
echo "checkpatch --strict: $(echo "$files" | grep -c . || true) ${od:+override }patches clean"
if same_series; then
	"$TOP/scripts/copies.sh" check "$src"
else
	echo "copies: not checked, patches/$BASE is a backport with files of its own"
fi

"$TOP/scripts/series-same.sh"
