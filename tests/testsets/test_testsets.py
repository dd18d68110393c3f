"""bleuprint.testsets against sacrebleu 2.6.0: the registry, the shared cache (both ways),
cache validation, the public functions, downloading through ``download.fetch``, and
sacrebleu's own ``test/test_dataset.py`` run on ``bleuprint.compat.sacrebleu.dataset``."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
import sacrebleu.dataset
import sacrebleu.utils

import bleuprint.compat.sacrebleu.dataset as compat_dataset
import bleuprint.testsets as testsets
from bleuprint.errors import InputTypeError, InvalidOptionError
from bleuprint.testsets import cache
from bleuprint.testsets.download import DownloadError
from bleuprint.testsets.errors import TestSetError
from bleuprint.testsets.registry import entries
from tests.support import testsets_fixtures as fixtures
from tests.support.data import REPO
from tests.support.sacrebleu_datasets import sacrebleu_dataset, text_files
from tests.support.upstream import read_member, sdist

SAMPLE = [
    "wmt24",
    "wmt22",
    "wmt21/systems",
    "wmt20/tworefs",
    "wmt19",
    "wmt19/google/ar",
    "wmt17/ms",
    "wmt08",
    "iwslt17/tst2015",
    "mtedx/test",
    "multi30k/2018",
    "mtnt1.1/test",
]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache that bleuprint uses ($SACREBLEU)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("SACREBLEU", str(folder))
    monkeypatch.setattr(sacrebleu.utils, "SACREBLEU_DIR", str(folder))
    return folder


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file() and not p.name.endswith(".lock")  # sacrebleu's download locks
    }


# -- the registry --------------------------------------------------------------------------


def test_registry_equals_sacrebleu_entry_for_entry() -> None:
    theirs = sacrebleu.dataset.DATASETS
    assert list(testsets.DATASETS) == list(theirs)
    for name, original in theirs.items():
        ours = testsets.DATASETS[name]
        assert type(ours).__name__ == type(original).__name__, name
        for attribute in ("name", "data", "md5", "description", "citation", "langpairs"):
            assert getattr(ours, attribute) == getattr(original, attribute), (name, attribute)
        assert ours.kwargs == original.kwargs, name
        assert ours._get_tarball_filename(original.data[0]) == original._get_tarball_filename(
            original.data[0]
        )
    assert testsets.SUBSETS == sacrebleu.dataset.SUBSETS
    assert testsets.COUNTRIES == sacrebleu.dataset.COUNTRIES
    assert testsets.DOMAINS == sacrebleu.dataset.DOMAINS
    assert len(theirs) == 67


def _generator() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen", REPO / "tools" / "gen_testsets_registry.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_registry_file_is_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, "tools/gen_testsets_registry.py", "--check"], cwd=REPO, check=False
    )
    assert done.returncode == 0


def test_generator_check_detects_a_stale_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = _generator()
    stale = tmp_path / "registry.json"
    stale.write_text(generator.render().replace("wmt24", "wmt42", 1), encoding="utf-8")
    monkeypatch.setattr(generator, "OUT", stale)
    monkeypatch.setattr(sys, "argv", ["gen", "--check"])
    with pytest.raises(SystemExit, match="out of date"):
        generator.main()


# -- one cache for both tools ----------------------------------------------------------------


def _their_files(dataset: Any, langpair: str) -> list[str]:
    return [str(f) for f in dataset.get_files(langpair)]


@pytest.mark.parametrize("name", SAMPLE)
def test_sacrebleu_cache_serves_bleuprint_unchanged(
    name: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixtures.place(name, root)
    theirs = sacrebleu_dataset(name, root, monkeypatch)
    their_files = {lp: _their_files(theirs, lp) for lp in theirs.langpairs}
    before = snapshot(root)
    for langpair, files in their_files.items():
        ours = testsets.get_files(name, langpair)
        assert sorted(ours) == sorted(files)
        if not isinstance(theirs, sacrebleu.dataset.WMTXMLDataset):
            assert ours == files  # field order too (WMT XML: sacrebleu's varies per run)
        assert testsets.get_source_file(name, langpair) == theirs.get_source_file(langpair)
        assert sorted(testsets.get_reference_files(name, langpair)) == sorted(
            theirs.get_reference_files(langpair)
        )
    assert snapshot(root) == before  # nothing rewritten, no record added


@pytest.mark.parametrize("name", SAMPLE)
def test_bleuprint_cache_serves_sacrebleu_unchanged(
    name: str, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixtures.place(name, root)
    for langpair in entries()[name].langpairs:
        testsets.get_files(name, langpair)
    before = snapshot(root)
    theirs = sacrebleu_dataset(name, root, monkeypatch)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("sacrebleu reprocessed bleuprint's files")

    monkeypatch.setattr(theirs, "process_to_text", refuse)
    for langpair in theirs.langpairs:
        _their_files(theirs, langpair)
    assert snapshot(root) == before
    # and the files are what sacrebleu makes on its own
    alone = tmp_path / "alone"
    fixtures.place(name, alone)
    sacrebleu_dataset(name, alone, monkeypatch).process_to_text()
    assert text_files(root / name) == text_files(alone / name)


def _one_file(name: str, langpair: str, field: str) -> Path:
    return cache.text_path(entries()[name], langpair, field)


@pytest.mark.parametrize("with_record", [True, False])
def test_truncated_text_file_is_rebuilt(
    with_record: bool, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixtures.place("wmt19", root)
    if with_record:
        testsets.get_files("wmt19", "de-en")
    else:
        sacrebleu_dataset("wmt19", root, monkeypatch).process_to_text("de-en")
    ref = _one_file("wmt19", "de-en", "ref")
    good = ref.read_bytes()
    ref.write_bytes(good[: good.rindex(b"\n", 0, len(good) - 1) + 1])  # one line less
    test_set = testsets.get("wmt19", "de-en")
    assert ref.read_bytes() == good
    assert len(test_set.references[0]) == len(test_set.sources) == good.count(b"\n")
    assert cache.sidecar_path(entries()["wmt19"], "de-en").is_file()


def test_changed_text_with_same_line_count_is_rebuilt(root: Path) -> None:
    fixtures.place("wmt20", root)
    testsets.get_files("wmt20", "de-en")
    src = _one_file("wmt20", "de-en", "src")
    good = src.read_bytes()
    src.write_bytes(good.replace(b"plain", b"PLAIN", 1))
    assert testsets.get("wmt20", "de-en").sources[0].startswith("plain")
    assert src.read_bytes() == good


@pytest.mark.parametrize("damage", ["empty", "missing", "ragged"])
def test_untrustworthy_sacrebleu_files_are_rebuilt(
    damage: str, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixtures.place("mtnt2019", root)
    sacrebleu_dataset("mtnt2019", root, monkeypatch).process_to_text("en-fr")
    src, ref = (_one_file("mtnt2019", "en-fr", f) for f in ("src", "ref"))
    good = src.read_bytes(), ref.read_bytes()
    if damage == "empty":
        src.write_bytes(b"")
        ref.write_bytes(b"")
    elif damage == "missing":
        ref.unlink()
    else:
        ref.write_bytes(good[1] + b"one more\n")
    testsets.get_files("mtnt2019", "en-fr")
    assert (src.read_bytes(), ref.read_bytes()) == good


def test_a_record_of_other_fields_is_rebuilt(root: Path) -> None:
    fixtures.place("wmt17", root)
    testsets.get_files("wmt17", "de-en")
    record = cache.sidecar_path(entries()["wmt17"], "de-en")
    record.write_text('{"version": 1, "fields": [{"name": 5}]}', encoding="utf-8")
    assert len(testsets.get_files("wmt17", "de-en")) == 5
    assert '"docid"' in record.read_text(encoding="utf-8")


# -- the public functions --------------------------------------------------------------------


def _lines(path: str) -> list[str]:
    text = Path(path).read_bytes().decode("utf-8")  # split at "\n" only, as sacrebleu reads
    return [line.rstrip() for line in text.split("\n")[:-1]]


@pytest.mark.parametrize("name", SAMPLE)
def test_get_returns_what_sacrebleus_command_line_reads(
    name: str, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs_root = tmp_path / "theirs"
    fixtures.place(name, theirs_root)
    fixtures.place(name, root)
    theirs = sacrebleu_dataset(name, theirs_root, monkeypatch)
    for langpair in list(theirs.langpairs)[:3]:
        test_set = testsets.get(name, langpair)
        assert test_set.sources == _lines(theirs.get_source_file(langpair))
        their_refs = theirs.get_reference_files(langpair)
        assert sorted(test_set.references) == sorted(_lines(f) for f in their_refs)
        assert len(test_set.references) == len(their_refs) >= 1
        assert set(test_set.fields) == set(theirs.fieldnames(langpair))
        if "docid" in test_set.fields:
            docids = _lines(theirs._get_txt_file_path(langpair, "docid"))
            assert test_set.docids == docids
        else:
            assert test_set.docids is None
        assert len(test_set) == len(test_set.sources)


def test_comma_separated_names_concatenate(root: Path) -> None:
    for name in ("wmt19", "wmt20", "wmt20/tworefs"):
        fixtures.place(name, root)
    first, second = testsets.get("wmt19", "de-en"), testsets.get("wmt20", "de-en")
    both = testsets.get("wmt19,wmt20", "de-en")
    assert both.sources == first.sources + second.sources
    assert both.references == [first.references[0] + second.references[0]]
    assert both.docids == (first.docids or []) + (second.docids or [])
    with pytest.raises(InvalidOptionError, match="different numbers of references"):
        testsets.get("wmt19,wmt20/tworefs", "de-en")


def test_utility_functions_match_sacrebleu() -> None:
    for name in [*entries(), "nonexistent"]:
        assert testsets.get_langpairs_for_testset(
            name
        ) == sacrebleu.utils.get_langpairs_for_testset(name)
    assert testsets.get_available_testsets() == sacrebleu.utils.get_available_testsets()
    pairs = {lp for e in entries().values() for lp in e.langpairs} | {"xx-yy", "en-de-x"}
    for langpair in sorted(pairs):
        assert testsets.get_available_testsets_for_langpair(
            langpair
        ) == sacrebleu.utils.get_available_testsets_for_langpair(langpair), langpair
    assert testsets.get_available_origlangs(None, "de-en") == []
    assert testsets.get_available_subsets(None, "de-en") == []
    assert testsets.filter_subset([["a"]], None, None, None) == [["a"]]


def test_download_test_set_matches_sacrebleu(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("wmt19", "iwslt17/tst2010", "mtnt2019"):
        fixtures.place(name, root)
        monkeypatch.setattr(
            sacrebleu.utils, "DATASETS", {name: sacrebleu_dataset(name, root, monkeypatch)}
        )
        for langpair in list(entries()[name].langpairs)[:2]:
            assert testsets.download_test_set(name, langpair) == sacrebleu.utils.download_test_set(
                name, langpair
            )
        everything = testsets.download_test_set(name)  # sacrebleu fails without a pair
        assert len(everything) == sum(
            len(testsets.get_files(name, lp)) for lp in entries()[name].langpairs
        )


# sacrebleu's print_test_set never closes the files it prints
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_print_test_set_matches_sacrebleu(
    root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures.place("wmt19", root)
    monkeypatch.setattr(
        sacrebleu.utils, "DATASETS", {"wmt19": sacrebleu_dataset("wmt19", root, monkeypatch)}
    )
    for requested, origlang, subset in [
        (["src", "ref"], None, None),
        (["all"], "de", None),
        (["ref", "docid"], None, "country:US"),
        (["origlang", "genre", "src"], "non-de", "politics|sport"),
    ]:
        sacrebleu.utils.print_test_set("wmt19", "de-en", requested, origlang, subset)
        expected = capsys.readouterr().out
        testsets.print_test_set("wmt19", "de-en", requested, origlang, subset)
        assert capsys.readouterr().out == expected
        assert expected.count("\n") >= 1 or subset is not None


def _sacrebleu_list(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "sacrebleu", "--list", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()[1:]


def test_list_mirrors_sacrebleu_list() -> None:
    for args in [(), ("-l", "de-en"), ("-l", "en-ja")]:
        expected = _sacrebleu_list(*args)
        infos = testsets.list(args[1] if args else None)
        assert [f"{i.name:<30}: {i.description}" for i in infos] == expected
        for info in infos:
            assert info.langpairs == tuple(entries()[info.name].langpairs)


def test_errors_name_the_fix(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(InvalidOptionError, match="did you mean .*wmt19"):
        testsets.get("wmt91", "de-en")
    with pytest.raises(InvalidOptionError, match="has no language pair 'de-xx'.*de-en"):
        testsets.get("wmt19", "de-xx")
    with pytest.raises(InputTypeError):
        testsets.get(["wmt19"], "de-en")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="'de-en'"):
        testsets.get_available_testsets_for_langpair("deen")
    raw = fixtures.place("wmt18", root)
    for path in raw.rglob("*.sgm"):  # the extracted files gone and the archive damaged
        path.unlink()
    archive = raw / cache.download_name(entries()["wmt18"], entries()["wmt18"].data[0])
    archive.write_bytes(fixtures._tar_gz({"other.txt": b"x\n"}))
    # Its MD5 is checked before it is extracted again: it is downloaded again, here from
    # an empty mirror, which fails naming the ways out.
    monkeypatch.setenv("BLEUPRINT_TESTSET_MIRROR", str(root / "empty-mirror"))
    with pytest.raises(DownloadError, match="wmt18.*BLEUPRINT_TESTSET_MIRROR"):
        testsets.get("wmt18", "de-en")
    # A verified archive that lacks the pair's files: the message says to delete it.
    real = cache.fetch_function()

    def unchecked(url: str, dest: Path, *, md5: str | None, testset: str, **kw: Any) -> Path:
        return real(url, dest, md5=None, testset=testset, **kw)

    monkeypatch.setattr(cache, "fetch_function", lambda: unchecked)
    with pytest.raises(TestSetError, match="delete .*raw"):
        testsets.get("wmt18", "de-en")


# -- downloading through bleuprint.testsets.download.fetch -----------------------------------


class FakeFetch:
    """Stands in for ``download.fetch``: serves the synthetic downloads, records the calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str | None, str]] = []

    def __call__(
        self, url: str, dest: Path, *, md5: str | None, testset: str, progress: bool | None = None
    ) -> Path:
        self.calls.append((url, dest.name, md5, testset))
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(fixtures.downloads(testset)[url])
        return dest


@pytest.fixture
def fake_fetch(monkeypatch: pytest.MonkeyPatch) -> FakeFetch:
    fetch = FakeFetch()
    monkeypatch.setattr(cache, "fetch_function", lambda: fetch)
    return fetch


@pytest.mark.parametrize("name", ["wmt23", "iwslt17", "multi30k/2018", "wmt19/google/hqall"])
def test_missing_downloads_are_fetched_once(
    name: str, root: Path, fake_fetch: FakeFetch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = entries()[name]
    langpair = next(iter(entry.langpairs))
    testsets.get(name, langpair)
    expected_md5s = list(entry.md5 or [None] * len(entry.data))
    assert fake_fetch.calls == [
        (url, cache.download_name(entry, url), md5, name)
        for url, md5 in zip(entry.data, expected_md5s)
    ]
    testsets.get(name, langpair)
    assert len(fake_fetch.calls) == len(entry.data)
    alone = tmp_path / "alone"
    fixtures.place(name, alone)
    sacrebleu_dataset(name, alone, monkeypatch).process_to_text(langpair)
    assert text_files(root / name) == text_files(alone / name)


def test_download_file_and_helpers(root: Path, fake_fetch: FakeFetch) -> None:
    entry = entries()["wmt20"]
    raw = root / "wmt20" / "raw"
    raw.mkdir(parents=True)
    dest = raw / cache.download_name(entry, entry.data[0])
    testsets.download_file(entry.data[0], str(dest), str(raw), entry.md5[0] if entry.md5 else None)
    assert fake_fetch.calls == [
        (entry.data[0], dest.name, entry.md5[0] if entry.md5 else None, "wmt20")
    ]
    assert testsets.get_md5sum(str(dest)) == hashlib.md5(dest.read_bytes()).hexdigest()
    assert testsets.get_md5sum(str(dest)) == sacrebleu.utils.get_md5sum(str(dest))
    assert (raw / entry.raw_paths("de-en")[0]).is_file()
    testsets.download_file(entry.data[0], str(dest), str(raw))  # present: no second fetch
    assert len(fake_fetch.calls) == 1


# -- sacrebleu's own test/test_dataset.py on the compat --------------------------------------

UPSTREAM_TESTS = [
    "test_maybe_download",
    "test_process_to_text",
    "test_get_files_and_fieldnames",
    "test_source_and_references",
    "test_wmt22_references",
]


@pytest.fixture(scope="module")
def upstream_dataset_tests() -> dict[str, Any]:
    source = read_member(sdist("sacrebleu", "2.6.0"), "sacrebleu-2.6.0/test/test_dataset.py")
    text = source.decode("utf-8")
    for old, new in [
        (
            "import sacrebleu.dataset as dataset",
            "import bleuprint.compat.sacrebleu.dataset as dataset",
        ),
        (
            "from sacrebleu.utils import smart_open",
            "from bleuprint.compat.sacrebleu.utils import smart_open",
        ),
    ]:
        assert old in text
        text = text.replace(old, new)
    namespace: dict[str, Any] = {"__name__": "upstream_test_dataset"}
    exec(compile(text, "sacrebleu-2.6.0/test/test_dataset.py", "exec"), namespace)
    return namespace


# sacrebleu's test_process_to_text never closes the files it counts lines of
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("test_name", UPSTREAM_TESTS)
def test_sacrebleu_dataset_suite_on_compat(
    test_name: str, upstream_dataset_tests: dict[str, Any], root: Path, fake_fetch: FakeFetch
) -> None:
    for name in entries():
        fixtures.place(name, root)
    random.seed(test_name)
    upstream_dataset_tests[test_name]()
    if test_name == "test_maybe_download":
        assert fake_fetch.calls  # the removed raw folders were fetched again


def test_compat_dataset_module_is_bleuprints() -> None:
    assert compat_dataset.DATASETS is testsets.DATASETS
    assert isinstance(compat_dataset.DATASETS["wmt22"], compat_dataset.WMTXMLDataset)
    from bleuprint.compat.sacrebleu.dataset import (
        base,
        fake_sgml,
        iwslt_xml,
        plain_text,
        tsv,
        wmt_xml,
    )

    assert issubclass(fake_sgml.WMTAdditionDataset, fake_sgml.FakeSGMLDataset)
    assert issubclass(iwslt_xml.IWSLTXMLDataset, fake_sgml.FakeSGMLDataset)
    for module in (plain_text, tsv, wmt_xml):
        assert all(issubclass(getattr(module, n), base.Dataset) for n in module.__all__)
    assert os.fspath(base.SACREBLEU_DIR) == testsets.SACREBLEU_DIR


@pytest.mark.parametrize("value", [None, "/tmp/somewhere/sacrebleu-cache"])
def test_cache_folder_is_sacrebleus(value: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "SACREBLEU"}
    if value is not None:
        env["SACREBLEU"] = value
    code = (
        "import sacrebleu.utils, bleuprint.testsets as t;"
        "print(sacrebleu.utils.SACREBLEU_DIR); print(t.SACREBLEU_DIR); print(t.cache_root())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    theirs, ours, root = done.stdout.splitlines()
    assert ours == theirs == root
    assert theirs == (value or os.path.join(os.path.expanduser("~"), ".sacrebleu"))
