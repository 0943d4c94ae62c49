# SPDX-License-Identifier: GPL-2.0
"""report.py, expected.py and bless.py on made-up VM result dirs."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

S = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(S))
import expected  # noqa: E402
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fixture import TmpDir  # noqa: E402


def log(*leaves):
    """A test_progs log with these "test/sub:VERDICT" leaves."""
    out, tops = [], {}
    for i, leaf in enumerate(leaves, 1):
        name, verdict = leaf.rsplit(':', 1)
        top = name.split('/')[0]
        tops.setdefault(top, []).append(verdict)
        out.append(f'#1/{i}     {name}:{verdict}' if '/' in name else f'#{i}     {name}:{verdict}')
    for top, vs in tops.items():
        if any('/' in leaf.split(':')[0] for leaf in leaves if leaf.startswith(top + '/')):
            out.append(f'#1       {top}:{"FAIL" if "FAIL" in vs else "OK"}')
    return '\n'.join(out) + '\n'


class VM(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.vm = Path(self.tmp.name) / 'vm'
        self.vm.mkdir()
        (self.vm / 'plan').write_text('clang /mnt/st ./test_progs\n')
        (self.vm / 'clang.rc').write_text('0\n')
        (self.vm / 'console.log').write_text('btt-init: end\n')

    def tearDown(self):
        self.tmp.cleanup()

    def results(self, *leaves):
        (self.vm / 'clang.log').write_text(log(*leaves))

    def expect(self, text):
        (self.vm / 'expected.clang').write_text(text)

    def report(self, qemu_rc=0):
        p = subprocess.run([sys.executable, str(S / 'report.py'), str(self.vm), str(S.parent / 'config'),
                            str(qemu_rc)], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr


class Report(VM):
    def test_met(self):
        """the expected leaves, by name, pass"""
        self.results('t/a:OK', 't/b:SKIP')
        self.expect('OK t/a\nSKIP t/b  # a reason\n')
        rc, out = self.report()
        self.assertEqual(rc, 0, out)
        self.assertIn('1 passed, 0 failed, 1 skipped', out)

    def test_swapped(self):
        """a subtest swapped for another with the same counts fails"""
        self.results('t/a:OK', 't/c:SKIP')
        self.expect('OK t/a\nSKIP t/b  # a reason\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('missing t/b: expected SKIP', out)
        self.assertIn('new t/c: SKIP', out)

    def test_changed(self):
        """a leaf with another verdict fails, either way"""
        self.results('t/a:SKIP', 't/b:OK')
        self.expect('OK t/a\nSKIP t/b  # a reason\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('changed t/a: SKIP, expected OK', out)
        self.assertIn('changed t/b: OK, expected SKIP', out)

    def test_failed(self):
        """a failed subtest fails the run, expected or not"""
        self.results('t/a:OK', 't/b:FAIL')
        self.expect('OK t/a\nOK t/b\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('1 passed, 1 failed, 0 skipped', out)

    def test_kernel_report(self):
        """a kernel BUG on the console fails the run"""
        self.results('t/a:OK')
        (self.vm / 'console.log').write_text('BUG: kernel NULL pointer dereference\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('problem: kernel reported: BUG: kernel NULL', out)

    def test_timeout(self):
        """a guest timeout fails the run"""
        self.results('t/a:OK')
        rc, out = self.report(124)
        self.assertEqual(rc, 1)
        self.assertIn('problem: guest timeout', out)

    def test_no_results(self):
        """a flavour the guest never ran fails the run"""
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('clang: no results', out)

    def test_no_expected_file(self):
        """a full run of a cell without expected results fails, naming bless"""
        self.results('t/a:OK')
        (self.vm / 'cell').write_text('7.3 llvm config/expected/7.3\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('no expected results config/expected/7.3/llvm.clang', out)
        self.assertIn('btt bless', out)

    def test_allow_without_result(self):
        """a test of the allow list that printed nothing fails"""
        self.results('t/a:OK')
        self.expect('OK t/a\n')
        (self.vm / 'allow').write_text('t\nu\n')
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('test u printed no result', out)

    def test_json_disagrees(self):
        """a failure in the JSON summary that the log shows as passed fails"""
        self.results('t/a:OK')
        self.expect('OK t/a\n')
        (self.vm / 'clang.json').write_text(json.dumps(
            {'results': [{'name': 't', 'failed': True, 'subtests': [{'name': 'a', 'failed': True}]}]}))
        rc, out = self.report()
        self.assertEqual(rc, 1)
        self.assertIn('t/a failed in clang.json, but the log says OK', out)


class Format(TmpDir):
    def file(self, name, text):
        return self.write(name, text)

    def bad(self, text, msg):
        with self.assertRaises(expected.BadFile) as e:
            expected.load(self.file('x', text))
        self.assertIn(msg, str(e.exception))

    def test_skip_needs_reason(self):
        """a skip without a reason, or with bless's FIXME, is refused"""
        self.bad('SKIP t/a\n', 'needs its reason')
        self.bad('SKIP t/a  # FIXME: why\n', 'needs its reason')

    def test_bad_lines(self):
        """FAIL, a bare count, twice the same name and a stray DROP are refused"""
        self.bad('FAIL t/a\n', 'not "OK|SKIP|DROP')
        self.bad('passed 3\n', 'not "OK|SKIP|DROP')
        self.bad('OK t/a\nOK t/a\n', 'listed twice')
        self.bad('DROP t/a\n', 'without an include')

    def test_include(self):
        """an include is the base; its differences and drops apply"""
        self.file('a', 'OK t/a\nOK t/b\nSKIP t/c  # r\n')
        got = expected.load(self.file('b', '# c\ninclude a\nDROP t/b\nSKIP t/a  # s\n'))
        self.assertEqual(got, {'t/a': ('SKIP', 's'), 't/c': ('SKIP', 'r')})
        self.bad('include a\nDROP t/x\n', 'which a does not list')
        self.bad('include nosuch\n', 'does not exist')
        self.bad('OK t/a\ninclude a\n', 'must be the first entry')

    def test_names_with_spaces(self):
        """a subtest name with spaces, a colon and " #" keeps them"""
        got = expected.load(self.file('a', 'OK t/x: y z\nSKIP t/q r  # why\nOK t/decl test #1, x\n'))
        self.assertEqual(got, {'t/x: y z': ('OK', ''), 't/q r': ('SKIP', 'why'), 't/decl test #1, x': ('OK', '')})


class Bless(VM):
    def bless(self, top):
        p = subprocess.run([sys.executable, str(S / 'bless.py'), str(top), str(self.vm)],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def test_new_and_kept_reasons(self):
        """bless writes every leaf, keeps a skip's reason, FIXMEs a new one"""
        top = Path(self.tmp.name)
        edir = top / 'config/expected/7.3'
        edir.mkdir(parents=True)
        (edir / 'llvm.clang').write_text('# head\nOK t/a\nSKIP t/b  # kept\n')
        (self.vm / 'cell').write_text('7.3 llvm config/expected/7.3\n')
        (Path(self.tmp.name) / 'manifest.txt').write_text('manifest:\ndrift: pahole locked 1.32-1, have 1.33-1\n')
        self.results('t/a:OK', 't/b:SKIP', 't/c:SKIP', 't/d:OK')
        rc, out = self.bless(top)
        self.assertEqual(rc, 1, out)
        self.assertIn('+OK    t/d', out)
        text = (edir / 'llvm.clang').read_text()
        self.assertTrue(text.startswith('# head\n# Measured with drift from config/toolchain.lock: '
                                        'pahole locked 1.32-1, have 1.33-1.\n'))
        self.assertIn('SKIP  t/b  # kept', text)
        self.assertIn('SKIP  t/c  # FIXME', text)
        with self.assertRaises(expected.BadFile):
            expected.load(edir / 'llvm.clang')
        # A report on the same results now names the FIXME.
        (self.vm / 'expected.clang').write_text(text)
        self.assertEqual(self.report()[0], 1)

    def test_include_stays_differences(self):
        """a file that includes another is written as its differences"""
        top = Path(self.tmp.name)
        edir = top / 'e'
        edir.mkdir()
        (edir / 'llvm.clang').write_text('OK t/a\nOK t/b\nOK t/c\n')
        (edir / 'gcc.clang').write_text('include llvm.clang\n')
        (self.vm / 'cell').write_text('7.3 gcc e\n')
        self.results('t/a:OK', 't/b:SKIP', 't/d:OK')
        (edir / 'gcc.clang').write_text('include llvm.clang\nSKIP t/b  # no tags\n')
        rc, out = self.bless(top)
        self.assertEqual(rc, 0, out)
        self.assertEqual((edir / 'gcc.clang').read_text(),
                         'include llvm.clang\nSKIP  t/b  # no tags\nDROP  t/c\nOK    t/d\n')
        self.assertEqual(expected.load(edir / 'gcc.clang'),
                         {'t/a': ('OK', ''), 't/b': ('SKIP', 'no tags'), 't/d': ('OK', '')})

    def test_refuses_failures(self):
        """a run with a failed leaf is not blessed"""
        (self.vm / 'cell').write_text('7.3 llvm e\n')
        self.results('t/a:FAIL')
        rc, out = self.bless(Path(self.tmp.name))
        self.assertNotEqual(rc, 0)
        self.assertIn('a failure is never expected', out)
        self.assertFalse((Path(self.tmp.name) / 'e').exists())


if __name__ == '__main__':
    unittest.main()
