# rfp-retrieval: the two commands of the README.
#   make demo  -> set up, then run the main job on the bundled sample data
#   make test  -> set up, then run the test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test test-all lint ui clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { \
	  echo "rfp-retrieval needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1)."; \
	  echo "Run: make PYTHON=python3.11 $(MAKECMDGOALS)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	touch $@

demo: setup
	$(BIN)/rfp-retrieval run

test: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -q

test-all: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -q -m ""

ui: setup
	$(BIN)/rfp-retrieval ui

clean:
	rm -rf var .pytest_cache
