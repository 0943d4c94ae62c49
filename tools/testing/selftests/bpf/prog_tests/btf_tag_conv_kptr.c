// SPDX-License-Identifier: GPL-2.0
#include <test_progs.h>
#include "btf_tag_conv_kptr.skel.h"

/* kptr fields as Clang and GCC emit them, in the pointee convention. */
void test_btf_tag_conv_kptr(void)
{
	RUN_TESTS(btf_tag_conv_kptr);
}
