# lessonkit: `make help` lists the targets. Every target sets up .venv itself when needed.
.DEFAULT_GOAL := help
SHELL := /bin/bash

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
export NO_MKDOCS_2_WARNING := 1

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# The tests run on exactly the versions in requirements/dev.txt (hashed, made by `make lock`);
# pyproject.toml keeps the ranges a learner's install may take. lockcheck stops a run whose
# pyproject.toml changed since the lock was made, and names the command that re-locks.
LOCK   := requirements/dev.txt
EXTRAS := dev site export import zensical

lockcheck: ## Check that requirements/dev.txt is the lock of pyproject.toml's dependencies
	@python3 requirements/lockcheck.py

$(STAMP): pyproject.toml $(LOCK) requirements/dev.inputs.sha256
	@python3 requirements/lockcheck.py
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation --editable .
	@touch $(STAMP)

install: $(STAMP) ## Create .venv and install lessonkit with its dev tools, both site engines and exporters

# uv resolves for every platform and Python lessonkit supports and writes the hashes pip
# checks; it is used only here, from a venv of its own, so the test env holds the lock alone.
# Keeps every pin that still fits; `make lock UPGRADE=1` moves each to its newest release.
UV_VERSION := 0.13.9
lock: ## Re-lock requirements/dev.txt after editing dependencies (UPGRADE=1: newest of each)
	@test -x .venv-lock/bin/uv || { python3 -m venv .venv-lock && \
		.venv-lock/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"; }
	.venv-lock/bin/uv pip compile pyproject.toml --quiet --universal --python-version 3.11 \
		--generate-hashes $(addprefix --extra ,$(EXTRAS)) $(if $(UPGRADE),--upgrade) \
		--output-file $(LOCK)
	python3 requirements/lockcheck.py --write

# What the scheduled `latest` workflow runs: every check on the newest releases the ranges in
# pyproject.toml admit, no lock, in a venv of its own, so drift shows there before it
# reaches a contributor's pull request.
LATEST := .venv-latest
test-latest: node_modules/.package-lock.json ## Run every check on the newest releases pyproject.toml allows (no lock)
	@test -x $(LATEST)/bin/python || python3 -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade \
		--upgrade-strategy eager --editable ".[dev,site,export,import,zensical]"
	$(LATEST)/bin/python -m pip freeze --exclude-editable
	$(MAKE) suite VENV=$(LATEST)

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
test: lockcheck $(STAMP) node_modules/.package-lock.json ## Run every check: ruff, ruff format, mypy --strict, layers, validate, pytest
	$(MAKE) suite

suite:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict src
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/lessonkit validate --strict --full
	$(VENV)/bin/python -m pytest

# The fast tier, for the edit-test loop: the same static checks and every test that needs no
# browser, pseudo-terminal, wheel or site build (tests/conftest.py marks those from the
# fixtures they use). `make test` before you push: CI runs it whole.
FAST := not browser and not pty and not slow and not build
check: lockcheck $(STAMP) ## Quick checks while you work: lint, types, layers, validate, tests without browser/pty/builds
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict src
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(VENV)/bin/lessonkit validate --strict --full
	$(VENV)/bin/python -m pytest -q -m "$(FAST)"

serve: $(STAMP) ## Serve the site at http://127.0.0.1:8000, reloading and re-checking on changes
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

# Validate first: every problem at file:line:col, before an engine reports it its own way.
# --strict: the policy's warnings fail too (a lesson overdue for review is never published).
site: $(STAMP) ## Build the site into site/ with mkdocs-material (strict: any warning fails)
	$(VENV)/bin/lessonkit validate --strict
	$(VENV)/bin/mkdocs build --strict

# Zensical reads the same mkdocs.yml, runs the same Markdown extension and ignores the hook,
# so lessonkit's script and stylesheet are minified here instead. --clean: its page cache
# does not know when a bank changed.
site-zensical: $(STAMP) ## Build the site into site/ with Zensical, mkdocs-material's successor
	$(VENV)/bin/lessonkit validate --strict
	$(VENV)/bin/zensical build --clean --strict
	$(PY) -c 'import pathlib, sys; from lessonkit.site import assets; assets.shrink(pathlib.Path(sys.argv[1]))' site

# `make quiz LESSON=rooflines-and-serving` takes another lesson's quiz.
LESSON ?= gpu-vs-tpu

# Ctrl-C is how a learner stops; lessonkit keeps the answers and says how to resume, and
# its exit status 130 is not an error for make to report.
quiz: $(QUIZ_STAMP) ## Take a lesson's quiz in the terminal (LESSON=slug; learner install only)
	@$(QUIZ_VENV)/bin/lessonkit quiz $(LESSON) || test $$? -eq 130

bench: $(STAMP) ## Run the benchmarks and print figures and ratios (BENCH=--quick skips 1,000 lessons)
	$(PY) bench/run.py $(BENCH)

clean: ## Remove the site build, caches and test artifacts (keeps .venv)
	rm -rf site test-artifacts .cache .pytest_cache .mypy_cache .ruff_cache bench/out $(QUIZ_VENV) \
		.venv-lock $(LATEST)

.PHONY: help lockcheck lock install check test test-latest suite serve site site-zensical quiz bench clean
