// SPDX-License-Identifier: GPL-2.0
#include <test_progs.h>
#include "btf_tag_conv_kptr.skel.h"
#include "btf_tag_conv_kptr_ref.skel.h"

/* kptr fields as Clang and GCC emit them, in the pointee convention. */
void test_btf_tag_conv_kptr(void)
{
	RUN_TESTS(btf_tag_conv_kptr);
}

/* The test object's reference count as count_refs() sees it, once it is
 * @want or after about 20 s: the kptrs of a freed map are released by a
 * work item, later.
 */
static int refs_settle(struct btf_tag_conv_kptr_ref *skel, int want)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int i, err;

	for (i = 0; i < 2000; i++) {
		err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.count_refs), &opts);
		if (!ASSERT_OK(err, "count_refs") || !ASSERT_OK(opts.retval, "count_refs retval"))
			return -1;
		if (skel->bss->refs == want)
			break;
		usleep(10000);
	}
	return skel->bss->refs;
}

static int run(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	return err ?: opts.retval;
}

/* A const and a typedef'd referenced kptr each hold a reference to the
 * test object, and freeing their map drops both.
 */
void test_btf_tag_conv_kptr_release(void)
{
	struct btf_tag_conv_kptr_ref *skel;

	skel = btf_tag_conv_kptr_ref__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	/* The object's own reference and count_refs()'s */
	if (!ASSERT_EQ(refs_settle(skel, 2), 2, "refs before"))
		goto out;
	ASSERT_OK(run(skel->progs.stash_const), "stash_const");
	ASSERT_OK(run(skel->progs.stash_typedef), "stash_typedef");
	ASSERT_EQ(refs_settle(skel, 4), 4, "refs held by the map");
	btf_tag_conv_kptr_ref__destroy(skel);

	skel = btf_tag_conv_kptr_ref__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load again"))
		return;
	ASSERT_EQ(refs_settle(skel, 2), 2, "refs after the map is freed");
out:
	btf_tag_conv_kptr_ref__destroy(skel);
}
