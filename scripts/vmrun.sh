#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a built kernel in qemu and run every object flavour's test_progs in it.
# Usage: vmrun.sh KBUILD_DIR. Leaves results and the console log in
# KBUILD_DIR/selftests/BTT_VM_NAME (default "vm"; BTT_ST names another selftests
# dir), copies them to BTT_VM_DIR
# if set, and prints the report
# (scripts/report.py), checked by name against the cell's expected results
# (config/bases EXPECTED, KCC.FLAVOUR) unless one of the variables below
# changes the run. BTT_VM_WATCHDOG sets test_progs'
# watchdog (seconds), BTT_VM_KMODS replaces the test modules, BTT_VM_DENY adds
# a deny list. BTT_VM_IMAGE boots another kernel image with the same
# selftests, BTT_VM_PLAN and BTT_VM_ALLOW replace the plan and the allow list.
# BTT_VM_CONSOLE=1 streams the guest console; BTT_VM_SHELL=1 gives a guest
# shell on this terminal when a run fails (no timeout then).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
need_tool qemu-system-x86_64
kb=${1:?usage: vmrun.sh KBUILD_DIR}
st=$kb/${BTT_ST:-selftests}
img=${BTT_VM_IMAGE:-$kb/arch/x86/boot/bzImage}
[ -f "$img" ] || die "no kernel image at $img"
for f in $(flavours objects); do
	b=$st/$(flavour objects "$f" 1)/$(flavour objects "$f" 2)
	[ -x "$b" ] || die "no $b; run scripts/stbuild.sh"
done
timeout=${BTT_VM_TIMEOUT:-1200}
# The guest sees the selftests dir as /mnt/st and writes into
# /mnt/st/$BTT_VM_NAME: a result dir elsewhere is a copy made at the end.
vm_name=${BTT_VM_NAME:-vm}
[[ $vm_name =~ ^vm[A-Za-z0-9_-]*$ ]] || die "BTT_VM_NAME must be a plain name starting with 'vm', not '$vm_name'"
shell=
if flag "${BTT_VM_SHELL:-}"; then
	if [ -t 0 ] && [ -t 1 ]; then shell=shell
	else note "BTT_VM_SHELL ignored: no terminal (run scripts/btt vmrun KBUILD from a terminal)"; fi
fi
if [ -n "${BTT_VM_DIR:-}" ] && [ -e "$BTT_VM_DIR" ] && [ -n "$(ls -A "$BTT_VM_DIR")" ] &&
	[ ! -e "$BTT_VM_DIR/console.log" ]; then
	die "BTT_VM_DIR=$BTT_VM_DIR is a non-empty folder that holds no VM results; not replacing it"
fi
v=$st/$vm_name
# Two runs with one result dir would delete each other's results (a smoke
# fuzz run once removed a long one's): the second one stops here.
need_tool flock
exec 9>"$v.lock"
flock -n 9 || die "another VM run is using $v; wait for it or set BTT_VM_NAME"
rm -rf "$v"
mkdir -p "$v"

install -m 755 "$TOP/scripts/guest-init" "$ROOT/btt-init"
cp "$kb/.config" "$v/kconfig"
list_tests "${BTT_VM_ALLOW:-$(base_config selftests.list)}" "$st" >"$v/allow"
# BTT_VM_KMODS: a dir under the selftests dir whose *.ko the guest mounts over
# the flavours' own (lib.sh base_kmods: modules for the base kernel).
if [ -n "${BTT_VM_KMODS:-}" ]; then
	[ -n "$(ls "$st/$BTT_VM_KMODS"/*.ko 2>/dev/null)" ] || die "BTT_VM_KMODS: no modules in $st/$BTT_VM_KMODS"
	echo "$BTT_VM_KMODS" >"$v/kmods"
fi
# BTT_VM_WATCHDOG: test_progs kills a test after this many seconds (its default 120).
if [ -n "${BTT_VM_WATCHDOG:-}" ]; then
	[[ $BTT_VM_WATCHDOG =~ ^[1-9][0-9]*$ ]] || die "BTT_VM_WATCHDOG must be a number of seconds, not '$BTT_VM_WATCHDOG'"
	echo "$BTT_VM_WATCHDOG" >"$v/watchdog"
fi
# BTT_VM_DENY: another deny list, "[FLAVOUR:]TEST[/SUBTEST]  # reason" lines.
[ -z "${BTT_VM_DENY:-}" ] || [ -f "$BTT_VM_DENY" ] || die "BTT_VM_DENY: no file $BTT_VM_DENY"
for f in $(flavours objects); do
	{
		for d in $(flavour objects "$f" 5 | tr , ' '); do cat "$(base_config "$d")"; done
		[ -z "${BTT_VM_DENY:-}" ] || awk -v f="$f" -v all="$(flavours objects | paste -sd' ')" '
			BEGIN { n = split(all, a, " "); for (i = 1; i <= n; i++) fl[a[i]] = 1 }
			match($0, /^[a-z0-9_]+:/) && (substr($0, 1, RLENGTH - 1) in fl) {
				if (substr($0, 1, RLENGTH - 1) == f) print substr($0, RLENGTH + 1); next }
			{ print }' "$BTT_VM_DENY"
	} >"$v/deny.$f"
done
# The expected results of each cell (scripts/report.py), for the full run of
# this kernel's own image only: VM/cell names the cell ("BASE KCC
# EXPECTED_DIR", for scripts/bless.py), VM/expected.FLAVOUR holds its
# expanded expected results (none yet: report.py says to bless the run).
kcc=$(cat "$kb/.kcc" 2>/dev/null) || kcc=
if [ -z "${BTT_VM_PLAN:-}${BTT_VM_ALLOW:-}${BTT_VM_IMAGE:-}${BTT_VM_KMODS:-}${BTT_VM_DENY:-}" ] && [ -n "$kcc" ]; then
	echo "$BASE $kcc $(base_field EXPECTED)" >"$v/cell"
	for f in $(flavours objects); do
		e=$(expected_dir)/$kcc.$f
		[ ! -f "$e" ] || python3 "$TOP/scripts/expected.py" expand "$e" >"$v/expected.$f" ||
			die "bad expected results in $e"
	done
fi
if [ -n "${BTT_VM_PLAN:-}" ]; then
	cp "$BTT_VM_PLAN" "$v/plan"
else
	for f in $(flavours objects); do
		plan_line "$f"
	done >"$v/plan"
fi

# boot ACCEL CONSOLE_LOG TIMEOUT [shell]: boot once; the status is timeout's.
# The sid root is shared read-only; the selftests dir, which the guest writes,
# with security_model=mapped-xattr: the guest's owners, modes and special
# files are xattrs of plain files here, so its root cannot make a file that
# acts as root's on the host (a setuid binary, a device node).
# With "shell" the serial line is this terminal (and still logged), and the
# guest gives a shell there when a run fails.
boot() {
	local serial=(-serial file:"$2") shell= t=(timeout --foreground "$3")
	if [ "${4:-}" = shell ]; then
		serial=(-chardev stdio,id=s0,logfile="$2",signal=off -serial chardev:s0)
		shell=btt.shell t=()
	fi
	"${t[@]}" qemu-system-x86_64 -accel "$1" -cpu max -smp 2 -m 2G \
		-display none "${serial[@]}" -monitor none -no-reboot \
		-kernel "$img" \
		-append "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro init=/btt-init panic=-1 oops=panic btt.vm=$vm_name $shell" \
		-fsdev local,id=rootfs,path="$ROOT",security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=rootfs,mount_tag=/dev/root \
		-fsdev local,id=st,path="$st",security_model=mapped-xattr,multidevs=remap \
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
: >"$v/console.log"
tailpid=
if flag "${BTT_VM_CONSOLE:-}" && [ -z "$shell" ]; then
	tail --pid=$$ -n +1 -f "$v/console.log" >&2 &
	tailpid=$!
fi
progress='guest_progress "$v"'
if [ -n "$shell" ]; then
	boot "$accel" "$v/console.log" "$timeout" shell || rc=$?
else
	with_progress vm "$v/qemu.log" "$progress" boot "$accel" "$v/console.log" "$timeout" || rc=$?
fi
[ -z "$tailpid" ] || kill "$tailpid" 2>/dev/null || true
echo "vm: $accel, $(($(date +%s) - t0))s, qemu status $rc"
if [ "$rc" = 124 ]; then
	echo "vm: guest timed out after ${timeout}s; console log kept at $v/console.log" >&2
fi
rep=0
python3 "$TOP/scripts/report.py" "$v" "$TOP/config" "$rc" || rep=$?
if [ -n "${BTT_VM_DIR:-}" ]; then
	rm -rf "$BTT_VM_DIR"; mkdir -p "$(dirname "$BTT_VM_DIR")"; cp -a "$v" "$BTT_VM_DIR"
fi
exit "$rep"
