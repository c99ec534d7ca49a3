"""Where the test data is, in the order the Rust tests look
(tests/common/mod.rs): $TOOLJSON_TESTDATA when set, the repository's
tests/data/, then ../shared/testdata beside the repository. A test that
needs it fails (never skips) when none is there."""

import os
import pathlib
import sys

import pytest

# The test modules share helpers by importing each other.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

REPO = pathlib.Path(__file__).resolve().parents[2]


def _testdata_root():
    candidates = []
    if os.environ.get("TOOLJSON_TESTDATA"):
        candidates.append(pathlib.Path(os.environ["TOOLJSON_TESTDATA"]))
    candidates += [REPO / "tests" / "data", REPO.parent / "shared" / "testdata"]
    for c in candidates:
        if (c / "vendor-streams").is_dir() and (c / "JSONTestSuite").is_dir():
            return c
    return None


TESTDATA = _testdata_root()
EXPECTED = REPO / "corpus" / "transcripts" / "expected"


@pytest.fixture(scope="session")
def testdata():
    assert TESTDATA is not None, (
        "no test data: looked in tests/data, $TOOLJSON_TESTDATA and ../shared/testdata"
    )
    return TESTDATA
