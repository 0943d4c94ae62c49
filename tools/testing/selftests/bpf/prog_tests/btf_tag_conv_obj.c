// SPDX-License-Identifier: GPL-2.0
/* Objects in both type tag conventions: the linker's conversion, libbpf's
 * copy of the BTF for kernels without the flag, light skeletons, and the
 * kptr and user pointer programs converted to the attribute convention.
 */
#include <test_progs.h>
#include <bpf/btf.h>
#include <linux/btf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "bpf/libbpf_internal.h"
#include "btf_tag_helpers.h"
#include "bpftool_helpers.h"
#include "btf_tag_conv_kptr.skel.h"
#include "btf_tag_conv_user.skel.h"

/* A test object converted by the linker, for test_loader */
static void *conv_bytes;
static size_t conv_sz;

static const void *conv_elf_bytes(size_t *sz)
{
	*sz = conv_sz;
	return conv_bytes;
}

/* Link @n objects @in into one in @conv (or, for -1, with the linker's
 * default options); the result in malloc()ed *@out.
 */
static int link_objects(const void **in, size_t *in_sz, int n, int conv, void **out,
			size_t *out_sz)
{
	LIBBPF_OPTS(bpf_linker_opts, opts);
	struct bpf_linker *linker;
	struct stat st;
	int i, fd, err = 0;

	if (conv >= 0)
		opts.type_tag_conv = conv;
	*out = NULL;
	fd = memfd_create("btf_tag_conv", 0);
	if (!ASSERT_GE(fd, 0, "memfd"))
		return -errno;
	linker = bpf_linker__new_fd(fd, &opts);
	if (!ASSERT_OK_PTR(linker, "linker")) {
		close(fd);
		return -errno;
	}
	for (i = 0; i < n && !err; i++)
		err = bpf_linker__add_buf(linker, (void *)in[i], in_sz[i], NULL);
	err = err ?: bpf_linker__finalize(linker);
	bpf_linker__free(linker);
	if (ASSERT_OK(err, "link") && ASSERT_OK(fstat(fd, &st), "fstat")) {
		*out_sz = st.st_size;
		*out = malloc(*out_sz);
		if (!ASSERT_OK_PTR(*out, "malloc") ||
		    !ASSERT_EQ(pread(fd, *out, *out_sz, 0), *out_sz, "read"))
			err = -EIO;
	}
	close(fd);
	return err;
}

/* Link @in alone into @conv. */
static int link_converted(const void *in, size_t in_sz, enum btf_type_tag_conv conv,
			  void **out, size_t *out_sz)
{
	return link_objects(&in, &in_sz, 1, conv, out, out_sz);
}

/* Count the pointer-property tags in front of (@before) or after a PTR. */
static int count_kptr_tags(const struct btf *btf, bool before)
{
	const struct btf_type *t, *r;
	const char *name;
	int i, n = 0;

	for (i = 1; i < btf__type_cnt(btf); i++) {
		t = btf__type_by_id(btf, i);
		if (!btf_is_ptr(t) && !btf_is_type_tag(t))
			continue;
		r = btf__type_by_id(btf, t->type);
		if (!r || !btf_is_ptr(before ? r : t))
			continue;
		t = before ? t : r;
		if (!btf_is_type_tag(t) || btf_kflag(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		n += strcmp(name, "kptr") == 0 || strcmp(name, "kptr_untrusted") == 0;
	}
	return n;
}

/* Check that the object @bytes is in @conv, with kptr tags in its places. */
static void check_object(const void *bytes, size_t sz, enum btf_type_tag_conv conv)
{
	bool attr = conv == BTF_TYPE_TAG_CONV_ATTRIBUTE;
	struct bpf_object *obj;
	struct btf *btf;

	obj = bpf_object__open_mem(bytes, sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open"))
		return;
	btf = bpf_object__btf(obj);
	ASSERT_EQ(btf__type_tag_conv(btf), conv, "convention");
	ASSERT_GE(count_kptr_tags(btf, attr), 1, "moved");
	ASSERT_EQ(count_kptr_tags(btf, !attr), 0, "left");
	bpf_object__close(obj);
}

/* The linker converts a whole object, to the attribute convention and
 * back, and gives objects of both conventions linked together the first
 * one's.
 */
static void test_convert_linker(void)
{
	size_t in_sz[2], attr_sz, back_sz, both_sz;
	void *attr, *back, *both;
	const void *in[2];

	in[0] = btf_tag_conv_kptr__elf_bytes(&in_sz[0]);
	if (link_converted(in[0], in_sz[0], BTF_TYPE_TAG_CONV_ATTRIBUTE, &attr, &attr_sz))
		goto out;
	check_object(attr, attr_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE);
	if (!link_converted(attr, attr_sz, BTF_TYPE_TAG_CONV_POINTEE, &back, &back_sz))
		check_object(back, back_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(back);

	/* Without a convention asked for, the output is in the pointee
	 * one, whichever input comes first.  The user programs' object has
	 * no kptr: link it second, then first.
	 */
	in[0] = attr;
	in_sz[0] = attr_sz;
	in[1] = btf_tag_conv_user__elf_bytes(&in_sz[1]);
	if (!link_objects(in, in_sz, 2, -1, &both, &both_sz))
		check_object(both, both_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(both);
	in[0] = in[1];
	in_sz[0] = in_sz[1];
	in[1] = attr;
	in_sz[1] = attr_sz;
	if (!link_objects(in, in_sz, 2, -1, &both, &both_sz))
		check_object(both, both_sz, BTF_TYPE_TAG_CONV_POINTEE);
	free(both);
out:
	free(attr);
}

/* Open @bytes for a kernel without BTF_FLAG_TYPE_TAG_ATTR, as libbpf sees
 * it: the feature forced missing in the object's cache, as btf_sanitize
 * does.
 */
static struct bpf_object *open_without_attr(const void *bytes, size_t sz)
{
	struct kern_feature_cache *cache;
	struct bpf_object *obj;
	int i;

	obj = bpf_object__open_mem(bytes, sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open"))
		return NULL;
	cache = calloc(1, sizeof(*cache));
	if (!ASSERT_OK_PTR(cache, "cache")) {
		bpf_object__close(obj);
		return NULL;
	}
	for (i = 0; i < __FEAT_CNT; i++)
		cache->res[i] = FEAT_SUPPORTED;
	cache->res[FEAT_BTF_TYPE_TAG_ATTR] = FEAT_MISSING;
	bpf_object_set_feat_cache(obj, cache);
	return obj;
}

/* libbpf converts the object's attribute-convention BTF back for such a
 * kernel, and the programs whose verdict does not depend on the compiler
 * load: the map keeps its kptrs.
 */
static void test_convert_sanitize(void)
{
	struct bpf_object *obj = NULL;
	struct btf *kern_btf = NULL;
	struct bpf_program *prog;
	void *out = NULL;
	const void *in;
	size_t in_sz, out_sz;
	struct btf *btf;
	int id;

	in = btf_tag_conv_kptr__elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &out, &out_sz))
		return;
	obj = open_without_attr(out, out_sz);
	if (!obj)
		goto out;

	ASSERT_EQ(btf__type_tag_conv(bpf_object__btf(obj)), BTF_TYPE_TAG_CONV_ATTRIBUTE, "object");
	kern_btf = bpf_object__sanitize_btf(obj, bpf_object__btf(obj));
	if (!ASSERT_OK_PTR(kern_btf, "sanitize"))
		goto out;
	ASSERT_EQ(btf__type_tag_conv(kern_btf), BTF_TYPE_TAG_CONV_POINTEE, "for the kernel");
	ASSERT_EQ(count_kptr_tags(kern_btf, true), 0, "no kptr tag before a PTR");
	ASSERT_GE(count_kptr_tags(kern_btf, false), 2, "kptr tags after a PTR");

	/* The two whose verdict depends on where the compiler put the tag */
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, strcmp(bpf_program__name(prog), "kptr_star") &&
					  strcmp(bpf_program__name(prog), "kptr_typedef_star"));
	ASSERT_OK(bpf_object__load(obj), "load");
	bpf_object__close(obj);

	/* BTF that cannot be converted back is, for such a kernel, BTF that
	 * it rejects: optional BTF is left out, as it always was.
	 */
	obj = open_without_attr(out, out_sz);
	if (!obj)
		goto out;
	btf = bpf_object__btf(obj);
	id = btf__find_by_name_kind(btf, "int", BTF_KIND_INT);
	if (!ASSERT_GT(id, 0, "int") ||
	    !ASSERT_GT(btf__add_type_tag(btf, "kptr", id), 0, "kptr on an int"))
		goto out;
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, false);
	ASSERT_OK(bpf_object__load(obj), "load without BTF");
	ASSERT_LT(bpf_object__btf_fd(obj), 0, "no BTF loaded");
out:
	btf__free(kern_btf);
	bpf_object__close(obj);
	free(out);
}

/* The copy for a kernel without the flag makes a member refer to the
 * kptr's PTR, not to the typedef in front of it: a DECL_TAG on the typedef
 * keeps a typedef as its target, and the kernel takes the BTF.
 */
static void test_sanitize_decl_tag(void)
{
	const struct btf_type *t;
	int td, val, dt, err;
	struct btf *btf;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "new"))
		return;
	/* typedef struct task_struct * __kptr_untrusted td_t;
	 * struct val { td_t f; long x; };
	 */
	val = btf_tag_build(btf, "D>T:kptr_untrusted>P>S", true);
	if (!ASSERT_GT(val, 0, "build"))
		goto out;
	td = btf_members(btf__type_by_id(btf, val))[0].type;
	dt = btf__add_decl_tag(btf, "td_tag", td, -1);
	if (!ASSERT_GT(dt, 0, "decl tag") ||
	    !ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "attr") ||
	    !ASSERT_OK(btf_convert_type_tags(btf, BTF_TYPE_TAG_CONV_POINTEE, true), "sanitize"))
		goto out;

	t = btf__type_by_id(btf, btf__type_by_id(btf, dt)->type);
	ASSERT_EQ(btf_kind(t), BTF_KIND_TYPEDEF, "decl tag target");
	t = btf__type_by_id(btf, btf_members(btf__type_by_id(btf, val))[0].type);
	if (ASSERT_EQ(btf_kind(t), BTF_KIND_PTR, "member is the PTR"))
		ASSERT_TRUE(btf_is_type_tag(btf__type_by_id(btf, t->type)), "PTR -> TYPE_TAG");
	err = btf__load_into_kernel(btf);
	ASSERT_OK(err, "load");
out:
	btf__free(btf);
}

/* A light skeleton's loader runs on kernels that nobody probed: the BTF in
 * its data is in the pointee convention, which every kernel reads.
 */
static void test_light_skel_pointee(void)
{
	LIBBPF_OPTS(gen_loader_opts, gen);
	struct bpf_object *obj = NULL;
	int pointee = 0, attr = 0;
	size_t in_sz, out_sz;
	void *out = NULL;
	const __u8 *d;
	const void *in;
	__u32 i;

	in = btf_tag_conv_kptr__elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &out, &out_sz))
		return;
	obj = bpf_object__open_mem(out, out_sz, NULL);
	if (!ASSERT_OK_PTR(obj, "open") ||
	    !ASSERT_OK(bpf_object__gen_loader(obj, &gen), "gen_loader") ||
	    !ASSERT_OK(bpf_object__load(obj), "generate"))
		goto out;
	/* struct btf_header: magic 0xeB9F, version 1, flags, hdr_len */
	for (i = 0, d = (const __u8 *)gen.data; i + sizeof(struct btf_header) <= gen.data_sz; i++) {
		if (d[i] != 0x9f || d[i + 1] != 0xeb || d[i + 2] != BTF_VERSION)
			continue;
		if (d[i + 3] & BTF_FLAG_TYPE_TAG_ATTR)
			attr++;
		else
			pointee++;
	}
	ASSERT_EQ(pointee, 1, "pointee BTF in the loader's data");
	ASSERT_EQ(attr, 0, "attribute BTF in the loader's data");
out:
	bpf_object__close(obj);
	free(out);
}

static char load_msg[4096];

static int load_msg_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	size_t n = strlen(load_msg);

	if (n < sizeof(load_msg) - 1)
		vsnprintf(load_msg + n, sizeof(load_msg) - n, fmt, args);
	return 0;
}

/* A direct caller of btf__load_into_kernel() gets attribute-convention BTF
 * loaded by a kernel that reads the flag, and a clear error from one that
 * does not (the base kernel, in scripts/basecmp.sh).
 */
static void test_load_attr(void)
{
	libbpf_print_fn_t old_print;
	char log[4096];
	bool kernel_attr;
	struct btf *btf;
	int fd, err;

	btf = btf__new_empty();
	if (!ASSERT_OK_PTR(btf, "new"))
		return;
	if (!ASSERT_GT(btf_tag_build(btf, "T:kptr>P>S", true), 0, "build") ||
	    !ASSERT_OK(btf_set_type_tag_conv(btf, BTF_TYPE_TAG_CONV_ATTRIBUTE), "attr"))
		goto out;
	/* the oracle: BPF_BTF_LOAD of the same BTF, without libbpf */
	fd = btf_tag_load(btf, BTF_FLAG_TYPE_TAG_ATTR, log, sizeof(log));
	kernel_attr = fd >= 0;
	if (fd >= 0)
		close(fd);

	load_msg[0] = 0;
	old_print = libbpf_set_print(load_msg_print);
	err = btf__load_into_kernel(btf);
	libbpf_set_print(old_print);
	if (kernel_attr) {
		ASSERT_OK(err, "load");
	} else {
		ASSERT_EQ(err, -EOPNOTSUPP, "load");
		ASSERT_HAS_SUBSTR(load_msg, "attribute type tag convention", "message");
	}
out:
	btf__free(btf);
}

static int write_raw(const struct btf *btf, const char *dir, const char *name)
{
	char path[PATH_MAX];
	const void *raw;
	__u32 sz;
	FILE *f;
	int err;

	raw = btf__raw_data(btf, &sz);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!ASSERT_OK_PTR(f, path))
		return -1;
	err = fwrite(raw, 1, sz, f) == sz ? 0 : -1;
	return fclose(f) ?: err;
}

/* Split BTF with a kptr member on top of @base, in @conv */
static struct btf *kptr_split(struct btf *base, enum btf_type_tag_conv conv)
{
	struct btf *split = btf__new_empty_split(base);
	int ts, kp;

	if (!ASSERT_OK_PTR(split, "btf__new_empty_split"))
		return NULL;
	ts = btf__find_by_name_kind(base, "task_struct", BTF_KIND_STRUCT);
	kp = btf__add_ptr(split, btf__add_type_tag(split, "kptr", ts));
	btf__add_struct(split, "outer", 8);
	btf__add_field(split, "p", kp, 0, 0);
	if (ASSERT_OK(btf__convert_type_tags(split, conv, NULL), "convert"))
		return split;
	btf__free(split);
	return NULL;
}

/* "bpftool btf dump file A file B" merges split BTF of both conventions in
 * the convention of their base: B, the attribute form of A, merges as A
 * itself does.
 */
static void test_bpftool_merge(void)
{
	char dir[] = "/tmp/btf_tag_mergeXXXXXX", cmd[MAX_BPFTOOL_CMD_LEN];
	static char ab[16384], aa[16384];
	static const char * const files[] = { "base", "a", "b" };
	struct btf *base, *a = NULL, *b = NULL;
	int i;

	base = btf__new_empty();
	if (!ASSERT_OK_PTR(base, "btf__new_empty"))
		return;
	if (!ASSERT_GT(btf_tag_build(base, "I", false), 0, "build") ||
	    !ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp"))
		goto out;
	a = kptr_split(base, BTF_TYPE_TAG_CONV_POINTEE);
	b = kptr_split(base, BTF_TYPE_TAG_CONV_ATTRIBUTE);
	if (!a || !b || write_raw(base, dir, "base") || write_raw(a, dir, "a") ||
	    write_raw(b, dir, "b"))
		goto rm;
	memset(ab, 0, sizeof(ab));
	memset(aa, 0, sizeof(aa));
	snprintf(cmd, sizeof(cmd), "-B %1$s/base btf dump file %1$s/a file %1$s/b", dir);
	if (!ASSERT_OK(get_bpftool_command_output(cmd, ab, sizeof(ab) - 1), cmd))
		goto rm;
	snprintf(cmd, sizeof(cmd), "-B %1$s/base btf dump file %1$s/a file %1$s/a", dir);
	if (!ASSERT_OK(get_bpftool_command_output(cmd, aa, sizeof(aa) - 1), cmd))
		goto rm;
	/* A and B dedup into A's types; the conversions may leave a PTR
	 * that nothing refers to after them.
	 */
	ASSERT_HAS_SUBSTR(aa, "TYPE_TAG 'kptr'", "kptr tag");
	ASSERT_NULL(strstr(ab, "type tag convention"), "pointee");
	ASSERT_OK(strncmp(ab, aa, strlen(aa)), "A's types first");
	ASSERT_NULL(strstr(ab + strlen(aa), "STRUCT"), "no other struct");
	ASSERT_NULL(strstr(ab + strlen(aa), "TYPE_TAG"), "no other tag");
rm:
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s", dir, files[i]);
		unlink(cmd);
	}
	rmdir(dir);
out:
	btf__free(b);
	btf__free(a);
	btf__free(base);
}

/* The kptr and the user pointer programs, converted to the attribute
 * convention, get the verdicts they get in the producer's convention.  A
 * kernel without the flag gets them back in the pointee convention from
 * libbpf.
 */
static void test_convert_progs(const char *name, skel_elf_bytes_fn elf_bytes)
{
	struct test_loader tester = {};
	const void *in;
	size_t in_sz;

	free(conv_bytes);
	in = elf_bytes(&in_sz);
	if (link_converted(in, in_sz, BTF_TYPE_TAG_CONV_ATTRIBUTE, &conv_bytes, &conv_sz))
		return;
	test_loader__run_subtests(&tester, name, conv_elf_bytes);
	test_loader_fini(&tester);
}

void test_btf_tag_conv_obj(void)
{
	if (test__start_subtest("convert_linker"))
		test_convert_linker();
	if (test__start_subtest("convert_sanitize"))
		test_convert_sanitize();
	if (test__start_subtest("sanitize_decl_tag"))
		test_sanitize_decl_tag();
	if (test__start_subtest("light_skel_pointee"))
		test_light_skel_pointee();
	if (test__start_subtest("load_attr"))
		test_load_attr();
	if (test__start_subtest("bpftool_merge"))
		test_bpftool_merge();
	test_convert_progs("btf_tag_conv_kptr", btf_tag_conv_kptr__elf_bytes);
	test_convert_progs("btf_tag_conv_user", btf_tag_conv_user__elf_bytes);
	free(conv_bytes);
	conv_bytes = NULL;
}
