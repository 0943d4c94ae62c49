#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Compare the base kernel with the patched one in the VM:
#  1. the series' own selftests on the base kernel (what 7.2.y lacks), and
#  2. BPF_BTF_LOAD of the running kernel's vmlinux BTF, base and patched
#     boots interleaved, printing the ratio of the medians; and the cost of
#     a long shared chain: BTF with LEN structs sharing a LEN-long chain,
#     for LEN and 2*LEN (BTT_BENCH_CHAIN, default 3000), and BTF with N
#     structs holding a kptr to a FWD, for N and 2*N (BTT_BENCH_FWD, default
#     2000), whose load-time ratios must stay at most 2.2 (linear) on both
#     kernels.
# Needs scripts/run.sh to have built the patched kernel and the selftests.
# BTT_BENCH_BOOTS (default 4) boots per kernel, BTT_BENCH_LOADS (10) per boot.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
s=$TOP/scripts
kb=$(kbuild_dir)
st=$kb/selftests
[ -x "$st/test_progs" ] || die "no patched build in $kb; run scripts/run.sh first"
base_kb=$(base_kmods "$kb")
base_img=$base_kb/arch/x86/boot/bzImage
out=$CACHE/basecmp-$BASE
rm -rf "$out"; mkdir -p "$out"

# 1. The series' tests (the selftests.list entries named btf_tag_conv*), both
#    flavours: vmrun.sh's own plan.
list_file "$(base_config selftests.list)" | awk '/^btf_(tag_conv|kptr_chains)/ { print $1 }' >"$out/allow"
# Its own result dir: the patched kernel's results in $st/vm stay.
rm -rf "$kb/selftests/vm-base"
BTT_VM_NAME=vm-base BTT_VM_IMAGE=$base_img BTT_VM_KMODS=kmods-base BTT_VM_ALLOW=$out/allow "$s/vmrun.sh" "$kb" >"$out/base-tests.txt" || true
for f in $(flavours objects); do cp "$st/vm-base/$f.log" "$out/base-$f.log"; done
echo "series' tests on the base kernel:"
grep -E '^  (btf_tag_conv|flavour)|^flavour' "$out/base-tests.txt" || true
cp -a "$st/vm-base" "$out/vm-base"
# What fails there is a fixed list, config/basecmp-fails: a series test
# that passes on the base kernel where the list says it fails tests nothing
# of the series, and one that fails there unlisted fails for another
# reason. Either fails this script (after the benchmark).
rc=0
python3 "$s/basefails.py" "$out" "$(base_config basecmp-fails)" $(flavours objects) || rc=1
# The kptr and user programs as the compiler emitted them, and converted to
# the attribute convention (which libbpf converts back for this kernel).
echo "verdicts on the base kernel: compiler's object / attribute-converted object"
for f in $(flavours objects); do
	conv_verdicts "$f" "$out/base-$f.log" |
		awk '{ printf "  %-6s %-20s %-5s %s\n", $1, $2, $3, ($4 == "none" ? "" : $4) }'
done

# 2. The benchmark (BTT_BENCH_BOOTS=0: none).
if [ "${BTT_BENCH_BOOTS:-4}" = 0 ]; then
	echo "benchmark: not run (BTT_BENCH_BOOTS=0)"
	exit "$rc"
fi
# Each script has its own mounts (lib.sh): bind the build dir here too.
mount_same "$kb"
in_root "$TOP" "gcc -O2 -Wall -o $st/btf-load-bench scripts/btf-load-bench.c"
chain=${BTT_BENCH_CHAIN:-3000}
fwd=${BTT_BENCH_FWD:-2000}
{
	echo "bench /mnt/st ./btf-load-bench ${BTT_BENCH_LOADS:-10}"
	echo "chain /mnt/st ./btf-load-bench chain ${BTT_BENCH_LOADS:-10} $chain"
	echo "fwd /mnt/st ./btf-load-bench fwd ${BTT_BENCH_LOADS:-10} $fwd"
} >"$out/bench-plan"
for i in $(seq "${BTT_BENCH_BOOTS:-4}"); do
	for k in base patched; do
		img=$kb/arch/x86/boot/bzImage
		[ "$k" = base ] && img=$base_img
		rm -rf "$st/vm-bench"
		BTT_VM_NAME=vm-bench BTT_VM_IMAGE=$img BTT_VM_PLAN=$out/bench-plan "$s/vmrun.sh" "$kb" >/dev/null 2>&1 || true
		grep -q . "$st/vm-bench/bench.log" 2>/dev/null || die "benchmark boot $k/$i produced no output"
		sed -n "s/^btf_load_ns /$k /p" "$st/vm-bench/bench.log" >>"$out/bench.txt"
		sed -n 's/^btf_size //p' "$st/vm-bench/bench.log" | head -n1 >"$out/size-$k"
		grep -q . "$st/vm-bench/chain.log" 2>/dev/null || die "chain benchmark boot $k/$i produced no output"
		sed -n "s/^chain_load_ns /$k /p" "$st/vm-bench/chain.log" >>"$out/chain.txt"
		grep -q . "$st/vm-bench/fwd.log" 2>/dev/null || die "fwd benchmark boot $k/$i produced no output"
		sed -n "s/^fwd_load_ns /$k /p" "$st/vm-bench/fwd.log" >>"$out/fwd.txt"
		sed -n "s/^fwd_load_err /$k /p" "$st/vm-bench/fwd.log" | head -n 2 >"$out/fwd-err-$k"
		# Every boot's logs stay: vm-bench is reused by the next boot.
		mkdir -p "$out/boots"; cp -a "$st/vm-bench" "$out/boots/$k-$i"
	done
done
python3 - "$out/bench.txt" "${BTT_BENCH_LOADS:-10}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
per = int(sys.argv[2])
d = {}
for k, v in rows:
    d.setdefault(k, []).append(int(v))
# Boots alternate base, patched; pair each patched boot with the base boot before it.
boots = [rows[i:i + per] for i in range(0, len(rows), per)]
pairs = [statistics.median(int(v) for _, v in boots[i + 1]) / statistics.median(int(v) for _, v in boots[i])
         for i in range(0, len(boots) - 1, 2)]
mb, mp = statistics.median(d["base"]), statistics.median(d["patched"])
print(f"BPF_BTF_LOAD of vmlinux BTF, {len(d['base'])} base and {len(d['patched'])} patched loads, interleaved boots:")
print(f"  base median {mb/1e6:.2f} ms, patched median {mp/1e6:.2f} ms, ratio patched/base {mp/mb:.3f}")
print(f"  fastest load: base {min(d['base'])/1e6:.2f} ms, patched {min(d['patched'])/1e6:.2f} ms, ratio {min(d['patched'])/min(d['base']):.3f}")
print("  per boot pair (patched/base medians): " + " ".join(f"{r:.3f}" for r in pairs) +
      f"; median {statistics.median(pairs):.3f}")
PY
echo "vmlinux BTF size: base $(cat "$out/size-base") bytes, patched $(cat "$out/size-patched") bytes"
# Linear, not chain length times structs: t(2*LEN) / t(LEN) <= 2.2, for
# the shared chain and for the structs with a FWD kptr pointee (which the
# unpatched kernel refuses: its refusal is timed).
ratio() {
	python3 - "$1" "$2" "$3" <<'PY'
import statistics, sys
d = {}
for k, n, v in (l.split() for l in open(sys.argv[1])):
    d.setdefault((k, int(n)), []).append(int(v))
n = int(sys.argv[2])
bad = 0
print(f"BPF_BTF_LOAD of {sys.argv[3]}, N={n} and {2*n}, interleaved:")
for k in ("base", "patched"):
    a, b = statistics.median(d[(k, n)]), statistics.median(d[(k, 2 * n)])
    r = b / a
    bad += r > 2.2
    print(f"  {k:7s} median {a/1e6:.2f} ms / {b/1e6:.2f} ms, ratio t(2N)/t(N) {r:.2f}{'  OVER 2.2' if r > 2.2 else ''}")
sys.exit(1 if bad else 0)
PY
}
ratio "$out/chain.txt" "$chain" "N structs sharing an N-long chain" || rc=1
ratio "$out/fwd.txt" "$fwd" "N structs with a kptr to FWD task_struct" || rc=1
for k in base patched; do
	[ ! -s "$out/fwd-err-$k" ] || echo "  $k refuses the FWD BTF: $(awk '{ printf "N=%s errno %s; ", $2, $3 }' "$out/fwd-err-$k")"
done
exit "$rc"
