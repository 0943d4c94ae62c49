#!/usr/bin/env bash
# Boot a built kernel in qemu and run both selftest flavours in it.
# Usage: vmrun.sh KBUILD_DIR. Leaves results and the console log in
# KBUILD_DIR/selftests/vm/ and prints the report (scripts/report.py).
# BTT_VM_IMAGE boots another kernel image with the same selftests, and
# BTT_VM_PLAN and BTT_VM_ALLOW replace the plan and the allow list.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
need_tool qemu-system-x86_64
kb=${1:?usage: vmrun.sh KBUILD_DIR}
st=$kb/selftests
img=${BTT_VM_IMAGE:-$kb/arch/x86/boot/bzImage}
[ -f "$img" ] || die "no kernel image at $img"
[ -x "$st/test_progs" ] && [ -x "$st/test_progs-bpf_gcc" ] || die "no selftests in $st; run scripts/stbuild.sh"
timeout=${BTT_VM_TIMEOUT:-1200}
v=$st/vm
rm -rf "$v"
mkdir -p "$v"

install -m 755 "$TOP/scripts/guest-init" "$ROOT/btt-init"
list_file "${BTT_VM_ALLOW:-$TOP/config/selftests.list}" >"$v/allow"
for f in clang clang23; do cp "$TOP/config/DENYLIST" "$v/deny.$f"; done
cat "$TOP/config/DENYLIST" "$TOP/config/DENYLIST.bpf_gcc" >"$v/deny.gcc"
if [ -n "${BTT_VM_PLAN:-}" ]; then
	cp "$BTT_VM_PLAN" "$v/plan"
else
	printf '%s\n' "clang /mnt/st ./test_progs" "gcc /mnt/st ./test_progs-bpf_gcc" >"$v/plan"
	[ ! -x "$st/clang23/test_progs" ] || echo "clang23 /mnt/st/clang23 ./test_progs" >>"$v/plan"
fi

# qemu ACCEL CONSOLE_LOG TIMEOUT: boot once; the status is timeout's.
boot() {
	timeout "$3" qemu-system-x86_64 -accel "$1" -cpu max -smp 2 -m 2G \
		-display none -serial file:"$2" -monitor none -no-reboot \
		-kernel "$img" \
		-append "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro init=/btt-init panic=-1 oops=panic" \
		-fsdev local,id=rootfs,path="$ROOT",security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=rootfs,mount_tag=/dev/root \
		-fsdev local,id=st,path="$st",security_model=none,multidevs=remap \
		-device virtio-9p-pci,fsdev=st,mount_tag=st
}

# Nested KVM exists here but may hang: trust it only after a bounded boot.
accel=tcg
if [ -w /dev/kvm ]; then
	probe=$CACHE/kvm-probe
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	if [ "$(head -n1 "$probe" 2>/dev/null)" != "$boot_id" ]; then
		note "probing KVM with a bounded boot"
		: >"$v/plan.probe"; mv "$v/plan" "$v/plan.real"; mv "$v/plan.probe" "$v/plan"
		res=tcg
		if boot kvm "$v/kvm-probe.log" 60 >/dev/null 2>&1 && grep -q 'btt-init: end' "$v/kvm-probe.log"; then
			res=kvm
		fi
		mv "$v/plan.real" "$v/plan"
		printf '%s\n%s\n' "$boot_id" "$res" >"$probe"
	fi
	accel=$(sed -n 2p "$probe")
fi

note "booting $img under $accel"
t0=$(date +%s)
rc=0
boot "$accel" "$v/console.log" "$timeout" || rc=$?
echo "vm: $accel, $(($(date +%s) - t0))s, qemu status $rc"
if [ "$rc" = 124 ]; then
	echo "vm: guest timed out after ${timeout}s; console log kept at $v/console.log" >&2
fi
python3 "$TOP/scripts/report.py" "$v" "$TOP/config" "$rc"
