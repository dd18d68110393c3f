"""jiwer 4.0.0's own ``tests/`` (from its sdist) run against ``bleuprint.compat.jiwer``, with
only the import lines changed; then what that suite does not reach, compared with the real
jiwer: the ``jiwer`` command line, each module's public names, and ``RemovePunctuation``'s
shared punctuation set.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import tarfile
from pathlib import Path
from typing import Any

import pytest

import bleuprint.compat.jiwer as bj
from bleuprint.compat.jiwer import cli as bj_cli
from tests.support.upstream import run_pytest, sdist, suite_environment

JIWER_VERSION = "4.0.0"
SUITE_DIR = f"jiwer-{JIWER_VERSION}/tests/"

# The only changes made to upstream's files: (rule, pattern, replacement).
IMPORT_REWRITES = [
    ("import jiwer", re.compile(r"^import jiwer$", re.M), "import bleuprint.compat.jiwer as jiwer"),
    (
        "from jiwer import",
        re.compile(r"^from jiwer import ", re.M),
        "from bleuprint.compat.jiwer import ",
    ),
    (
        "from jiwer.<module> import",
        re.compile(r"^from jiwer\.(\w+) import ", re.M),
        r"from bleuprint.compat.jiwer.\1 import ",
    ),
]
# Any import of jiwer, however indented or spelled: none may be left after the rewrite.
ANY_JIWER_IMPORT = re.compile(r"^[ \t]*(?:import|from)[ \t]+jiwer\b.*$", re.M)
# The suite runs under the project's warning policy (every warning an error), in its own
# rootdir so that this project's pytest settings do not apply to it.
SUITE_INI = "[pytest]\nfilterwarnings =\n    error\n"


def rewrite_imports(sources: dict[str, str]) -> tuple[dict[str, str], dict[str, int]]:
    """``sources`` (file name -> text) with jiwer's imports pointed at ``bleuprint.compat.jiwer``,
    and how many lines each rule rewrote.

    Raises ``ValueError`` naming the line if an import of jiwer is left that no rule covers
    (a new spelling upstream must get a rule, not run against the real jiwer).
    """
    counts = {rule: 0 for rule, _, _ in IMPORT_REWRITES}
    rewritten = {}
    for name, text in sources.items():
        for rule, pattern, replacement in IMPORT_REWRITES:
            text, count = pattern.subn(replacement, text)
            counts[rule] += count
        left = ANY_JIWER_IMPORT.search(text)
        if left is not None:
            raise ValueError(f"{name}: no rewrite rule covers {left.group(0).strip()!r}")
        rewritten[name] = text
    return rewritten, counts


def extract_suite(archive: Path, destination: Path) -> dict[str, str]:
    """Writes the sdist's ``tests/`` under ``destination/tests``; returns its Python files'
    text by path relative to ``destination``."""
    sources = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not (member.isfile() and member.name.startswith(SUITE_DIR)):
                continue
            relative = Path("tests", member.name[len(SUITE_DIR) :])
            if ".." in relative.parts:
                raise ValueError(f"{member.name} points outside the archive's tests/")
            extracted = tar.extractfile(member)
            if extracted is None:
                raise FileNotFoundError(member.name)
            with extracted:
                data = extracted.read()
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            if relative.suffix == ".py":
                sources[relative.as_posix()] = data.decode("utf-8")
    return sources


def pytest_outcomes(output: str) -> tuple[int, dict[str, int]]:
    """The number of tests collected and the final summary's counts (``{"passed": 82}``)."""
    collected = re.search(r"^collected (\d+) items?", output, re.M)
    summaries = re.findall(r"^=+ (.+) in [\d.]+s(?: \([\d:]+\))? =+$", output, re.M)
    if collected is None or not summaries:
        raise ValueError(f"no pytest summary in:\n{output}")
    outcomes = {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", summaries[-1])}
    return int(collected.group(1)), outcomes


def test_rewrite_covers_every_import_or_refuses() -> None:
    rewritten, counts = rewrite_imports(
        {"a.py": "import jiwer\nfrom jiwer import wer\nfrom jiwer.transforms import *\n"}
    )
    assert rewritten["a.py"] == (
        "import bleuprint.compat.jiwer as jiwer\n"
        "from bleuprint.compat.jiwer import wer\n"
        "from bleuprint.compat.jiwer.transforms import *\n"
    )
    assert set(counts.values()) == {1}
    for unknown in ("    import jiwer\n", "import jiwer.cli\n", "from  jiwer import wer\n"):
        with pytest.raises(ValueError, match="no rewrite rule covers"):
            rewrite_imports({"b.py": unknown})


def test_summary_parsing() -> None:
    output = "collected 5 items\n\n...\n===== 3 passed, 1 failed, 1 skipped in 0.52s =====\n"
    assert pytest_outcomes(output) == (5, {"passed": 3, "failed": 1, "skipped": 1})


def test_jiwer_suite_passes_on_compat(tmp_path: Path) -> None:
    """Every test of jiwer 4.0.0's suite passes with ``jiwer`` imported from bleuprint."""
    if importlib.util.find_spec("pytest_benchmark") is None:
        pytest.fail(
            "jiwer's tests/test_speed.py uses pytest-benchmark's `benchmark` fixture: "
            "pip install pytest-benchmark (bleuprint's test extra lists it)"
        )
    sources = extract_suite(sdist("jiwer", JIWER_VERSION), tmp_path)
    rewritten, counts = rewrite_imports(sources)
    unused = [rule for rule, count in counts.items() if count == 0]
    assert not unused, f"rewrite rules that matched nothing in jiwer's tests: {unused}"
    for name, text in rewritten.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(SUITE_INI, encoding="utf-8")
    # Counted in the source, not by pytest: a file pytest failed to collect would lower the
    # collected and passed counts alike.
    defined = sum(len(re.findall(r"^\s*def test_", text, re.M)) for text in sources.values())

    args = ["tests", "-c", "pytest.ini", "-n", "0"]
    # The benchmark fixture runs each speed test's function once, untimed.
    done = run_pytest(tmp_path, [*args, "--benchmark-disable"], suite_environment({}), 300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    collected, outcomes = pytest_outcomes(output)
    assert outcomes == {"passed": collected}, output
    assert collected >= defined, output


# --- what the suite does not reach, compared with the real jiwer ---------------------------


def _jiwer_modules() -> list[str]:
    jiwer = pytest.importorskip("jiwer")
    return sorted(m.name for m in pkgutil.iter_modules(jiwer.__path__))


def test_every_jiwer_module_with_its_public_names() -> None:
    modules = _jiwer_modules()
    assert "cli" in modules
    for module in modules:
        theirs = importlib.import_module(f"jiwer.{module}")
        ours = importlib.import_module(f"bleuprint.compat.jiwer.{module}")
        # jiwer.cli has no __all__; its command, `cli`, is its public name.
        names = getattr(theirs, "__all__", ["cli"])
        assert all(callable(getattr(ours, name)) for name in names), module
        assert set(names) <= set(ours.__all__), module
        assert set(ours.__all__) <= set(names), module
    jiwer = importlib.import_module("jiwer")
    assert bj.name == jiwer.name
    public = {n for n in dir(jiwer) if not n.startswith("_") and n not in modules}
    assert public <= {*bj.__all__, "name"}


def test_remove_punctuation_shares_one_punctuation_set() -> None:
    """jiwer memoizes the scan of all of Unicode; so does compat: every instance holds the same
    set, equal to jiwer's."""
    jiwer = pytest.importorskip("jiwer")
    first, second = bj.RemovePunctuation(), bj.RemovePunctuation()
    assert first.tokens_to_remove is second.tokens_to_remove
    theirs = jiwer.RemovePunctuation()
    assert theirs.tokens_to_remove is jiwer.RemovePunctuation().tokens_to_remove
    assert first.tokens_to_remove == theirs.tokens_to_remove


@pytest.mark.parametrize(
    ("tokens", "replace_token"),
    [(None, "_"), ({"!", "\u00bf"}, ""), ({"!", "."}, " ")],
)
def test_remove_punctuation_with_changed_attributes(tokens: Any, replace_token: str) -> None:
    """Attributes set after construction are honoured, as jiwer's loop over them does."""
    jiwer = pytest.importorskip("jiwer")
    text = ["Hello, world! \u00bfQu\u00e9? a_b (c) \u2014 d.", "no punctuation here"]
    ours, theirs = bj.RemovePunctuation(), jiwer.RemovePunctuation()
    for transform in (ours, theirs):
        if tokens is not None:
            transform.tokens_to_remove = tokens
        transform.replace_token = replace_token
    assert ours(text) == theirs(text)
    assert ours(text[0]) == theirs(text[0])


def test_abstract_transform_subclass_like_jiwer() -> None:
    """jiwer's AbstractTransform is no ABC: a subclass defining only process_list works."""
    jiwer = pytest.importorskip("jiwer")

    def subclass(base: type) -> Any:
        return type("Upper", (base,), {"process_list": lambda self, xs: [x.upper() for x in xs]})

    ours, theirs = subclass(bj.AbstractTransform)(), subclass(jiwer.AbstractTransform)()
    assert ours(["a b"]) == theirs(["a b"]) == ["A B"]
    for transform in (ours, theirs):
        with pytest.raises(NotImplementedError):
            transform("a string goes to process_string")


# (reference file, hypothesis file): one sentence a line, as the `jiwer` command reads them.
CLI_FILES = {
    "documented": ("hello world\ni like monthy python\n", "hello duck\ni like python\n"),
    "short and blank lines dropped": (
        "  short one here \nx\n\nquite a bit of longer sentence\n",
        "shoe order one\n \nquite bit of an even longest sentence here\ny\n",
    ),
    "unequal line counts": ("a b c\nd e\nf g h i\n", "a c\nd e f\n"),
    "empty reference file": ("", "a b\n"),
    "non-ASCII": ("日本語のテキスト\nüber alles\n", "日本のテキストです\nueber alles\n"),
}
CLI_FLAGS = [
    [],
    ["-c"],
    ["-a"],
    ["-c", "-a"],
    ["-g"],
    ["-g", "-c"],
    ["-g", "-a"],
    ["-gca"],
    ["--cer", "--align", "--global"],
]


def _jiwer_cli(args: list[str]) -> tuple[int, str, str]:
    """jiwer's own command run on ``args``: exit status, stdout, and the error's message."""
    pytest.importorskip("jiwer")
    from click.testing import CliRunner
    from jiwer.cli import cli

    result = CliRunner().invoke(cli, args)
    error = "" if result.exception is None else str(result.exception)
    return result.exit_code, result.stdout, error


@pytest.mark.parametrize("files", list(CLI_FILES))
@pytest.mark.parametrize("flags", CLI_FLAGS, ids=" ".join)
def test_cli_equals_jiwer(
    files: str, flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference, hypothesis = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    reference.write_text(CLI_FILES[files][0], encoding="locale")
    hypothesis.write_text(CLI_FILES[files][1], encoding="locale")
    args = ["-r", str(reference), "-h", str(hypothesis), *flags]
    status, stdout, error = _jiwer_cli(args)
    capsys.readouterr()
    assert bj_cli.cli(args) == status
    ours = capsys.readouterr()
    assert ours.out == stdout
    assert ours.err == (f"Error: {error}\n" if status else "")


def test_cli_usage_errors_like_jiwer(tmp_path: Path) -> None:
    """A missing required option is a usage error (status 2) in both; a missing file is an
    error (status 1)."""
    missing = str(tmp_path / "missing.txt")
    for args in (["-r", missing], ["-h", missing], ["-r", missing, "-h", missing]):
        status, _, _ = _jiwer_cli(args)
        try:
            ours = bj_cli.cli(args)
        except SystemExit as e:  # argparse's usage error
            ours = int(e.code or 0)
        assert ours == status, args
