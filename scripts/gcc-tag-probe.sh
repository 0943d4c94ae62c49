#!/usr/bin/env bash
# Probe the sid root's x86 gcc for the three btf_type_tag behaviours that
# keep PAHOLE_HAS_BTF_TAG off for GCC-built kernels (the gcc-kernel issue).
# Each case is a kernel idiom reduced to a few lines; prints "ok" or what GCC
# said. Exits 0 when every case is ok, 1 otherwise.
. "$(dirname "$0")/lib.sh"

need_root
need_sid_root
d=$(mktemp -d "$ROOT/tmp/tagprobe.XXXXXX")
trap 'rm -rf "$d"' EXIT
hdr='#define __tag __attribute__((btf_type_tag("percpu")))
typedef unsigned long long u64;
struct foo { int a; };'

# NAME BODY: compile HDR+BODY with -Werror=attributes; "ok" if it compiles clean.
probe() {
	printf '%s\n%s\n' "$hdr" "$2" >"$d/$1.c"
	local msg
	if msg=$(chroot "$ROOT" env PATH="$ROOT_PATH" gcc -std=gnu11 -O2 -g -Werror -c "/tmp/${d##*/}/$1.c" \
		-o "/tmp/${d##*/}/$1.o" 2>&1); then
		printf '  %-22s ok\n' "$1"
	else
		printf '  %-22s %s\n' "$1" "$(grep -m1 -oE '(error|warning): .*' <<<"$msg")"
		bad=1
	fi
}

bad=0
echo "gcc: $(chroot "$ROOT" env PATH="$ROOT_PATH" gcc --version | head -n1)"
# DEFINE_PER_CPU(u64 [4], v) on x86: the tag drops __seg_gs from the elements.
probe percpu-array 'extern __seg_gs __tag __typeof__(u64[4]) v;
void f(int i) { const void __seg_gs *p = (typeof(&v[i] + 0))0; (void)p; }'
# DECLARE_PER_CPU(struct foo, v): the tag lands on the struct type.
probe percpu-struct 'extern __tag __typeof__(struct foo) v;'
# void __percpu *__alloc_percpu(...): the tag lands on the function.
probe function-return 'void __tag *f(void);'
exit "$bad"
