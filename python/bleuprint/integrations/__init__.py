"""Adapters that plug bleuprint's metrics into other libraries' extension points: Ray Data
aggregations (``ray``), TRL reward functions (``trl``) and mbrs metrics (``mbrs``). ``ray`` and
``trl`` import nothing from the library they serve, so they load without it; ``mbrs``'s
classes subclass mbrs' own, so importing that module imports mbrs (``import bleuprint`` and
this package never do)."""
