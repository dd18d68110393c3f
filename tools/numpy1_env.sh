#!/bin/sh
# Makes (once) the second test environment: a venv with numpy 1.26, unbabel-comet 2.2.7 and
# mbrs 0.1.8 (tests/envs/numpy1-comet.txt) on top of the main environment's packages
# (--system-site-packages: bleuprint as installed there, torch, pytest, sacrebleu and the other
# references). Prints the venv's python. Usage: tools/numpy1_env.sh [VENV] (default
# .venv-numpy1; PYTHON picks the interpreter, default python3).
set -eu
venv=${1:-.venv-numpy1}
python=${PYTHON:-python3}
requirements="$(dirname "$0")/../tests/envs/numpy1-comet.txt"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv --system-site-packages "$venv" >&2
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
# bleuprint's own numpy requirement must accept numpy 1: pip's check names any conflict.
# The console scripts the tests run (bleuprint's, sacrebleu's) live in the main environment,
# where they would start its python (numpy 2): the venv gets its own, as pip writes them.
"$venv/bin/python" - >&2 <<'PY'
import importlib.metadata as m
import os
import sys

import numpy

assert numpy.__version__.startswith("1."), f"numpy {numpy.__version__} in the numpy-1 venv"
for dist in ("bleuprint", "sacrebleu"):
    for ep in m.distribution(dist).entry_points.select(group="console_scripts"):
        module, _, attr = ep.value.partition(":")
        path = os.path.join(os.path.dirname(sys.executable), ep.name)
        with open(path, "w", encoding="utf-8") as script:
            script.write(f"#!{sys.executable}\nimport sys\nfrom {module} import {attr}\n"
                         f"sys.exit({attr}())\n")
        os.chmod(path, 0o755)
print(f"numpy-1 environment: numpy {numpy.__version__}, unbabel-comet "
      f"{m.version('unbabel-comet')}, mbrs {m.version('mbrs')}, bleuprint {m.version('bleuprint')}")
PY
echo "$venv/bin/python"
