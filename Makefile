PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench examples clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/wenqing --workspace examples

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check repl modes engine tools tests benchmarks examples
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/decide_latency.py
	$(BIN)/python benchmarks/decide_accuracy.py
	$(BIN)/python benchmarks/io_bench.py

examples: $(STAMP)
	$(BIN)/python examples/make_examples.py

clean:
	rm -rf $(VENV) examples/outputs examples/.wenqing
