# Developer shortcuts. The README's test command (and .ci/run) is the source of truth for CI.
.PHONY: help build-dev build-prod test test-fast test-rust test-python lint format bench stubtest

help:  ## List the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

build-dev:  ## Editable install (rebuild after Rust changes)
	python3 -m pip install -e ".[dev]" --no-build-isolation

build-prod:  ## Release wheel (fat LTO) into dist/
	maturin build --release -o dist

test: test-rust test-python  ## Rust and Python suites

test-rust:  ## Pure-Rust unit tests and doctests, no interpreter needed
	cargo test --no-default-features

test-python:  ## pytest (differential tests skip without ../shared or sacrebleu)
	python3 -m pytest

test-fast:  ## Rust tests and pytest without the whole-WMT22 runs (about 2 minutes)
	cargo test --no-default-features
	python3 -m pytest -m "not slow"

lint:  ## rustfmt, clippy, ruff
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	ruff check python tests bench
	ruff format --check python tests bench

format:  ## Apply rustfmt and ruff format
	cargo fmt
	ruff format python tests bench

stubtest:  ## Check _core.pyi against the built module
	python3 -m mypy.stubtest bleuprint._core

bench:  ## Benchmarks against sacrebleu, bleuscore, fastchrf, jiwer and nltk (needs ../shared)
	python3 bench/bench_bleu.py
	python3 bench/bench_tokenizers.py
	python3 bench/bench_metrics.py
	python3 bench/bench_significance.py
	python3 bench/bench_compat.py
