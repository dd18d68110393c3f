"""rouge-score 0.1.2's own tests (``rouge_score/*_test.py`` from its sdist) run unmodified on
``bleuprint.compat.rouge_score``: a conftest of ours calls ``install()`` before pytest collects,
so the suite's ``from rouge_score import ...`` lines load bleuprint. The same suite also runs
on the real rouge-score (where installed) as the control: every test must end as it ends
there, but the two that test rouge-score's private LCS helpers (``testLcsTable``:
``_lcs_table``, ``_backtrack_norec``; ``testUnionLcs``: ``_find_union``, ``_union_lcs``),
which the compat leaves to the core and does not provide.

The sdist has no ``testdata/`` directory, and its ``rouge_scorer_test.py``, ``scoring_test.py``
and ``io_test.py`` read it in every ``setUp``. Without it only ``tokenize_test.py`` and
``tokenizers_test.py`` run (3 tests). ``$BLEUPRINT_ROUGE_TESTDATA`` names a copy of
google-research's ``rouge/testdata`` (``target.txt``, ``prediction.txt``, ``delimited.txt``,
``target_large.txt``, ``prediction_large.txt``, ``pyrouge_files/``): then all five files run,
and a test whose file is missing there fails in both runs alike. The test of nltk's sentence
splitting (``testRougeLSumSentenceSplitting``) needs nltk's ``punkt_tab`` model; without it it
fails in both runs alike (``LookupError``). tests/compat/test_rouge_score.py covers what these
tests check against the real rouge-score, without testdata.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tarfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from tests.support.upstream import junit_cases, run_pytest, sdist, suite_environment

VERSION = "0.1.2"
ROOT = f"rouge_score-{VERSION}/rouge_score/"
TESTDATA_ENV = "BLEUPRINT_ROUGE_TESTDATA"
#: The suite's files that read no testdata/.
DATA_FREE = ("tokenize_test.py", "tokenizers_test.py")
#: Tests of rouge-score's private LCS helpers, which the compat does not provide.
NOT_PROVIDED = {
    "rouge_scorer_test.py::testLcsTable": "_lcs_table",
    "rouge_scorer_test.py::testUnionLcs": "_find_union",
}

# Loaded first by the suite's pytest (a conftest.py beside the tests): installs the compat
# (unless the control run), and serves the sdist's test_util, beside testdata/, as
# rouge_score.test_util (the compat has none; the installed rouge-score's looks for testdata/
# in site-packages).
CONFTEST = """
import importlib.util, json, os, sys

if os.environ["BLEUPRINT_ROUGE_SUITE"] == "bleuprint":
    import bleuprint.compat.rouge_score as compat

    compat.install()
import rouge_score

_spec = importlib.util.spec_from_file_location(
    "rouge_score.test_util", os.path.join(os.path.dirname(__file__), "test_util.py")
)
test_util = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(test_util)
sys.modules["rouge_score.test_util"] = test_util
rouge_score.test_util = test_util


def pytest_sessionfinish(session):
    from rouge_score import rouge_scorer, scoring, tokenize

    with open(os.environ["BLEUPRINT_SUITE_RECORD"], "w") as f:
        json.dump(
            {
                "modules": [m.__name__ for m in (rouge_scorer, scoring, tokenize)],
                "scorer": rouge_scorer.RougeScorer.__module__,
            },
            f,
        )
"""
# The suite runs under the project's warning policy (every warning an error), in its own
# rootdir so that this project's pytest settings do not apply to it.
SUITE_INI = "[pytest]\nfilterwarnings =\n    error\n"


def extract_suite(destination: Path) -> list[str]:
    """Writes the sdist's ``*_test.py`` and ``test_util.py`` into ``destination``; returns
    the test file names."""
    names = []
    with tarfile.open(sdist("rouge_score", VERSION)) as tar:
        for member in tar.getmembers():
            name = member.name[len(ROOT) :] if member.name.startswith(ROOT) else ""
            if not (member.isfile() and re.fullmatch(r"\w+_test\.py|test_util\.py", name)):
                continue
            extracted = tar.extractfile(member)
            if extracted is None:
                raise FileNotFoundError(member.name)
            with extracted:
                (destination / name).write_bytes(extracted.read())
            if name != "test_util.py":
                names.append(name)
    return sorted(names)


def failure_text(report: Path, case_name: str) -> str:
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.get("name") == case_name:
            return " ".join((child.get("message") or "") + (child.text or "") for child in case)
    return ""


def run_suite(root: Path, files: list[str], which: str) -> tuple[dict[str, str], dict, Path]:
    """Runs ``files`` of the suite in ``root`` on ``which`` (``bleuprint`` or
    ``rouge-score``); per-case outcomes, the conftest's record and the report."""
    record, report = root / f"record-{which}.json", root / f"report-{which}.xml"
    env = suite_environment({"BLEUPRINT_ROUGE_SUITE": which, "BLEUPRINT_SUITE_RECORD": str(record)})
    args = [*files, "-c", "pytest.ini", "-p", "no:xdist", f"--junitxml={report}", "-q"]
    done = run_pytest(root, args, env, timeout=600)
    if not report.exists() or not record.exists():
        raise AssertionError(f"the suite did not run:\n{done.stdout}\n{done.stderr}")
    return junit_cases(report), json.loads(record.read_text(encoding="utf-8")), report


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    pytest.importorskip("absl.testing.absltest", reason="rouge-score's tests use absl-py")
    pytest.importorskip("nltk", reason="rouge-score's tests import nltk")
    root = tmp_path_factory.mktemp("rouge-score-suite")
    files = extract_suite(root)
    testdata = os.environ.get(TESTDATA_ENV)
    if testdata:
        shutil.copytree(testdata, root / "testdata")
        run = files
    else:
        run = [f for f in files if f in DATA_FREE]
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "pytest.ini").write_text(SUITE_INI, encoding="utf-8")
    ours, record, report = run_suite(root, run, "bleuprint")
    control = None
    try:
        import rouge_score  # noqa: F401 (the control run needs the real one)
    except ImportError:
        pass
    else:
        control = run_suite(root, run, "rouge-score")
    return {
        "files": files,
        "ran": run,
        "ours": ours,
        "record": record,
        "report": report,
        "control": control,
        "testdata": bool(testdata),
    }


def test_the_suite_is_rouge_scores_five_files() -> None:
    pytest.importorskip("absl.testing.absltest")
    assert extract_suite_names() == [
        "io_test.py",
        "rouge_scorer_test.py",
        "scoring_test.py",
        "tokenize_test.py",
        "tokenizers_test.py",
    ]


def extract_suite_names() -> list[str]:
    with tarfile.open(sdist("rouge_score", VERSION)) as tar:
        return sorted(
            m.name[len(ROOT) :]
            for m in tar.getmembers()
            if m.name.startswith(ROOT) and m.name.endswith("_test.py")
        )


def test_the_suite_ran_on_bleuprint(suite: dict[str, object]) -> None:
    record = suite["record"]
    assert isinstance(record, dict)
    assert record["scorer"] == "bleuprint.compat.rouge_score.rouge_scorer"
    assert all(m.startswith("bleuprint.compat.rouge_score.") for m in record["modules"])
    ours = suite["ours"]
    assert isinstance(ours, dict)
    assert {case.split("::")[0] for case in ours} == set(suite["ran"])  # type: ignore[arg-type]


def test_the_data_free_tests_pass(suite: dict[str, object]) -> None:
    ours = suite["ours"]
    assert isinstance(ours, dict)
    data_free = {case: o for case, o in ours.items() if case.split("::")[0] in DATA_FREE}
    assert len(data_free) == 3
    assert set(data_free.values()) == {"passed"}


def test_every_test_ends_as_on_rouge_score(suite: dict[str, object]) -> None:
    """The same outcome as the real rouge-score's for every test, but the two of the LCS
    helpers left out, which fail here for that reason only."""
    if suite["control"] is None:
        pytest.skip("rouge-score is not installed: no control run")
    ours, report = suite["ours"], suite["report"]
    theirs = suite["control"][0]  # type: ignore[index]
    assert isinstance(ours, dict)
    assert isinstance(report, Path)
    assert set(ours) == set(theirs)
    differ = {case for case in ours if ours[case] != theirs[case]}
    if suite["testdata"]:
        assert differ == set(NOT_PROVIDED)
        for case, helper in NOT_PROVIDED.items():
            assert ours[case] == "failed"
            assert theirs[case] == "passed"
            assert helper in failure_text(report, case.split("::")[1])
    else:
        assert differ == set()
    counts = Counter(ours.values())
    print(f"rouge-score's suite on bleuprint: {dict(counts)}; on rouge-score: "
          f"{dict(Counter(theirs.values()))}")  # fmt: skip
