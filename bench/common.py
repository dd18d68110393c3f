"""What every benchmark script shares: the WMT22 data, fresh strings and timing, the background
load of a shared machine, the machine description, the report (printed tables, targets, the CSV)
and the command-line options and run structure.

A script's ``main`` is :func:`parse_args` (from a table of its options), :func:`begin`, its
sections run by :func:`run_sections`, :func:`print_results`, its targets and :func:`finish`.
See bench/README.md for the method.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import gc
import importlib.util
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
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NoReturn, Optional

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "wmt22"
RESULTS = REPO / "bench" / "results"

SYSTEM_A = ("en-de", "Online-B")

#: Background load (cores used by other processes) under which the machine counts as quiet, and
#: over which a section's figures are flagged as disturbed.
QUIET_CORES = 0.1
BUSY_CORES = 0.2


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


def spaced(n: int, k: int) -> list[int]:
    """``k`` evenly spaced indices into ``range(n)`` (all of them if ``k >= n``)."""
    k = min(k, n)
    return [i * n // k for i in range(k)]


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


# --------------------------------------------------------------------------------------------
# Timing: runners are prepare(hyps, refs) -> a zero-argument call
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
        # The previous run's output is freed here, untimed: `result = fn()` would free it
        # inside the timed span, a cost a tool timed once never pays.
        result = None
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
        del fn
    return Timing(times, result, warmup)


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


# --------------------------------------------------------------------------------------------
# Background load and memory
# --------------------------------------------------------------------------------------------


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


def proc_status() -> dict[str, int]:
    values = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, rest = line.split(":", 1)
                values[key] = int(rest.split()[0]) * 1024
    return values


def reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # Linux >= 4.0: reset VmHWM to the current RSS
    except OSError:
        return False
    return True


def malloc_trim() -> None:
    # Hand freed heap pages back to the OS, so the baseline RSS holds only live data and
    # no tool can hide its allocations in memory freed while the data was prepared.
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


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


def command_output(*cmd: str) -> str:
    """A command's standard output, stripped (whatever its exit status)."""
    return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()


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
    rustc = command_output("rustc", "--version") if shutil.which("rustc") else ""
    git = ""
    if shutil.which("git"):
        head = command_output("git", "-C", str(REPO), "rev-parse", "--short", "HEAD")
        dirty = command_output(
            "git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"
        )
        git = f"{head} (uncommitted changes)" if head and dirty else head
    import numpy
    import sacrebleu

    import bleuprint
    from bleuprint._core import _ext

    core = Path(_ext.__file__)  # the extension itself, for its size
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
    #: The ``vs_<tool>`` columns of the CSV (a script comparing other tools overrides them).
    RATIO_TOOLS: tuple[str, ...] = ("sacrebleu", "bleuscore", "fastchrf", "jiwer", "nltk")

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

    def add_target(
        self, label: str, value: Optional[float], unit: str, note: str
    ) -> dict[str, Any]:
        """A ``target`` row: ``value`` (in ``unit``) against a target, ``note`` saying which
        and whether it is met."""
        return self.add(
            kind="target", workload="target", tool=label, value=value, unit=unit, note=note
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
            "max_seconds", "value", "unit", *(f"vs_{t}" for t in self.RATIO_TOOLS),
            "exact_match", "extrapolated", "note",
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


def add_time(
    report: Report,
    workload: str,
    tool: str,
    segments: int,
    timing: Timing,
    base: Optional[float],
    note: str,
    match: Optional[str] = "",
    scale: float = 1.0,
    anchor: str = "sacrebleu",
    **other_ratios: Optional[float],
) -> None:
    """A ``time`` row, printed as ``    tool: time  note``. ``base`` is the time of ``anchor``,
    whose ``vs_<anchor>`` column gets the speed-up; ``scale``: a sampled timing scaled to
    ``segments`` (marked ``*``); ``other_ratios``: more ``vs_<tool>`` columns, as in
    ``Report.add_time``."""
    if anchor != "sacrebleu":
        other_ratios[f"vs_{anchor}"] = ratio(base, timing.median * scale)
        base = None
    row = report.add_time(
        workload, tool, segments, timing, note, base, None, match, scale, scale != 1.0,
        **other_ratios,
    )  # fmt: skip
    star = " *" if row["extrapolated"] else ""
    print(f"    {tool}: {fmt_time(row['seconds'])}{star}  {note}", flush=True)


def find_row(
    report: Report, workload_prefix: str, tool: str, kind: str = "time"
) -> Optional[dict[str, Any]]:
    """The first row of ``kind`` whose workload starts with ``workload_prefix``, for ``tool``."""
    for r in report.rows:
        if r["kind"] == kind and r["workload"].startswith(workload_prefix) and r["tool"] == tool:
            return r
    return None


def add_speedup_target(
    report: Report, label: str, value: Optional[float], target: float
) -> dict[str, Any]:
    """A ``target`` row: speed-up ``value`` against ``target`` (``>= target``)."""
    met = value is not None and value >= target
    return report.add_target(
        label, value, "speed-up", f"target >= {target:g}x: {'met' if met else 'NOT met'}"
    )


def speedup_targets(
    report: Report,
    targets: Mapping[str, tuple[str, str, str, float]],
    skipped: Optional[Mapping[str, str]] = None,
) -> None:
    """A ``target`` row per ``key: (label, ours, theirs, target)``: the speed-up of tool
    ``ours`` over tool ``theirs`` in the first workload starting with ``key``, or "unavailable"
    where ``skipped`` gives the reason."""
    skipped = skipped or {}
    for key, (label, ours, theirs, target) in targets.items():
        if key in skipped:
            note = f"target >= {target:g}x: unavailable ({skipped[key]})"
            report.add_target(label, None, "speed-up", note)
            continue
        a, b = find_row(report, key, ours), find_row(report, key, theirs)
        if a is not None and b is not None:
            add_speedup_target(report, label, ratio(b["seconds"], a["seconds"]), target)


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


def print_results(
    report: Report,
    title: str,
    ratio_columns: Sequence[str] = ("sacrebleu", "bleuscore"),
    load_insensitive: Collection[str] = (),
) -> None:
    """The results table under ``title``, then the background load of every section."""
    print()
    print(title)
    print()
    report.print_table(ratio_columns)
    print_loads(report, load_insensitive)


# --------------------------------------------------------------------------------------------
# Command line and run
# --------------------------------------------------------------------------------------------


#: A script's whole-number option: its default without and with ``--quick`` (None: unset, for
#: the script's ``defaults`` to decide), and its help.
Count = tuple[Optional[int], Optional[int], str]


def parse_args(
    doc: str,
    quick: str,
    counts: Mapping[str, Count],
    argv: Optional[Sequence[str]] = None,
    more: Optional[Callable[[argparse.ArgumentParser], None]] = None,
    defaults: Optional[Callable[[argparse.Namespace], None]] = None,
    minimum: Optional[Mapping[str, int]] = None,
    check: Optional[Callable[[argparse.Namespace], Optional[str]]] = None,
    more_after: Optional[Callable[[argparse.ArgumentParser], None]] = None,
) -> argparse.Namespace:
    """A script's command line: ``--quick`` (help: ``quick``), its whole-number options
    ``counts`` (``--repeats`` and ``--slow-repeats`` in every script), the options ``more``
    adds, :func:`add_run_args`' and those ``more_after`` adds. Unset counts take their
    default; ``defaults`` then sets those that depend on others. A count under its ``minimum``
    (1 unless given) or a message from ``check`` is a usage error. The parser is described by
    the first paragraph of ``doc``."""
    p = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=quick)
    for name, (_, _, text) in counts.items():
        p.add_argument(f"--{name.replace('_', '-')}", type=int, default=None, help=text)
    if more is not None:
        more(p)
    add_run_args(p)
    if more_after is not None:
        more_after(p)
    args = p.parse_args(argv)
    for name, (full, small, _) in counts.items():
        if getattr(args, name) is None:
            setattr(args, name, small if args.quick else full)
    if defaults is not None:
        defaults(args)
    for name in counts:
        value, least = getattr(args, name), (minimum or {}).get(name, 1)
        if value is not None and value < least:
            p.error(f"--{name.replace('_', '-')} must be >= {least}")
    error = None if check is None else check(args)
    if error is not None:
        p.error(error)
    return args


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


def begin(
    args: argparse.Namespace,
    title: str,
    warning_filter: Literal["default", "ignore"] = "default",
    bleuscore: bool = False,
    **more_info: str,
) -> tuple[dict[str, str], dt.datetime]:
    """The start of a run: exits (status 2) without the data, sets the warnings filter, and
    prints ``title`` over the machine description (bleuscore's version only with
    ``bleuscore``; then ``more_info``). Returns the description and the start time."""
    require_data()
    warnings.simplefilter(warning_filter)
    info = machine_info(args.label)
    if not bleuscore:
        del info["bleuscore"]
    info.update(more_info)
    now = dt.datetime.now(dt.timezone.utc)
    print_header(title, info)
    return info, now


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
