# lessonkit: `make help` lists the targets. Every target sets up .venv itself when needed.
.DEFAULT_GOAL := help
SHELL := /bin/bash

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
export NO_MKDOCS_2_WARNING := 1

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --editable ".[dev,site,export,import]"
	@touch $(STAMP)

install: $(STAMP) ## Create .venv and install lessonkit with its dev tools, the site builder and exporters

# `make quiz` needs only the learner's install: a small venv of its own, fast on a fresh clone.
QUIZ_VENV  := .venv-quiz
QUIZ_STAMP := $(QUIZ_VENV)/.installed-stamp

$(QUIZ_STAMP): pyproject.toml
	@test -x $(QUIZ_VENV)/bin/python || python3 -m venv $(QUIZ_VENV)
	$(QUIZ_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --editable .
	@touch $(QUIZ_STAMP)

# axe-core for the accessibility tests comes from the npm registry, pinned by package-lock.json.
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: accessibility tests will be skipped"; fi

# The pre-commit hooks run a subset of these same commands (tests/test_hooks.py keeps them so).
test: $(STAMP) node_modules/.package-lock.json ## Run every check: ruff, ruff format, mypy --strict, layers, validate, pytest
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict src
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/lessonkit validate --full
	$(PY) -m pytest

serve: $(STAMP) ## Serve the lesson site at http://127.0.0.1:8000, reloading on changes
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

site: $(STAMP) ## Build the site into site/ (strict: any warning fails)
	$(VENV)/bin/mkdocs build --strict

# `make quiz LESSON=rooflines-and-serving` takes another lesson's quiz.
LESSON ?= gpu-vs-tpu

quiz: $(QUIZ_STAMP) ## Take a lesson's quiz in the terminal (LESSON=slug; learner install only)
	$(QUIZ_VENV)/bin/lessonkit quiz $(LESSON)

bench: $(STAMP) ## Run the benchmarks and print figures and ratios (BENCH=--quick skips 1,000 lessons)
	$(PY) bench/run.py $(BENCH)

clean: ## Remove the site build, caches and test artifacts (keeps .venv)
	rm -rf site test-artifacts .cache .pytest_cache .mypy_cache .ruff_cache bench/out $(QUIZ_VENV)

.PHONY: help install test serve site quiz bench clean
