# Developer shortcuts. `make check` is what CI runs (.ci/run) and what the README's test command
# runs: every quality gate, then the Rust and Python suites.
PYTHON ?= python3
PY_DIRS = python tests bench tools

.PHONY: help check lint toolchain build-dev wheel test test-fast test-rust test-python test-numpy1 \
	format bench stubtest

help:  ## List the targets
	@grep -E '^[a-z0-9-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

check: lint test  ## What CI runs: the quality gates, then the Rust and Python suites

lint: toolchain  ## The quality gates: rustfmt, ruff, generated tables, mypy, stubtest, import layers and cycles, clippy, rustdoc
	cargo fmt --check
	$(PYTHON) -m ruff check $(PY_DIRS)
	$(PYTHON) -m ruff format --check $(PY_DIRS)
	$(PYTHON) tools/gen_unicode_tables.py --check
	$(PYTHON) tools/gen_testsets_registry.py --check
	$(PYTHON) tools/gen_whisper_tables.py --check
	$(PYTHON) tools/gen_open_asr_tables.py --check
	$(PYTHON) -m mypy
	$(PYTHON) -m mypy.stubtest bleuprint._core._ext
	lint-imports
	$(PYTHON) tools/import_cycles.py
	cargo clippy --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --no-default-features

toolchain:  ## Add rustfmt and clippy with rustup when they are missing
	@cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@cargo clippy --version >/dev/null 2>&1 || rustup component add clippy

build-dev:  ## Editable install (rebuild after Rust changes)
	$(PYTHON) -m pip install -e ".[dev]" --no-build-isolation

# The release wheel's platform tag: the lowest manylinux policy a build on this glibc (2.36,
# Debian 12) satisfies. Linked against glibc 2.34 or later, the threads (pthread_*) and MeCab's
# dlopen bind to GLIBC_2.34 symbols; `auditwheel show` confirms the tag
# (tests/install/test_wheel.py). A newer glibc needs a higher tag, or zig (docs/install.md).
MANYLINUX ?= manylinux_2_34
DIST ?= dist

wheel:  ## Release abi3 manylinux wheel (fat LTO) and the sdist into dist/ (docs/install.md)
	rm -f $(DIST)/bleuprint-*.whl $(DIST)/bleuprint-*.tar.gz
	$(PYTHON) -m maturin build --release --locked --compatibility $(MANYLINUX) --auditwheel check -o $(DIST)
	$(PYTHON) -m maturin sdist -o $(DIST)

test: test-rust test-python test-numpy1  ## Rust and Python suites, then the exactness suites under numpy 1

test-rust:  ## Pure-Rust unit, integration (golden vectors) and doc tests, no interpreter needed
	cargo test --no-default-features

test-python:  ## pytest on every core (the WMT22 differential tests skip without ../shared)
	$(PYTHON) -m pytest -n auto

# The suites whose figures depend on numpy's scalar promotion or must hold beside COMET: the
# WMT22 differentials, sacrebleu's own suite, significance, nltk, COMET and the mbrs plugins.
NUMPY1_VENV ?= .venv-numpy1
NUMPY1_TESTS = tests/metrics/test_golden.py tests/metrics/test_bleu_wmt22.py tests/metrics/test_chrf_wmt22.py \
	tests/metrics/test_ter_wmt22.py tests/significance tests/cli/test_significance.py \
	tests/compat/test_sacrebleu.py tests/compat/test_sacrebleu_suite.py tests/compat/test_nltk.py \
	tests/integrations/test_comet_beside.py tests/integrations/test_mbrs.py
# The tests parametrized by language pair run on these three there (tests/support/data.py's
# selected_pairs): numpy decides only the Python side's figures, which three pairs exercise,
# and the main run already compares every pair (1,074 tests in 525 s instead of 1,420 in 1,165 s).
NUMPY1_PAIRS ?= en-de,en-ja,uk-cs

test-numpy1:  ## The exactness suites again in a second venv: numpy 1.26 beside unbabel-comet 2.2.7 and mbrs (made once by tools/numpy1_env.sh)
	PYTHON=$(PYTHON) tools/numpy1_env.sh $(NUMPY1_VENV) >/dev/null
	BLEUPRINT_TEST_PAIRS=$(NUMPY1_PAIRS) $(NUMPY1_VENV)/bin/python -m pytest -n auto $(NUMPY1_TESTS)

test-fast:  ## Rust tests and pytest without the whole-WMT22 runs (about 3 minutes)
	cargo test --no-default-features
	$(PYTHON) -m pytest -n auto -m "not slow"

format:  ## Apply rustfmt and ruff format
	cargo fmt
	$(PYTHON) -m ruff format $(PY_DIRS)

stubtest:  ## Check _core/_ext.pyi against the built module
	$(PYTHON) -m mypy.stubtest bleuprint._core._ext

bench:  ## Benchmarks against sacrebleu, bleuscore, fastchrf, jiwer and nltk (needs ../shared)
	$(PYTHON) bench/bench_bleu.py
	$(PYTHON) bench/bench_tokenizers.py
	$(PYTHON) bench/bench_metrics.py
	$(PYTHON) bench/bench_significance.py
	$(PYTHON) bench/bench_compat.py
