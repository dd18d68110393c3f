"""Which numpy scalar promotion the bootstrap replays: NEP 50 under numpy 2, numpy 1's
value-based rule under numpy 1 (and NEP 50 where numpy 1.25+ is switched to it), each
bit-identical to sacrebleu running under the same numpy."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import bleuprint
from bleuprint import _core
from bleuprint.errors import InvalidOptionError
from bleuprint.significance.promotion import (
    LEGACY,
    WEAK,
    installed_numpy_line,
    numpy_promotion,
    numpy_scalar_type,
    promotion_of,
)

sacrebleu = pytest.importorskip("sacrebleu")

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


@pytest.mark.parametrize(
    ("version", "state", "promotion"),
    [
        ("1.24.4", None, LEGACY),
        ("1.26.4", "legacy", LEGACY),
        ("1.26.4", "weak", WEAK),
        ("1.26.4", "weak_and_warn", WEAK),
        ("2.0.2", "weak", WEAK),
        ("2.4.6", None, WEAK),
    ],
)
def test_the_rule_follows_numpys_version_and_promotion_state(
    version: str, state: str, promotion: str
) -> None:
    assert promotion_of(version, state) == promotion


def test_the_loaded_numpy_decides() -> None:
    expected = WEAK if int(np.__version__.split(".")[0]) >= 2 else LEGACY
    state = getattr(np, "_get_promotion_state", None)
    if state is not None:
        expected = LEGACY if state() == LEGACY else WEAK
    assert numpy_promotion() == expected
    # What sacrebleu's arithmetic gives: a float32 score meeting a Python float.
    assert type(np.float32(3) * 0.1) is numpy_scalar_type(numpy_promotion())
    assert installed_numpy_line().startswith(f"numpy {np.__version__}: ")


@pytest.mark.parametrize("name", ["BLEU", "CHRF", "TER"])
def test_bootstrap_means_and_intervals_equal_sacrebleus_value_and_type(name: str) -> None:
    ours = getattr(bleuprint, name)().corpus_score(HYPS, REFS, n_bootstrap=1000)
    theirs = getattr(sacrebleu, name)().corpus_score(HYPS, REFS, n_bootstrap=1000)
    assert (ours.mean, ours.ci) == (theirs._mean, theirs._ci)
    assert (type(ours.mean), type(ours.ci)) == (type(theirs._mean), type(theirs._ci))


PROGRAM = """
import numpy as np, sacrebleu, bleuprint
from bleuprint.significance.promotion import numpy_promotion
hyps, refs = {hyps!r}, {refs!r}
for name in ("BLEU", "CHRF", "TER"):
    ours = getattr(bleuprint, name)().corpus_score(hyps, refs, n_bootstrap=200)
    theirs = getattr(sacrebleu, name)().corpus_score(hyps, refs, n_bootstrap=200)
    assert (ours.mean, ours.ci) == (theirs._mean, theirs._ci), name
    assert type(ours.mean) is type(theirs._mean), name
print(numpy_promotion(), type(np.float32(3) * 0.1).__name__)
"""


@pytest.mark.skipif(
    not hasattr(np, "_get_promotion_state") or np.__version__.startswith("2."),
    reason="only numpy 1.25 and 1.26 can be switched between the two rules",
)
@pytest.mark.parametrize("state", [LEGACY, WEAK])
def test_numpy_1_switched_to_nep_50_is_followed(state: str) -> None:
    program = PROGRAM.format(hyps=HYPS, refs=REFS)
    done = subprocess.run(
        [sys.executable, "-c", program],
        env={**os.environ, "NPY_PROMOTION_STATE": state},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [state, "float32" if state == WEAK else "float64"]


def test_the_core_refuses_an_unknown_rule() -> None:
    sums = np.ones((2, 2), dtype=np.float32)
    with pytest.raises(InvalidOptionError, match=r'"nep50".*weak, legacy'):
        _core.resampled_scores(_core.TerKernel(), sums, promotion="nep50")
