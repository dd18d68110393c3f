"""Print bleuprint's public surface as JSON: names, parameters and defaults.

The surface is ``bleuprint.__all__`` and every ``bleuprint.compat`` module's names (its
``__all__``, or else the classes, functions and constants it defines), with each callable's
parameters (name, kind, default) and each class's public methods. ``tests/data/public_api.json``
holds it as released; ``tests/test_public_api.py`` checks that nothing in it went away.

    python tools/public_api.py > tests/data/public_api.json
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import pkgutil
import re
import sys
from types import ModuleType
from typing import Any

# Modules that import an optional package (torch) load only where it is installed.
OPTIONAL = {"bleuprint.compat.torchmetrics": "torch"}
# Packages whose submodules are implementation, not an upstream's module layout.
INTERNAL = ("bleuprint.compat.torchmetrics.",)


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def parameters(obj: Any) -> list[list[str]] | None:
    """``[name, kind, default]`` per parameter, or None where Python cannot say."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [
        [p.name, p.kind.name, "" if p.default is p.empty else _ADDRESS.sub("", repr(p.default))]
        for p in signature.parameters.values()
    ]


def describe(obj: Any) -> dict[str, Any]:
    if inspect.isclass(obj):
        members = {name: inspect.getattr_static(obj, name) for name in dir(obj)}
        methods = {
            name: parameters(getattr(obj, name))
            for name, member in members.items()
            if not name.startswith("_")
            and callable(getattr(obj, name))
            and not isinstance(member, property)
        }
        return {"kind": "class", "init": parameters(obj), "methods": methods}
    if callable(obj):
        return {"kind": "function", "parameters": parameters(obj)}
    return {"kind": type(obj).__name__}


def public_names(module: ModuleType) -> list[str]:
    if hasattr(module, "__all__"):
        return sorted(module.__all__)
    return sorted(
        name
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and not inspect.ismodule(obj)
        and getattr(obj, "__module__", module.__name__) == module.__name__
    )


def surface(module: ModuleType) -> dict[str, Any]:
    return {name: describe(getattr(module, name)) for name in public_names(module)}


def compat_modules() -> list[str]:
    import bleuprint.compat

    names = []
    for info in pkgutil.walk_packages(bleuprint.compat.__path__, "bleuprint.compat."):
        if info.name.rsplit(".", 1)[-1].startswith("_") or info.name.startswith(INTERNAL):
            continue
        names.append(info.name)
    return sorted(names)


def main() -> None:
    sys.stdout.write(dumps(public_api()))


def public_api() -> dict[str, Any]:
    """``{module: {name: description}}`` for the top level and each compat module."""
    import bleuprint

    result: dict[str, Any] = {"bleuprint": surface(bleuprint)}
    for name in compat_modules():
        needs = next((dep for mod, dep in OPTIONAL.items() if name.startswith(mod)), None)
        if needs and importlib.util.find_spec(needs) is None:
            continue
        result[name] = surface(importlib.import_module(name))
    return result


def dumps(api: dict[str, Any]) -> str:
    """One line per name, so a change reads as a one-line diff."""
    version = importlib.metadata.version("bleuprint")
    lines = ["{", f' "recorded_with": {json.dumps("bleuprint " + version)},']
    for module_index, (module, names) in enumerate(sorted(api.items())):
        lines.append(f" {json.dumps(module)}: {{")
        for index, (name, description) in enumerate(sorted(names.items())):
            comma = "," if index < len(names) - 1 else ""
            lines.append(f"  {json.dumps(name)}: {json.dumps(description, sort_keys=True)}{comma}")
        lines.append(" }," if module_index < len(api) - 1 else " }")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
