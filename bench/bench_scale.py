#!/usr/bin/env python
"""Scale-out benchmarks: streaming corpus BLEU through files far larger than memory, and
merging shard files.

Workloads (WMT22 en-de Online-B against reference A, 2,037 segments, repeated to size; the
files are written on the fly into a temporary directory):

(S)  ``bleuprint REF -i HYP`` on ``--segments`` (10,000,000) segments of plain text: wall
     time, segments per second, peak RSS of the process. Also ``BLEU().score_stream(...)``
     on the same files. Targets: peak RSS <= 100 MB, >= 1,000,000 segments/s. Then the
     command on the same lines, each starting with its line number: no reference repeats,
     so none is prepared once for several segments (reported, no target).
(S1) The same command on ``--compare-segments`` (1,000,000) segments, against the in-memory
     path (``read_lines`` + ``corpus_score``) and the ``sacrebleu`` command (speed and peak
     RSS ratios).
(Z)  With ``--zst``: ``bleuprint`` on ``--zst-segments`` (100,000,000) segments read from
     ``.zst`` files, written on the fly: wall time and peak RSS (target: the same RSS bound).
(M)  ``bleuprint merge`` of 1,000 shard files (``bleuprint stats --shard K/1000`` of a
     2,037,000-segment input, BLEU): the merge alone, in-process, and the whole command in a
     fresh process. Target: <= 1 s.

Every score is checked equal (``==``) across the paths that compute it. Each measurement
runs in a fresh process, whose own peak RSS (``ru_maxrss``) is reported.

Usage::

    python bench/bench_scale.py                  # (S), (S1), (M): a few minutes on 2 cores
    python bench/bench_scale.py --zst            # adds (Z): another ten minutes or so
    python bench/bench_scale.py --quick          # smoke run: small sizes
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from common import DATA, die, machine_info, read_lines, require_data

HYP = "system-outputs/generaltest2022.en-de.hyp.Online-B.de"
REF = "references/generaltest2022.en-de.ref.A.de"
RSS_TARGET_MB = 100.0
#: The commands print 10 decimals (JSON), so scores compare to the API's rounded to 10.
SCORE = ["-w", "10", "--force"]
RATE_TARGET = 1_000_000.0
MERGE_TARGET_S = 1.0

# Runs one job in this fresh process and prints its result, wall time and peak RSS as JSON.
_WORKER = """
import json, resource, sys, time, warnings
warnings.simplefilter("ignore")
job, args = sys.argv[1], json.loads(sys.argv[2])
start = time.perf_counter()
if job == "cli":
    import contextlib, io
    from bleuprint.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(args)
    result = json.loads(out.getvalue())["score"]
elif job == "stream":
    import bleuprint
    result = round(bleuprint.BLEU().score_stream(args[1], [args[0]]).score, 10)
elif job == "memory":
    import bleuprint
    from bleuprint.io.files import read_lines
    hyps, refs = read_lines(args[1]), read_lines(args[0])
    result = round(bleuprint.BLEU().corpus_score(hyps, [refs]).score, 10)
elif job == "sacrebleu":
    from sacrebleu.sacrebleu import main
    sys.argv = ["sacrebleu", *args]
    main()  # prints its JSON on the real stdout (it reopens the file descriptor)
    sys.stdout.flush()
    result = None
elif job == "merge":
    import contextlib, io
    from bleuprint.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["merge", *args])
    result = json.loads(out.getvalue())["score"]
wall = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"result": result, "wall": wall, "rss_mb": rss}))
"""


def run_job(job: str, args: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _WORKER, job, json.dumps(args)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        die(f"{job} {args} failed:\n{done.stderr}")
    *printed, last = done.stdout.strip().splitlines()
    measured = dict(json.loads(last))
    if measured["result"] is None:  # the command printed its own JSON first
        measured["result"] = json.loads("\n".join(printed))["score"]
    return measured


def write_repeated(
    directory: Path, segments: int, suffix: str = "", numbered: bool = False
) -> tuple[Path, Path]:
    """Hypothesis and reference files of ``segments`` lines: the system and its reference
    repeated; ``.zst`` files are compressed as they are written. ``numbered`` starts every
    line with its line number, so that no two references are alike and no work is shared
    between repeats (one more token per segment)."""
    paths = []
    for name, source in (("hyp", HYP), ("ref", REF)):
        lines = read_lines(DATA / source)
        block = ("\n".join(lines) + "\n").encode()
        whole, rest = divmod(segments, len(lines))
        tail = ("\n".join(lines[:rest]) + "\n").encode() if rest else b""
        path = directory / f"{name}.{segments}{'.numbered' if numbered else ''}.txt{suffix}"
        with open(path, "wb") as raw:
            sink: Any = raw
            if suffix == ".zst":
                import zstandard

                sink = zstandard.ZstdCompressor(level=3).stream_writer(raw)
            for k in range(whole + 1):
                if not numbered:
                    sink.write(block if k < whole else tail)
                    continue
                first = k * len(lines)
                part = lines if k < whole else lines[:rest]
                text = "".join(f"{first + i} {line}\n" for i, line in enumerate(part))
                sink.write(text.encode())
            if suffix == ".zst":
                sink.close()
        paths.append(path)
    return paths[0], paths[1]


def rate(segments: int, seconds: float) -> float:
    return segments / seconds


def print_row(name: str, segments: int, m: dict[str, Any], note: str = "") -> None:
    print(
        f"  {name:<44} {segments:>12,}  {m['wall']:8.2f} s  {rate(segments, m['wall']):>11,.0f}/s"
        f"  {m['rss_mb']:7.1f} MB  {note}"
    )


def bench_streaming(directory: Path, segments: int, results: dict[str, Any]) -> None:
    hyp, ref = write_repeated(directory, segments)
    cli = run_job("cli", [str(ref), "-i", str(hyp), *SCORE])
    stream = run_job("stream", [str(ref), str(hyp)])
    print(f"(S) {segments:,} segments of plain text, corpus BLEU")
    print_row("bleuprint REF -i HYP", segments, cli)
    print_row("BLEU().score_stream(HYP, [REF])", segments, stream)
    same = cli["result"] == stream["result"]
    print(f"  equal scores: {same} (BLEU {cli['result']})")
    results["S"] = {"segments": segments, "cli": cli, "stream": stream, "equal": same}
    hyp.unlink()
    ref.unlink()
    # The repeats share work (each chunk prepares a repeated reference once); numbered lines
    # share nothing, which is what a corpus without repeated references costs.
    hyp, ref = write_repeated(directory, segments, numbered=True)
    distinct = run_job("cli", [str(ref), "-i", str(hyp), *SCORE])
    print_row("bleuprint REF -i HYP, numbered (no repeats)", segments, distinct)
    results["S"]["numbered"] = distinct
    hyp.unlink()
    ref.unlink()


def bench_compare(directory: Path, segments: int, results: dict[str, Any]) -> None:
    hyp, ref = write_repeated(directory, segments)
    cli = run_job("cli", [str(ref), "-i", str(hyp), *SCORE])
    memory = run_job("memory", [str(ref), str(hyp)])
    sacre = run_job("sacrebleu", [str(ref), "-i", str(hyp), *SCORE])
    print(f"(S1) {segments:,} segments: streaming against the in-memory path and sacrebleu")
    print_row("bleuprint REF -i HYP (streaming)", segments, cli)
    print_row("read_lines + corpus_score (in memory)", segments, memory)
    print_row("sacrebleu REF -i HYP", segments, sacre)
    same = cli["result"] == memory["result"] == sacre["result"]
    print(
        f"  equal scores: {same}; streaming is {sacre['wall'] / cli['wall']:.1f}x sacrebleu's "
        f"speed in {cli['rss_mb'] / sacre['rss_mb']:.3f}x its memory; the in-memory path "
        f"takes {memory['rss_mb'] / cli['rss_mb']:.1f}x the streaming memory"
    )
    results["S1"] = {
        "segments": segments, "cli": cli, "memory": memory, "sacrebleu": sacre, "equal": same,
    }  # fmt: skip
    hyp.unlink()
    ref.unlink()


def bench_zst(directory: Path, segments: int, results: dict[str, Any]) -> None:
    start = time.perf_counter()
    hyp, ref = write_repeated(directory, segments, ".zst")
    written = time.perf_counter() - start
    cli = run_job("cli", [str(ref), "-i", str(hyp), *SCORE])
    print(f"(Z) {segments:,} segments from .zst files (written in {written:.0f} s)")
    print_row("bleuprint REF.zst -i HYP.zst", segments, cli)
    results["Z"] = {"segments": segments, "cli": cli, "written_s": written}
    hyp.unlink()
    ref.unlink()


def bench_merge(directory: Path, shards: int, results: dict[str, Any]) -> None:
    import bleuprint
    from bleuprint.io.shards import Shard, shard_window

    segments = 1000 * 2037
    hyp, ref = write_repeated(directory, segments)
    one = run_job("cli", [str(ref), "-i", str(hyp), *SCORE])
    parts = directory / "parts"
    parts.mkdir()
    # The files `bleuprint stats --shard K/N` writes, made from one count of the input (a
    # thousand commands would each read the whole input to find their part).
    stats = bleuprint.BLEU().stats_stream(hyp, [ref])
    for k in range(1, shards + 1):
        start, stop = shard_window(k, shards, segments)
        shard = Shard(
            systems=[str(hyp)], metrics=["BLEU"], stats=[[stats[start:stop]]], index=k,
            count=shards, start=start, total=segments,
        )  # fmt: skip
        shard.save(parts / f"part{k:04d}.npz")
    files = sorted(str(p) for p in parts.iterdir())
    in_process = _time_merge_in_process(files)
    command = run_job("merge", [*files, "-w", "10"])
    print(f"(M) bleuprint merge of {shards:,} shard files ({segments:,} segments, BLEU)")
    print(f"  the merge alone (load, check, concatenate, score): {in_process:.3f} s")
    print(f"  the whole command in a fresh process:              {command['wall']:.3f} s")
    same = command["result"] == one["result"]
    print(f"  equal to one run: {same} (BLEU {one['result']})")
    results["M"] = {
        "shards": shards, "merge_s": in_process, "command": command, "equal": same,
    }  # fmt: skip
    hyp.unlink()
    ref.unlink()


def _time_merge_in_process(files: list[str]) -> float:
    from bleuprint.io.shards import Shard, merge_shards

    best: Optional[float] = None
    for _ in range(3):
        start = time.perf_counter()
        whole = merge_shards([Shard.load(f, rows=False) for f in files])  # as merge reads
        whole.stats[0][0].score()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    assert best is not None
    return best


def targets(results: dict[str, Any]) -> list[tuple[str, bool]]:
    checks = []
    if "S" in results:
        s = results["S"]
        checks.append(
            (f"(S) peak RSS <= {RSS_TARGET_MB:.0f} MB", s["cli"]["rss_mb"] <= RSS_TARGET_MB)
        )
        speed = rate(s["segments"], s["cli"]["wall"])
        checks.append(
            (f"(S) >= {RATE_TARGET:,.0f} segments/s (got {speed:,.0f})", speed >= RATE_TARGET)
        )
        checks.append(("(S) equal scores", s["equal"]))
    if "S1" in results:
        checks.append(("(S1) equal scores", results["S1"]["equal"]))
    if "Z" in results:
        rss = results["Z"]["cli"]["rss_mb"]
        checks.append((f"(Z) peak RSS <= {RSS_TARGET_MB:.0f} MB", rss <= RSS_TARGET_MB))
    if "M" in results:
        m = results["M"]
        checks.append((f"(M) merge <= {MERGE_TARGET_S:.0f} s", m["merge_s"] <= MERGE_TARGET_S))
        checks.append(("(M) equal to one run", m["equal"]))
    return checks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=10_000_000)
    parser.add_argument("--compare-segments", type=int, default=1_000_000)
    parser.add_argument("--zst", action="store_true", help="also run (Z)")
    parser.add_argument("--zst-segments", type=int, default=100_000_000)
    parser.add_argument("--shards", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    parser.add_argument("--label", default=None, help="machine label for the JSON file")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    require_data()
    if args.quick:
        args.segments, args.compare_segments, args.zst_segments, args.shards = (
            100_000, 20_000, 200_000, 20,
        )  # fmt: skip
    info = machine_info(args.label)
    print(f"machine: {info.get('label', '')} {info.get('cpu', '')}".strip())
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bleuprint-scale-") as tmp:
        directory = Path(tmp)
        if args.segments:  # 0 skips (S)
            bench_streaming(directory, args.segments, results)
        if args.compare_segments:  # 0 skips (S1), whose sacrebleu run takes minutes
            bench_compare(directory, args.compare_segments, results)
        if args.zst:
            bench_zst(directory, args.zst_segments, results)
        if args.shards:
            bench_merge(directory, args.shards, results)
    failed = False
    print("targets:")
    for name, ok in targets(results):
        print(f"  {'met ' if ok else 'MISS'} {name}")
        failed |= not ok and "equal" in name
    if args.json is not None:
        args.json.write_text(json.dumps({"machine": info, "results": results}, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
