"""The ``ptb`` tokenizer against the real Stanford CoreNLP 3.4.1 jar (run by Java, as
pycocoevalcap runs it) and pycocoevalcap 1.2's ``PTBTokenizer``: every WMT22 English line,
generated strings (hypothesis, and a seeded batch of the constructs its rules treat
specially), pycocoevalcap's batch semantics (a rule reading into the next caption), the
refusals, the loader's errors and the metrics that take ``tokenize="ptb"``.

The jar comes with pycocoevalcap (the ``test`` extra); Java from Debian's
``default-jre-headless`` (``tools/install_test_packages.sh``). Without them these tests skip.
"""

from __future__ import annotations

import random
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuprint
from bleuprint import _core
from bleuprint.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
from bleuprint.errors import (
    InputTypeError,
    InvalidInputError,
    InvalidOptionError,
    ModelUnavailableError,
)
from bleuprint.tokenizers.ptb import JAR_ENV, LEXER_CLASS, find_jar, ptb_tokenizer
from tests.support.data import read_lines
from tests.support.java import require_java

upstream = pytest.importorskip("pycocoevalcap.tokenizer.ptbtokenizer")

pytestmark = pytest.mark.differential


@pytest.fixture(scope="module")
def jar() -> Path:
    try:
        return find_jar()
    except ModelUnavailableError:
        pytest.skip("pycocoevalcap's CoreNLP jar is not installed")


@pytest.fixture(scope="module")
def java(jar: Path) -> Any:
    """``run(text)``: the jar's stdout for ``text`` (``-preserveLines -lowerCase``)."""
    require_java()

    def run(text: str, tmp: Path) -> str:
        path = tmp / "input.txt"
        path.write_bytes(text.encode("utf-8"))
        command = ["java", "-cp", str(jar), "edu.stanford.nlp.process.PTBTokenizer"]
        done = subprocess.run(
            [*command, "-preserveLines", "-lowerCase", str(path)],
            capture_output=True,
            check=True,
        )
        return done.stdout.decode("utf-8")

    return run


@pytest.fixture(scope="module")
def core(jar: Path) -> Any:
    return ptb_tokenizer(jar)


# Constructs the rules treat specially, and characters of every class the scanner has.
FRAGMENTS = [
    "a", "I", "A", "The", " ", "  ", "\t", "\u00a0", "\u00ad", ".", ",", ";", ":", "!", "?",
    "'", '"', "`", "``", "''", "(", ")", "[", "]", "{", "}", "<", ">", "&amp;", "&AMP;",
    "&apos;", "&quot;", "&lt;", "&gt;", "&nbsp;", "&mdash;", "&#39;", "-", "--", "---", "_",
    "/", "\\", "*", "**", "\\*", "#", "@", "$", "US$", "%", "+", "=", "~", "^", "|", "0", "1",
    "12", "1,000", "3.14", "1/2", "1 1/2", "\u00bd", "\u00bc", "\u2157", "\u20ac", "\u00a3",
    "\u00a2", "\u00a5", "http://x.com/a.b?c=d", "https://ex.org/", "www.google.com",
    "foo.com", "a@b.com", "@user", "#tag", "Mr.", "Mrs.", "U.S.", "U.K.", "etc.", "Inc.",
    "Jan.", "No.", "fig.", "p.", "e.g.", "i.e.", "a.m.", "cannot", "gonna", "'tis", "'twas",
    "don't", "can't", "won't", "it's", "I'm", "you're", "we've", "y'all", "o'clock", "'90s",
    "'90", "'em", "rock'n'roll", "\u2019", "\u2018", "\u201c", "\u201d", "\u00ab", "\u00bb",
    "\u2039", "\u203a", "\u2014", "\u2013", "\u2026", "...", ". . .", "\u0085", "\u0091",
    "\u0092", "\u0093", "\u0094", "\u0096", "\u0097", "\u0080", "\x7f", "\x00", "\u00df",
    "\u0130", "\u01c4", "\ufb01", "\u65e5\u672c", "\ud55c\uad6d", "\U0001f600",
    "\U0001f44d\U0001f3fd", "\u00e9", "\u00e7", "x", "X", "Z.", "c++", "C#", "f#", "555-1234",
    "(800) 555-1234", "+1 800 555 1234", "12/25/2020", "3-4", "a-b", "co-op", "pre-",
    "anti-", "S&P", "AT&T", "S&amp;P", "file.txt", "doc.pdf", ":)", ";-)", ":-(", "^_^",
    "o.O", "(-_-)", "<br>", "<p class='x'>", "</p>", "<!DOCTYPE html>", '<a href="x">',
    "Ph.D.", "Jr.", "Bros.", "vs.", "cf.", "ca. 5", "Pty. Ltd", "Co. Ltd", "\u3000",
    "\u2009", "\u200b", "\ufeff", "\u00a7", "\u00b0", "\u00d7", "\u2022", "\u3002", "\u061f",
    "\u066b", "\u0663", "\u06f3", "\u07c0", "\u00b9\u00b2\u00b3", "\u207a\u00b9", "\u2082",
    "\u2113", "\u2103", "\u2122", "\u00a9", "\u00ae", "\u0301", "a\u0301", "\u01f0", "\u0242",
    "\u02b0", "\u02c6", "\u0345", "\u03f4", "\u0481", "\u04d0", "\u0525", "\u058a", "\u05be",
    "\u05f3", "\u060b", "\u0e3f", "\u20a4", "\uffe5", "\ufe70", "\uff9f", "\u03b1\u03b2",
]  # fmt: skip


def _generated(seed: int, count: int, most: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = (
            rng.choice(FRAGMENTS) + rng.choice(["", "", " "]) for _ in range(rng.randint(0, most))
        )
        out.append("".join(parts))
    return out


def test_every_wmt22_english_line_as_the_jar(
    wmt22: Path, java: Any, core: Any, tmp_path: Path
) -> None:
    paths = sorted(wmt22.glob("references/*.en")) + sorted(wmt22.glob("sources/*.en"))
    paths += sorted(wmt22.glob("system-outputs/*.en"))
    lines = [line for path in paths for line in read_lines(path)]
    assert len(lines) > 150_000
    text = "\n".join(lines)
    assert core.jar_output(text) == java(text, tmp_path)


@pytest.mark.parametrize(("seed", "most"), [(0, 12), (1, 40)])
def test_generated_constructs_as_the_jar(
    seed: int, most: int, java: Any, core: Any, tmp_path: Path
) -> None:
    text = "\n".join(_generated(seed, 20_000, most))
    assert core.jar_output(text) == java(text, tmp_path)


# Any text the scanner can be given (Greek capital sigma aside: see the next test).
any_text = st.text(
    st.characters(exclude_categories=("Cs",), exclude_characters="\u03a3"), max_size=40
)


@given(st.lists(st.one_of(any_text, st.sampled_from(FRAGMENTS)), min_size=1, max_size=60))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_text_as_the_jar(
    java: Any, core: Any, tmp_path_factory: Any, lines: list[str]
) -> None:
    text = "".join(lines)
    assert core.jar_output(text) == java(text, tmp_path_factory.mktemp("ptb"))


def test_final_sigma_follows_unicode_where_java_reads_word_breaks(core: Any) -> None:
    # Java lowercases a token's final capital sigma by its own word-break rules (a hyphen
    # does not end a word there); bleuprint by Unicode's Final_Sigma condition. They agree on
    # Greek words; docs/captioning.md lists the difference.
    assert (
        core.jar_output("\u039f\u0394\u039f\u03a3 \u03a3\u0391\u03a3")
        == "\u03bf\u03b4\u03bf\u03c2 \u03c3\u03b1\u03c2"
    )
    assert core.jar_output("pre-\u03a3") == "pre-\u03c3"  # Java: pre-\u03c2


def _captions(lines: list[str], per_image: int) -> dict[int, list[dict[str, str]]]:
    captions: dict[int, list[dict[str, str]]] = {}
    for i, line in enumerate(lines):
        captions.setdefault(i // per_image, []).append({"caption": line})
    return captions


# Captions whose tokens depend on the caption after them in pycocoevalcap's one call.
CROSSING = [
    "a photo of letter A.", "A man rides a horse.", "back in '90", "x", "data file.txt",
    "at the U.S.", "The end", "etc.", "Then", "I.", "", "  ", "it's 'em", "the cat.",
]  # fmt: skip


def test_compat_tokenizer_as_pycocoevalcap(wmt22: Path, jar: Path) -> None:
    lines = read_lines(wmt22 / "references" / "generaltest2022.de-en.ref.A.en")[:3000]
    lines = [line.replace("\u2028", " ") for line in lines] + CROSSING + _generated(3, 500, 15)
    captions = _captions(lines, 5)
    expected = upstream.PTBTokenizer().tokenize(captions)
    assert PTBTokenizer().tokenize(captions) == expected
    # The rules that read into the next caption: alone, these captions come out otherwise.
    alone = ptb_tokenizer(jar).tokenize(CROSSING)
    assert alone != ptb_tokenizer(jar).tokenize_batch(CROSSING)


def test_the_installed_drop_in_finds_the_real_jar(jar: Path) -> None:
    # After install(), `import pycocoevalcap` is bleuprint's package; the jar is still found.
    code = (
        "import bleuprint.compat.pycocoevalcap as c; c.install(); "
        "from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer; "
        "print(PTBTokenizer().tokenize({1: [{'caption': 'A dog (running), U.S.'}]}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "{1: ['a dog -lrb- running -rrb- u.s.']}\n"


def test_each_caption_on_its_own_as_the_jar(java: Any, core: Any, tmp_path: Path) -> None:
    # As the first line of a text: the caption, then a line break.
    captions = [*CROSSING[:6], "(800) 555-1234 &amp; 1 1/2", "\U0001f600 caf\u00e9 -- don't"]
    expected = []
    for caption in captions:
        line = java(caption + "\n", tmp_path).split("\n")[0]
        words = [w for w in line.rstrip().split(" ") if w not in upstream.PUNCTUATIONS]
        expected.append(" ".join(words))
    assert core.tokenize(captions) == expected


def test_batches_and_workers_give_the_same_captions(core: Any) -> None:
    captions = _generated(4, 3000, 20) + CROSSING * 40
    one = core.tokenize_batch(captions, workers=1)
    assert core.tokenize_batch(captions, workers=2) == one
    assert core.tokenize_batch(captions, workers=-1) == one
    assert core.tokenize(captions, workers=2) == core.tokenize(captions, workers=1)
    assert core.tokenize_batch([]) == []
    assert core.tokenize_batch([""]) == [""]


@pytest.mark.parametrize("char", ["\r", "\x0b", "\x0c", "\u2028", "\u2029", "\n"])
def test_line_breaks_are_refused_never_shifted(core: Any, char: str) -> None:
    captions = ["a dog", f"a cat{char}on a mat", "a bird"]
    with pytest.raises(InvalidInputError, match=f"caption 1 contains U\\+{ord(char):04X}"):
        core.tokenize_batch(captions)
    with pytest.raises(InvalidInputError, match=f'the line "a cat.*U\\+{ord(char):04X}.*line end'):
        core.tokenize(captions)


def test_compat_line_breaks_option() -> None:
    captions = {7: [{"caption": "a dog"}], 9: [{"caption": "a cat\ron a mat"}, {"caption": "x"}]}
    with pytest.raises(InvalidInputError, match="image 9.*U\\+000D.*line_breaks='space'"):
        PTBTokenizer().tokenize(captions)
    spaced = PTBTokenizer(line_breaks="space").tokenize(captions)
    assert spaced == {7: ["a dog"], 9: ["a cat on a mat", "x"]}
    # Upstream replaces \n itself.
    assert PTBTokenizer().tokenize({1: [{"caption": "a\nb"}]}) == {1: ["a b"]}
    # As upstream: no entry for an image without captions, the others in order.
    shaped = {3: [], 1: [{"caption": "A dog"}, {"caption": "c"}], 2: []}
    assert PTBTokenizer().tokenize(shaped) == {1: ["a dog", "c"]}
    assert PTBTokenizer().tokenize({}) == {}
    with pytest.raises(TypeError, match=r"captions\[1\] must be str, got int"):
        PTBTokenizer().tokenize({1: [{"caption": "a"}], 2: [{"caption": 3}]})
    with pytest.raises(InvalidOptionError, match="line_breaks"):
        PTBTokenizer(line_breaks="drop")


def test_a_token_running_into_the_next_caption_is_refused(core: Any) -> None:
    with pytest.raises(InvalidInputError, match="caption 0 has a token that runs into"):
        core.tokenize_batch(["see <a b='x", "y'> here", "z"])


def test_loader_errors(jar: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        ptb_tokenizer(tmp_path / "missing.jar")
    not_a_zip = tmp_path / "plain.jar"
    not_a_zip.write_text("hello")
    with pytest.raises(ModelUnavailableError, match="not Stanford CoreNLP 3.4.1's jar"):
        ptb_tokenizer(not_a_zip)
    with zipfile.ZipFile(jar) as archive:
        other = archive.read("edu/stanford/nlp/process/PTBTokenizer.class")
        lexer = archive.read(LEXER_CLASS)
    with pytest.raises(InvalidInputError, match="not the PTBLexer class of Stanford CoreNLP 3.4.1"):
        _core.PtbTokenizer(other)
    for broken in (lexer[:5000], lexer[:200_000], b"", b"\xca\xfe\xba\xbe" + bytes(20)):
        with pytest.raises(InvalidInputError, match="not the PTBLexer class"):
            _core.PtbTokenizer(broken)
    # One ASCII byte of the packed transitions (they fill most of the class) one higher.
    changed = bytearray(lexer)
    at = next(i for i in range(len(lexer) // 2, len(lexer)) if 1 <= lexer[i] < 0x7E)
    changed[at] += 1
    with pytest.raises(InvalidInputError, match="not the PTBLexer class"):
        _core.PtbTokenizer(bytes(changed))
    with pytest.raises(InputTypeError, match="class_file must be bytes"):
        _core.PtbTokenizer("text")  # type: ignore[arg-type]
    monkeypatch.setenv(JAR_ENV, str(tmp_path / "nowhere.jar"))
    with pytest.raises(ModelUnavailableError, match=f"{JAR_ENV}="):
        find_jar()


def test_metrics_take_ptb(jar: Path) -> None:
    hyps = ["A man, riding a horse.", "Two dogs play in the snow!", "It's (not) 1/2 U.S. $5"]
    refs = [["A man is riding the horse!", "a man rides"], ["Dogs (two) in snow.", "dogs"],
            ["It is not half of 5 dollars.", "U.S. $ 5"]]  # fmt: skip
    tokenized_hyps = ptb_tokenizer(jar).tokenize_batch(hyps)
    tokenized_refs = [ptb_tokenizer(jar).tokenize_batch(list(s)) for s in zip(*refs)]
    streams = [list(s) for s in zip(*refs)]
    metric = bleuprint.BLEU(tokenize="ptb")
    bleu = metric.corpus_score(hyps, streams)
    assert (
        bleu.score
        == bleuprint.BLEU(tokenize="none").corpus_score(tokenized_hyps, tokenized_refs).score
    )
    assert "tokenizer=ptb" in str(metric.get_signature())
    cider = bleuprint.CIDEr(tokenize="ptb").corpus_score(hyps, streams)
    assert cider.score == bleuprint.CIDEr().corpus_score(tokenized_hyps, tokenized_refs).score
    rouge = bleuprint.ROUGE(rouge_types=("rougeL",), tokenizer="ptb")
    plain = bleuprint.ROUGE(rouge_types=("rougeL",), tokenizer="none", lowercase=False)
    assert (
        rouge.corpus_score(hyps, streams).score
        == plain.corpus_score(tokenized_hyps, tokenized_refs).score
    )
    assert (
        bleuprint.tokenizers.tokenize("It's (not) 1/2 U.S.", "ptb")
        == "it 's -lrb- not -rrb- 1/2 u.s."
    )
