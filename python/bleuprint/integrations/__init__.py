"""Adapters that plug bleuprint's metrics into other libraries' extension points (TRL reward
functions). Each module imports nothing from the library it serves, so it loads without it."""
