# SPDX-License-Identifier: GPL-2.0
"""basefails.py, regresscmp.py, vcostcmp.py and fuzzcmp.py on made-up results."""
import subprocess
import sys
import unittest
from pathlib import Path

S = Path(__file__).resolve().parent.parent
TOP = S.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture import TmpDir  # noqa: E402


def run(script, *args):
    p = subprocess.run([sys.executable, str(S / script)] + [str(a) for a in args],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


Judge = TmpDir


class BaseFails(Judge):
    LOG = '#1/1     t/a:FAIL\n#1/2     t/b:OK\n#1       t:FAIL\n'

    def judge(self, fails, log=LOG):
        self.write('base-clang.log', log)
        return run('basefails.py', self.d, self.write('fails', fails), 'clang')

    def test_as_listed(self):
        """the base kernel fails what the list says"""
        self.assertEqual(self.judge('FAIL t/a  # reason\n')[0], 0)

    def test_listed_passes(self):
        """a listed leaf that passes fails the judge"""
        rc, out = self.judge('FAIL t/*  # reason\n')
        self.assertEqual(rc, 1)
        self.assertIn('t/b is listed to fail on the base kernel, but was OK', out)

    def test_unlisted_failure(self):
        """a failure the list does not name (for this flavour) fails"""
        rc, out = self.judge('FAIL gcc:t/a  # reason\n')
        self.assertEqual(rc, 1)
        self.assertIn('clang: t/a fails on the base kernel, unlisted', out)

    def test_flaky(self):
        """a FLAKY entry may pass; a FAIL entry may not"""
        self.assertEqual(self.judge('FAIL t/a  # reason\nFLAKY t/b  # a timing assumption\n')[0], 0)
        self.assertEqual(self.judge('FAIL t/a  # reason\nFLAKY t  # fails outside its subtests\n')[0], 0)
        rc, out = self.judge('FAIL t/a  # reason\nFAIL t/b  # timing\n')
        self.assertEqual(rc, 1)

    def test_list_format(self):
        """a line without its word or reason is refused, naming the format"""
        rc, out = self.judge('t/a  # reason\n')
        self.assertNotEqual(rc, 0)
        self.assertIn('not "FAIL|FLAKY NAME  # reason"', out)
        rc, out = self.judge('FAIL t/a\n')
        self.assertIn('needs its reason', out)

    def test_colon_in_name(self):
        """a flavour's entry whose subtest name has a colon"""
        log = '#1/1     t/x: y:FAIL\n#1/2     t/b:OK\n#1       t:FAIL\n'
        self.assertEqual(self.judge('FAIL clang:t/x: y  # a name with a colon\n', log)[0], 0)


class Regress(Judge):
    def setUp(self):
        super().setUp()
        self.r = self.d
        log = '#1/1     t/a:OK\n#1/2     t/b:FAIL\n#1       t:FAIL\n'
        for k in ('patched', 'base'):
            self.write(f'{k}-clang.log', log)
            self.write(f'{k}-clang.status', '0\n')
            self.write(f'{k}-clang.console.log', 'btt-init: end\n')
        self.write('allow', 't\n')
        self.fails = self.write('fails', 'FAIL t/b  # reason\n')

    def judge(self):
        return run('regresscmp.py', self.r, self.fails, 'clang')

    def test_as_listed(self):
        """the patched kernel fails what the list says, as the base does"""
        self.assertEqual(self.judge()[0], 0)

    def test_passes_on_base_only(self):
        """a leaf that passes on the base kernel only fails"""
        self.write('patched-clang.log', '#1/1     t/a:FAIL\n#1/2     t/b:FAIL\n#1       t:FAIL\n')
        self.write('fails', 'FAIL t/*  # reason\n')
        rc, out = self.judge()
        self.assertEqual(rc, 1)
        self.assertIn('clang: t/a passes on the base kernel, but is FAIL on the patched one', out)

    def test_no_result(self):
        """a test of the allow list without a result fails, unless denied"""
        self.write('allow', 't\nu\n')
        rc, out = self.judge()
        self.assertEqual(rc, 1)
        self.assertIn('clang: u printed no result on the patched kernel', out)
        self.write('deny.clang', 'u  # reason\n')
        self.assertEqual(self.judge()[0], 0)

    def test_kernel_report_and_timeout(self):
        """a kernel report on the console and a guest timeout fail"""
        self.write('patched-clang.console.log', 'btt-init: end\nBUG: KASAN: use-after-free in x\n')
        rc, out = self.judge()
        self.assertEqual(rc, 1)
        self.assertIn('patched kernel (clang): a kernel report on the console: BUG: KASAN', out)
        self.write('patched-clang.console.log', 'btt-init: end\n')
        self.write('base-clang.status', '124\n')
        rc, out = self.judge()
        self.assertEqual(rc, 1)
        self.assertIn('base kernel (clang): the guest timed out', out)

    def test_not_run_on_base(self):
        """a flavour the base kernel did not run is not compared"""
        (self.r / 'base-clang.log').unlink()
        rc, out = self.judge()
        self.assertIn('clang: not run on the base kernel', out)


class VCost(Judge):
    H = 'file_name,prog_name,verdict,total_insns,total_states\n'

    def test_costs(self):
        """the same cost passes; a difference fails unless listed"""
        self.write('base-clang.csv', self.H + 'x.bpf.o,p,success,10,2\nx.bpf.o,q,failure,5,1\n')
        self.write('patched-clang.csv', self.H + 'x.bpf.o,p,success,10,2\nx.bpf.o,q,success,7,1\n')
        diffs = self.write('diffs', '')
        self.assertEqual(run('vcostcmp.py', self.d, diffs, 'clang')[0], 0)
        self.write('patched-clang.csv', self.H + 'x.bpf.o,p,success,12,2\n')
        rc, out = run('vcostcmp.py', self.d, diffs, 'clang')
        self.assertEqual(rc, 1)
        self.assertIn('clang:x.bpf.o:p differs: success, insns 10 -> 12', out)
        self.write('diffs', 'DIFF clang:x.bpf.o:p  # reason\n')
        self.assertEqual(run('vcostcmp.py', self.d, diffs, 'clang')[0], 0)


class Fuzz(Judge):
    BASE = ('1 f=0 L=ok g=1 A=0000 H=0000 | 0:P>T:kptr>S\n'
            '2 f=0 L=ok g=1 A=0000 H=0000 | 0:T:kptr>P>S\ndone 2\n')

    def judge(self, patched, console=''):
        self.write('base.txt', self.BASE)
        self.write('patched.txt', patched)
        self.write('console-base.log', '')
        self.write('console-patched.log', console)
        return run('fuzzcmp.py', self.d, TOP / 'config/fuzz-intended', 2)[0]

    def test_same(self):
        """the same verdicts pass"""
        self.assertEqual(self.judge(self.BASE), 0)

    def test_intended(self):
        """an intended change (config/fuzz-intended) passes"""
        self.assertEqual(self.judge(self.BASE.replace('2 f=0 L=ok g=1 A=0000 H=0000',
                                                      '2 f=0 L=ok g=1 A=ff00 H=ff00')), 0)

    def test_refusal(self):
        """refusing what the base kernel accepts fails"""
        self.assertNotEqual(self.judge(self.BASE.replace('1 f=0 L=ok g=1 A=0000 H=0000',
                                                         '1 f=0 L=-22 g=1')), 0)

    def test_splat(self):
        """a splat on the patched kernel's console fails"""
        self.assertNotEqual(self.judge(self.BASE, 'BUG: KASAN: slab-out-of-bounds\n'), 0)


if __name__ == '__main__':
    unittest.main()
