"""The scalar promotion of the loaded numpy, which sacrebleu's bootstrap arithmetic follows.

sacrebleu scores float32 resample sums with plain Python arithmetic on ``numpy.float32``
values, so each score mixes float32 values and Python floats. Under numpy 2 (NEP 50) a Python
float meeting a ``numpy.float32`` is rounded to float32 and the result stays float32. Under
numpy 1, two scalars follow ordinary type promotion: the float32 is widened and the result is
a ``numpy.float64``. The same sacrebleu therefore reports different bootstrap means,
intervals and p-values under numpy 1 and numpy 2. bleuprint replays the rule of the numpy it
runs with, read from numpy each time it resamples (numpy 1.25 and 1.26 can also be switched to
NEP 50, with ``NPY_PROMOTION_STATE=weak``; that is followed too).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    import numpy as np

WEAK, LEGACY = "weak", "legacy"
#: The numpy releases with a promotion state, and its default in each.
STATE_DEFAULTS = {"1.25": LEGACY, "1.26": LEGACY, "2.0": WEAK, "2.1": WEAK}
#: How ``bleuprint --version`` names each rule.
RULES = {WEAK: "NEP 50", LEGACY: "numpy 1's value-based"}


def promotion_of(numpy_version: str, state: Optional[str]) -> str:
    """The promotion numpy ``numpy_version`` applies, given its promotion state where it has
    one (numpy 1.25 to 2.1: ``"legacy"``, ``"weak"`` or ``"weak_and_warn"``)."""
    if state is not None:
        return LEGACY if state == LEGACY else WEAK
    return WEAK if int(numpy_version.split(".", 1)[0]) >= 2 else LEGACY


def numpy_promotion() -> str:
    """``"weak"`` where the loaded numpy applies NEP 50 (numpy 2, or numpy 1.25+ switched to
    it), ``"legacy"`` for numpy 1's value-based promotion."""
    import numpy as np

    state = getattr(np, "_get_promotion_state", None)
    return promotion_of(np.__version__, state() if state is not None else None)


def numpy_scalar_type(promotion: str) -> type[np.floating]:
    """The type of a score that numpy's arithmetic made from float32 sums under
    ``promotion``: ``numpy.float32`` under NEP 50, ``numpy.float64`` under numpy 1."""
    import numpy as np

    return np.float32 if promotion == WEAK else np.float64


def installed_numpy_line() -> str:
    """``bleuprint --version``'s numpy line, without importing numpy (start-up time): the
    installed version and the rule the bootstrap will replay under it."""
    from importlib import metadata

    try:
        version = metadata.version("numpy")
    except metadata.PackageNotFoundError:
        return "numpy: not installed (needed for arrays, resampling and significance tests)"
    # numpy 1.25 to 2.1 read their promotion state from this variable at import.
    default = STATE_DEFAULTS.get(".".join(version.split(".", 2)[:2]))
    state = os.environ.get("NPY_PROMOTION_STATE", default) if default else None
    rule = RULES[promotion_of(version, state)]
    return f"numpy {version}: {rule} scalar promotion in sacrebleu's bootstrap arithmetic"
