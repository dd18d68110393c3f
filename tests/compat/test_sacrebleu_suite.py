"""sacrebleu 2.6.0's own ``test/`` (from its sdist) run unmodified on
``bleuprint.compat.sacrebleu``: a plugin of ours calls ``install()`` before pytest collects,
so the suite's ``import sacrebleu`` lines load bleuprint. Then the command lines of its
``test.sh`` that need no network beyond a local server, parsed from the sdist's ``test.sh``
and run against the compat command line.

Test sets (``test_dataset.py``, ``test_api.py``'s downloads, ``test.sh``'s ``-t`` lines): an
HTTP server on 127.0.0.1 in this process serves every registry entry's synthetic downloads
(``tests/support/testsets_fixtures.py``) under the mirror's names, and the subprocesses fetch them
through ``$BLEUPRINT_TESTSET_MIRROR`` into a temporary ``$SACREBLEU``. ``test_api.py``'s
expected sentence pairs, read from the sdist, are planted at their lines in the archives.
Files with planted lines, and the test sets test.sh reads (it deletes every carriage return
before comparing), have no carriage return inside a segment; the others keep all their
awkward text.

The one substitution: synthetic archives cannot have the real MD5 sums, so the subprocesses
replace the registry's MD5 sums by the synthetic archives' before anything runs
(``sacrebleu_testsets.use_synthetic_md5s``). ``test_real_md5s_refuse_the_synthetic_archives``
checks that without it they are refused.

test.sh has 29 ``${CMD}`` lines. Run: the 2 network-free control-character lines, and 5
test-set lines whose outcome does not depend on the real text (``--echo src -t wmt17``;
``--echo ref`` into a file, scored with ``-i``, must give 100.0; ``--echo src`` and
``--echo ref:2`` of wmt17/ms must equal the cached text files). Not run (22): 4 lines whose
expected values are scores of the real WMT16-19 data (``EXPECTED[...]``: wmt16,wmt17 en-fi
against ``/B`` twice, wmt17 en-fi ``--detail``, wmt18,wmt19 en-de ``--detail``); 5 ``-t
wmt17`` lines in the chrF, chrF++, mteval-v13a, mteval-v14 and TER loops, which score the
WMT17 system outputs (``wmt17-submitted-data``, from data.statmt.org) against real scores;
11 BLEU/chrF regression lines on those same system outputs; 2 MeCab lines on English-Japanese
and English-Korean data from GitHub.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bleuprint.testsets import cache
from bleuprint.testsets.download import ChecksumError, mirror_location
from bleuprint.testsets.registry import entries
from tests.support.http_server import FileServer, running_server
from tests.support.sacrebleu_testsets import MD5_TABLE_ENV, planted_segments, serve_test_sets
from tests.support.upstream import junit_cases, read_member, run_pytest, sdist, suite_environment

VERSION = "2.6.0"
ROOT = f"sacrebleu-{VERSION}/"
# test_api.py's tests that download test sets, by name prefix.
DOWNLOADING = ("test_api_get_source", "test_api_get_reference")

# Loaded by the suite's pytest with -p: makes the MD5 substitution, installs the compat before
# collection and records what `import sacrebleu` gave, so the test can check that the real
# sacrebleu did not run.
PLUGIN = """
import json, os
from tests.support.sacrebleu_testsets import use_synthetic_md5s

use_synthetic_md5s()
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
    for case, outcome in junit_cases(report).items():
        per_file.setdefault(case.split("::")[0], Counter())[outcome] += 1
    return per_file


@pytest.fixture(scope="module")
def test_set_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    """A local server holding every test set's synthetic downloads, with test_api.py's
    sentence pairs planted; the server, the environment the subprocesses need and the
    served paths."""
    test_api = read_member(sdist("sacrebleu", VERSION), ROOT + "test/test_api.py")
    planted = planted_segments(test_api.decode("utf-8"))
    folder = tmp_path_factory.mktemp("test-sets")
    with running_server() as server:
        table = serve_test_sets(server, list(entries()), planted, TEST_SH_TEST_SETS)
        md5_table = folder / "md5s.json"
        md5_table.write_text(json.dumps(table), encoding="utf-8")
        env = {
            "BLEUPRINT_TESTSET_MIRROR": server.url,
            MD5_TABLE_ENV: str(md5_table),
            "BLEUPRINT_NO_PROGRESS": "1",
        }
        yield {"server": server, "env": env, "planted": planted}


@pytest.fixture(scope="module")
def suite_run(
    tmp_path_factory: pytest.TempPathFactory, test_set_server: dict[str, object]
) -> dict[str, object]:
    """Runs the suite once; its per-file and per-case outcomes, the plugin's record and the
    test file names."""
    root = tmp_path_factory.mktemp("sacrebleu-suite")
    files = extract_suite(root)
    plugin_dir = tmp_path_factory.mktemp("plugin")
    (plugin_dir / "bleuprint_sacrebleu_plugin.py").write_text(PLUGIN, encoding="utf-8")
    record, report = root / "record.json", root / "report.xml"
    server_env = test_set_server["env"]
    assert isinstance(server_env, dict)
    env = suite_environment(
        {
            **server_env,
            "BLEUPRINT_SUITE_RECORD": str(record),
            "SACREBLEU": str(root / ".sacrebleu"),  # never the user's cache
        },
        plugin_dir,
    )
    args = ["-p", "bleuprint_sacrebleu_plugin", "-p", "no:xdist", f"--junitxml={report}", "-q"]
    completed = run_pytest(root, [*args, "--continue-on-collection-errors", "test"], env, 900)
    if not report.exists():
        raise AssertionError(f"the suite did not run:\n{completed.stdout}\n{completed.stderr}")
    return {
        "outcomes": junit_outcomes(report),
        "cases": junit_cases(report),
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
    assert set(files) == set(outcomes)


@pytest.mark.parametrize(
    "test_file",
    [
        "test_api.py",
        "test_bleu.py",
        "test_chrf.py",
        "test_dataset.py",
        "test_sentence_bleu.py",
        "test_significance.py",
        "test_ter.py",
        "test_tokenizer_ter.py",
    ],
)
def test_suite_file_passes(suite_run: dict[str, object], test_file: str) -> None:
    outcomes = suite_run["outcomes"]
    assert isinstance(outcomes, dict)
    counts = outcomes[test_file]
    assert counts["passed"] > 0, suite_run["output"]
    assert counts["failed"] + counts["error"] == 0, suite_run["output"]
    assert counts["skipped"] == 0, suite_run["output"]


def test_the_downloading_tests_ran_on_planted_sentences(
    suite_run: dict[str, object], test_set_server: dict[str, object]
) -> None:
    """test_api.py's six download cases (one per planted sentence pair and side) and the
    five tests of test_dataset.py passed, each by name."""
    cases = suite_run["cases"]
    planted = test_set_server["planted"]
    assert isinstance(cases, dict)
    assert isinstance(planted, dict)
    downloading = {c: o for c, o in cases.items() if c.split("::")[1].startswith(DOWNLOADING)}
    assert len(downloading) == len(DOWNLOADING) * sum(len(p) for p in planted.values()) == 6
    dataset = {c: o for c, o in cases.items() if c.startswith("test_dataset.py::")}
    assert len(dataset) == 5
    assert set(downloading.values()) | set(dataset.values()) == {"passed"}


def test_the_suite_fetched_every_download_from_the_server(
    suite_run: dict[str, object], test_set_server: dict[str, object]
) -> None:
    """The suite's subprocess fetched each served file (test_source_and_references reads
    every test set), and every request was answered from what the server holds."""
    server = test_set_server["server"]
    assert isinstance(server, FileServer)
    assert suite_run["cases"]
    requested = {r.path for r in server.log if r.method == "GET"}
    assert requested == set(server.files)
    assert {r.status for r in server.log} == {200}


def test_real_md5s_refuse_the_synthetic_archives(
    test_set_server: dict[str, object], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the substitution, the registry's real MD5 sums refuse what the server holds
    (the synthetic archive, test_api.py's sentences planted), and nothing reaches the cache."""
    server_env = test_set_server["env"]
    assert isinstance(server_env, dict)
    monkeypatch.setenv("BLEUPRINT_TESTSET_MIRROR", server_env["BLEUPRINT_TESTSET_MIRROR"])
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    entry = entries()["wmt19"]
    assert entry.md5 is not None
    with pytest.raises(ChecksumError, match=f"not the expected {entry.md5[0]}"):
        cache.ensure_raw(entry, ["de-en"], progress=False)
    assert [p.name for p in cache.rawdir(entry).iterdir()] == ["wmt19.test.tgz.lock"]


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


# Blocks of test.sh with test-set lines whose outcome does not depend on the real text: the
# first download (--echo src), and the file and echo tests (--echo ref scored with -i gives
# 100.0; --echo src and --echo ref:2 equal the cached text files).
TEST_SET_BLOCKS = [
    re.compile(r"^# TEST 1:.*?^\$\{CMD\} --echo src -t \S+ -l \S+ > /dev/null$", re.M | re.S),
    re.compile(
        r"^\s*# Test loading via file instead of STDIN.*?(?=^\s*export LC_ALL=C)", re.M | re.S
    ),
]
# The test sets those blocks read. test.sh deletes every carriage return of what it compares
# (`tr -d '\015'`, for Windows), so their synthetic segments have none inside.
TEST_SH_TEST_SETS = {"wmt17", "wmt17/ms"}
# Why the other ${CMD} lines cannot run here, by a pattern of the line.
NOT_RUN = {
    "expects scores of the real WMT data": r"^EXPECTED\[\"\$\{CMD\} -t ",
    "scores WMT17 system outputs (data.statmt.org) against real scores": r"cat \$txt \| .* -t ",
    "BLEU/chrF regression on WMT17 system outputs (data.statmt.org)": r"-i \$sys",
    "MeCab tests on English-Japanese/Korean data from GitHub": r"cat \$txt \| .* -b \$ref\)$",
}


def blocks_on_test_sets(script: str) -> list[str]:
    """The blocks of test.sh (see ``TEST_SET_BLOCKS``) that run on synthetic test sets."""
    blocks = []
    for pattern in TEST_SET_BLOCKS:
        found = pattern.search(script)
        if found is None:
            raise ValueError(f"test.sh has no block matching {pattern.pattern!r}")
        blocks.append(found.group(0))
    return blocks


def command_lines(script: str) -> list[str]:
    return [line.strip() for line in script.splitlines() if "${CMD}" in line]


def test_test_sh_parsing() -> None:
    script = (
        "echo 'Control character tests'\nscore1=$( echo a | ${CMD} -b r )\nlet i++\n"
        'echo "Passed control character in reference test"\nlater\n'
    )
    assert control_character_block(script).endswith('reference test"')
    assert network_free_commands(script) == ["score1=$( echo a | ${CMD} -b r )"]
    assert network_free_commands("x=$(${CMD} -t wmt17 -l en-de)\n") == []
    with pytest.raises(ValueError, match="no block"):
        blocks_on_test_sets(script)


def test_test_sh_commands_are_all_accounted_for() -> None:
    """Each of test.sh's 29 ${CMD} lines is run (network-free or on synthetic test sets) or
    has a reason not to be, as the module docstring lists."""
    script = read_member(sdist("sacrebleu", VERSION), ROOT + "test.sh").decode("utf-8")
    commands = command_lines(script)
    free = network_free_commands(script)
    on_test_sets = [c for block in blocks_on_test_sets(script) for c in command_lines(block)]
    not_run = [c for c in commands if c not in free and c not in on_test_sets]
    reasons = [[why for why, pattern in NOT_RUN.items() if re.search(pattern, c)] for c in not_run]
    assert all(len(why) == 1 for why in reasons), list(zip(not_run, reasons))
    counts = Counter(why[0] for why in reasons)
    assert (len(commands), len(free), len(on_test_sets)) == (29, 2, 5)
    assert dict(counts) == dict(zip(NOT_RUN, [4, 5, 11, 2]))
    read = {name for c in on_test_sets for name in re.findall(r" -t (\S+)", c)}
    assert read == TEST_SH_TEST_SETS


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


def test_test_sh_test_set_commands(tmp_path: Path, test_set_server: dict[str, object]) -> None:
    """test.sh's test-set blocks, unmodified but for ``set -euo pipefail``, pass on the
    compat command line (with the MD5 substitution) against the local server: the first
    download, ``--echo ref`` scored back with ``-i`` gives 100.0, and ``--echo src`` and
    ``--echo ref:2`` of wmt17/ms equal the cached text files."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("test.sh needs bash")
    script = read_member(sdist("sacrebleu", VERSION), ROOT + "test.sh").decode("utf-8")
    server = test_set_server["server"]
    server_env = test_set_server["env"]
    assert isinstance(server, FileServer)
    assert isinstance(server_env, dict)
    sacrebleu_dir = tmp_path / ".sacrebleu"
    cmd = f"{sys.executable} -m tests.support.sacrebleu_testsets"
    program = f"set -euo pipefail\nCMD='{cmd}'\ni=0\n" + "\n".join(blocks_on_test_sets(script))
    env = suite_environment({**server_env, "SACREBLEU": str(sacrebleu_dir), "NO_COLOR": "1"})
    env["SACREBLEU_FORMAT"] = "text"
    logged = len(server.log)
    completed = subprocess.run(
        [bash, "-c", program],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.splitlines() == ["Testing loading via file instead of STDIN", "PASS"]
    # The compared files are real text, not two empty outputs.
    for name in ["wmt17_ms.zh-en.src", "wmt17_ms.zh-en.ref-2"]:
        assert (sacrebleu_dir / "wmt17" / "ms" / name).read_text(encoding="utf-8").strip()
    # ... downloaded from the server (into the fresh cache) by these lines.
    fetched = {r.path for r in server.log[logged:] if r.status == 200}
    wanted = {
        urllib.parse.urlsplit(mirror_location(server.url, name, url)).path
        for name in sorted(TEST_SH_TEST_SETS)
        for url in entries()[name].data
    }
    assert wanted <= fetched
