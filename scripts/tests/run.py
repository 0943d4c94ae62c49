#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fast tests: unit tests of the harness's judges (report.py,
expected.py, bless.py, ...) on fixtures they make themselves. No root, no
network, no cache; seconds. Prints "ok - NAME" or "FAIL - NAME" per test and
"fast: N passed, N failed"; exits 1 on a failure."""
import sys
import unittest
from pathlib import Path


class Result(unittest.TextTestResult):
    def name(self, test):
        doc = test.shortDescription()
        return f'{test.id().split(".", 1)[1]}' + (f': {doc}' if doc else '')

    def addSuccess(self, test):
        super().addSuccess(test)
        print(f'ok - {self.name(test)}', flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        print(f'FAIL - {self.name(test)}\n    ' +
              self._exc_info_to_string(err, test).strip().replace('\n', '\n    '), flush=True)

    addError = addFailure

    def addSubTest(self, test, subtest, err):
        # A failed subTest counts as its test's failure, by name.
        super().addSubTest(test, subtest, err)
        if err is not None:
            print(f'FAIL - {self.name(test)} {subtest._subDescription()}\n    ' +
                  self._exc_info_to_string(err, test).strip().replace('\n', '\n    '), flush=True)


def main():
    here = Path(__file__).parent
    suite = unittest.defaultTestLoader.discover(str(here), pattern='test_*.py', top_level_dir=str(here))
    res = unittest.TextTestRunner(resultclass=Result, verbosity=0, stream=open('/dev/null', 'w')).run(suite)
    bad = len(res.failures) + len(res.errors)
    print(f'fast: {res.testsRun - bad} passed, {bad} failed')
    return 1 if bad or not res.testsRun else 0


if __name__ == '__main__':
    sys.exit(main())
