"""The random seed of every resampling test, read as sacrebleu reads it.

``SACREBLEU_SEED`` (or its alias ``BLEUPRINT_SEED``) holds an integer, or ``None`` for an
unseeded generator; the default is 12345. The value picks numpy's ``default_rng`` stream, so
equal seeds give sacrebleu's resamples.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Union

from bleuprint.errors import InvalidOptionError

DEFAULT_SEED = 12345
ENVIRONMENT_VARIABLES = ("SACREBLEU_SEED", "BLEUPRINT_SEED")

#: Pass as ``seed`` to read the environment (the default everywhere).
FROM_ENVIRONMENT = "environment"

#: What a ``seed`` argument accepts: an int, ``None`` (unseeded) or :data:`FROM_ENVIRONMENT`.
SeedArg = Union[int, None, str]


@dataclass(frozen=True)
class Seed:
    """A resolved seed.

    Attributes
    ----------
    value
        The integer seed, or ``None`` for fresh entropy on every draw.
    label
        How signatures print it: sacrebleu writes the environment string lowercased for a
        single system's bootstrap (``bs``) and ``str(int)`` for paired tests.
    """

    value: Optional[int]
    label: str

    @property
    def paired_label(self) -> str:
        """The signature's ``seed`` in paired tests: ``str(int(value)).lower()``."""
        return str(self.value).lower()

    @property
    def paired_value(self) -> Optional[int]:
        """The seed of each paired comparison: sacrebleu passes ``seed if seed else None``,
        so a seed of 0 is unseeded there."""
        return self.value if self.value else None


def _parse(text: str, source: str) -> Seed:
    label = str(text).lower()
    if label == "none":
        return Seed(None, label)
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise InvalidOptionError(f"{source} must be a non-negative integer or 'None', got {text!r}")
    return Seed(value, label)


def resolve_seed(seed: SeedArg = FROM_ENVIRONMENT) -> Seed:
    """The seed to use: ``seed`` itself, or the environment's when it is
    :data:`FROM_ENVIRONMENT`.

    Raises
    ------
    InvalidOptionError
        For a value that is not a non-negative integer or ``None``, or when ``SACREBLEU_SEED`` and
        ``BLEUPRINT_SEED`` are both set to different values.
    """
    if seed is None:
        return Seed(None, "none")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidOptionError(f"seed must be an int or None, got {seed!r}")
    if isinstance(seed, int):
        if seed < 0:
            raise InvalidOptionError(f"seed must be a non-negative integer or None, got {seed}")
        return Seed(seed, str(seed))
    if seed != FROM_ENVIRONMENT:
        return _parse(seed, "seed")
    given = {name: os.environ[name] for name in ENVIRONMENT_VARIABLES if name in os.environ}
    if len(set(given.values())) > 1:
        raise InvalidOptionError(
            "SACREBLEU_SEED and BLEUPRINT_SEED are set to different values "
            f"({given['SACREBLEU_SEED']!r}, {given['BLEUPRINT_SEED']!r}); unset one of them"
        )
    if not given:
        return Seed(DEFAULT_SEED, str(DEFAULT_SEED))
    name, text = next(iter(given.items()))
    return _parse(text, name)
