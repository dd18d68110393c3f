"""The catalogue of hostile inputs and conditions: one table row per case, API and CLI.

Every case runs in its own subprocess under a memory limit and a timeout, so a crash, an
abort, a runaway allocation or a hang fails that case instead of the test session. An API
case is Python code; it passes when it raises an exception of the expected class (checked
by name along the exception's MRO) whose message matches, or, with ``raises=None``, when it
runs to the end (its own ``assert`` lines check what it computed). A CLI case is a command
line; it passes when the exit status is one of those expected and stderr matches, holds no
traceback and is at most ``stderr_lines`` lines.

docs/errors.md shows this table; ``python -m tests.errors.test_catalogue --write-docs`` rewrites
that section and ``test_docs_show_the_catalogue`` keeps the two from drifting apart.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

from tests.support.data import DOCS

MEMORY_LIMIT = 2 * 1024**3  # bytes of address space per case
TIMEOUT = 60  # seconds per case
PARALLEL = 2  # cases at a time (the test machines have few cores)
# A signal must turn into its exception within this many seconds ("about a second"; the
# margin covers a loaded machine).
SIGNAL_LATENCY = 2.0
ERRORS_DOC = DOCS / "errors.md"
BEGIN, END = "<!-- catalogue:begin -->", "<!-- catalogue:end -->"


@dataclass(frozen=True)
class Case:
    """One row: the group, a short name, the code or command line, the expected outcome."""

    group: str
    name: str
    code: str
    raises: Optional[str] = None
    match: str = ""
    kind: str = "api"
    exit: tuple[int, ...] = ()
    stderr_lines: int = 1
    signal_after: Optional[float] = None  # seconds until SIGINT (CLI) / the case's own timer

    @property
    def expected(self) -> str:
        """The outcome as docs/errors.md shows it."""
        if self.kind == "cli":
            statuses = " or ".join(str(e) for e in self.exit)
            where = f", stderr ~ `{self.match}`" if self.match else ", nothing on stderr"
            return f"exit {statuses}{where}"
        if self.raises is None:
            return "runs; the checks in the code hold"
        late = f" within {SIGNAL_LATENCY:g} s of the signal" if self.signal_after else ""
        return f"`{self.raises}`{late}" + (f" ~ `{self.match}`" if self.match else "")


def api(
    group: str,
    name: str,
    code: str,
    raises: Optional[str] = None,
    match: str = "",
    signal_after: Optional[float] = None,
) -> Case:
    return Case(
        group, name, textwrap.dedent(code).strip(), raises, match, "api", (), 1, signal_after
    )


def cli(
    group: str,
    name: str,
    command: str,
    exit: tuple[int, ...],
    match: str = "",
    stderr_lines: int = 1,
    signal_after: Optional[float] = None,
) -> Case:
    return Case(group, name, command, None, match, "cli", exit, stderr_lines, signal_after)


# Calls that run for many seconds unless interrupted: WER and TER of one 200,000-word line.
LONG_WER = "bleuprint.corpus_wer([LONG_A], [[LONG_B]], workers=1)"
LONG_TER = "bleuprint.corpus_ter([LONG_A], [[LONG_B]])"

CASES = [
    # --- signals ----------------------------------------------------------------------------
    api(
        "signals",
        "SIGINT during a long WER call",
        f"interrupt_after(1.0)\n{LONG_WER}",
        "KeyboardInterrupt",
        signal_after=1.0,
    ),
    api(
        "signals",
        "SIGINT during a long TER call",
        f"interrupt_after(1.0)\n{LONG_TER}",
        "KeyboardInterrupt",
        signal_after=1.0,
    ),
    api(
        "signals",
        "SIGINT during a long CER call",
        "interrupt_after(1.0)\nbleuprint.corpus_cer([LONG_A[:250000]], [[LONG_B[:250000]]])",
        "KeyboardInterrupt",
        signal_after=1.0,
    ),
    api(
        "signals",
        "signal.alarm handler that raises",
        f"""
        class Timeout(Exception):
            pass
        def on_alarm(signum, frame):
            raise Timeout("alarm")
        signal.signal(signal.SIGALRM, on_alarm)
        interrupt_after(1.0, signal.SIGALRM)
        {LONG_WER}
        """,
        "Timeout",
        "alarm",
        signal_after=1.0,
    ),
    api(
        "signals",
        "SIGINT, then the metric still works",
        f"""
        interrupt_after(1.0)
        try:
            {LONG_WER}
        except KeyboardInterrupt:
            pass
        assert bleuprint.corpus_bleu(H, R).score == bleuprint.corpus_bleu(list(H), R).score
        """,
    ),
    api(
        "signals",
        "Ctrl-C pending at the process's first numpy array",
        """
        import _thread, operator  # map() calls both from C: no Python code in between
        from functools import partial
        kernel = bleuprint._core.BleuKernel(tokenizer="13a", max_order=4)
        call = partial(bleuprint._core.stats, kernel, H, R)
        list(map(operator.methodcaller("__call__"), [_thread.interrupt_main, call]))
        """,
        "KeyboardInterrupt",
    ),
    api(
        "signals",
        "Ctrl-C pending at the first array, numpy loaded by the caller",
        """
        import _thread, operator, numpy as np
        from functools import partial
        kernel = bleuprint._core.WerKernel()
        call = partial(bleuprint._core.details, kernel, np.zeros((2, 6), dtype=np.int64))
        list(map(operator.methodcaller("__call__"), [_thread.interrupt_main, call]))
        """,
        "KeyboardInterrupt",
    ),
    # --- bounds -----------------------------------------------------------------------------
    api(
        "bounds",
        "BLEU max_ngram_order=2**31",
        "bleuprint.BLEU(max_ngram_order=2**31).corpus_score(H, R)",
        "InvalidOptionError",
        "max_ngram_order",
    ),
    api(
        "bounds",
        "BLEU max_ngram_order=2**62",
        "bleuprint.BLEU(max_ngram_order=2**62).corpus_score(H, R)",
        "InvalidOptionError",
        "max_ngram_order",
    ),
    api(
        "bounds",
        "BLEU max_ngram_order=2**63",
        "bleuprint.BLEU(max_ngram_order=2**63).corpus_score(H, R)",
        "InvalidOptionError",
        "max_ngram_order",
    ),
    api(
        "bounds",
        "corpus_bleu max order 10**30",
        "bleuprint.BLEU(max_ngram_order=10**30).corpus_score(H, R)",
        "InvalidOptionError",
        "max_ngram_order",
    ),
    api(
        "bounds",
        "CHRF char_order=2**31",
        "bleuprint.CHRF(char_order=2**31).corpus_score(H, R)",
        "InvalidOptionError",
        "char_order",
    ),
    api(
        "bounds",
        "CHRF word_order=2**40",
        "bleuprint.CHRF(word_order=2**40).corpus_score(H, R)",
        "InvalidOptionError",
        "word_order",
    ),
    api(
        "bounds",
        "CHRF word_order=2**62",
        "bleuprint.CHRF(word_order=2**62).corpus_score(H, R)",
        "InvalidOptionError",
        "word_order",
    ),
    api(
        "bounds",
        "CHRF char_order=-1",
        "bleuprint.CHRF(char_order=-1).corpus_score(H, R)",
        "InvalidOptionError",
        "char_order",
    ),
    api(
        "bounds",
        "HF evaluate max_order=2**31",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('bleu').compute(predictions=H, references=G, max_order=2**31)",
        "InvalidOptionError",
        "order",
    ),
    api(
        "bounds",
        "HF evaluate max_order=2**62",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('bleu').compute(predictions=H, references=G, max_order=2**62)",
        "InvalidOptionError",
        "order",
    ),
    api(
        "bounds",
        "HF google_bleu max_len=2**40",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('google_bleu').compute(predictions=H, references=G, max_len=2**40)",
        "InvalidOptionError",
        "max_len",
    ),
    api(
        "bounds",
        "BLEUConfig max_ngram_order=2**31",
        "from bleuprint import BLEUConfig\n"
        "BLEUConfig(max_ngram_order=2**31).item_score(H, [[r] for r in R[0]])",
        "InvalidOptionError",
        "order",
    ),
    api(
        "bounds",
        "torchmetrics n_gram=2**31",
        "from bleuprint.compat.torchmetrics import bleu_score\n"
        "bleu_score(H, [[r] for r in R[0]], n_gram=2**31)",
        "InvalidOptionError",
        "order|n_gram",
    ),
    api(
        "bounds",
        "nlg-metricverse max_order=2**31",
        "from bleuprint.compat.nlgmetricverse import load_metric\n"
        "load_metric('bleu').compute(predictions=H, references=R[0], max_order=2**31)",
        "InvalidOptionError",
        "order",
    ),
    api(
        "bounds",
        "n_bootstrap=10**12",
        "bleuprint.BLEU().corpus_score(H, R, n_bootstrap=10**12)",
        "InvalidOptionError",
        "n_bootstrap",
    ),
    cli(
        "bounds",
        "CLI -cc 2147483648",
        "bleuprint ref.txt -i hyp.txt -m chrf -cc 2147483648",
        (2,),
        "-cc/--chrf-char-order",
    ),
    cli(
        "bounds",
        "CLI -cw 2**62",
        f"bleuprint ref.txt -i hyp.txt -m chrf -cw {2**62}",
        (2,),
        "-cw/--chrf-word-order",
    ),
    cli(
        "bounds",
        "CLI -cin 10**12",
        f"bleuprint ref.txt -i hyp.txt -ci -cin {10**12}",
        (2,),
        "-cin/--confidence-n",
    ),
    cli(
        "bounds",
        "CLI -w 999999999",
        "bleuprint ref.txt -i hyp.txt -w 999999999",
        (2,),
        "-w/--width",
    ),
    cli(
        "bounds",
        "CLI -pbsn 10**12",
        f"bleuprint ref.txt -i hyp.txt hyp2.txt -pbs -pbsn {10**12}",
        (2,),
        "-pbsn/--paired-bs-n",
    ),
    cli("bounds", "CLI -sv nan", "bleuprint ref.txt -i hyp.txt -s add-k -sv nan", (1, 2), "smooth"),
    cli(
        "bounds",
        "CLI -s floor -sv 1e308",
        "bleuprint ref.txt -i hyp.txt -s floor -sv 1e308",
        (2,),
        r"smooth_value must be <= 1e\+36",
    ),
    # --- numbers ----------------------------------------------------------------------------
    api(
        "numbers",
        "negative add-k smooth_value",
        "bleuprint.BLEU(smooth_method='add-k', smooth_value=-1).corpus_score(H, R)",
        "InvalidOptionError",
        "smooth_value",
    ),
    api(
        "numbers",
        "NaN smooth_value",
        "bleuprint.corpus_bleu(H, R, smooth_method='add-k', smooth_value=float('nan'))",
        "InvalidOptionError",
        "smooth_value",
    ),
    api(
        "numbers",
        "inf smooth_value",
        "bleuprint.corpus_bleu(H, R, smooth_method='floor', smooth_value=float('inf'))",
        "InvalidOptionError",
        "smooth_value",
    ),
    api(
        "numbers",
        "negative floor smooth_value",
        "bleuprint.BLEU(smooth_method='floor', smooth_value=-0.1).corpus_score(H, R)",
        "InvalidOptionError",
        "smooth_value",
    ),
    api(
        "numbers",
        "sentence_bleu inf add-k",
        "bleuprint.sentence_bleu(H[0], G[0], smooth_method='add-k', smooth_value=float('inf'))",
        "InvalidOptionError",
        "smooth_value",
    ),
    api(
        "numbers",
        "floor smooth_value 1e308 (sacrebleu: inf)",
        "bleuprint.BLEU(smooth_method='floor', smooth_value=1e308).corpus_score(H, R)",
        "InvalidOptionError",
        r"smooth_value must be <= 1e\+36",
    ),
    api(
        "numbers",
        "add-k smooth_value 1e307 (sacrebleu: inf)",
        "bleuprint.corpus_bleu(H, R, smooth_method='add-k', smooth_value=1e307)",
        "InvalidOptionError",
        r"smooth_value must be <= 1e\+36",
    ),
    api(
        "numbers",
        "floor smooth_value 3.5e36 (sacrebleu's bootstrap: inf)",
        "bleu = bleuprint.BLEU(smooth_method='floor', smooth_value=3.5e36)\n"
        "bleu.corpus_score(H, R, n_bootstrap=20)",
        "InvalidOptionError",
        r"smooth_value must be <= 1e\+36",
    ),
    api(
        "numbers",
        "floor smooth_value 1e36 (the bound) with a bootstrap",
        """
        import math
        bleu = bleuprint.BLEU(smooth_method='floor', smooth_value=1e36)
        s = bleu.corpus_score(H, R, n_bootstrap=20)
        assert math.isfinite(s.score) and math.isfinite(s.mean) and math.isfinite(s.ci), s
        """,
    ),
    api(
        "numbers",
        "smooth_value 10**400 (beyond float range)",
        "bleuprint.BLEU(smooth_method='floor', smooth_value=10**400).corpus_score(H, R)",
        "InvalidOptionError",
        "smooth_value must be a finite number",
    ),
    api(
        "numbers",
        "chrF beta NaN",
        "bleuprint.CHRF(beta=float('nan')).corpus_score(H, R)",
        "InvalidOptionError",
        "beta",
    ),
    api(
        "numbers",
        "chrF beta -1",
        "bleuprint.CHRF(beta=-1).corpus_score(H, R)",
        "InvalidOptionError",
        "beta",
    ),
    api(
        "numbers",
        "chrF beta whose square overflows",
        "bleuprint.CHRF(beta=1e200).corpus_score(H, R)",
        "InvalidOptionError",
        "beta",
    ),
    # --- threads ----------------------------------------------------------------------------
    api(
        "threads",
        "workers=10**6",
        """
        bleuprint.BLEU(workers=10**6).corpus_score(BIG_H, [BIG_H[::-1]])
        assert threads() <= 2 * os.cpu_count() + 4, threads()
        """,
    ),
    api(
        "threads",
        "workers=1000 leaves no 1000 threads",
        """
        bleuprint.CHRF(workers=1000).corpus_score(BIG_H, [BIG_H[::-1]])
        bleuprint.BLEU(workers=999).corpus_score(BIG_H, [BIG_H[::-1]])
        assert threads() <= 2 * os.cpu_count() + 4, threads()
        """,
    ),
    api(
        "threads",
        "workers='2'",
        "bleuprint.BLEU(workers='2').corpus_score(H, R)",
        "BleuprintError",
        "workers",
    ),
    api(
        "threads",
        "workers=10**30",
        "bleuprint.BLEU(workers=10**30).corpus_score(H, R)",
        "BleuprintError",
        "workers",
    ),
    api(
        "threads",
        "workers=2.5",
        "bleuprint.CHRF(workers=2.5).corpus_score(H, R)",
        "BleuprintError",
        "workers",
    ),
    api(
        "threads",
        "workers=0",
        "bleuprint.TER(workers=0).corpus_score(H, R)",
        "InvalidOptionError",
        "workers",
    ),
    # --- containers -------------------------------------------------------------------------
    api(
        "containers",
        "set of hypotheses",
        "bleuprint.corpus_bleu(set(H), R)",
        "InputTypeError",
        "got a set",
    ),
    api(
        "containers",
        "frozenset reference stream",
        "bleuprint.corpus_chrf(H, [frozenset(R[0])])",
        "InputTypeError",
        "got a frozenset",
    ),
    api(
        "containers",
        "dict of hypotheses",
        "bleuprint.corpus_bleu(dict.fromkeys(H), R)",
        "InputTypeError",
        "got a dict",
    ),
    api(
        "containers",
        "generator of hypotheses",
        "bleuprint.corpus_ter((h for h in H), R)",
        "InputTypeError",
        r"list\(\.\.\.\)",
    ),
    api(
        "containers",
        "iterator of streams",
        "bleuprint.corpus_wer(H, iter(R))",
        "InputTypeError",
        "iterator",
    ),
    api(
        "containers",
        "whole DataFrame as references",
        "import pandas as pd\n"
        "df = pd.DataFrame({'r1': R[0], 'r2': R[1]})\nbleuprint.corpus_bleu(H, df)",
        "InputTypeError",
        r"\[df\[c\] for c in",
    ),
    api(
        "containers",
        "DataFrame columns as streams",
        """
        import pandas as pd
        df = pd.DataFrame({'h': H, 'r1': R[0], 'r2': R[1]})
        got = bleuprint.corpus_bleu(df['h'], [df[c] for c in ('r1', 'r2')]).score
        assert got == bleuprint.corpus_bleu(H, R).score
        """,
    ),
    api(
        "containers",
        "2-D numpy references (n_refs, n_segments)",
        """
        import numpy as np
        got = bleuprint.corpus_bleu(np.array(H), np.array(R)).score
        assert got == bleuprint.corpus_bleu(H, R).score
        """,
    ),
    api(
        "containers",
        "3-D numpy references",
        "import numpy as np\nbleuprint.corpus_bleu(H, np.array([R]))",
        "InputTypeError",
        "n_refs, n_segments",
    ),
    api(
        "containers",
        "pyarrow ChunkedArray",
        """
        import pyarrow as pa
        got = bleuprint.corpus_chrf(pa.chunked_array([H]), [pa.array(s) for s in R]).score
        assert got == bleuprint.corpus_chrf(H, R).score
        """,
    ),
    api(
        "containers",
        "flat list of references",
        "bleuprint.corpus_bleu(H, R[0])",
        "ReferenceLayoutError",
        r"references=\[refs\]",
    ),
    api(
        "containers",
        "ragged streams",
        "bleuprint.corpus_bleu(H, [R[0], R[1][:1]])",
        "InvalidInputError",
        "reference stream 1 has 1 segments",
    ),
    api(
        "containers",
        "int item",
        "bleuprint.corpus_bleu([H[0], 7], R)",
        "InputTypeError",
        r"hypotheses\[1\] must be str",
    ),
    api(
        "containers",
        "bytes reference",
        "bleuprint.corpus_chrf(H, [[b'x', 'y']])",
        "InputTypeError",
        r"references\[0\]\[0\]",
    ),
    api(
        "containers",
        "None hypothesis",
        "bleuprint.corpus_ter([None, 'a'], R)",
        "InputTypeError",
        r"hypotheses\[0\]",
    ),
    api(
        "containers",
        "nested too deep",
        "bleuprint.corpus_bleu(H, [[['a'], ['b']]])",
        "InputTypeError",
        r"references\[0\]\[0\]",
    ),
    api(
        "containers",
        "Stats + int",
        "bleuprint.BLEU().stats(H, R) + 1",
        "InputTypeError",
        "only merge Stats with Stats",
    ),
    # --- text ---------------------------------------------------------------------------------
    api(
        "text",
        "lone surrogate",
        "bleuprint.corpus_bleu(['a', 'b \\ud800'], R)",
        "InvalidInputError",
        r"hypotheses\[1\] holds a lone surrogate",
    ),
    api(
        "text",
        "lone surrogate in a reference",
        "bleuprint.corpus_chrf(H, [R[0], ['\\udfff', 'x']])",
        "InvalidInputError",
        r"references\[1\]\[0\] holds a lone surrogate",
    ),
    api(
        "text",
        "NUL, huge and odd lines score",
        """
        odd = ['\\x00', 'a\\x00b', ' ' * 1000, 'x' * 200_000, '\\u2028\\u2029', '\\U0010ffff']
        for tok in ('none', '13a', 'intl', 'char', 'zh'):
            bleu = bleuprint.BLEU(tokenize=tok, effective_order=True)
            assert len(bleu.sentence_scores(odd, [odd[::-1]])) == 6
        for score in (bleuprint.corpus_chrf, bleuprint.corpus_ter, bleuprint.corpus_wer):
            score(odd, [odd])
        """,
    ),
    api(
        "text",
        "unknown tokenizer",
        "bleuprint.corpus_bleu(H, R, tokenize='moses')",
        "InvalidOptionError",
        "unknown tokenizer",
    ),
    api(
        "text",
        "MeCab dictionary path broken",
        """
        import ipadic
        ipadic.MECAB_ARGS = '-r /dev/null -d /nonexistent'
        bleuprint.corpus_bleu(H, R, tokenize='ja-mecab')
        """,
        "ModelUnavailableError",
        "/nonexistent",
    ),
    # --- aliasing ---------------------------------------------------------------------------
    *(
        api(
            "aliasing",
            f"{m}(references=refs), refs edited later",
            f"""
            refs = [list(R[0]), list(R[1])]
            metric = bleuprint.{m}(references=refs)
            before = metric.corpus_score(H).score
            refs[0][0] = 'changed completely'; refs[1].append('extra')
            assert metric.corpus_score(H).score == before
            """,
        )
        for m in ("BLEU", "CHRF", "TER", "WER")
    ),
    # --- statistics files and hand-made rows ------------------------------------------------
    api(
        "stats",
        "Stats.load of a foreign .npz",
        "import numpy as np\nnp.savez('f.npz', a=np.arange(3))\nbleuprint.Stats.load('f.npz')",
        "StatsFormatError",
        "not a bleuprint statistics file",
    ),
    api(
        "stats",
        "Stats.load of a pickle",
        "import pickle\nopen('s.pkl', 'wb').write(pickle.dumps(bleuprint.BLEU().stats(H, R)))\n"
        "bleuprint.Stats.load('s.pkl')",
        "StatsFormatError",
        "not an .npz archive",
    ),
    api(
        "stats",
        "Stats.load of garbage",
        "open('g.npz', 'wb').write(bytes(range(256)) * 4)\nbleuprint.Stats.load('g.npz')",
        "StatsFormatError",
        "not a bleuprint statistics file",
    ),
    api(
        "stats",
        "Stats.load of an .npz with an object array",
        "import numpy as np\n"
        "np.savez('o.npz', rows=np.array([[1]], dtype=object), meta=np.array('{}'))\n"
        "bleuprint.Stats.load('o.npz')",
        "StatsFormatError",
        "pickled data",
    ),
    api(
        "stats",
        "Stats.load of a crafted .npz (float rows)",
        "import numpy as np\n"
        "npz('c.npz', np.zeros((1, 10)), {'metric': 'BLEU'})\n"
        "bleuprint.Stats.load('c.npz')",
        "StatsFormatError",
        "integers",
    ),
    api(
        "stats",
        "Stats.load of a crafted .npz (unknown metric)",
        "import numpy as np\n"
        "npz('u.npz', np.zeros((1, 3), int), {'metric': 'XYZ'})\n"
        "bleuprint.Stats.load('u.npz')",
        "StatsMismatchError",
        "unknown metric",
    ),
    api(
        "stats",
        "Stats.load of a crafted .npz (wrong option type)",
        "import numpy as np\n"
        "npz('t.npz', np.zeros((1, 10), int), {'metric': 'BLEU', 'max_ngram_order': '4'})\n"
        "bleuprint.Stats.load('t.npz')",
        "StatsFormatError",
        "max_ngram_order",
    ),
    api(
        "stats",
        "BLEU rows with matches above totals",
        "s = bleuprint.BLEU().stats(H, R)\n"
        "bleuprint.Stats([[3, 3, 5, 0, 0, 0, 3, 2, 1, 0]], s.config, 1).score()",
        "StatsFormatError",
        "correct_n <= total_n",
    ),
    api(
        "stats",
        "negative chrF rows",
        "s = bleuprint.CHRF().stats(H, R)\nbleuprint.Stats(-s.rows - 1, s.config, 2)",
        "StatsFormatError",
        "negative count",
    ),
    api(
        "stats",
        "negative TER rows",
        "s = bleuprint.TER().stats(H, R)\nbleuprint.Stats([[-3, 4, 1]], s.config, 1)",
        "StatsFormatError",
        "negative count",
    ),
    api(
        "stats",
        "negative WER rows",
        "s = bleuprint.WER().stats(H, R)\nbleuprint.Stats([[0, 0, -1, 1, 1, 0]], s.config, 1)",
        "StatsFormatError",
        "negative count",
    ),
    api(
        "stats",
        "rows of the wrong width",
        "s = bleuprint.BLEU().stats(H, R)\nbleuprint.Stats([[1, 2, 3]], s.config, 1)",
        "StatsMismatchError",
        r"shape \(n, 10\)",
    ),
    # --- length mismatches in every compat module -------------------------------------------
    api(
        "lengths",
        "compat.moses multi_bleu",
        "from bleuprint.compat.moses import multi_bleu\nmulti_bleu(H, [R[0][:1]])",
        "InvalidInputError",
        "reference file 0 has 1 lines but there are 2",
    ),
    api(
        "lengths",
        "compat.moses mismatched='perl' warns",
        """
        import warnings
        from bleuprint.compat.moses import multi_bleu
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            multi_bleu(H, [R[0][:1]], mismatched='perl')
        assert [w.category.__name__ for w in caught] == ['BleuprintWarning'], caught
        """,
    ),
    api(
        "lengths",
        "compat.mteval",
        "from bleuprint.compat.mteval import mteval_v13a\nmteval_v13a(H, [R[0][:1]])",
        "InvalidInputError",
        "reference set 0 has 1 segments",
    ),
    api(
        "lengths",
        "compat.evaluate bleu",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('bleu').compute(predictions=H, references=[R[0][0]])",
        "BleuprintError",
        "Mismatch in the number",
    ),
    api(
        "lengths",
        "compat.evaluate sacrebleu",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('sacrebleu').compute(predictions=H, references=G[:1])",
        "BleuprintError",
        "Mismatch in the number",
    ),
    api(
        "lengths",
        "compat.evaluate chrf, references of different numbers",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('chrf').compute(predictions=H, references=[R[0], R[1][:1]])",
        "InvalidInputError",
        "ChrF, as implemented by sacrebleu, requires the same number of references",
    ),
    api(
        "lengths",
        "compat.evaluate ter, references of different numbers",
        "from bleuprint.compat import evaluate\n"
        "evaluate.load('ter').compute(predictions=H, references=[R[0], R[1][:1]])",
        "InvalidInputError",
        "Sacrebleu requires the same number of references",
    ),
    api(
        "lengths",
        "compat.torchmetrics",
        "from bleuprint.compat.torchmetrics import bleu_score\nbleu_score(H, [[R[0][0]]])",
        "InvalidInputError",
        "different size",
    ),
    api(
        "lengths",
        "compat.nltk",
        "from bleuprint.compat.nltk import corpus_bleu\ncorpus_bleu([[['a']]], [['a'], ['b']])",
        "LengthMismatchError",
        "2 hypotheses and 1 reference lists",
    ),
    api(
        "lengths",
        "compat.nlgmetricverse",
        "from bleuprint.compat.nlgmetricverse import load_metric\n"
        "load_metric('bleu').compute(predictions=H, references=R[0][:1])",
        "ReferenceLayoutError",
        "2 predictions but 1 references",
    ),
    api(
        "lengths",
        "compat.jiwer",
        "from bleuprint.compat import jiwer\njiwer.wer(['a', 'b'], ['a'])",
        "BleuprintError",
        "2 reference and 1 hypothesis",
    ),
    # --- other API misuse -------------------------------------------------------------------
    api(
        "misuse",
        "paired_test with a metric name",
        "bleuprint.paired_test({'a': H, 'b': H[::-1]}, R, ['BLEU'])",
        "InvalidOptionError",
        "metric objects",
    ),
    api(
        "misuse",
        "paired_test n_samples=-1",
        "bleuprint.paired_test({'a': H, 'b': H[::-1]}, R, n_samples=-1)",
        "InvalidOptionError",
        "n_samples",
    ),
    api(
        "misuse",
        "explain('', [''])",
        """
        text = str(bleuprint.explain('', ['']))
        assert 'so BP = 1' in text and 'BLEU = BP * exp(sum) = 1.0000 * 0 = 0' in text, text
        """,
    ),
    api(
        "misuse",
        "sentence_bleu with a list hypothesis",
        "bleuprint.sentence_bleu(H, R[0])",
        "InputTypeError",
        "hypothesis must be a str",
    ),
    # --- command line -----------------------------------------------------------------------
    cli("cli", "repeated -i", "bleuprint ref.txt -i hyp.txt -i hyp2.txt", (2,), "-i a.txt b.txt"),
    cli(
        "cli",
        "hypotheses and references of other lengths",
        "bleuprint short.txt -i hyp.txt",
        (1,),
        "different lengths",
    ),
    cli("cli", "missing reference file", "bleuprint missing.txt -i hyp.txt", (1,), "missing.txt"),
    cli(
        "cli",
        "CLI unknown tokenizer",
        "bleuprint ref.txt -i hyp.txt -tok moses",
        (2,),
        "invalid choice",
        stderr_lines=40,
    ),
    cli("cli", "file that is not UTF-8", "bleuprint ref.txt -i latin1.txt", (1,), "latin1.txt"),
    cli(
        "cli",
        "--preset moses with a short reference file",
        "bleuprint short.txt -i hyp.txt --preset moses",
        (1,),
        "lines",
    ),
    cli(
        "cli",
        "--preset nltk with -m chrf (its tool would ignore -m)",
        "bleuprint ref.txt -i hyp.txt --preset nltk -m chrf",
        (2,),
        "-m/--metrics cannot be combined",
    ),
    cli(
        "pipes",
        "stdout closed early (| head -0)",
        "bleuprint ref.txt -i hyp.txt | head -0",
        (0, 141),
    ),
    cli(
        "pipes",
        "sentence-level output into a closed pipe",
        "bleuprint ref.txt -i hyp.txt -sl | head -c 1",
        (0, 141),
    ),
    cli(
        "signals",
        "Ctrl-C during -m wer on a long line",
        "bleuprint long_ref.txt -i long_hyp.txt -m wer",
        (130,),
        "^bleuprint: interrupted$",
        signal_after=1.0,
    ),
    cli(
        "signals",
        "Ctrl-C during sentence-level output",
        "bleuprint many_ref.txt -i many_hyp.txt -sl",
        (130,),
        "^bleuprint: interrupted$",
        signal_after=1.5,
    ),
]

PRELUDE = """
import json, os, resource, signal, sys, threading, time
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
SENT = []

def interrupt_after(seconds, sig=signal.SIGINT):
    def send():
        SENT.append(time.monotonic())
        os.kill(os.getpid(), sig)
    timer = threading.Timer(seconds, send)
    timer.daemon = True
    timer.start()

def threads():
    return len(os.listdir("/proc/self/task"))

def npz(path, rows, config, nrefs=1):  # an .npz shaped like Stats.save's, with these contents
    import numpy as np
    meta = json.dumps({{"config": config, "nrefs": nrefs}})
    np.savez(path, rows=rows, meta=np.array(meta))

import bleuprint
H = ["the cat sat on the mat", "a dog barked loudly"]
R = [["the cat is on the mat", "the dog barked"], ["a cat sat on a mat", "a dog barks"]]
G = [[r] for r in R[0]]  # R[0] as one reference list per hypothesis (the compat layouts)
BIG_H = [f"w{{i}} w{{i % 7}} w{{i % 13}} w{{i % 5}}" for i in range(3000)]
LONG_A = " ".join(f"w{{i % 977}}" for i in range(200_000))
LONG_B = " ".join(f"w{{i * 7 % 983}}" for i in range(200_000))
outcome = {{"raised": None}}
try:
    exec(compile(sys.stdin.read(), "<case>", "exec"))
except BaseException as error:
    outcome = {{
        "raised": type(error).__name__,
        "mro": [c.__name__ for c in type(error).__mro__],
        "message": str(error),
        "late": time.monotonic() - SENT[0] if SENT else None,
    }}
print("CATALOGUE " + json.dumps(outcome), flush=True)
"""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _fixtures(directory: Path, case: Case) -> None:
    (directory / "ref.txt").write_text("the cat is on the mat\nthe dog barked\n")
    (directory / "hyp.txt").write_text("the cat sat on the mat\na dog barked loudly\n")
    (directory / "hyp2.txt").write_text("a cat on the mat\nthe dog barks\n")
    (directory / "short.txt").write_text("the cat is on the mat\n")
    (directory / "latin1.txt").write_bytes("caf\xe9 cr\xe8me\nna\xefve\n".encode("latin-1"))
    if "many_" in case.code:  # 300,000 short lines: seconds of sentence-level output
        words = ("the", "cat", "sat", "on", "mat", "a", "dog")
        for name, step in (("many_ref.txt", 3), ("many_hyp.txt", 5)):
            lines = (" ".join(words[(i * step + k) % 7] for k in range(6)) for i in range(300_000))
            (directory / name).write_text("\n".join(lines) + "\n")
    if "long_" not in case.code:
        return
    words = 200_000
    (directory / "long_ref.txt").write_text(" ".join(f"w{i % 977}" for i in range(words)) + "\n")
    (directory / "long_hyp.txt").write_text(
        " ".join(f"w{i * 7 % 983}" for i in range(words)) + "\n"
    )


@dataclass
class Outcome:
    """What one case did: the API runner's report or the CLI's status and stderr."""

    report: dict
    returncode: Optional[int]
    stderr: str
    timed_out: bool
    seconds: float
    late: Optional[float] = None


def _run_to_the_end(
    command: list[str], directory: Path, **options: Any
) -> Optional[subprocess.CompletedProcess[str]]:
    """``command`` run in ``directory`` within the case timeout; None if it ran out of time."""
    try:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=TIMEOUT, cwd=directory, **options
        )
    except subprocess.TimeoutExpired:
        return None


def _run_api(case: Case, directory: Path) -> Outcome:
    started = time.monotonic()
    command = [sys.executable, "-c", PRELUDE.format(limit=MEMORY_LIMIT)]
    done = _run_to_the_end(command, directory, input=case.code)
    if done is None:
        return Outcome({}, None, "", True, time.monotonic() - started)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("CATALOGUE ")]
    report = json.loads(lines[-1][len("CATALOGUE ") :]) if lines else {}
    return Outcome(
        report, done.returncode, done.stderr, False, time.monotonic() - started, report.get("late")
    )


def _run_cli(case: Case, directory: Path) -> Outcome:
    started = time.monotonic()
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if case.signal_after is None:
        command = ["bash", "-c", f"set -o pipefail; {case.code}"]
        done = _run_to_the_end(command, directory, preexec_fn=_limit_memory, env=env)
        if done is None:
            return Outcome({}, None, "", True, time.monotonic() - started)
        return Outcome({}, done.returncode, done.stderr, False, time.monotonic() - started)
    process = subprocess.Popen(
        shlex.split(case.code),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=directory,
        preexec_fn=_limit_memory,
        env=env,
    )
    time.sleep(case.signal_after)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return Outcome({}, None, "", True, time.monotonic() - started)
    return Outcome(
        {}, process.returncode, stderr, False, time.monotonic() - started, time.monotonic() - sent
    )


def failure(case: Case, outcome: Outcome) -> Optional[str]:
    """Why ``outcome`` does not meet ``case``'s expectation, or ``None`` when it does."""
    if outcome.timed_out:
        return f"no result within {TIMEOUT} s (a hang)"
    if case.signal_after is not None and outcome.late is not None:
        if outcome.late > SIGNAL_LATENCY:
            return f"the signal took effect {outcome.late:.2f} s late"
    if case.kind == "cli":
        stderr = outcome.stderr.rstrip("\n")
        if outcome.returncode not in case.exit:
            return f"exit status {outcome.returncode}, expected {case.exit}; stderr: {stderr!r}"
        if "Traceback" in stderr:
            return f"a traceback on stderr: {stderr[-2000:]}"
        if case.match and not re.search(case.match, stderr, re.MULTILINE):
            return f"stderr {stderr!r} does not match {case.match!r}"
        if not case.match and stderr:
            return f"unexpected stderr {stderr!r}"
        if len(stderr.splitlines()) > case.stderr_lines:
            return (
                f"{len(stderr.splitlines())} lines on stderr, expected at most {case.stderr_lines}"
            )
        return None
    report = outcome.report
    if not report:
        return f"the process died (status {outcome.returncode}): {outcome.stderr[-2000:]}"
    raised = report.get("raised")
    if case.raises is None:
        return None if raised is None else f"raised {raised}: {report.get('message', '')[:500]}"
    if raised is None:
        return f"raised nothing, expected {case.raises}"
    if case.raises not in report["mro"]:
        return f"raised {raised} ({' < '.join(report['mro'])}): {report['message'][:500]}"
    if case.signal_after is not None and report.get("late") is None:
        return "the signal was never sent (the call ended first)"
    if case.match and not re.search(case.match, report["message"]):
        return f"message {report['message'][:500]!r} does not match {case.match!r}"
    return None


def run_cases(root: Path, cases: list[Case]) -> dict[str, Outcome]:
    """Every case's outcome by name, PARALLEL at a time, each in a directory of its own under
    ``root``; the signal cases run alone at the end, so their timing sees an idle machine."""

    def run(index_case: tuple[int, Case]) -> tuple[str, Outcome]:
        index, case = index_case
        directory = root / f"case{index}"
        directory.mkdir()
        _fixtures(directory, case)
        runner = _run_cli if case.kind == "cli" else _run_api
        return case.name, runner(case, directory)

    ordered = sorted(enumerate(cases), key=lambda ic: ic[1].signal_after is not None)
    plain = [ic for ic in ordered if ic[1].signal_after is None]
    timed = [ic for ic in ordered if ic[1].signal_after is not None]
    with ThreadPoolExecutor(PARALLEL) as pool:
        results = dict(pool.map(run, plain))
    results.update(map(run, timed))
    return results


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Every case's outcome."""
    return run_cases(tmp_path_factory.mktemp("catalogue"), CASES)


def test_the_catalogue_is_large_and_named_uniquely() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 60


@pytest.mark.parametrize("case", CASES, ids=[f"{c.group}: {c.name}" for c in CASES])
def test_case(case: Case, outcomes: dict[str, Outcome]) -> None:
    problem = failure(case, outcomes[case.name])
    assert problem is None, f"{case.name}: {problem}\ncode: {case.code}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def catalogue_markdown() -> str:
    """The catalogue as the Markdown table docs/errors.md shows."""
    lines = [BEGIN, "", "| group | case | code or command | expected |", "|---|---|---|---|"]
    for case in CASES:
        code = re.sub("(?m)^ +", lambda m: "&nbsp;" * len(m.group()), html_escape(case.code))
        lines.append(
            f"| {case.group} | {_cell(case.name)} | <code>{_cell(code)}</code> | "
            f"{_cell(case.expected)} |"
        )
    return "\n".join([*lines, "", END])


def html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_docs_show_the_catalogue() -> None:
    text = ERRORS_DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] == catalogue_markdown(), (
        "docs/errors.md is out of date: python -m tests.errors.test_catalogue --write-docs"
    )


if __name__ == "__main__" and sys.argv[1:] == ["--write-docs"]:
    text = ERRORS_DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    ERRORS_DOC.write_text(text[:start] + catalogue_markdown() + text[end:], encoding="utf-8")
