#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The override patches of every base whose series is patches/ with overrides
# (config/bases SERIES "patches/7.2,patches") make the changes of the primary
# series' patches of the same name: the same commit message and added and
# removed lines; context, hunk offsets and index lines may differ. An override
# that makes no other context either is not needed and is named too. Needs
# no tree. Usage: series-same.sh [DIR] (a copy of patches/, default patches/).
. "$(dirname "$0")/lib.sh"

top=${1:-$TOP/patches}
# changes PATCH: the message and the +/- lines, without dates and blob ids.
changes() {
	awk '/^diff --git / { d = 1 } !d && !/^(From [0-9a-f]+ |Date: |index )/ { print; next }
	     d && /^[-+]/ && !/^(\+\+\+|---)( |$)/ { print }' "$1" | sed -n '/^Subject: /,$p'
}
for b in $(list_file "$BASES" | awk '$6 ~ /,patches$/ { print $1 }'); do
	o=$(BASE=$b base_field SERIES)
	o=${o%%,*}
	o=$top/${o#patches/}
	n=0
	for p in $(patch_files "$o"); do
		[ -f "$top/$p" ] || die "${o#"$TOP"/}/$p overrides no patch of ${top#"$TOP"/}/"
		d=$(diff <(changes "$top/$p") <(changes "$o/$p") | grep '^[<>]' | head -n 2 | paste -sd' ') || true
		[ -z "$d" ] || die "${o#"$TOP"/}/$p makes other changes than ${top#"$TOP"/}/$p: $d"
		! cmp -s <(patch_body "$top/$p") <(patch_body "$o/$p") || die "${o#"$TOP"/}/$p has the context of ${top#"$TOP"/}/$p: not an override"
		n=$((n + 1))
	done
	echo "series: base $b takes ${top#"$TOP"/}/ with $n overrides from ${o#"$TOP"/}/, each making the same changes"
done
