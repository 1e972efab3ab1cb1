PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench examples clean bytecode

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	$(MAKE) bytecode
	touch $(STAMP)

# the project's own modules compiled once (pip does it for the dependencies): start-up reads bytecode even where
# PYTHONDONTWRITEBYTECODE keeps Python from writing it; a module edited later is compiled in memory until the next run
bytecode:
	$(BIN)/python -m compileall -q repl modes engine tools

run: $(STAMP) bytecode
	$(BIN)/wenqing --workspace examples

# every test that runs tools on a CSV, once more with every CSV read by the out-of-core engine (tests of understanding
# alone, of xlsx or in-memory tables, and of the command line's plumbing read nothing the engine changes; the golden
# transcripts replay conversations the other files already run, at many times their cost)
OOC_TESTS := tests/test_tools.py tests/test_executor.py tests/test_must_work.py tests/test_insufficient_context.py tests/test_io.py \
	tests/test_analysis_ops.py tests/test_audit.py tests/test_hardening.py tests/test_hardening_writes.py \
	tests/test_never_silently_wrong.py tests/test_one_file_and_results.py tests/test_recipes.py \
	tests/test_unseen.py tests/test_robustness.py tests/test_model.py tests/test_opspec.py tests/test_external_e2e.py \
	tests/test_results_and_joins.py tests/test_text_values.py

# the machine's cores share the files (each file's tests stay on one worker, so a file's own fixtures are built once)
XDIST := -n auto --dist loadfile

test: $(STAMP)
	$(BIN)/python -m pytest $(XDIST)
	WENQING_ENGINE=duckdb $(BIN)/python -m pytest $(XDIST) $(OOC_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check repl modes engine tools tests benchmarks examples
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/decide_latency.py
	$(BIN)/python benchmarks/decide_accuracy.py
	$(BIN)/python benchmarks/io_bench.py
	$(BIN)/python benchmarks/decide_scale.py
	$(BIN)/python benchmarks/scale_curve.py
	$(BIN)/python benchmarks/write_bench.py
	$(BIN)/python benchmarks/analysis_bench.py
	$(BIN)/python benchmarks/dict_cache.py

examples: $(STAMP)
	$(BIN)/python examples/make_examples.py

clean:
	rm -rf $(VENV) examples/outputs examples/.wenqing
