#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One line about a built kernel's vmlinux BTF: its size, its type count, its
# TYPE_TAG records by name, and how many tags sit right before a PTR (the
# shape GCC 16 gives multi-level pointers). Usage: btfstat.sh KBUILD_DIR.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
kb=${1:?usage: btfstat.sh KBUILD_DIR}
[ -f "$kb/vmlinux" ] || die "no vmlinux in $kb"
mount_same "$kb"
size=$(in_root "$kb" "objcopy -O binary --only-section=.BTF vmlinux /dev/stdout | wc -c")
in_root "$kb" "bpftool btf dump file vmlinux" | awk -v size="$size" -v k="${kb##*/}" '
	/^\[[0-9]+\] / {
		n++
		id = substr($1, 2, length($1) - 2); kind[id] = $2
		if (match($0, /type_id=[0-9]+/)) ref[id] = substr($0, RSTART + 8, RLENGTH - 8)
		if ($2 == "TYPE_TAG") { tags++; name = $3; gsub("\047", "", name); by[name]++ }
	}
	END {
		for (id in kind)
			if (kind[id] == "TYPE_TAG" && kind[ref[id]] == "PTR") before++
		s = ""
		for (t in by) s = s sprintf(" %s %d", t, by[t])
		printf "%s: .BTF %d bytes, %d types, %d TYPE_TAG (%s ), %d of them right before a PTR\n",
			k, size, n, tags, s, before + 0
	}'
