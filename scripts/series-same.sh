#!/usr/bin/env bash
# The series in DIR/BASE/ for each BASE of config/series-same make the changes
# of the primary series in DIR (default patches/): the same patch files,
# commit messages and added and removed lines; context, hunk offsets and
# index lines may differ. Needs no tree.
. "$(dirname "$0")/lib.sh"

top=${1:-$TOP/patches}
# changes PATCH: the message and the +/- lines, without dates and blob ids.
changes() {
	awk '/^diff --git / { d = 1 } !d && !/^(From [0-9a-f]+ |Date: |index )/ { print; next }
	     d && /^[-+]/ && !/^(\+\+\+|---)( |$)/ { print }' "$1" | sed -n '/^Subject: /,$p'
}
for b in $(list_file "$TOP/config/series-same" | awk '{ print $1 }'); do
	o=$top/$b
	[ "$(patch_files "$o")" = "$(patch_files "$top")" ] ||
		die "${o#"$TOP"/}/ does not have the patch files of ${top#"$TOP"/}/"
	for p in $(patch_files "$top"); do
		d=$(diff <(changes "$top/$p") <(changes "$o/$p") | grep '^[<>]' | head -n 2 | paste -sd' ') || true
		[ -z "$d" ] || die "${o#"$TOP"/}/$p makes other changes than ${top#"$TOP"/}/$p: $d"
	done
	echo "series: ${o#"$TOP"/}/ makes the changes of ${top#"$TOP"/}/ ($(patch_files "$o" | grep -c .) patches)"
done
