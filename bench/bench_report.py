"""Benchmark of ``bleuprint report`` against compare-mt on WMT22 en-de (every system, all
2,037 segments): the same inputs and the same sections requested.

bleuprint: ``bleuprint report REF -i SYS... --src SRC -m bleu chrf ter -o report.html``
(scores with 1,000-resample bootstrap intervals and all-pairs paired bootstrap with Holm,
buckets, word accuracy, characteristic n-grams for every pair, examples, plots).

compare-mt: its command line on the same text tokenized as bleuprint tokenizes it (13a;
compare-mt expects tokenized input) with ``--output_directory``: BLEU and chrF scores with
1,000-resample paired bootstrap over every pair (its bootstrap compares every pair), its
default sentence buckets, word accuracy by frequency, characteristic n-grams (match, over,
under) for every pair, and sentence examples.

Both run as fresh processes, so start-up and imports count. Usage::

    python bench/bench_report.py [--skip-compare-mt] [--out bench/results/report.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WMT22 = ROOT.parent / "shared" / "data" / "wmt22"
PAIR = "en-de"


def _files() -> tuple[Path, Path, list[Path]]:
    ref = WMT22 / "references" / f"generaltest2022.{PAIR}.ref.A.de"
    src = WMT22 / "sources" / f"generaltest2022.{PAIR}.src.en"
    systems = sorted((WMT22 / "system-outputs").glob(f"generaltest2022.{PAIR}.hyp.*.de"))
    return ref, src, systems


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def run_bleuprint(workdir: Path, repeats: int) -> dict[str, object]:
    ref, src, systems = _files()
    html = workdir / "report.html"
    command = [
        sys.executable,
        "-m",
        "bleuprint",
        "report",
        str(ref),
        "-i",
        *map(str, systems),
        "--src",
        str(src),
        "-m",
        "bleu",
        "chrf",
        "ter",
        "-o",
        str(html),
    ]
    times = [_timed(command) for _ in range(repeats)]
    return {
        "seconds": min(times),
        "all_seconds": times,
        "html_bytes": html.stat().st_size,
        "systems": len(systems),
    }


def _tokenized(path: Path, workdir: Path) -> Path:
    from bleuprint.io.files import read_lines
    from bleuprint.tokenizers import tokenize

    out = workdir / (path.name + ".tok")
    out.write_text(
        "".join(f"{line}\n" for line in tokenize(read_lines(path), "13a")), encoding="utf-8"
    )
    return out


def run_compare_mt(workdir: Path, timeout: float) -> dict[str, object]:
    ref, src, systems = _files()
    exe = shutil.which("compare-mt") or str(Path(sys.executable).parent / "compare-mt")
    pairs = ";".join(f"{a}-{b}" for a, b in itertools.combinations(range(len(systems)), 2))
    command = [
        exe,
        str(_tokenized(ref, workdir)),
        *(str(_tokenized(s, workdir)) for s in systems),
        "--src_file",
        str(_tokenized(src, workdir)),
        "--compare_scores",
        "score_type=bleu,bootstrap=1000",
        "score_type=chrf,bootstrap=1000",
        "--compare_ngrams",
        f"compare_type=match,compare_directions={pairs}",
        f"compare_type=over,compare_directions={pairs}",
        f"compare_type=under,compare_directions={pairs}",
        "--output_directory",
        str(workdir / "compare-mt"),
        "--seed",
        "12345",
    ]
    start = time.perf_counter()
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=timeout)  # fmt: skip
    except subprocess.TimeoutExpired:
        # Stopped unfinished: its time is a lower bound.
        return {"seconds": time.perf_counter() - start, "finished": False}
    seconds = time.perf_counter() - start
    size = sum(p.stat().st_size for p in (workdir / "compare-mt").rglob("*") if p.is_file())
    return {"seconds": seconds, "finished": True, "output_bytes": size}


def run_scale(workdir: Path, copies: int = 5, n_systems: int = 20) -> dict[str, object]:
    """Shared-task size: the test set repeated ``copies`` times and ``n_systems`` systems
    (the real ones, then per-segment mixtures of two real ones), through the command line."""
    from bleuprint.io.files import read_lines

    ref, _, systems = _files()
    refs = read_lines(ref) * copies
    outs = [read_lines(p) * copies for p in systems]
    while len(outs) < n_systems:
        k = len(outs)
        a, b = outs[k % len(systems)], outs[(k * 7 + 3) % len(systems)]
        outs.append([x if (i + k) % 3 else y for i, (x, y) in enumerate(zip(a, b))])
    ref_file = workdir / "scale.ref"
    ref_file.write_text("".join(f"{line}\n" for line in refs), encoding="utf-8")
    files = []
    for k, out in enumerate(outs):
        files.append(workdir / f"scale.sys{k:02d}")
        files[-1].write_text("".join(f"{line}\n" for line in out), encoding="utf-8")
    html = workdir / "scale.html"
    command = [sys.executable, "-m", "bleuprint", "report", str(ref_file), "-i", *map(str, files),
               "-m", "bleu", "chrf", "ter", "-o", str(html)]  # fmt: skip
    seconds = _timed(command)
    return {
        "segments": len(refs), "systems": len(outs), "seconds": seconds,
        "html_bytes": html.stat().st_size,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-compare-mt", action="store_true")
    parser.add_argument("--scale", action="store_true", help="also 20 systems x 10,185 segments")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--compare-mt-timeout",
        type=float,
        default=3600.0,
        help="seconds before compare-mt is stopped (its time is then a bound)",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not WMT22.exists():
        sys.exit(f"needs the WMT22 data at {WMT22}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        result: dict[str, object] = {
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}",
            "load_before": os.getloadavg(),
            "bleuprint": run_bleuprint(workdir, args.repeats),
        }
        if args.scale:
            result["scale"] = run_scale(workdir)
        if not args.skip_compare_mt:
            result["compare_mt"] = run_compare_mt(workdir, args.compare_mt_timeout)
            ratio = result["compare_mt"]["seconds"] / result["bleuprint"]["seconds"]  # type: ignore[index]
            result["speedup"] = ratio
        result["load_after"] = os.getloadavg()
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
