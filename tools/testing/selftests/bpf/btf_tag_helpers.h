/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BTF_TAG_HELPERS_H
#define __BTF_TAG_HELPERS_H

#include <stdbool.h>
#include <bpf/btf.h>

#ifndef BTF_FLAG_TYPE_TAG_ATTR
#define BTF_FLAG_TYPE_TAG_ATTR 0x1
#endif

/* What the kernel makes of the first member of a map value */
enum btf_tag_expect {
	DATA,		/* the member is plain data */
	SPECIAL,	/* the member is a kptr or a special field */
	LOAD_FAIL,	/* BPF_BTF_LOAD fails, the log has @msg */
	MAP_FAIL,	/* the map cannot be created */
};

extern const char * const btf_tag_expect_str[];

/* A chain, outermost first, separated by '>':
 *   T:x  TYPE_TAG x     A:x  TYPE_TAG x with kind_flag (attribute)
 *   P    PTR            C    CONST        V  VOLATILE
 *   R    RESTRICT       D    TYPEDEF      I  int
 *   Y    array of one   S    struct task_struct (kernel type)
 *   L    struct bpf_spin_lock             N  struct holding kptr
 *   F    FWD struct task_struct           G  FWD of no kernel struct
 *   0    void
 */
int btf_tag_add_chain(struct btf *btf, const char *s, int ts, int lock, int nested,
		      int int_id);
int btf_tag_build(struct btf *btf, const char *chain, bool attr);
int btf_tag_load(struct btf *btf, __u8 flags, char *log, size_t log_sz);
int btf_tag_map_create(int btf_fd, int key_id, int val_id, __u32 vsz, __u32 flags,
		       char *log, size_t log_sz);
int btf_tag_map_roundtrip(int btf_fd, int key_id, int val_id, __u32 vsz,
			  const void *in, void *out, __u64 flags);
/* -errno of the last map that btf_tag_probe_map() could not create */
extern int btf_tag_map_err;
enum btf_tag_expect btf_tag_probe_map(int btf_fd, int val_id);
int btf_tag_probe_kind(int map_fd, char *kind, size_t kind_sz);
const char *btf_tag_kptr_kind(const char *chain);
enum btf_tag_expect btf_tag_verdict(struct btf *btf, __u8 flags, int val,
				    char *log, size_t log_sz);
enum btf_tag_expect btf_tag_verdict_kind(struct btf *btf, __u8 flags, int val,
					 char *log, size_t log_sz, char *kind,
					 size_t kind_sz);

#endif
