"""The public surface stays: every name, parameter and default recorded at release still exists.

``tests/data/public_api.json`` is ``tools/public_api.py``'s output for bleuprint 0.1.0 (before
the one-metric-model layout): the names of ``bleuprint.__all__`` and of every compat module,
with each callable's parameters. A name or parameter may be added; none may go or change.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from tests.support.data import DATA, REPO

sys.path.insert(0, str(REPO / "tools"))
import public_api  # noqa: E402

RECORDED = json.loads((DATA / "public_api.json").read_text())
RECORDED.pop("recorded_with")
CURRENT = public_api.public_api()

#: Deliberate removals, each in CHANGELOG: what went, and why.
REMOVED = {
    # The keyword arguments of the old _core.chrf_stats; the configuration's kernel replaced it.
    ("bleuprint", "CHRFConfig"): ["method core_kwargs is gone"],
}
#: Names added to ``bleuprint.__all__`` since the record, each in CHANGELOG.
ADDED = {
    "ROUGE",
    "ROUGEConfig",
    "ROUGEScore",
    "ROUGESignature",
    "CIDEr",
    "CIDErConfig",
    "CIDErScore",
    "CIDErStats",
    "SelfBLEUScore",
    "self_bleu",
}


def _missing_parameters(recorded: Any, current: Any, method: bool) -> list[Any]:
    """Recorded parameters absent now or changed in kind or default (a method's first, its
    receiver, may be renamed)."""
    if recorded is None:
        return []
    if current is None:
        return recorded
    if method:
        recorded, current = recorded[1:], current[1:]
    return [parameter for parameter in recorded if parameter not in current]


def _changes(recorded: dict[str, Any], current: dict[str, Any]) -> list[str]:
    if recorded["kind"] != current["kind"]:
        return [f"was a {recorded['kind']}, is a {current['kind']}"]
    if recorded["kind"] == "function":
        lost = _missing_parameters(recorded["parameters"], current["parameters"], method=False)
        return [f"parameters {lost}"] if lost else []
    if recorded["kind"] != "class":
        return []
    changes = []
    lost = _missing_parameters(recorded["init"], current["init"], method=False)
    if lost:
        changes.append(f"constructor parameters {lost}")
    for name, parameters in recorded["methods"].items():
        if name not in current["methods"]:
            changes.append(f"method {name} is gone")
            continue
        lost = _missing_parameters(parameters, current["methods"][name], method=True)
        if lost:
            changes.append(f"method {name}: parameters {lost}")
    return changes


@pytest.mark.parametrize("module", sorted(RECORDED))
def test_recorded_names_remain(module: str) -> None:
    if module.startswith(tuple(public_api.OPTIONAL)) and module not in CURRENT:
        pytest.skip(f"{module} needs an optional package that is not installed")
    assert module in CURRENT, f"{module} is no longer importable"
    problems = {
        name: _changes(description, CURRENT[module][name])
        if name in CURRENT[module]
        else ["is gone"]
        for name, description in RECORDED[module].items()
    }
    for name, found in problems.items():
        for allowed in REMOVED.get((module, name), []):
            found.remove(allowed)
    assert {name: found for name, found in problems.items() if found} == {}


def test_top_level_names_are_exactly_the_recorded_ones() -> None:
    import bleuprint

    assert sorted(set(bleuprint.__all__) - ADDED) == sorted(RECORDED["bleuprint"])


def test_the_surface_check_sees_a_lost_parameter() -> None:
    recorded = {"kind": "function", "parameters": [["x", "POSITIONAL_OR_KEYWORD", "1"]]}
    assert _changes(recorded, {"kind": "function", "parameters": []})
    changed_default = {"kind": "function", "parameters": [["x", "POSITIONAL_OR_KEYWORD", "2"]]}
    assert _changes(recorded, changed_default)
    assert _changes(recorded, recorded) == []
