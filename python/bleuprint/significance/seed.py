"""Where the seed's names were first importable from; they live in
:mod:`bleuprint.resampling.seed`, below the metrics."""

from bleuprint.resampling.seed import (
    DEFAULT_SEED,
    ENVIRONMENT_VARIABLES,
    FROM_ENVIRONMENT,
    Seed,
    SeedArg,
    resolve_seed,
)

__all__ = [
    "DEFAULT_SEED",
    "ENVIRONMENT_VARIABLES",
    "FROM_ENVIRONMENT",
    "Seed",
    "SeedArg",
    "resolve_seed",
]
