#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Verifier cost, base vs patched kernel: veristat on the series' kptr and
# user-pointer objects and the kptr-related upstream objects of the subset,
# in every object flavour, on the unpatched base kernel and on the patched
# one. Each kernel runs with bpf_testmod built for it (lib.sh base_kmods),
# so that the programs that call its kfuncs load on both. scripts/vcostcmp.py
# lists every program that base accepts whose processed instructions or
# states differ, and fails on any that config/vcost-diffs does not explain.
# Needs scripts/run.sh to have built the patched kernel and the selftests.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
kb=$(kbuild_dir)
st=$kb/selftests
[ -x "$st/veristat" ] || die "no veristat in $st; run scripts/run.sh first"
base_kb=$(base_kmods "$kb")
out=$CACHE/vcost-$BASE
rm -rf "$out"; mkdir -p "$out"
objs=$(list_file "$(base_config vcost-objects)" | awk '{ print $1 ".bpf.o" }')
for f in $(flavours objects); do
	d=$(flavour objects "$f" 3)
	for o in $objs; do
		[ -f "$st/$d/$o" ] || die "no $d/$o in $st (config/vcost-objects)"
	done
done
{
	echo "kmod /mnt/st /usr/sbin/insmod bpf_testmod.ko"
	for f in $(flavours objects); do
		# shellcheck disable=SC2086 # one word per object
		echo "vs-$f /mnt/st/$(flavour objects "$f" 3) /mnt/st/veristat -o csv -e file,prog,verdict,insns,states" $objs
	done
} >"$out/plan"
for k in base patched; do
	img=$kb/arch/x86/boot/bzImage
	[ "$k" = base ] && img=$base_kb/arch/x86/boot/bzImage
	note "veristat on the $k kernel"
	kmods=
	[ "$k" = patched ] || kmods=kmods-base
	rm -rf "$st/vm-vcost-$k"
	BTT_VM_NAME=vm-vcost-$k BTT_VM_IMAGE=$img BTT_VM_PLAN=$out/plan BTT_VM_KMODS=$kmods \
		"$TOP/scripts/vmrun.sh" "$kb" >"$out/vm-$k.txt" 2>&1 || true
	[ "$(cat "$st/vm-vcost-$k/kmod.rc" 2>/dev/null)" = 0 ] ||
		die "bpf_testmod did not load on the $k kernel: $(cat "$st/vm-vcost-$k/kmod.log" 2>/dev/null)"
	for f in $(flavours objects); do
		cp "$st/vm-vcost-$k/vs-$f.log" "$out/$k-$f.csv" 2>/dev/null || : >"$out/$k-$f.csv"
	done
done
python3 "$TOP/scripts/vcostcmp.py" "$out" "$(base_config vcost-diffs)" $(flavours objects)
