#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# "bpftool btf convert" of the series, on the kptr test object as each
# compiler built it: to the attribute convention and back, what "btf dump"
# shows, and bad input. Prints "ok - ..." or "FAIL - ..." per check.
# Usage: bpftool-check.sh KBUILD_DIR (after scripts/stbuild.sh).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
kb=${1:?usage: bpftool-check.sh KBUILD_DIR}
st=$kb/selftests
[ -x "$st/bpftool" ] || die "no bpftool in $st; run scripts/stbuild.sh"
# Only objects built by this run: stbuild.sh stamps the dir with BTT_RUN when
# it succeeds, and removes the stamp when it starts.
built=$(cat "$st/.built" 2>/dev/null) || die "the selftests in $st are not completely built; run scripts/stbuild.sh"
[ -z "${BTT_RUN:-}" ] || [ "$built" = "$BTT_RUN" ] ||
	die "the selftests in $st were built by run $built, not by this run ($BTT_RUN)"
mount_same "$kb"
tmp=$st/bpftool-check
rm -rf "$tmp"; mkdir -p "$tmp"
bt() { in_root "$st" "./bpftool $*"; }
check() { if eval "$2"; then echo "ok - $1"; else echo "FAIL - $1"; fi; }
# btfq WHAT FILE, on FILE's raw "btf dump":
#   before, after: how many kptr tags sit in front of, or right after, a PTR;
#   chains: "member chain" for each member of struct map_value, e.g.
#   "td D:kp_t>P>T:kptr_untrusted>task_struct".
btfq() {
	python3 - "$@" <<'PY'
import re, sys
what, types, members, cur = sys.argv[1], {}, {}, None
for line in open(sys.argv[2]):
    m = re.match(r"\[(\d+)\] (\w+) '([^']*)'(?:.*?type_id=(\d+))?", line)
    if m:
        types[m[1]] = (m[2], m[3], m[4])
        cur = m[1] if m[2] == "STRUCT" and m[3] == "map_value" else None
        continue
    m = re.match(r"\s+'(\w+)' type_id=(\d+)", line)
    if m and cur:
        members[m[1]] = m[2]
kind = lambda i: types.get(i, (None,))[0]
kptr = lambda i: kind(i) == "TYPE_TAG" and types[i][1].startswith("kptr")
if what == "before":
    sys.exit(print(sum(1 for i, t in types.items() if kptr(i) and kind(t[2]) == "PTR")))
if what == "after":
    sys.exit(print(sum(1 for i, t in types.items() if kind(i) == "PTR" and kptr(t[2]))))
short = {"PTR": "P", "CONST": "C", "VOLATILE": "V", "RESTRICT": "R"}
for name, tid in sorted(members.items()):
    out = []
    while tid in types and len(out) < 16:
        k, tname, ref = types[tid]
        if k in short:
            out.append(short[k])
        elif k == "TYPE_TAG":
            out.append("T:" + tname)
        elif k == "TYPEDEF":
            out.append("D:" + tname)
        else:
            out.append(tname)  # STRUCT and FWD alike: GCC prunes to FWD
            break
        tid = ref
    print(name, ">".join(out))
PY
}

for c in $(flavours objects); do
	o=$(flavour objects "$c" 3)/btf_tag_conv_kptr.bpf.o
	[ -f "$st/$o" ] || { echo "FAIL - $c: no $o"; continue; }
	a=bpftool-check/$c-attr.o p=bpftool-check/$c-pointee.o
	check "$c: convert to attribute" "bt btf convert $o $a convention attribute"
	bt btf dump file "$a" >"$tmp/$c-attr.txt" 2>&1
	check "$c: attribute dump names its convention" \
		"head -n1 $tmp/$c-attr.txt | grep -qx 'type tag convention: attribute'"
	check "$c: attribute object has kptr tags before the PTR only" \
		"[ \$(btfq before $tmp/$c-attr.txt) -ge 1 ] && [ \$(btfq after $tmp/$c-attr.txt) = 0 ]"
	check "$c: JSON dump names the convention" \
		"bt -j btf dump file $a | grep -q '\"type_tag_convention\":\"attribute\"'"
	check "$c: convert back to pointee" "bt btf convert $a $p convention pointee"
	bt btf dump file "$p" >"$tmp/$c-pointee.txt" 2>&1
	check "$c: pointee dump has no convention line" "! grep -q 'type tag convention' $tmp/$c-pointee.txt"
	check "$c: pointee object has kptr tags after the PTR only" \
		"[ \$(btfq after $tmp/$c-pointee.txt) -ge 1 ] && [ \$(btfq before $tmp/$c-pointee.txt) = 0 ]"
	# The output may be the input: it is replaced only once converted.
	cp "$st/$o" "$tmp/$c-inplace.o"
	check "$c: convert in place" \
		"bt btf convert bpftool-check/$c-inplace.o bpftool-check/$c-inplace.o convention attribute"
	bt btf dump file "bpftool-check/$c-inplace.o" >"$tmp/$c-inplace.txt" 2>&1
	check "$c: converted in place, a valid attribute object" \
		"head -n1 $tmp/$c-inplace.txt | grep -qx 'type tag convention: attribute' &&
		 diff -q $tmp/$c-attr.txt $tmp/$c-inplace.txt >/dev/null"
done
# A header dumped from the attribute-convention object, compiled back by
# each compiler and converted to the attribute convention, gives the same
# map_value chains.
a=bpftool-check/$(flavours objects | head -n1)-attr.o
bt btf dump file "$a" >"$tmp/orig.txt"
btfq chains "$tmp/orig.txt" >"$tmp/orig.chains"
bt btf dump file "$a" format c >"$tmp/rt.h"
printf '#include "rt.h"\nstruct map_value rt_value;\n' >"$tmp/rt.c"
for cc in "clang:clang -std=gnu11 -g -O2 --target=bpf" "clang-23:clang-23 -std=gnu11 -g -O2 --target=bpf" \
	"bpf-gcc:bpf-gcc -std=gnu11 -gbtf -O2"; do
	n=${cc%%:*}
	check "$n: header of attribute BTF compiles" \
		"in_root $st 'cd bpftool-check && ${cc#*:} -c rt.c -o rt-$n.o' >$tmp/rt-$n.log 2>&1"
	bt btf convert "bpftool-check/rt-$n.o" "bpftool-check/rt-$n-attr.o" convention attribute \
		>/dev/null 2>&1 || true
	bt btf dump file "bpftool-check/rt-$n-attr.o" >"$tmp/rt-$n.txt" 2>/dev/null || true
	btfq chains "$tmp/rt-$n.txt" >"$tmp/rt-$n.chains"
	check "$n: compiled back into the same chains" \
		"[ -s $tmp/orig.chains ] && diff $tmp/orig.chains $tmp/rt-$n.chains >$tmp/rt-$n.diff"
done

# refused MSG ARGS...: bpftool ARGS exits non-zero and says MSG.
refused() {
	local msg=$1 out; shift
	! out=$(bt "$@" 2>&1) && grep -qF "$msg" <<<"$out"
}
check "unknown convention is refused" \
	"refused \"unknown type tag convention 'bogus'\" btf convert btf_tag_conv_kptr.bpf.o bpftool-check/x.o convention bogus"
check "missing input is reported" \
	"refused 'failed to open' btf convert bpftool-check/none.o bpftool-check/x.o convention pointee"
check "an ELF file that is not a BPF object is named as such" \
	"refused 'is an ELF file for machine 62, not a BPF object' btf convert /usr/bin/true bpftool-check/x.o convention pointee"
# A conversion that fails leaves an existing output as it was, and no
# temporary file: an ELF file that is not a BPF object.
cp "$tmp/$(flavours objects | head -n1)-attr.o" "$tmp/keep.o"
check "a failed conversion keeps the output" \
	"! bt btf convert /usr/bin/true bpftool-check/keep.o convention pointee >/dev/null 2>&1 &&
	 cmp -s $tmp/keep.o $tmp/$(flavours objects | head -n1)-attr.o &&
	 [ -z \"\$(ls $tmp | grep '^keep.o.')\" ]"
