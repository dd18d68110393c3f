"""The report as one self-contained HTML page: inline CSS, inline SVG charts, no script and
no external resource. Toggles are ``<details>`` elements; the contents links are anchors."""

from __future__ import annotations

from html import escape
from typing import Any, Optional

from bleuprint.analysis.report import charts

SECTIONS = (
    ("scores", "Scores"),
    ("buckets", "Buckets"),
    ("word-accuracy", "Word accuracy"),
    ("metadata", "Metadata"),
    ("ngrams", "Characteristic n-grams"),
    ("examples", "Examples"),
    ("plots", "Plots"),
)

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;
padding:0 12px 40px;color:#1b1b1b;background:#fff}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;border-bottom:1px solid #ddd;margin-top:28px}
h3{font-size:15px;margin:18px 0 6px}
nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:6px 0;z-index:1}
nav a{margin-right:12px;color:#1a5fb4;text-decoration:none}nav a:hover{text-decoration:underline}
table{border-collapse:collapse;margin:6px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left}
.scroll{overflow-x:auto;max-width:100%}
.chart svg{max-width:100%;height:auto}
.chart{margin:8px 0}
.sig{font-weight:600}.muted{color:#666}
.m1{background:#e3f2fd}.m2{background:#bbdefb}.m3{background:#90caf9}.m4{background:#64b5f6}
.tok{padding:0 1px;border-radius:2px}
.example{border:1px solid #ddd;border-radius:4px;padding:6px 10px;margin:8px 0}
.example p{margin:3px 0}
details>summary{cursor:pointer;color:#1a5fb4}
code,pre{font-size:12px;overflow-wrap:anywhere}pre{white-space:pre-wrap}
@media (max-width:600px){body{font-size:13px}nav a{display:inline-block;margin:2px 8px 2px 0}}
@media print{nav{position:static}details{display:block}details>*{display:block}
.example,.chart,table{break-inside:avoid}a{color:inherit}}
"""


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<div class="scroll"><table class="{cls}"><tr>{th}</tr>{body}</table></div>'


def _num(x: Optional[float], digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _chart(svg: str, name: str) -> str:
    return f'<div class="chart" data-chart="{name}">{svg}</div>'


def render(data: dict[str, Any]) -> str:
    """The whole page."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # No network: forbid every external load, even from pasted-in content.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        "<title>bleuprint report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>bleuprint report</h1>",
        f'<p class="muted">{len(data["systems"])} systems, {data["segments"]} segments, '
        f"{data['references']} reference(s)"
        + (f", test set {escape(data['test_set'])}" if data.get("test_set") else "")
        + f"; bootstrap with {data['n_bootstrap']} resamples, seed {data['seed']}.</p>",
    ]
    present = [(key, title) for key, title in SECTIONS if _has(data, key)]
    parts.append("<nav>" + "".join(f'<a href="#{k}">{t}</a>' for k, t in present) + "</nav>")
    renderers = {
        "scores": _scores,
        "buckets": _buckets,
        "word-accuracy": _word_accuracy,
        "metadata": _metadata,
        "ngrams": _ngrams,
        "examples": _examples,
        "plots": _plots,
    }
    for key, title in present:
        parts.append(f'<section id="{key}"><h2>{title}</h2>{renderers[key](data)}</section>')
    parts.append("</body></html>")
    return "\n".join(parts)


def _has(data: dict[str, Any], key: str) -> bool:
    if key == "metadata":
        return bool(data.get("metadata"))
    if key == "ngrams":
        return bool(data.get("ngrams", {}).get("pairs"))
    return True


def _scores(data: dict[str, Any]) -> str:
    s = data["scores"]
    metrics = data["metrics"]
    head = ["system"] + [f"{m} (μ ± 95% CI) [cluster]" for m in metrics]
    rows = []
    for name in data["systems"]:
        cells = [escape(name)]
        for m in metrics:
            r = s["rows"][name][m]
            cells.append(f"{r['score']:.2f} ({r['mean']:.2f} ± {r['ci']:.2f}) [{r['cluster']}]")
        rows.append(cells)
    out = [
        "<p>Corpus scores with paired-bootstrap means and 95% intervals; systems in the same "
        "cluster do not differ significantly (all pairs, Holm-corrected, α = 0.05).</p>",
        _table(head, rows, "scores"),
        _chart(charts.score_bars(data), "scores"),
    ]
    if s["clusters"]:
        out.append("<h3>Clusters (best first)</h3><ul>")
        for m in metrics:
            groups = " &gt; ".join(
                "{" + ", ".join(escape(n) for n in c) + "}" for c in s["clusters"][m]
            )
            out.append(f"<li>{m}: {groups}</li>")
        out.append("</ul>")
    if s["comparisons"]:
        crow = [
            [
                c["metric"],
                escape(c["a"]),
                escape(c["b"]),
                f"{c['delta']:+.2f}",
                f"{c['p_value']:.4f}",
                f"{c['adjusted_p_value']:.4f}",
                '<span class="sig">yes</span>' if c["significant"] else "no",
            ]
            for c in s["comparisons"]
        ]
        out.append(
            f'<details id="pairs"><summary>All {len(crow)} pairwise comparisons</summary>'
            + _table(["metric", "A", "B", "B − A", "p", "Holm p", "significant"], crow)
            + "</details>"
        )
    out.append("<h3>Signatures</h3><ul>")
    for m, sig in s["signatures"].items():
        out.append(f"<li>{m}: <code>{escape(sig)}</code></li>")
    out.append("</ul>")
    return "\n".join(out)


def _buckets(data: dict[str, Any]) -> str:
    out = ["<p>Every bucket lists its segments and a 95% bootstrap interval.</p>"]
    metric = data["metrics"][0]
    for b in data["buckets"]:
        systems = b["systems"]
        by_score = b["key"].startswith("sentence-")
        out.append(f'<h3 id="bucket-{b["key"]}">By {escape(b["title"])}</h3>')
        if by_score:
            series = {
                n: [(c["count"], c["lower"], c["upper"]) for c in v["counts"]]
                for n, v in systems.items()
            }
            out.append(
                _chart(
                    charts.bucket_bars(
                        f"Segments per {b['title']} bucket",
                        b["title"],
                        "segments",
                        b["buckets"],
                        series,
                    ),
                    f"bucket-{b['key']}",
                )
            )
        else:
            series = {
                n: [(c["score"], c["lower"], c["upper"]) for c in v["scores"][metric]]
                for n, v in systems.items()
            }
            out.append(
                _chart(
                    charts.bucket_bars(
                        f"{metric} by {b['title']}", b["title"], metric, b["buckets"], series
                    ),
                    f"bucket-{b['key']}",
                )
            )
        what = "segments" if by_score else "segments · " + " / ".join(data["metrics"])
        head = ["bucket"] + [f"{escape(n)}: {what}" for n in systems]
        rows = []
        for i, label in enumerate(b["buckets"]):
            cells = [escape(label)]
            for v in systems.values():
                c = v["counts"][i]
                cell = f"{c['count']} [{c['lower']:.0f}, {c['upper']:.0f}]"
                if "scores" in v:
                    cell += " · " + " / ".join(
                        f"{_num(v['scores'][m][i]['score'])} [{_num(v['scores'][m][i]['lower'])}, "
                        f"{_num(v['scores'][m][i]['upper'])}]"
                        for m in data["metrics"]
                    )
                cells.append(cell)
            rows.append(cells)
        out.append("<details><summary>Table</summary>" + _table(head, rows) + "</details>")
    return "\n".join(out)


def _word_accuracy(data: dict[str, Any]) -> str:
    w = data["word_accuracy"]
    series = {
        n: [(r["fmeasure"], r["lower"], r["upper"]) for r in rows]
        for n, rows in w["systems"].items()
    }
    out = [
        "<p>F-measure of output words by the frequency of the word in the "
        f"{escape(w['frequency_from'])} (13a tokens, first reference), "
        "with 95% bootstrap intervals.</p>",
        _chart(
            charts.bucket_bars(
                "Word F-measure by frequency", "frequency bucket", "F-measure", w["buckets"], series
            ),
            "word-accuracy",
        ),
    ]
    head = ["bucket", "ref words"] + [escape(n) for n in w["systems"]]
    rows = []
    for i, label in enumerate(w["buckets"]):
        first = next(iter(w["systems"].values()))[i]
        rows.append(
            [label, str(first["ref_words"])]
            + [
                f"{r[i]['fmeasure']:.4f} [{r[i]['lower']:.4f}, {r[i]['upper']:.4f}]"
                for r in w["systems"].values()
            ]
        )
    out.append(_table(head, rows))
    return "\n".join(out)


def _metadata(data: dict[str, Any]) -> str:
    out = []
    metrics = data["metrics"]
    titles = {"origlang": "original language", "domain": "domain", "docid": "document"}
    for field, entry in data["metadata"].items():
        shown = entry["worst"] if field == "docid" else entry["rows"]
        heading = (
            f"Worst {len(shown)} of {len(entry['rows'])} documents"
            if field == "docid"
            else f"By {titles[field]}"
        )
        out.append(f'<h3 id="meta-{field}">{heading}</h3>')
        head = [titles[field], "segments"] + [
            f"{escape(n)}: {' / '.join(metrics)}" for n in data["systems"]
        ]
        rows = [
            [escape(r["group"]), str(r["segments"])]
            + [" / ".join(_num(r["scores"][n][m]) for m in metrics) for n in data["systems"]]
            for r in shown
        ]
        out.append(_table(head, rows))
    return "\n".join(out)


def _ngrams(data: dict[str, Any]) -> str:
    ng = data["ngrams"]
    out = [
        f"<p>N-grams of orders {ng['orders'][0]}–{ng['orders'][1]} (13a tokens, first reference) "
        f"that one system matches, over-generates or under-generates much more often than the "
        f"other, ranked by the smoothed share (a + α) / (a + b + 2α), α = {ng['alpha']}.</p>"
    ]
    kinds = {"match": "matched", "over": "over-generated", "under": "under-generated"}
    for k, pair in enumerate(ng["pairs"]):
        a, b = escape(pair["left"]), escape(pair["right"])
        inner = []
        for kind, word in kinds.items():
            for side, name in (("left", a), ("right", b)):
                rows = [
                    [
                        f"<code>{escape(r['ngram'])}</code>",
                        f"{r['score']:.3f}",
                        str(r["count"]),
                        str(r["other"]),
                    ]
                    for r in pair[kind][side]
                ]
                inner.append(
                    f"<h4>{word}: more by {name}</h4>"
                    + _table(["n-gram", "share", name, "other"], rows)
                )
        open_attr = " open" if k == 0 else ""
        out.append(
            f'<details class="pair"{open_attr}><summary>{a} vs {b}</summary>'
            f"{''.join(inner)}</details>"
        )
    return "\n".join(out)


def _tokens(output: dict[str, Any]) -> str:
    return " ".join(
        f'<span class="tok m{lv}">{escape(t)}</span>' if lv else escape(t)
        for t, lv in zip(output["tokens"], output["levels"])
    )


def _example(ex: dict[str, Any], metric: str) -> str:
    parts = [f'<div class="example"><p class="muted">segment {ex["segment"]}</p>']
    if ex["source"] is not None:
        parts.append(f"<p><b>source</b>: {escape(ex['source'])}</p>")
    for k, r in enumerate(ex["references"], start=1):
        parts.append(f"<p><b>reference {k}</b>: {escape(r)}</p>")
    for o in ex["outputs"]:
        parts.append(
            f"<p><b>{escape(o['system'])}</b> ({metric} {o['score']:.1f}): {_tokens(o)}</p>"
            f'<details class="explain"><summary>explain BLEU</summary>{o["explain_html"]}</details>'
        )
    parts.append("</div>")
    return "".join(parts)


def _examples(data: dict[str, Any]) -> str:
    ex = data["examples"]
    metric = ex["metric"]
    out = [
        "<p>Highlighted tokens belong to a matched n-gram; darker means a longer n-gram "
        '(<span class="tok m1">1</span> <span class="tok m2">2</span> '
        '<span class="tok m3">3</span> <span class="tok m4">4</span>).</p>'
    ]
    if ex["pair"]:
        a, b = (escape(n) for n in ex["pair"])
        out.append(f"<h3>Largest sentence {metric} differences: {a} vs {b}</h3>")
        out += [_example(e, metric) for e in ex["differences"]]
    out.append(f"<h3>Worst sentences per system (sentence {metric})</h3>")
    for name, items in ex["worst"].items():
        out.append(
            f'<details class="worst"><summary>{escape(name)}</summary>'
            + "".join(_example(e, metric) for e in items)
            + "</details>"
        )
    return "\n".join(out)


def _plots(data: dict[str, Any]) -> str:
    out = []
    sc = data.get("scatter")
    if sc:
        out.append(_chart(charts.scatter(sc["metric"], sc["x"], sc["y"], *sc["points"]), "scatter"))
    hist = data["sentence_scores"]
    out.append(_chart(charts.histograms(hist["edges"], hist["metrics"]), "histograms"))
    return "\n".join(out)
