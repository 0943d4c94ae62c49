#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Probe the sid root's x86 gcc for the three btf_type_tag behaviours that
# keep PAHOLE_HAS_BTF_TAG off for GCC-built kernels (the gcc-kernel issue).
# Each case is a kernel idiom reduced to a few lines; prints "ok" or what GCC
# said. Exits 0 when every case is ok, 1 otherwise.
# Usage: gcc-tag-probe.sh [DIR]: with DIR, each failing case is also written
# there as a GCC bug reproducer: NAME.c and NAME.txt (the command, the
# expected and the actual output).
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
out=${1:-}
if [ -n "$out" ]; then mkdir -p "$out" || die "cannot create $out"; fi
d=$(mktemp -d "$ROOT/tmp/tagprobe.XXXXXX")
trap 'rm -rf "$d"' EXIT
hdr='#define __tag __attribute__((btf_type_tag("percpu")))
typedef unsigned long long u64;
struct foo { int a; };'

cflags=(-std=gnu11 -O2 -g -Werror -c)
# NAME EXPECTED BODY: compile HDR+BODY with -Werror; "ok" if it compiles
# clean. EXPECTED says what GCC should do, for the reproducer.
probe() {
	printf '%s\n%s\n' "$hdr" "$3" >"$d/$1.c"
	local msg
	if msg=$(chroot "$ROOT" env PATH="$ROOT_PATH" gcc "${cflags[@]}" "/tmp/${d##*/}/$1.c" \
		-o "/tmp/${d##*/}/$1.o" 2>&1); then
		printf '  %-22s ok\n' "$1"
		return
	fi
	printf '  %-22s %s\n' "$1" "$(grep -m1 -oE '(error|warning): .*' <<<"$msg")"
	bad=1
	[ -n "$out" ] || return 0
	cp "$d/$1.c" "$out/$1.c"
	{
		echo "GCC: $gccv (x86_64-linux-gnu)"
		echo "Command: gcc ${cflags[*]} $1.c -o $1.o"
		echo
		echo "Expected: compiles without a diagnostic, as with Clang 21 and 23; $2"
		echo
		echo "Actual:"
		echo "${msg//"/tmp/${d##*/}/"/}"
	} >"$out/$1.txt"
}

bad=0
gccv=$(chroot "$ROOT" env PATH="$ROOT_PATH" gcc --version | head -n1)
echo "gcc: $gccv"
# DEFINE_PER_CPU(u64 [4], v) on x86: the tag drops __seg_gs from the elements.
probe percpu-array 'the element type keeps address space __seg_gs and carries the type tag, so &v[i] is a __seg_gs pointer.' 'extern __seg_gs __tag __typeof__(u64[4]) v;
void f(int i) { const void __seg_gs *p = (typeof(&v[i] + 0))0; (void)p; }'
# DECLARE_PER_CPU(struct foo, v): the tag lands on the struct type.
probe percpu-struct 'the type tag applies to this use of the type, as __typeof__ makes a new type.' 'extern __tag __typeof__(struct foo) v;'
# void __percpu *__alloc_percpu(...): the tag lands on the function.
probe function-return 'the type tag applies to the pointed-to type of the return type, as for a declaration of a variable "void __tag *p".' 'void __tag *f(void);'
# The way around function-return: spellings of a tagged return type, each
# compiled with -gbtf; its warning, and the chain GCC gives the return type.
echo "return-type spellings (gcc -gbtf; the chain of f's return type):"
for sp in 'void __tag *f(void)' '__typeof__(void __tag *) f(void)' 'ptr_t f(void)'; do
	printf '%s\ntypedef void __tag *ptr_t;\n%s { return 0; }\n' "$hdr" "$sp" >"$d/ret.c"
	msg=$(chroot "$ROOT" env PATH="$ROOT_PATH" gcc -std=gnu11 -O2 -gbtf -c "/tmp/${d##*/}/ret.c" \
		-o "/tmp/${d##*/}/ret.o" 2>&1) || die "gcc failed on '$sp': $msg"
	ret=$(chroot "$ROOT" env PATH="$ROOT_PATH" bpftool btf dump file "/tmp/${d##*/}/ret.o" | awk '
		/^\[[0-9]+\] / {
			id = substr($1, 2, length($1) - 2); kind[id] = $2; name[id] = $3
			if (match($0, /(ret_)?type_id=[0-9]+/)) { v = substr($0, RSTART, RLENGTH); sub(/.*=/, "", v); ref[id] = v }
		}
		END {
			for (id in kind) if (kind[id] == "FUNC" && name[id] == "\047f\047") fn = id
			t = ref[ref[fn]]; s = ""
			for (n = 0; t != "" && t != 0 && n < 8; n++) {
				k = kind[t]; if (k == "TYPE_TAG") k = "T:" name[t]; gsub("\047", "", k)
				s = s k ">"; t = ref[t]
			}
			print s "void"
		}')
	printf '  %-36s %-8s %s\n' "$sp" "$(grep -q 'warning:' <<<"$msg" && echo warning || echo clean)" "$ret"
done
[ -z "$out" ] || [ "$bad" = 0 ] || echo "reproducers: $out"
exit "$bad"
