#!/usr/bin/env python
"""BLEU benchmarks: bleuprint against sacrebleu 2.6.0 and (when installed) bleuscore.

One run prints every figure and writes a CSV to ``bench/results/<label>/<date>.csv``.

Workloads (see bench/README.md):

(a) one WMT22 system, en-de Online-B against reference A (2,037 segments), corpus BLEU;
(b) a 100,000-segment corpus: every into-English WMT22 system output with its reference A,
    concatenated (and cycled if needed) to 100,000 segments, corpus BLEU;
(c) 100,000 sentence-level BLEU scores on the same data;
(d) peak memory of (b), each tool in a fresh subprocess;
plus thread scaling of (b) and (c) and the start-up time of ``import bleuprint`` and
``bleuprint -V``.

Each tool gets the same in-memory lists; reading the files is never timed. bleuprint's scores
are checked for exact (``==``) equality with sacrebleu's, and the result of each check is
printed. The script exits with status 1 if a check fails and 2 if the data is missing.

Usage::

    python bench/bench_bleu.py                # full run (about 3 minutes on 2 cores)
    python bench/bench_bleu.py --quick        # smoke run, under a minute, writes no CSV
    python bench/bench_bleu.py --repeats 7 --label my-laptop
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gc
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, NoReturn, Optional

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "wmt22"
RESULTS = REPO / "bench" / "results"

SYSTEM_A = ("en-de", "Online-B")
CORPUS_SIZE = 100_000
QUICK_SIZE = 10_000

#: Background load (cores used by other processes) under which the machine counts as quiet, and
#: over which a section's figures are flagged as disturbed.
QUIET_CORES = 0.1
BUSY_CORES = 0.2

TARGETS = {
    "b_vs_sacrebleu": 100.0,
    "b_vs_bleuscore": 10.0,
    "d_memory_fraction": 0.10,
    "c_vs_sacrebleu_loop": 100.0,
    "import_ms": 50.0,
    "cli_ms": 150.0,
}


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------


def read_lines(path: Path) -> list[str]:
    """Lines of a UTF-8 file, split on "\\n" only (as sacrebleu's reader; the data holds U+2028)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def die(message: str) -> NoReturn:
    """Exits with status 2 (missing or inconsistent data)."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def require_data() -> None:
    if not (DATA / "system-outputs").is_dir() or not (DATA / "references").is_dir():
        die(
            f"WMT22 data not found at {DATA}\n"
            "The benchmarks read the WMT22 general-task release from ../shared/data/wmt22 "
            "(relative to the repository root), with system-outputs/ and references/ inside. "
            "Put it there (never inside the repository) and run again."
        )


def load_system_a() -> tuple[list[str], list[str]]:
    pair, system = SYSTEM_A
    tgt = pair.split("-")[1]
    hyps = read_lines(DATA / "system-outputs" / f"generaltest2022.{pair}.hyp.{system}.{tgt}")
    refs = read_lines(DATA / "references" / f"generaltest2022.{pair}.ref.A.{tgt}")
    if len(hyps) != len(refs):
        die(f"{pair} {system}: {len(hyps)} hypotheses but {len(refs)} references")
    return hyps, refs


def load_into_english_pool() -> tuple[list[str], list[str], list[str]]:
    """Every into-English system output with its reference A, concatenated.

    Returns hypotheses, references and notes on what was used or skipped.
    """
    notes: list[str] = []
    hyps: list[str] = []
    refs: list[str] = []
    pairs = sorted(
        {p.name.split(".")[1] for p in (DATA / "system-outputs").glob("generaltest2022.*-en.hyp.*")}
    )
    for pair in pairs:
        ref_path = DATA / "references" / f"generaltest2022.{pair}.ref.A.en"
        if not ref_path.is_file():
            notes.append(f"{pair}: skipped (no reference A)")
            continue
        ref = read_lines(ref_path)
        systems = sorted((DATA / "system-outputs").glob(f"generaltest2022.{pair}.hyp.*.en"))
        used = 0
        for path in systems:
            hyp = read_lines(path)
            if len(hyp) != len(ref):
                notes.append(f"{path.name}: skipped ({len(hyp)} lines, reference has {len(ref)})")
                continue
            hyps.extend(hyp)
            refs.extend(ref)
            used += 1
        notes.append(f"{pair}: {used} systems x {len(ref)} segments")
    return hyps, refs, notes


def build_corpus(size: int) -> tuple[list[str], list[str], list[str]]:
    """The first ``size`` segments of the into-English pool, cycled if the pool is smaller."""
    pool_h, pool_r, notes = load_into_english_pool()
    if not pool_h:
        die(f"no into-English system outputs with a reference A under {DATA}")
    notes.append(f"pool: {len(pool_h):,} segments; used: first {size:,}")
    hyps: list[str] = []
    refs: list[str] = []
    while len(hyps) < size:
        take = min(size - len(hyps), len(pool_h))
        hyps.extend(pool_h[:take])
        refs.extend(pool_r[:take])
    return hyps, refs, notes


# --------------------------------------------------------------------------------------------
# Tools: each returns a zero-argument callable over prepared inputs
# --------------------------------------------------------------------------------------------


def have_bleuscore() -> bool:
    try:
        import bleuscore  # noqa: F401
    except ImportError:
        return False
    return True


def fresh(strings: Sequence[str]) -> list[str]:
    """New ``str`` objects with the same text.

    Every timed run gets its own copies, as if the text had just been read: CPython caches a
    string's hash and (for non-ASCII text) its UTF-8 form on the object, and a tool that uses
    those caches would otherwise run faster on the second call than on real, fresh input.
    """
    return [(s + " ")[:-1] for s in strings]


Runner = Callable[[list[str], list[str]], Callable[[], Any]]


def corpus_runner(tool: str, workers: int = -1) -> Runner:
    """``prepare(hyps, refs)`` -> a zero-argument corpus BLEU call on one reference stream.

    ``prepare`` (untimed) only arranges the inputs in the layout the tool takes.
    """
    if tool == "sacrebleu":
        import sacrebleu

        return lambda hyps, refs: lambda: sacrebleu.corpus_bleu(hyps, [refs])
    if tool == "bleuscore":
        import bleuscore

        def prepare_bleuscore(hyps: list[str], refs: list[str]) -> Callable[[], Any]:
            # bleuscore wants references per segment; that layout is built outside timing.
            per_segment = [[r] for r in refs]
            return lambda: bleuscore.compute(references=per_segment, predictions=hyps, max_order=4)

        return prepare_bleuscore
    if tool == "bleuprint":
        import bleuprint

        if workers == -1:
            return lambda hyps, refs: lambda: bleuprint.corpus_bleu(hyps, [refs])
        return lambda hyps, refs: lambda: bleuprint.BLEU(workers=workers).corpus_score(hyps, [refs])
    raise ValueError(tool)


def sentence_runner(tool: str, workers: int = -1) -> Runner:
    """``prepare(hyps, refs)`` -> a zero-argument call returning every segment's BLEU."""
    if tool == "sacrebleu":
        import sacrebleu

        # sacrebleu.sentence_bleu: exp smoothing, effective order on (its defaults).
        return lambda hyps, refs: (
            lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
        )
    if tool == "bleuscore":
        import bleuscore

        # No batch sentence API: one compute() per segment. Its smoothing is add-one
        # (smooth=True), not sacrebleu's exp with effective order, so scores are not comparable.
        return lambda hyps, refs: (
            lambda: [
                bleuscore.compute(references=[[r]], predictions=[h], max_order=4, smooth=True)[
                    "bleu"
                ]
                for h, r in zip(hyps, refs)
            ]
        )
    if tool == "bleuprint":
        import bleuprint

        return lambda hyps, refs: (
            lambda: bleuprint.BLEU(effective_order=True, workers=workers).sentence_scores(
                hyps, [refs]
            )
        )
    raise ValueError(tool)


# --------------------------------------------------------------------------------------------
# Measurement helpers
# --------------------------------------------------------------------------------------------


class Timing:
    def __init__(self, times: list[float], result: Any, warmup: bool) -> None:
        self.times = times
        self.result = result
        self.warmup = warmup

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def repeats(self) -> int:
        return len(self.times)


def time_call(
    prepare: Runner, hyps: list[str], refs: list[str], repeats: int, warmup: bool = True
) -> Timing:
    """Median-of-``repeats`` wall time, each run on fresh copies of the text (made untimed);
    one untimed warm-up run first when ``warmup``."""
    result = None
    if warmup:
        result = prepare(fresh(hyps), fresh(refs))()
    times = []
    for _ in range(repeats):
        fn = prepare(fresh(hyps), fresh(refs))
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        del fn
    return Timing(times, result, warmup)


class CpuMeter:
    """CPU time used by *other* processes while a section runs, in cores (0 = quiet machine).

    Busy time of the whole machine from /proc/stat, minus this process's and its waited-for
    children's CPU time.
    """

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> Optional[tuple[float, float, float]]:
        try:
            with open("/proc/stat") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        hz = os.sysconf("SC_CLK_TCK")
        # user, nice, system, irq, softirq (guest time is inside user; steal is not ours)
        busy = sum(fields[i] for i in (0, 1, 2, 5, 6) if i < len(fields)) / hz
        t = os.times()
        own = t.user + t.system + t.children_user + t.children_system
        return time.monotonic(), busy, own

    def other_cores(self) -> Optional[float]:
        end = self._sample()
        if self.start is None or end is None:
            return None
        wall = end[0] - self.start[0]
        if wall <= 0:
            return None
        return max(0.0, ((end[1] - self.start[1]) - (end[2] - self.start[2])) / wall)


def wait_until_quiet(
    limit_s: float, threshold: Optional[float] = None, window_s: float = 5.0
) -> float:
    """Waits (at most ``limit_s``) for a ``window_s`` stretch with other processes using under
    ``threshold`` cores. Returns the last measured background load."""
    threshold = QUIET_CORES if threshold is None else threshold
    start = time.monotonic()
    waited = False
    while True:
        meter = CpuMeter()
        time.sleep(window_s)
        load = meter.other_cores() or 0.0
        elapsed = time.monotonic() - start
        if load < threshold or elapsed >= limit_s:
            if waited:
                state = "quiet" if load < threshold else "still busy, going on"
                print(f"  ... {state} after {elapsed:.0f} s ({load:.2f} cores)", flush=True)
            return load
        if not waited:
            print(
                f"  machine busy ({load:.2f} cores used by other processes); waiting up to "
                f"{limit_s:g} s ...",
                flush=True,
            )
            waited = True


def _proc_status() -> dict[str, int]:
    values = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, rest = line.split(":", 1)
                values[key] = int(rest.split()[0]) * 1024
    return values


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # Linux >= 4.0: reset VmHWM to the current RSS
    except OSError:
        return False
    return True


def _malloc_trim() -> None:
    # Hand freed heap pages back to the OS, so the baseline RSS holds only live data and
    # no tool can hide its allocations in memory freed while the data was prepared.
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def memory_worker(tool: str, size: int) -> None:
    """Child process of the memory measurement: prints one JSON line."""
    import resource

    pool_h, pool_r, _ = build_corpus(size)
    hyps, refs = fresh(pool_h), fresh(pool_r)  # distinct objects, as if read from one file
    del pool_h, pool_r
    prepare = corpus_runner(tool)
    prepare(fresh(hyps[:20]), fresh(refs[:20]))()  # lazy imports, thread pools: not measured
    fn = prepare(hyps, refs)
    gc.collect()
    _malloc_trim()
    linux = os.path.exists("/proc/self/status")
    reset = linux and _reset_peak_rss()
    scale = 1 if sys.platform == "darwin" else 1024
    if reset:
        base = _proc_status()["VmRSS"]
        method = "VmHWM after - VmRSS before (peak reset via /proc/self/clear_refs)"
    else:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
        method = "ru_maxrss after - ru_maxrss before (lower bound: peak could not be reset)"
    fn()
    if reset:
        peak = _proc_status()["VmHWM"]
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    print(json.dumps({"tool": tool, "base": base, "peak": peak, "method": method}))


def measure_memory(tool: str, size: int) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_memory-worker", tool, "--size"]
    proc = subprocess.run(
        [*cmd, str(size)], capture_output=True, text=True, check=False, cwd=str(REPO)
    )
    if proc.returncode != 0:
        raise RuntimeError(f"memory worker for {tool} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def best_wall(cmd: Sequence[str], tries: int) -> tuple[Optional[float], str]:
    """Best-of-``tries`` wall time of a command in seconds, or None and the reason it failed."""
    best = None
    for _ in range(tries):
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError as e:
            return None, str(e)
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()
            return None, f"exit {proc.returncode}: {tail[-1] if tail else ''}"
        best = elapsed if best is None else min(best, elapsed)
    return best, proc.stdout.strip()


def console_script(name: str) -> Optional[str]:
    # The script next to the real interpreter (not a pyenv shim, which adds a bash start-up).
    candidate = Path(sys.executable).parent / name
    if candidate.is_file():
        return str(candidate)
    return shutil.which(name)


# --------------------------------------------------------------------------------------------
# Machine description
# --------------------------------------------------------------------------------------------


def machine_info(label: Optional[str]) -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    family = model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "model name" and cpu in ("", platform.machine(), platform.processor()):
                    cpu = value
                elif key == "cpu family" and not family:
                    family = value
                elif key == "model" and not model:
                    model = value
    except OSError:
        pass
    if family:
        cpu += f" (family {family}, model {model})"
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        mem = f"{kib / 1024**2:.1f} GiB"
    except (OSError, StopIteration):
        pass
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = os.cpu_count() or 0
    rustc = ""
    if shutil.which("rustc"):
        out = subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=False)
        rustc = out.stdout.strip()
    git = ""
    if shutil.which("git"):
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        git = f"{head} (uncommitted changes)" if head and dirty else head
    import numpy
    import sacrebleu

    import bleuprint

    core = Path(bleuprint._core.__file__)
    info = {
        "label": label or socket.gethostname(),
        "hostname": socket.gethostname(),
        "cpu": cpu,
        "logical_cpus": str(os.cpu_count()),
        "usable_cpus": str(affinity),
        "memory": mem,
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "python_executable": sys.executable,
        "rustc_on_path": rustc,
        "bleuprint": bleuprint.__version__,
        "repo_commit": git,
        "bleuprint_core": f"{core} ({core.stat().st_size / 1024:.0f} KiB)",
        "sacrebleu": sacrebleu.__version__,
        "numpy": numpy.__version__,
        "bleuscore": "",
    }
    if have_bleuscore():
        import bleuscore

        info["bleuscore"] = getattr(bleuscore, "__version__", "installed")
    return info


# --------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------


def fmt_time(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} us"


def fmt_ratio(r: Optional[float]) -> str:
    if r is None:
        return "-"
    return f"{r:,.0f}x" if r >= 100 else f"{r:.1f}x" if r >= 10 else f"{r:.2f}x"


class Report:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.failed_checks: list[str] = []

    def add(self, **row: Any) -> dict[str, Any]:
        self.rows.append(row)
        return row

    def add_time(
        self,
        workload: str,
        tool: str,
        segments: int,
        timing: Timing,
        note: str,
        base: Optional[float] = None,
        bs_base: Optional[float] = None,
        match: Optional[str] = None,
        scale: float = 1.0,
        extrapolated: Optional[bool] = None,
        **other_ratios: Optional[float],
    ) -> dict[str, Any]:
        """A ``time`` row for ``timing`` (times multiplied by ``scale``), with the speed-ups
        against a sacrebleu time ``base`` and a bleuscore time ``bs_base`` (``other_ratios``:
        more ``vs_<tool>`` columns, e.g. ``vs_jiwer``)."""
        seconds = timing.median * scale
        row: dict[str, Any] = {
            "kind": "time",
            "workload": workload,
            "tool": tool,
            "segments": segments,
            "repeats": timing.repeats,
            "warmup": timing.warmup,
            "seconds": seconds,
            "min_seconds": min(timing.times) * scale,
            "max_seconds": max(timing.times) * scale,
            "vs_sacrebleu": ratio(base, seconds),
            "vs_bleuscore": ratio(bs_base, seconds),
        }
        row.update(other_ratios)
        if match is not None:
            row["exact_match"] = match
        if extrapolated is not None:
            row["extrapolated"] = extrapolated
        return self.add(**row, note=note)

    def add_memory(
        self, workload: str, tool: str, segments: int, value: int, note: str, **ratios: Any
    ) -> dict[str, Any]:
        """A ``memory`` row: ``value`` bytes, measured once (``ratios``: vs_* columns)."""
        return self.add(
            kind="memory",
            workload=workload,
            tool=tool,
            segments=segments,
            repeats=1,
            value=value,
            unit="bytes",
            **ratios,
            note=note,
        )

    def check(self, name: str, ok: bool) -> str:
        if not ok:
            self.failed_checks.append(name)
        return "yes" if ok else "NO"

    def print_table(self, ratio_columns: Sequence[str] = ("sacrebleu", "bleuscore")) -> None:
        """One line per time and memory row, with a speed-up column per ``ratio_columns``."""
        header = (
            "workload",
            "tool",
            "segments",
            "runs",
            "time",
            *(f"vs {t}" for t in ratio_columns),
        )
        lines = [header]
        for r in self.rows:
            if r["kind"] not in ("time", "memory"):
                continue
            if r["kind"] == "memory":
                value = f"{r['value'] / 2**20:,.1f} MB"
            else:
                value = fmt_time(r["seconds"])
                if r.get("extrapolated"):
                    value += " *"
            lines.append(
                (
                    r["workload"],
                    r["tool"],
                    f"{r['segments']:,}",
                    str(r.get("repeats", "")),
                    value,
                    *(fmt_ratio(r.get(f"vs_{t}")) for t in ratio_columns),
                )
            )
        widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
        for k, line in enumerate(lines):
            cells = [
                c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))
            ]
            print("  ".join(cells).rstrip())
            if k == 0:
                print("  ".join("-" * w for w in widths))

    def write_csv(self, path: Path, info: dict[str, str], params: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fields = [
            "workload", "tool", "kind", "segments", "repeats", "warmup", "seconds", "min_seconds",
            "max_seconds", "value", "unit", "vs_sacrebleu", "vs_bleuscore", "vs_fastchrf",
            "vs_jiwer", "vs_nltk", "exact_match", "extrapolated", "note",
        ]  # fmt: skip
        meta = {"date_utc": params["date"], **info}
        meta.update({k: v for k, v in params.items() if k != "date"})
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=fields + list(meta), extrasaction="ignore")
            writer.writeheader()
            for row in self.rows:
                writer.writerow({**{k: row.get(k, "") for k in fields}, **meta})


def ratio(num: Optional[float], den: Optional[float]) -> Optional[float]:
    if num is None or den is None or den == 0:
        return None
    return num / den


# --------------------------------------------------------------------------------------------
# Benchmarks
# --------------------------------------------------------------------------------------------


def same_bleu(a: Any, b: Any) -> bool:
    """bleuprint's BLEUScore equals sacrebleu's: score (==) and every statistic."""
    return (
        a.score == b.score
        and list(a.counts) == list(b.counts)
        and list(a.totals) == list(b.totals)
        and a.sys_len == b.sys_len
        and a.ref_len == b.ref_len
        and a.bp == b.bp
        and list(a.precisions) == list(b.precisions)
    )


def bench_corpus(
    report: Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    tools: Sequence[str],
    repeats: int,
    slow_repeats: int,
    slow_sacrebleu: bool,
    thread_scaling: bool,
) -> None:
    n = len(hyps)
    timings: dict[str, Timing] = {}
    for tool in tools:
        slow = tool == "sacrebleu" and slow_sacrebleu
        print(f"  {workload}: {tool} ...", flush=True)
        timings[tool] = time_call(
            corpus_runner(tool), hyps, refs, slow_repeats if slow else repeats, warmup=not slow
        )
    sacre = timings["sacrebleu"].result
    bs_time = timings["bleuscore"].median if "bleuscore" in timings else None
    for tool in tools:
        t = timings[tool]
        note = ""
        match = ""
        if tool == "sacrebleu":
            note = f"BLEU {sacre.score!r}"
        elif tool == "bleuprint":
            ok = same_bleu(t.result, sacre)
            match = report.check(f"{workload}: bleuprint == sacrebleu", ok)
            note = f"BLEU {t.result.score!r}; == sacrebleu (score and statistics): {match}"
        elif tool == "bleuscore":
            value = t.result["bleu"] * 100
            ok = value == sacre.score
            match = "yes" if ok else "no"
            note = (
                f"BLEU {value!r} (bleu*100); == sacrebleu: {match} "
                f"(|diff| = {abs(value - sacre.score):.2e}; shortest-reference BP, "
                "the same as sacrebleu's closest with one reference)"
            )
        sacre_time = timings["sacrebleu"].median
        report.add_time(workload, tool, n, t, note, sacre_time, bs_time, match)
        print(f"    {fmt_time(t.median)}  {note}", flush=True)
    if thread_scaling:
        print(f"  {workload}: bleuprint workers=1 ...", flush=True)
        t1 = time_call(corpus_runner("bleuprint", workers=1), hyps, refs, repeats)
        ok = same_bleu(t1.result, sacre)
        match = report.check(f"{workload}: bleuprint workers=1 == sacrebleu", ok)
        tn = timings["bleuprint"].median
        note = f"workers=-1 is {t1.median / tn:.2f}x faster than workers=1; == sacrebleu: {match}"
        sacre_time = timings["sacrebleu"].median
        report.add_time(workload, "bleuprint workers=1", n, t1, note, sacre_time, bs_time, match)
        print(f"    {fmt_time(t1.median)}  {note}", flush=True)


def bench_sentences(
    report: Report,
    workload: str,
    hyps: list[str],
    refs: list[str],
    tools: Sequence[str],
    repeats: int,
    slow_repeats: int,
    sample: int,
) -> None:
    import numpy as np

    n = len(hyps)
    sample = min(sample, n)
    step = max(1, n // sample)
    idx = list(range(0, n, step))[:sample]
    s_hyps = [hyps[i] for i in idx]
    s_refs = [refs[i] for i in idx]
    scale = n / len(idx)
    extrapolated = len(idx) < n
    how = (
        f"timed on every {step}th segment ({len(idx):,}) and scaled x{scale:.2f} to {n:,}"
        if extrapolated
        else f"all {n:,} segments"
    )

    print(f"  {workload}: bleuprint sentence_scores (workers=-1, workers=1) ...", flush=True)
    tp = time_call(sentence_runner("bleuprint"), hyps, refs, repeats)
    tp1 = time_call(sentence_runner("bleuprint", workers=1), hyps, refs, repeats)
    loops: dict[str, Timing] = {}
    for tool in tools:
        if tool == "bleuprint":
            continue
        slow = tool == "sacrebleu"
        print(f"  {workload}: {tool} loop over {len(idx):,} segments ...", flush=True)
        loops[tool] = time_call(
            sentence_runner(tool), s_hyps, s_refs, slow_repeats if slow else repeats, not slow
        )
    sacre_scores = np.asarray(loops["sacrebleu"].result, dtype=np.float64)
    ours = np.asarray(tp.result)[idx]
    ours1 = np.asarray(tp1.result)[idx]
    equal = int(np.sum(ours == sacre_scores))
    ok = equal == len(idx) and bool(np.all(ours1 == ours))
    match = report.check(f"{workload}: sentence scores == sacrebleu", ok)
    sacre_t = loops["sacrebleu"].median * scale
    bs_t = loops["bleuscore"].median * scale if "bleuscore" in loops else None
    for tool, timing in loops.items():
        if tool == "sacrebleu":
            note = f"loop of sacrebleu.sentence_bleu(h, [r]), {how}"
        else:
            note = (
                "loop of bleuscore.compute per segment (add-one smoothing, scores not "
                f"comparable), {how}"
            )
        report.add_time(
            workload, f"{tool} (loop)", n, timing, note, sacre_t, bs_t, None, scale, extrapolated
        )
        print(f"    {fmt_time(timing.median * scale)}  {note}", flush=True)
    for label, t in (("bleuprint", tp), ("bleuprint workers=1", tp1)):
        note = (
            f"BLEU(effective_order=True).sentence_scores, one call; "
            f"{equal:,}/{len(idx):,} sampled scores == sacrebleu: {match}"
        )
        if label != "bleuprint":
            note = f"workers=-1 is {tp1.median / tp.median:.2f}x faster than workers=1"
        report.add_time(workload, label, n, t, note, sacre_t, bs_t, match)
        print(f"    {label}: {fmt_time(t.median)}  {note}", flush=True)


def bench_memory(report: Report, workload: str, size: int, tools: Sequence[str]) -> None:
    results = {}
    for tool in tools:
        print(f"  {workload}: {tool} in a fresh process ...", flush=True)
        results[tool] = measure_memory(tool, size)
    incr = {t: r["peak"] - r["base"] for t, r in results.items()}
    for tool, r in results.items():
        frac = ratio(incr[tool], incr["sacrebleu"])
        note = (
            f"peak RSS increase over {r['base'] / 2**20:.0f} MB baseline (data loaded); "
            f"{r['method']}"
        )
        if frac is not None and tool != "sacrebleu":
            note = f"{frac:.4f} of sacrebleu's; " + note
        report.add_memory(
            workload,
            tool,
            size,
            incr[tool],
            note,
            vs_sacrebleu=ratio(incr["sacrebleu"], incr[tool]),
            vs_bleuscore=ratio(incr.get("bleuscore"), incr[tool]),
        )
        print(f"    {incr[tool] / 2**20:,.1f} MB  {note}", flush=True)


def bench_startup(report: Report, tries: int) -> None:
    py = sys.executable
    print(f"  start-up (best of {tries}) ...", flush=True)
    bare, _ = best_wall([py, "-c", "pass"], tries)
    for label, cmd in (
        ("python -c 'import bleuprint'", [py, "-c", "import bleuprint"]),
        ("python -c 'import sacrebleu'", [py, "-c", "import sacrebleu"]),
    ):
        t, _ = best_wall(cmd, tries)
        report.add(
            kind="startup",
            workload="start-up",
            tool=label,
            repeats=tries,
            seconds=t,
            value=None if t is None or bare is None else t - bare,
            unit="seconds over `python -c pass`",
            note=f"python -c pass: {fmt_time(bare)}",
        )
    script = console_script("bleuprint")
    if script is None:
        t, out = None, "console script `bleuprint` not installed"
    else:
        t, out = best_wall([script, "-V"], tries)
    report.add(
        kind="startup",
        workload="start-up",
        tool="bleuprint -V",
        repeats=tries,
        seconds=t,
        value=None if t is None or bare is None else t - bare,
        unit="seconds over `python -c pass`",
        note=(out if t is not None else f"unavailable: {out}"),
    )
    report.add(
        kind="startup",
        workload="start-up",
        tool="python -c pass",
        repeats=tries,
        seconds=bare,
        note="bare interpreter",
    )


def print_startup(report: Report) -> None:
    for r in report.rows:
        if r["kind"] != "startup":
            continue
        if r["seconds"] is None:
            print(f"  {r['tool']:<30} {r['note']}")
            continue
        extra = f"  ({fmt_time(r['value'])} over bare python)" if r.get("value") else ""
        print(f"  {r['tool']:<30} {fmt_time(r['seconds']):>9}{extra}")


def find_row(
    report: Report, workload_prefix: str, tool: str, kind: str = "time"
) -> Optional[dict[str, Any]]:
    """The first row of ``kind`` whose workload starts with ``workload_prefix``, for ``tool``."""
    for r in report.rows:
        if r["kind"] == kind and r["workload"].startswith(workload_prefix) and r["tool"] == tool:
            return r
    return None


def evaluate_targets(report: Report, quick: bool) -> None:
    def find(workload_prefix: str, tool: str, kind: str = "time") -> Optional[dict[str, Any]]:
        return find_row(report, workload_prefix, tool, kind)

    checks = []
    b = find("(b)", "bleuprint")
    if b:
        checks.append(
            ("(b) corpus BLEU vs sacrebleu", b["vs_sacrebleu"], TARGETS["b_vs_sacrebleu"])
        )
        if b.get("vs_bleuscore") is not None:
            checks.append(
                ("(b) corpus BLEU vs bleuscore", b["vs_bleuscore"], TARGETS["b_vs_bleuscore"])
            )
    c = find("(c)", "bleuprint")
    if c:
        checks.append(
            (
                "(c) sentence BLEU vs sacrebleu loop",
                c["vs_sacrebleu"],
                TARGETS["c_vs_sacrebleu_loop"],
            )
        )
    for label, value, target in checks:
        add_speedup_target(report, label, value, target)
    d = find("(d)", "bleuprint", kind="memory")
    ds = find("(d)", "sacrebleu", kind="memory")
    if d and ds:
        frac = ratio(d["value"], ds["value"])
        met = frac is not None and frac <= TARGETS["d_memory_fraction"]
        report.add(
            kind="target",
            workload="target",
            tool="(d) peak memory vs sacrebleu",
            value=frac,
            unit="fraction of sacrebleu's peak increase",
            note=f"target <= 1/10: {'met' if met else 'NOT met'}",
        )
    for tool, key, over_bare in (
        ("python -c 'import bleuprint'", "import_ms", True),
        ("bleuprint -V", "cli_ms", False),
    ):
        r = find("start-up", tool, kind="startup")
        if r is None:
            continue
        value = r["value"] if over_bare else r["seconds"]
        what = "import time over bare python" if over_bare else "total wall time"
        if value is None:
            note = f"target <= {TARGETS[key]:g} ms: unavailable ({r['note']})"
        else:
            met = value * 1e3 <= TARGETS[key]
            note = f"target <= {TARGETS[key]:g} ms ({what}): {'met' if met else 'NOT met'}"
        report.add(
            kind="target",
            workload="target",
            tool=f"start-up: {tool}",
            value=value,
            unit="seconds",
            note=note,
        )
    print_targets(report, quick)


def add_speedup_target(
    report: Report, label: str, value: Optional[float], target: float
) -> dict[str, Any]:
    """A ``target`` row: speed-up ``value`` against ``target`` (``>= target``)."""
    met = value is not None and value >= target
    return report.add(
        kind="target",
        workload="target",
        tool=label,
        value=value,
        unit="speed-up",
        note=f"target >= {target:g}x: {'met' if met else 'NOT met'}",
    )


def print_targets(report: Report, quick: bool) -> None:
    print()
    title = "Targets"
    if quick:
        title += " (QUICK RUN: smaller sizes, not comparable with the targets)"
    print(title)
    print("-" * len(title))
    for r in report.rows:
        if r["kind"] != "target":
            continue
        v = r["value"]
        if v is None:
            shown = "-"
        elif r["unit"] == "speed-up":
            shown = fmt_ratio(v)
        elif r["unit"] == "seconds":
            shown = fmt_time(v)
        else:
            shown = f"{v:.4f}"
        print(f"  {r['tool']:<42} {shown:>10}   {r['note']}")


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def add_run_args(p: argparse.ArgumentParser) -> None:
    """Options every benchmark script takes: output and quiet-machine handling."""
    p.add_argument("--label", default=None, help="machine label for bench/results/<label>/")
    p.add_argument("--output", type=Path, default=None, help="CSV path (overrides the default)")
    p.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="SECONDS",
        help="before each section, wait (at most this long) until other processes use "
        f"< {QUIET_CORES} cores",
    )
    p.add_argument(
        "--retries",
        type=int,
        default=0,
        help=f"repeat a section up to this many times when other processes used > {BUSY_CORES} "
        "cores during it (default 0)",
    )


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: 10,000 segments, few repeats")
    p.add_argument(
        "--repeats", type=int, default=None, help="timed runs per fast measurement (default 5)"
    )
    p.add_argument(
        "--slow-repeats",
        type=int,
        default=None,
        help="timed runs for sacrebleu on (b) and (c) (default 3)",
    )
    p.add_argument("--size", type=int, default=None, help="segments in (b)-(d) (default 100,000)")
    p.add_argument(
        "--sentence-sample",
        type=int,
        default=None,
        help="time the Python sentence loops of (c) on this many evenly spaced segments and "
        "scale linearly (default: all segments, no scaling)",
    )
    add_run_args(p)
    p.add_argument("--no-bleuscore", action="store_true", help="skip bleuscore even if installed")
    p.add_argument("--_memory-worker", dest="memory_worker", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.repeats is None:
        args.repeats = 3 if args.quick else 5
    if args.slow_repeats is None:
        args.slow_repeats = 1 if args.quick else min(3, args.repeats)
    if args.size is None:
        args.size = QUICK_SIZE if args.quick else CORPUS_SIZE
    if args.sentence_sample is None:
        args.sentence_sample = args.size
    for name in ("repeats", "slow_repeats", "size", "sentence_sample"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    return args


def print_header(title: str, info: dict[str, str]) -> None:
    print(title)
    print("=" * len(title))
    for key, value in info.items():
        print(f"  {key:<18} {value}")


def run_sections(
    report: Report,
    sections: Sequence[tuple[str, Callable[[], None]]],
    args: argparse.Namespace,
    load_insensitive: Collection[str] = (),
) -> None:
    """Runs each section, measuring the background load; with ``args.wait_quiet`` waits for a
    quiet machine first, and with ``args.retries`` repeats a disturbed section (not those in
    ``load_insensitive``). Adds one ``load`` row per section."""
    for name, run in sections:
        for attempt in range(1 + args.retries):
            if args.wait_quiet > 0:
                wait_until_quiet(args.wait_quiet)
            n_rows, n_failed = len(report.rows), len(report.failed_checks)
            meter = CpuMeter()
            run()
            load = meter.other_cores()
            disturbed = load is not None and load > BUSY_CORES and name not in load_insensitive
            if load is not None:
                flag = "  << busy machine: these figures are disturbed" if disturbed else ""
                print(f"    background load during {name}: {load:.2f} cores{flag}", flush=True)
            if disturbed and attempt < args.retries:
                print(f"    repeating {name} (attempt {attempt + 2} of {1 + args.retries})")
                del report.rows[n_rows:], report.failed_checks[n_failed:]
                continue
            break
        report.add(
            kind="load",
            workload=name,
            tool="other processes",
            value=None if load is None else round(load, 3),
            unit="cores",
        )


def print_loads(report: Report, load_insensitive: Collection[str] = ()) -> None:
    loads = [r for r in report.rows if r["kind"] == "load" and r["value"] is not None]
    if not loads:
        return
    print()
    print("Background load (CPU used by other processes, in cores, per section)")
    for r in loads:
        flag = ""
        if r["value"] > BUSY_CORES:
            flag = (
                "  (memory: not affected)"
                if r["workload"] in load_insensitive
                else "  << disturbed"
            )
        print(f"  {r['workload']:<30} {r['value']:.2f}{flag}")


def fill_defaults(args: argparse.Namespace, defaults: dict[str, tuple[int, int]]) -> None:
    """Sets every option in ``defaults`` left unset to its ``(full, quick)`` default: the
    second under ``--quick``."""
    for name, (full, quick) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)


def run_params(args: argparse.Namespace, now: dt.datetime, **more: Any) -> dict[str, Any]:
    """The run's parameters for the CSV: the date, ``--quick`` and the repeats every
    benchmark script has, then ``more`` (that script's own), in this order."""
    return {
        "date": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "quick": args.quick,
        "repeats_fast": args.repeats,
        "repeats_slow": args.slow_repeats,
        **more,
    }


def finish(
    report: Report,
    args: argparse.Namespace,
    info: dict[str, str],
    params: dict[str, Any],
    now: dt.datetime,
    suffix: str = "",
) -> int:
    """Prints the outcome of the exactness checks, writes the CSV (not for ``--quick`` unless
    ``--output`` is given: ``bench/results/<label>/<date><suffix>.csv``) and returns the
    exit status."""
    print()
    if report.failed_checks:
        print("EXACTNESS CHECKS FAILED: " + "; ".join(report.failed_checks))
    else:
        print("Exactness checks: all passed (bleuprint == the anchor tool, exact equality)")

    output = args.output
    if output is None and not args.quick:
        label = re.sub(r"[^A-Za-z0-9._-]+", "-", info["label"]).strip("-") or "unknown"
        output = RESULTS / label / f"{now.strftime('%Y-%m-%d')}{suffix}.csv"
    if output is not None:
        report.write_csv(output, info, params)
        print(f"CSV written to {output}")
    else:
        print("(quick run: no CSV written; pass --output PATH to keep one)")
    return 1 if report.failed_checks else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    require_data()
    if args.memory_worker:
        memory_worker(args.memory_worker, args.size)
        return 0
    warnings.simplefilter("default")

    tools = ["sacrebleu"]
    if not args.no_bleuscore and have_bleuscore():
        tools.append("bleuscore")
    tools.append("bleuprint")
    info = machine_info(args.label)
    now = dt.datetime.now(dt.timezone.utc)
    params = run_params(
        args,
        now,
        corpus_size=args.size,
        sentence_sample=args.sentence_sample,
    )
    print_header("bleuprint benchmarks", info)
    if "bleuscore" not in tools:
        print("  (bleuscore not installed or disabled: its columns are left empty)")
    print(
        f"  repeats: median of {args.repeats} timed runs after one warm-up; sacrebleu on (b) and "
        f"(c): median of {args.slow_repeats}, no warm-up"
    )
    print()

    report = Report()
    hyps_a, refs_a = load_system_a()
    hyps_b, refs_b, notes = build_corpus(args.size)
    print(f"data: {DATA}")
    print(f"  (a) {SYSTEM_A[0]} {SYSTEM_A[1]} vs reference A: {len(hyps_a):,} segments")
    print(f"  (b)-(d) into-English outputs vs reference A: {len(hyps_b):,} segments")
    for note in notes:
        print(f"      {note}")
    print()

    wa = f"(a) {SYSTEM_A[0]} {SYSTEM_A[1]} corpus"
    wb = "(b) into-English corpus"
    wc = "(c) sentence BLEU"
    wd = "(d) peak memory of (b)"
    reps = (args.repeats, args.slow_repeats)
    sections: list[tuple[str, Callable[[], None]]] = [
        (wa, lambda: bench_corpus(report, wa, hyps_a, refs_a, tools, *reps, False, False)),
        (wb, lambda: bench_corpus(report, wb, hyps_b, refs_b, tools, *reps, True, True)),
        (
            wc,
            lambda: bench_sentences(report, wc, hyps_b, refs_b, tools, *reps, args.sentence_sample),
        ),
        (wd, lambda: bench_memory(report, wd, args.size, tools)),
        ("start-up", lambda: bench_startup(report, 3 if args.quick else 10)),
    ]
    # Peak memory does not depend on how busy the CPUs are: never repeated for load.
    load_insensitive = {wd}
    run_sections(report, sections, args, load_insensitive)

    print()
    print("Results (time: median wall clock; * = scaled from a sample; ratios = speed-up,")
    print("memory ratios = how many times less peak RSS increase)")
    print()
    report.print_table()
    print()
    print("Start-up (best wall time of a fresh process)")
    print_startup(report)
    print_loads(report, load_insensitive)
    evaluate_targets(report, args.quick)
    return finish(report, args, info, params, now)


if __name__ == "__main__":
    sys.exit(main())
