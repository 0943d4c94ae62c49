// SPDX-License-Identifier: GPL-2.0
#include <test_progs.h>
#include "btf_tag_conv_user.skel.h"

/* user and percpu pointers in program BTF, in the pointee convention. */
void test_btf_tag_conv_user(void)
{
	RUN_TESTS(btf_tag_conv_user);
}
