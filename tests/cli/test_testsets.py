"""The command line's built-in test sets (``-t``, ``-l``, ``-ol``, ``--subset``, ``-d``,
``--echo``, ``--list``, ``--citation``) against sacrebleu 2.6.0's command line, both reading
one cache (``$SACREBLEU``) filled with synthetic raw archives of each upstream format.

Where sacrebleu crashes or misprints (noted per case) only bleuprint's side is checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bleuprint
from tests.support.testsets_fixtures import place

pytest.importorskip("sacrebleu")

OUR_VERSION = f"bleuprint-{bleuprint.__version__}"
# (test set, language pair, an origlang its documents have): one per raw format with origlang.
TEST_SETS = [
    ("wmt22", "en-de", "en"),  # WMT XML, with systems and two translators
    ("wmt19", "de-en", "de"),  # fake SGML with WMT19's subset annotations
    ("wmt14", "de-en", "de"),  # fake SGML
]
PLAIN = [("iwslt17", "en-de"), ("mtnt2019", "en-fr"), ("mtedx/test", "es-en")]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sacrebleu-cache")
    for name in [t for t, _, _ in TEST_SETS] + [t for t, _ in PLAIN]:
        place(name, root)
    return root


def _run(tool: str, args: list[str], cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "SACREBLEU_FORMAT")}
    env.update(SACREBLEU=str(cache), PYTHONIOENCODING="utf-8", BLEUPRINT_NO_PROGRESS="1")
    return subprocess.run(
        [sys.executable, "-m", tool, *args],
        cwd=cwd,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


def _normalized(text: bytes) -> str:
    """Output with bleuprint's version where signatures name the tool (sacrebleu's is 2.6.0)."""
    return text.decode("utf-8").replace(OUR_VERSION, "2.6.0")


def _same(args: list[str], cache: Path, cwd: Path) -> str:
    ours = _run("bleuprint", args, cache, cwd)
    theirs = _run("sacrebleu", args, cache, cwd)
    assert theirs.returncode == 0, theirs.stderr.decode()
    assert ours.returncode == 0, ours.stderr.decode()
    assert _normalized(ours.stdout) == _normalized(theirs.stdout)
    return ours.stdout.decode("utf-8")


def _hypotheses(cache: Path, cwd: Path, name: str, pair: str, field: str) -> Path:
    """A system output: one field of the test set (a system's, or the source)."""
    echoed = _run("bleuprint", ["-t", name, "-l", pair, "--echo", field], cache, cwd)
    assert echoed.returncode == 0, echoed.stderr.decode()
    path = cwd / f"{name.replace('/', '_')}.{field}.txt"
    path.write_bytes(echoed.stdout)
    return path


@pytest.mark.parametrize(("name", "pair", "origlang"), TEST_SETS)
@pytest.mark.parametrize(
    "options",
    [
        [],
        ["-m", "bleu", "chrf", "ter", "-f", "text"],
        ["-ol", "{origlang}"],
        ["-ol", "non-{origlang}", "-m", "chrf"],
        ["-d", "--no-color"],
        ["-d", "-m", "bleu", "chrf", "ter", "--no-color"],
        ["-d", "-f", "json", "--no-color"],  # sacrebleu switches -d output to text
        ["-sl", "-ol", "{origlang}"],
        ["-ci", "-cin", "30", "-ol", "{origlang}", "-f", "text"],
        ["--echo", "src", "docid", "origlang"],
        ["--echo", "ref", "-ol", "{origlang}"],
    ],
    ids=lambda o: " ".join(o) if isinstance(o, list) else str(o),
)
def test_same_output_as_sacrebleu(
    cache: Path, tmp_path: Path, name: str, pair: str, origlang: str, options: list[str]
) -> None:
    hyp = _hypotheses(cache, tmp_path, name, pair, "src")
    args = ["-t", name, "-l", pair, "-i", str(hyp), *(o.format(origlang=origlang) for o in options)]
    _same(args, cache, tmp_path)


def test_subsets(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every WMT19 annotation (domains and countries) that keeps segments scores as in
    sacrebleu; one that keeps none is sacrebleu's error (whose message repeats the subset)."""
    from bleuprint.testsets import get_available_subsets, keep_flags

    monkeypatch.setenv("SACREBLEU", str(cache))
    hyp = _hypotheses(cache, tmp_path, "wmt19", "de-en", "src")
    subsets = get_available_subsets("wmt19", "de-en")
    kept = [s for s in subsets if any(keep_flags("wmt19", "de-en", None, s))]
    assert any(s.startswith("country:") for s in kept)
    assert len(kept) < len(subsets)
    for subset in subsets:
        args = ["-t", "wmt19", "-l", "de-en", "-i", str(hyp), "--subset", subset, "-b"]
        if subset in kept:
            _same(args, cache, tmp_path)
        else:
            ours = _run("bleuprint", args, cache, tmp_path)
            assert ours.returncode == 1
            assert f"contains no sentence with subset={subset}\n".encode() in ours.stderr


@pytest.mark.parametrize(("name", "pair"), PLAIN)
def test_other_formats_score_as_sacrebleu(
    cache: Path, tmp_path: Path, name: str, pair: str
) -> None:
    hyp = _hypotheses(cache, tmp_path, name, pair, "src")
    _same(["-t", name, "-l", pair, "-i", str(hyp), "-m", "bleu", "chrf"], cache, tmp_path)
    _same(["-t", name, "-l", pair, "--echo", "src", "ref"], cache, tmp_path)


def test_concatenated_test_sets(cache: Path, tmp_path: Path) -> None:
    one = _hypotheses(cache, tmp_path, "wmt14", "de-en", "src").read_bytes()
    both = tmp_path / "both.txt"
    both.write_bytes(one + one)
    _same(["-t", "wmt14,wmt14", "-l", "de-en", "-i", str(both), "-f", "text"], cache, tmp_path)
    _same(["-t", "wmt14,wmt14", "-l", "de-en", "-i", str(both), "-ol", "de"], cache, tmp_path)


def test_systems_and_paired_tests(cache: Path, tmp_path: Path) -> None:
    # Not sysOne against sys-Two: their scores tie, where bleuprint's p-value is
    # deliberately 1, not sacrebleu's 1/(n+1) (docs/significance.md).
    first = _hypotheses(cache, tmp_path, "wmt22", "en-de", "sysOne")
    second = _hypotheses(cache, tmp_path, "wmt22", "en-de", "src")
    base = ["-t", "wmt22", "-l", "en-de", "-i", str(first), str(second), "--no-color"]
    _same(base, cache, tmp_path)
    _same([*base, "-pbs", "-pbsn", "40", "-ol", "en"], cache, tmp_path)


def test_standard_input(cache: Path, tmp_path: Path) -> None:
    hyp = _hypotheses(cache, tmp_path, "wmt19", "de-en", "src").read_bytes()
    env_args = ["-t", "wmt19", "-l", "de-en", "-b"]
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(SACREBLEU=str(cache), BLEUPRINT_NO_PROGRESS="1")
    outputs = [
        subprocess.run(
            [sys.executable, "-m", tool, *env_args],
            input=hyp,
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=True,
        ).stdout
        for tool in ("bleuprint", "sacrebleu")
    ]
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(
    "args",
    [
        ["--list"],
        ["--list", "-l", "de-en"],
        ["--list", "-t", "wmt19"],
        ["--list", "-t", "wmt14", "-l", "de-en"],
    ],
)
def test_list(cache: Path, tmp_path: Path, args: list[str]) -> None:
    out = _same(args, cache, tmp_path)
    assert out.count("\n") > 1 or "-t" in args


def test_citation(cache: Path, tmp_path: Path) -> None:
    # sacrebleu 2.6.0 crashes here ('citation' in a Dataset object): compare with its registry.
    from sacrebleu.dataset import DATASETS

    ours = _run("bleuprint", ["-t", "wmt19,wmt14", "--citation"], cache, tmp_path)
    assert ours.returncode == 0, ours.stderr.decode()
    expected = DATASETS["wmt19"].citation + "\n" + DATASETS["wmt14"].citation + "\n"
    assert ours.stdout.decode("utf-8") == expected
    missing = _run("bleuprint", ["-t", "wmt22", "--citation"], cache, tmp_path)
    assert missing.returncode == 0
    assert b"No citation found for wmt22" in missing.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-t", "wmt99", "-l", "de-en"], "Unknown test set 'wmt99'"),
        (["-t", "wmt19", "-l", "xx-yy"], "No such language pair 'xx-yy'"),
        (["-t", "wmt19"], "I need a language pair (-l)"),
        (["-t", "wmt19", "-l", "de-en", "ref.txt"], "exactly one of"),
        (["-t", "wmt19", "-l", "de-en", "-nr", "2"], "-nr/--num-refs"),
        (["--echo", "src"], "--echo requires a test set"),
        (["--citation"], "I need a test set (-t)"),
        (["ref.txt", "-ol", "en"], "needs a test (-t) and a language pair (-l)"),
        (["-t", "wmt14", "-l", "de-en", "--subset", "x"], "no subset annotation"),
        (["-t", "wmt19", "-l", "de-en", "-ol", "zz"], "contains no sentence with origlang=zz"),
        (["-t", "wmt19", "-l", "de-en", "--echo", "nothing"], "no field 'nothing'"),
    ],
)
def test_errors(cache: Path, tmp_path: Path, args: list[str], message: str) -> None:
    hyp = _hypotheses(cache, tmp_path, "wmt19", "de-en", "src")
    (tmp_path / "ref.txt").write_text("a\n", encoding="utf-8")
    if "--echo" not in args and "--citation" not in args:
        args = [*args, "-i", str(hyp)]
    ours = _run("bleuprint", args, cache, tmp_path)
    assert ours.returncode != 0
    stderr = ours.stderr.decode("utf-8")
    assert message in stderr
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1  # one line


def test_wrong_length_system(cache: Path, tmp_path: Path) -> None:
    hyp = tmp_path / "short.txt"
    hyp.write_text("one line\n", encoding="utf-8")
    ours = _run("bleuprint", ["-t", "wmt19", "-l", "de-en", "-i", str(hyp)], cache, tmp_path)
    assert ours.returncode == 1
    assert b"different lengths" in ours.stderr


def test_cache_made_by_either_tool(cache: Path, tmp_path: Path) -> None:
    """sacrebleu processes a fresh copy of the raw files, then bleuprint scores from its
    text files (and the other way round), with the same output."""
    for first, second in (("sacrebleu", "bleuprint"), ("bleuprint", "sacrebleu")):
        root = tmp_path / f"cache-{first}"
        place("wmt19", root)
        hyp = _hypotheses(cache, tmp_path, "wmt19", "de-en", "src")
        args = ["-t", "wmt19", "-l", "de-en", "-i", str(hyp), "-b"]
        made = _run(first, args, root, tmp_path)
        assert made.returncode == 0, made.stderr.decode()
        used = _run(second, args, root, tmp_path)
        assert used.returncode == 0, used.stderr.decode()
        assert made.stdout == used.stdout
        assert (root / "wmt19" / "wmt19.de-en.src").exists()


def test_testset_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bleuprint testset import FILE``: a download made elsewhere (renamed, too) lands where
    a download would, and the test set is then used without network."""
    import dataclasses

    from bleuprint.cli import main
    from bleuprint.testsets import DATASETS, registry
    from tests.support.testsets_fixtures import downloads, md5s

    real = registry.entries()
    # The synthetic archive stands for the real one: the registry lists its MD5 sum.
    patched = dict(real, wmt19=dataclasses.replace(real["wmt19"], md5=tuple(md5s("wmt19"))))
    monkeypatch.setattr(registry, "entries", lambda: patched)
    monkeypatch.setattr(DATASETS["wmt19"], "entry", patched["wmt19"])
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
    monkeypatch.setenv("BLEUPRINT_TESTSET_MIRROR", str(tmp_path / "empty-mirror"))
    (archive,) = downloads("wmt19").values()
    renamed = tmp_path / "fetched-elsewhere.bin"
    renamed.write_bytes(archive)

    assert main(["testset", "import", str(renamed)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("wmt19: imported as ")
    assert (tmp_path / "cache" / "wmt19" / "raw" / "wmt19.test.tgz").read_bytes() == archive
    assert main(["testset", "import", str(renamed)]) == 0
    assert "wmt19: already cached" in capsys.readouterr().out
    assert main(["-t", "wmt19", "-l", "de-en", "--echo", "src"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 12

    unknown = tmp_path / "notes.txt"
    unknown.write_text("not an archive\n", encoding="utf-8")
    with pytest.raises(SystemExit) as ended:
        main(["testset", "import", str(unknown)])
    assert ended.value.code == 1
    err = capsys.readouterr().err
    assert "is not a download of any built-in test set" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("options", "expected"), [([], None), (["-q"], False), (["--no-progress"], False)]
)
def test_download_progress_follows_the_switches(
    cache: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    options: list[str],
    expected: bool | None,
) -> None:
    """Downloads show a bar on a terminal (progress=None lets the downloader decide) unless
    -q or --no-progress turns it off."""
    from bleuprint.cli import main
    from bleuprint.testsets import cache as cache_module

    seen: list[bool | None] = []
    real = cache_module.prepare

    def prepare(entry: object, pair: str, *, progress: bool | None = None) -> list[str]:
        seen.append(progress)
        return real(entry, pair, progress=progress)  # type: ignore[arg-type]

    monkeypatch.setattr(cache_module, "prepare", prepare)
    monkeypatch.setenv("SACREBLEU", str(cache))
    hyp = _hypotheses(cache, tmp_path, "wmt19", "de-en", "src")
    # The command prepares the cache first (later lookups find it ready).
    assert main(["-t", "wmt19", "-l", "de-en", "-i", str(hyp), "-b", *options]) == 0
    assert seen[0] is expected
    seen.clear()
    assert main(["--download", "wmt19", "-l", "de-en", *options]) == 0
    assert seen[0] is expected
