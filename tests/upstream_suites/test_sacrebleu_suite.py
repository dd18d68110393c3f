"""sacrebleu 2.6.0's own ``test/`` (from its sdist) run unmodified on
``bleuprint.compat.sacrebleu``: a plugin of ours calls ``install()`` before pytest collects,
so the suite's ``import sacrebleu`` lines load bleuprint. Then the command lines of its
``test.sh`` that need no network, parsed from the sdist's ``test.sh`` and run against the
compat command line.

``test_dataset.py`` and the download tests of ``test_api.py`` need sacrebleu's test-set
servers; they run where the local test-set server is (not here).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import bleuprint.compat.sacrebleu
from tests.upstream import read_member, sdist

VERSION = "2.6.0"
ROOT = f"sacrebleu-{VERSION}/"
# Files that need sacrebleu's test-set downloads (the network or a local test-set server).
NEEDS_TEST_SETS = {"test_dataset.py"}
# sacrebleu.dataset, built apart from the rest of the compat.
DATASET_PACKAGE = Path(bleuprint.compat.sacrebleu.__file__).parent / "dataset"
# test_api.py's tests that download test sets, by name prefix.
DOWNLOADING = ("test_api_get_source", "test_api_get_reference")

# Loaded by the suite's pytest with -p: installs the compat before collection and records what
# `import sacrebleu` gave, so the test can check that the real sacrebleu did not run.
PLUGIN = """
import json, os
import bleuprint.compat.sacrebleu as compat

compat.install()
import sacrebleu

def pytest_sessionfinish(session):
    import sacrebleu as loaded
    import sacrebleu.metrics.bleu, sacrebleu.significance
    with open(os.environ["BLEUPRINT_SUITE_RECORD"], "w") as f:
        json.dump({"version": loaded.__version__, "file": loaded.__file__,
                   "bleu_module": sacrebleu.metrics.bleu.BLEU.__module__}, f)
"""


def extract_suite(destination: Path) -> list[str]:
    """Writes the sdist's ``test/`` and ``pytest.ini`` under ``destination``; returns the test
    file names."""
    archive = sdist("sacrebleu", VERSION)
    names = []
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            name = member.name[len(ROOT) :]
            if not (member.isfile() and (name.startswith("test/") or name == "pytest.ini")):
                continue
            if ".." in Path(name).parts:
                raise ValueError(f"{member.name} points outside the archive")
            extracted = tar.extractfile(member)
            if extracted is None:
                raise FileNotFoundError(member.name)
            with extracted:
                target = destination / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(extracted.read())
            if re.fullmatch(r"test/test_\w+\.py", name):
                names.append(Path(name).name)
    return sorted(names)


def junit_outcomes(report: Path) -> dict[str, Counter[str]]:
    """Per test file, how many tests passed, failed, errored or were skipped."""
    per_file: dict[str, Counter[str]] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        # A file that fails to import is one case named after the module, with no class name.
        dotted = case.get("classname") or case.get("name", "")
        module = dotted.split(".")[-1] + ".py"
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
        per_file.setdefault(module, Counter())[outcome] += 1
    return per_file


@pytest.fixture(scope="module")
def suite_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Runs the suite once; its per-file outcomes, the plugin's record and the test names."""
    root = tmp_path_factory.mktemp("sacrebleu-suite")
    files = extract_suite(root)
    plugin_dir = tmp_path_factory.mktemp("plugin")
    (plugin_dir / "bleuprint_sacrebleu_plugin.py").write_text(PLUGIN, encoding="utf-8")
    record, report = root / "record.json", root / "report.xml"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(plugin_dir), os.environ.get("PYTHONPATH")])
        ),
        "BLEUPRINT_SUITE_RECORD": str(record),
        "SACREBLEU": str(root / ".sacrebleu"),  # never the user's cache
    }
    env.pop("PYTEST_ADDOPTS", None)
    ignored = [f"--ignore=test/{name}" for name in sorted(NEEDS_TEST_SETS)]
    deselected = [f"--deselect=test/test_api.py::{name}" for name in DOWNLOADING]
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "bleuprint_sacrebleu_plugin",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            f"--junitxml={report}",
            "-q",
            "--continue-on-collection-errors",
            *ignored,
            *deselected,
            "test",
        ],  # fmt: skip
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if not report.exists():
        raise AssertionError(f"the suite did not run:\n{completed.stdout}\n{completed.stderr}")
    return {
        "outcomes": junit_outcomes(report),
        "record": json.loads(record.read_text(encoding="utf-8")),
        "files": files,
        "output": completed.stdout[-5000:],
    }


def test_the_suite_ran_on_bleuprint(suite_run: dict[str, object]) -> None:
    record = suite_run["record"]
    assert isinstance(record, dict)
    assert "+bleuprint." in record["version"]
    assert record["bleu_module"] == "bleuprint.compat.sacrebleu.metrics.bleu"
    assert Path(record["file"]).parent.name == "sacrebleu"
    assert "bleuprint" in Path(record["file"]).parts


def test_every_test_file_of_the_suite_ran(suite_run: dict[str, object]) -> None:
    files = suite_run["files"]
    outcomes = suite_run["outcomes"]
    assert isinstance(files, list)
    assert isinstance(outcomes, dict)
    assert set(files) - NEEDS_TEST_SETS == set(outcomes)


@pytest.mark.parametrize(
    "test_file",
    [
        "test_api.py",
        "test_bleu.py",
        "test_chrf.py",
        "test_sentence_bleu.py",
        "test_significance.py",
        "test_ter.py",
        "test_tokenizer_ter.py",
    ],
)
def test_suite_file_passes(suite_run: dict[str, object], test_file: str) -> None:
    if test_file == "test_api.py" and not DATASET_PACKAGE.is_dir():
        pytest.skip("test_api.py imports sacrebleu.dataset: bleuprint.compat.sacrebleu.dataset")
    outcomes = suite_run["outcomes"]
    assert isinstance(outcomes, dict)
    counts = outcomes[test_file]
    assert counts["passed"] > 0, suite_run["output"]
    assert counts["failed"] + counts["error"] == 0, suite_run["output"]


# --- test.sh -------------------------------------------------------------------------------

CONTROL_BLOCK = re.compile(
    r"^\s*echo 'Control character tests'.*?^\s*echo \"Passed control character[^\n]*$", re.M | re.S
)


def control_character_block(script: str) -> str:
    """test.sh's control-character test: two scores from local files, which must agree."""
    found = CONTROL_BLOCK.search(script)
    if found is None:
        raise ValueError("test.sh has no control character test block")
    return found.group(0)


def network_free_commands(script: str) -> list[str]:
    """The ``${CMD}`` command lines of test.sh that read only files the script writes itself:
    none names a test set (``-t``) or the downloaded data."""
    lines = [line.strip() for line in script.splitlines() if "${CMD}" in line]
    return [
        line
        for line in lines
        if not re.search(r"(?:\s-t\s|--echo|\$ref|\$sys|\$txt|\$path|wmt1\d)", line)
    ]


def test_test_sh_parsing() -> None:
    script = (
        "echo 'Control character tests'\nscore1=$( echo a | ${CMD} -b r )\nlet i++\n"
        'echo "Passed control character in reference test"\nlater\n'
    )
    assert control_character_block(script).endswith('reference test"')
    assert network_free_commands(script) == ["score1=$( echo a | ${CMD} -b r )"]
    assert network_free_commands("x=$(${CMD} -t wmt17 -l en-de)\n") == []


def test_test_sh_network_free_commands(tmp_path: Path) -> None:
    """Every network-free command line of test.sh (the control-character test) passes on the
    compat command line, run through ``python -m bleuprint.compat.sacrebleu -m sacrebleu``."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("test.sh needs bash")
    script = read_member(sdist("sacrebleu", VERSION), ROOT + "test.sh").decode("utf-8")
    block = control_character_block(script)
    commands = network_free_commands(script)
    assert len(commands) == 2
    assert all(command in block for command in commands)
    program = f"set -u\nCMD='{sys.executable} -m bleuprint.compat.sacrebleu -m sacrebleu'\ni=0\n"
    completed = subprocess.run(
        [bash, "-c", program + block],
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1", "SACREBLEU_FORMAT": "text"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "Passed control character in reference test" in completed.stdout
    assert completed.stderr == ""
