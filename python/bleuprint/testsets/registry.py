"""The built-in test sets: sacrebleu 2.6.0's registry, loaded from ``registry.json``.

``tools/gen_testsets_registry.py`` writes that file from the installed sacrebleu, and
``tests/testsets/test_testsets.py`` checks it entry for entry against sacrebleu's ``DATASETS``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, Union, cast

from bleuprint.errors import InputTypeError, InvalidOptionError

Format = Literal["wmt_xml", "fake_sgml", "wmt_addition", "iwslt_xml", "plain_text", "tsv"]
# A language pair's raw files: a list of paths, or (WMT22 on) {"path": ..., "refs": [...]}.
PairFiles = Union[list[str], dict[str, Any]]


@dataclass(frozen=True)
class Entry:
    """One test set as sacrebleu's registry describes it."""

    name: str
    format: Format
    data: tuple[str, ...]
    md5: tuple[str, ...] | None
    description: str | None
    citation: str | None
    langpairs: dict[str, PairFiles]
    kwargs: dict[str, Any]

    def raw_paths(self, langpair: str) -> list[str]:
        """The pair's raw file paths, relative to the raw folder."""
        files = self.pair_files(langpair)
        if isinstance(files, dict):
            return [str(files["path"])]
        return list(files)

    def pair_files(self, langpair: str) -> PairFiles:
        if not isinstance(langpair, str):
            raise InputTypeError(
                f"a language pair is a str such as 'de-en', not {type(langpair).__name__}"
            )
        if langpair not in self.langpairs:
            pairs = ", ".join(self.langpairs)
            raise InvalidOptionError(
                f"test set {self.name!r} has no language pair {langpair!r}; it has: {pairs}"
            )
        return self.langpairs[langpair]

    def default_refs(self, langpair: str) -> list[str] | None:
        """The translators whose references are used by default (WMT XML only), or None."""
        if self.format != "wmt_xml":
            return None
        refs: list[str] = list(self.kwargs.get("refs", []))
        files = self.pair_files(langpair)
        if isinstance(files, dict) and "refs" in files:
            refs = list(files["refs"])
        return refs

    @property
    def file_stem(self) -> str:
        """The name as it appears in file names ("wmt21/dev" -> "wmt21_dev")."""
        return self.name.replace("/", "_")


@functools.cache
def _document() -> dict[str, Any]:
    text = resources.files("bleuprint.testsets").joinpath("registry.json").read_text("utf-8")
    return cast(dict[str, Any], json.loads(text))


def _entry(raw: dict[str, Any]) -> Entry:
    return Entry(
        name=raw["name"],
        format=raw["format"],
        data=tuple(raw["data"]),
        md5=None if raw["md5"] is None else tuple(raw["md5"]),
        description=raw["description"],
        citation=raw["citation"],
        langpairs=raw["langpairs"],
        kwargs=raw["kwargs"],
    )


@functools.cache
def entries() -> dict[str, Entry]:
    """Every test set by name, in sacrebleu's registry order."""
    return {raw["name"]: _entry(raw) for raw in _document()["datasets"]}


@functools.cache
def subsets() -> dict[str, dict[str, str]]:
    """Per test set, document id -> "COUNTRY-domain[-COUNTRY]" annotations (WMT18, WMT19)."""
    return cast(dict[str, dict[str, str]], _document()["subsets"])


def sacrebleu_version() -> str:
    """The sacrebleu release the registry was generated from."""
    return str(_document()["sacrebleu_version"])


def lookup(name: str) -> Entry:
    """The entry for ``name``, or an error that lists the closest names."""
    if not isinstance(name, str):
        raise InputTypeError(f"a test set name is a str such as 'wmt19', not {type(name).__name__}")
    known = entries()
    if name in known:
        return known[name]
    import difflib

    close = difflib.get_close_matches(name, list(known), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise InvalidOptionError(
        f"unknown test set {name!r}{hint} (bleuprint.testsets.list() lists them all)"
    )
