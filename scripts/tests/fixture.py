# SPDX-License-Identifier: GPL-2.0
"""What the fast tests share: a scratch folder per test."""
import tempfile
import unittest
from pathlib import Path


class TmpDir(unittest.TestCase):
    """self.d: a new empty folder for each test; self.write(NAME, TEXT)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        (self.d / name).write_text(text)
        return self.d / name
