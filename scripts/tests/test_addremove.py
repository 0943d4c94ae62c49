# SPDX-License-Identifier: GPL-2.0
"""addremove.py on made-up patches: code one patch adds and a later one removes."""
import subprocess
import sys
import unittest
from pathlib import Path

S = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture import TmpDir  # noqa: E402


def patch(*lines):
    """A patch of kernel/bpf/x.c with LINES (each '+...' or '-...')."""
    return ('From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n'
            'diff --git a/kernel/bpf/x.c b/kernel/bpf/x.c\n--- a/kernel/bpf/x.c\n+++ b/kernel/bpf/x.c\n'
            '@@ -1,1 +1,1 @@\n' + ''.join(ln + '\n' for ln in lines))


ADD = ('+static int helper_fn(int a)', '+{', '+\treturn a * 3 + 1;', '+}')
USE = ('+\tv = helper_fn(v);',)


class AddRemove(TmpDir):
    def run_on(self, *patches):
        paths = [self.write(f'000{i + 1}-p.patch', p) for i, p in enumerate(patches)]
        p = subprocess.run([sys.executable, str(S / 'addremove.py')] + [str(x) for x in paths],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def test_added_then_removed(self):
        """a function one patch adds and a later one deletes is named, with both patches"""
        rc, out = self.run_on(patch(*ADD), patch(*USE), patch(*('-' + ln[1:] for ln in ADD)))
        self.assertEqual(rc, 1, out)
        self.assertIn('0001 adds, 0003 removes: 2 lines', out)
        self.assertIn('function helper_fn', out)
        self.assertIn('addremove: 1 pairs', out)

    def test_moved(self):
        """code a later patch removes and adds back (moved) is no finding"""
        rc, out = self.run_on(patch(*ADD), patch(*(['-' + ln[1:] for ln in ADD] + list(ADD))))
        self.assertEqual(rc, 0, out)
        self.assertIn('addremove: 0 pairs', out)

    def test_trivial_lines(self):
        """braces and bare returns that a later patch removes are no finding"""
        rc, out = self.run_on(patch('+{', '+}', '+return 0;'), patch('-{', '-}', '-return 0;'))
        self.assertEqual(rc, 0, out)


if __name__ == '__main__':
    unittest.main()
