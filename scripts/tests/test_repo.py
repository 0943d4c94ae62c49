# SPDX-License-Identifier: GPL-2.0
"""The repository's own tables: they parse, and README.md's matrix is theirs."""
import subprocess
import sys
import unittest
from pathlib import Path

S = Path(__file__).resolve().parent.parent
TOP = S.parent
sys.path.insert(0, str(S))
import expected  # noqa: E402


class Repo(unittest.TestCase):
    def test_expected_files_parse(self):
        """every file of config/expected/ parses, each skip with its reason"""
        files = [p for p in (TOP / 'config/expected').rglob('*') if p.is_file()]
        self.assertTrue(files)
        for p in files:
            with self.subTest(p=str(p)):
                self.assertTrue(expected.load(p))

    def test_outcome_lists_parse(self):
        """every other outcome table of config/ is a list in the one format"""
        import re
        lists = {'basecmp-fails': ({'FAIL', 'FLAKY'}, 0), '6.12/basecmp-fails': ({'FAIL', 'FLAKY'}, 0),
                 'regress-fails': ({'FAIL', 'FLAKY'}, 0), 'vcost-diffs': ({'DIFF'}, 0),
                 '6.12/libbpf-old-diffs': ({'DIFF'}, 0), 'fuzz-intended': (None, 1)}
        for name, (words, args) in lists.items():
            with self.subTest(name=name):
                rows = expected.entries(TOP / 'config' / name, words, args)
                self.assertTrue(rows)
                if name == 'fuzz-intended':
                    for _, _, rx, _ in rows:
                        re.compile(rx[0])

    def test_readme_matrix(self):
        """README.md's test matrix is the one config/expected/ gives"""
        p = subprocess.run([sys.executable, str(S / 'matrix.py'), str(TOP), '--check'],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_bases_table(self):
        """config/bases: eight columns, known archives, existing series and prerequisite dirs"""
        rows = expected.bases(TOP)
        self.assertTrue(rows)
        for r in rows:
            with self.subTest(base=r[0]):
                self.assertEqual(len(r), 8)
                for d in r[7].split(','):
                    if d != '-':
                        self.assertTrue((TOP / d / 'series').is_file(), d)
                        self.assertTrue((TOP / d / '0000-cover-letter.patch').is_file(), d)
                self.assertIn(r[4], ('sid', 'experimental', 'host'))
                self.assertRegex(r[3], '^([0-9a-f]{64}|-)$')
                for d in r[5].split(','):
                    self.assertTrue((TOP / d).is_dir(), d)
                self.assertTrue((TOP / r[5].split(',')[-1] / 'series').is_file())


if __name__ == '__main__':
    unittest.main()
