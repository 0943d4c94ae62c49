#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The series' libbpf, in its DEFAULT_BASE (7.3) form, on the unpatched
# kernel of BTT_BASE (6.12): the default base's selftests build of scripts/run.sh runs
# the kptr and user programs as the compiler emitted them
# (btf_tag_conv_kptr/_user) and converted to the attribute convention
# (btf_tag_conv_obj), which libbpf converts back for a kernel without the
# header flag. The oracle is a property: on one kernel, a program gets the
# same verdict in both forms, or a better one converted. Each program whose
# verdicts differ must be in config/BASE/libbpf-old-diffs with its reason,
# converted must be the one that passes, and each entry there must still
# differ. Needs the default base's selftests (scripts/run.sh) and BTT_BASE's
# patched kernel build (its unpatched twin is built here, incrementally).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
s=$TOP/scripts
[ "$BASE" != "$DEFAULT_BASE" ] || die "set BTT_BASE to an older base than $DEFAULT_BASE (6.12)"
kb=$(kbuild_dir)
[ -f "$kb/vmlinux" ] || die "no $BASE kernel in $kb; run BTT_BASE=$BASE scripts/run.sh first"
lkb=$(BASE=$DEFAULT_BASE kbuild_dir)
[ -x "$lkb/selftests/test_progs" ] || die "no $DEFAULT_BASE selftests in $lkb; run scripts/run.sh first"
base_kb=$(base_kernel "$kb")
out=$CACHE/libbpf-old-$BASE
rm -rf "$out"; mkdir -p "$out"
printf '%s\n' btf_tag_conv_kptr btf_tag_conv_user btf_tag_conv_obj >"$out/allow"
name=vm-old$BASE
rm -rf "$lkb/selftests/${name//./_}"
BTT_VM_NAME=${name//./_} BTT_VM_IMAGE=$base_kb/arch/x86/boot/bzImage BTT_VM_ALLOW=$out/allow \
	"$s/vmrun.sh" "$lkb" >"$out/tests.txt" || true
cp -a "$lkb/selftests/${name//./_}" "$out/vm"
grep -q "Linux version $BASE\." "$out/vm/console.log" || die "the guest did not boot the $BASE kernel, see $out/vm/console.log"
# "FLAVOUR PROGRAM ORIGINAL CONVERTED" for each program of the two tests.
for f in $(flavours objects); do
	conv_verdicts "$f" "$out/vm/$f.log"
done >"$out/verdicts"
[ -s "$out/verdicts" ] || die "no verdicts in $out/vm; see $out/tests.txt"
echo "verdicts on unpatched $BASE, libbpf of $DEFAULT_BASE: flavour program compiler's-object converted-object"
sed 's/^/  /' "$out/verdicts"
grep -E '^  (total|btf_tag_conv_obj/(convert_sanitize|load_attr|light_skel_pointee))' "$out/tests.txt" || true
list=$(base_config libbpf-old-diffs)
[ -f "$list" ] || die "no $list"
rc=0
while read -r f n o c; do
	listed=$(list_file "$list" | awk -v e="$f:$n" '$1 == "DIFF" && $2 == e' | grep -c .) || true
	if [ "$o" != "$c" ] && [ "$listed" = 0 ]; then
		echo "FAIL: $f $n is $o as compiled, $c converted, and not in ${list#"$TOP"/}"; rc=1
	elif [ "$o" != "$c" ] && [ "$c" != OK ]; then
		echo "FAIL: $f $n is $o as compiled, but $c converted: the conversion made it worse"; rc=1
	elif [ "$o" = "$c" ] && [ "$listed" != 0 ]; then
		echo "FAIL: $f $n is $o both ways, but ${list#"$TOP"/} says it differs"; rc=1
	fi
done <"$out/verdicts"
list_file "$list" | while read -r _ e; do
	f=${e%%:*} n=${e#*:}
	grep -q "^$f $n " "$out/verdicts" || { echo "FAIL: $f $n of ${list#"$TOP"/} did not run"; exit 1; }
done || rc=1
echo "libbpf-old: $(awk '$3 == $4' "$out/verdicts" | grep -c .) programs with the same verdict both ways, $(awk '$3 != $4' "$out/verdicts" | grep -c .) listed differences"
exit "$rc"
