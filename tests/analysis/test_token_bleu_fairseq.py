"""token_bleu(preset="fairseq") equals fairseq 0.12.2's own ``Scorer``: its
``fairseq/scoring/bleu.py`` and its C counting code (``clib/libbleu/libbleu.cpp``, compiled
here with g++), both from fairseq's published sdist. fairseq itself cannot be pip-installed
without torch and a C++ extension build, so ``torch.IntTensor`` is played by a numpy-backed
class with the five methods ``Scorer.add`` calls; everything else is fairseq's code."""

from __future__ import annotations

import builtins
import random
import shutil
import subprocess
import sys
import types
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bleuprint
from bleuprint.errors import InvalidInputError, InvalidOptionError
from tests.support.data import read_lines, wmt22_references
from tests.support.upstream import read_member, sdist

VERSION = "0.12.2"
PAD, EOS, UNK = 1, 2, 3  # fairseq's BleuConfig defaults


class IntTensor:
    """What ``Scorer.add`` uses of a 1-D ``torch.IntTensor``, on an int32 numpy array."""

    def __init__(self, values: Any) -> None:
        self.array = np.ascontiguousarray(values, dtype=np.int32)

    def clone(self) -> IntTensor:
        return IntTensor(self.array.copy())

    def lt(self, value: int) -> np.ndarray:
        return self.array < value

    def eq(self, value: int) -> np.ndarray:
        return self.array == value

    def __setitem__(self, mask: np.ndarray, value: int) -> None:
        self.array[mask] = value

    def contiguous(self) -> IntTensor:
        return self

    def view(self, *shape: int) -> IntTensor:
        return IntTensor(self.array.reshape(shape))

    def size(self, dim: int) -> int:
        return int(self.array.shape[dim])

    def data_ptr(self) -> int:
        return int(self.array.ctypes.data)


@pytest.fixture(scope="module")
def scorer_class(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """fairseq's ``Scorer`` class, loaded from the sdist with its libbleu compiled."""
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ is needed to compile fairseq's libbleu")
    archive = sdist("fairseq", VERSION)
    root = f"fairseq-{VERSION}/fairseq"
    build = tmp_path_factory.mktemp("libbleu")
    source = build / "libbleu.cpp"
    source.write_bytes(read_member(archive, f"{root}/clib/libbleu/libbleu.cpp"))
    library = build / "libbleu.so"
    subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", str(source), "-o", str(library)], check=True
    )
    stubs = _stub_modules(library)

    def resolve(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:  # noqa: E501
        if name in stubs:
            return stubs[name]
        return builtins.__import__(name, globals, locals, fromlist, level)

    # A module of its own (dataclasses looks the module up), under a name nothing else uses.
    module = types.ModuleType("_fairseq_sdist_scoring_bleu")
    module.__dict__["__builtins__"] = {**vars(builtins), "__import__": resolve}
    sys.modules[module.__name__] = module
    code = read_member(archive, f"{root}/scoring/bleu.py").decode()
    exec(compile(code, f"{root}/scoring/bleu.py", "exec"), module.__dict__)
    return module.Scorer


def _stub_modules(library: Path) -> dict[str, types.ModuleType]:
    """The modules fairseq's bleu.py imports, reduced to what its ``Scorer`` touches."""
    torch = types.ModuleType("torch")
    torch.IntTensor = IntTensor  # type: ignore[attr-defined]
    fairseq = types.ModuleType("fairseq")
    fairseq.libbleu = types.SimpleNamespace(__file__=str(library))  # type: ignore[attr-defined]
    dataclass_module = types.ModuleType("fairseq.dataclass")
    dataclass_module.FairseqDataclass = object  # type: ignore[attr-defined]
    scoring = types.ModuleType("fairseq.scoring")
    scoring.BaseScorer = object  # type: ignore[attr-defined]
    scoring.register_scorer = lambda name, dataclass=None: lambda cls: cls  # type: ignore[attr-defined]
    tokenizer = types.ModuleType("fairseq.scoring.tokenizer")
    tokenizer.EvaluationTokenizer = types.SimpleNamespace(ALL_TOKENIZER_TYPES=str)  # type: ignore[attr-defined]
    return {
        "torch": torch,
        "fairseq": fairseq,
        "fairseq.dataclass": dataclass_module,
        "fairseq.scoring": scoring,
        "fairseq.scoring.tokenizer": tokenizer,
    }


def fairseq_score(
    scorer_class: Any, cands: list[list[int]], refs: list[list[int]], order: int = 4
) -> float:  # noqa: E501
    config = types.SimpleNamespace(pad=PAD, eos=EOS, unk=UNK)
    scorer = scorer_class(config)
    for cand, ref in zip(cands, refs):
        scorer.add(IntTensor(ref), IntTensor(cand))
    return float(scorer.score(order=order))


def _sequence(rng: random.Random, vocab: int) -> list[int]:
    """Token IDs with fairseq's specials where they occur: leading pads, eos and pads at the
    end, and (rarely) inside; never all padding (libbleu reads out of bounds on that)."""
    body = [rng.randrange(UNK, UNK + vocab) for _ in range(rng.randrange(0, 14))]
    if rng.random() < 0.1 and body:
        body.insert(rng.randrange(len(body)), rng.choice([PAD, EOS]))
    head = [PAD] * rng.choice([0, 0, 0, 1, 2])
    tail = [EOS] * rng.choice([0, 1, 1, 2]) + [PAD] * rng.choice([0, 0, 1, 3])
    sequence = head + body + tail
    return sequence if any(t != PAD for t in sequence) else sequence + [EOS]


@pytest.mark.differential
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_random_batches_equal_fairseq_scorer(scorer_class: Any, seed: int, order: int) -> None:
    rng = random.Random(seed * 10 + order)
    cands = [_sequence(rng, 6) for _ in range(300)]
    refs = [_sequence(rng, 6) for _ in range(300)]
    expected = fairseq_score(scorer_class, cands, refs, order)
    got = bleuprint.token_bleu(
        cands, [[r] for r in refs], preset="fairseq", max_order=order, corpus=True
    )
    assert got == expected
    # One Scorer per pair: sentence scores (most are 0.0 without smoothing).
    sentences = bleuprint.token_bleu(cands, [[r] for r in refs], preset="fairseq", max_order=order)
    for k in range(0, 300, 7):
        assert sentences[k] == fairseq_score(scorer_class, [cands[k]], [refs[k]], order)


@pytest.mark.differential
def test_padded_arrays_equal_fairseq_scorer(scorer_class: Any) -> None:
    """Batches as fairseq holds them: right-padded [B, L] int tensors ending in eos."""
    rng = np.random.default_rng(7)
    b, length = 64, 20
    cands = np.full((b, length), PAD, dtype=np.int32)
    refs = np.full((b, length), PAD, dtype=np.int32)
    for array in (cands, refs):
        for row in array:
            n = int(rng.integers(1, length))
            row[: n - 1] = rng.integers(UNK, UNK + 8, n - 1)
            row[n - 1] = EOS
    expected = fairseq_score(scorer_class, list(cands), list(refs))
    assert bleuprint.token_bleu(cands, refs, preset="fairseq", corpus=True) == expected


@pytest.mark.differential
def test_wmt22_as_token_ids_equals_fairseq_scorer(scorer_class: Any, wmt22: Path) -> None:
    """Real text as a fairseq dictionary would give it: words to IDs, rare words to unk."""
    outputs = wmt22 / "system-outputs"
    hyps = read_lines(outputs / "generaltest2022.en-de.hyp.Online-B.de")[:1500]
    refs = read_lines(wmt22_references(wmt22, "en-de")["A"])[:1500]
    frequency = Counter(w for line in hyps + refs for w in line.split())
    vocab = {w: 4 + i for i, (w, n) in enumerate(frequency.most_common()) if n > 1}

    def ids(line: str) -> list[int]:
        return [vocab.get(w, UNK) for w in line.split()] + [EOS]

    cands, targets = [ids(h) for h in hyps], [ids(r) for r in refs]
    assert sum(t.count(UNK) for t in targets) > 100  # the unk rule is exercised
    expected = fairseq_score(scorer_class, cands, targets)
    got = bleuprint.token_bleu(cands, [[t] for t in targets], preset="fairseq", corpus=True)
    assert got == expected
    assert 10 < got < 60


def test_fairseq_refusals() -> None:
    with pytest.raises(InvalidInputError, match="no tokens besides padding"):
        bleuprint.token_bleu([[PAD, PAD]], [[[5]]], preset="fairseq")
    with pytest.raises(InvalidInputError, match="one reference per candidate"):
        bleuprint.token_bleu([[5]], [[[5], [6]]], preset="fairseq")
    with pytest.raises(InvalidOptionError, match="up to order 4"):
        bleuprint.token_bleu([[5]], [[[5]]], preset="fairseq", max_order=5)
    with pytest.raises(InvalidOptionError, match="no weights, smoothing"):
        bleuprint.token_bleu([[5]], [[[5]]], preset="fairseq", smoothing=1)


def test_fairseq_trimming_and_unk() -> None:
    """libbleu trims leading pads and trailing eos/pads only; a reference unk never matches,
    a candidate unk can match nothing but a reference unk, so it never does."""
    base = bleuprint.token_bleu([[5, 6, 7, 8]], [[[5, 6, 7, 8]]], preset="fairseq")
    assert base[0] == 100.0
    padded = bleuprint.token_bleu(
        [[PAD, 5, 6, 7, 8, EOS, PAD]], [[[5, 6, 7, 8, EOS, EOS]]], preset="fairseq"
    )
    assert padded[0] == 100.0
    inner = bleuprint.token_bleu([[5, PAD, 7, 8]], [[[5, PAD, 7, 8]]], preset="fairseq")
    assert inner[0] == 100.0  # an interior pad is a token to libbleu
    same = [[5, 6, 7, 8, 9, UNK]]
    unk = bleuprint.token_bleu(same, [same], preset="fairseq")
    assert 0 < unk[0] < 100.0
    assert bleuprint.token_bleu(same, [same], preset="fairseq", unk_id=99)[0] == 100.0
