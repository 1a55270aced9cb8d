# Two commands for everyone: `make serve` and `make test` (= `make check`, the quick check, + `make test-browser`).
# Each sets up what it needs first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# pytest-xdist workers for `make test`: one per core of the 2-core CI machine (try `make test TEST_WORKERS=3`)
TEST_WORKERS ?= 2
# Every process of a run (each pytest worker, each `python -m generator`) reuses the compiled modules and pytest's
# rewritten test modules in __pycache__/ (gitignored). An environment with PYTHONDONTWRITEBYTECODE set (this machine's
# has it) made each of them compile generator/ and rewrite every test module's asserts again: ~2.5 s per worker.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: serve test test-browser site check translations system-deps browser-deps gettext-deps lint clean

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))' || { echo "$(PYTHON) is $$($(PYTHON) --version 2>&1); the pinned packages need Python 3.11.5 or newer: make PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

serve: $(STAMP)  ## build the site and serve it at http://127.0.0.1:8000, rebuilding on every change
	$(PY) -m generator serve

site: $(STAMP)  ## build the static site into site/
	$(PY) -m generator site

translations: $(STAMP)  ## bring every catalog up to date with the rules (keeps all translations)
	$(PY) -m generator i18n update

system-deps:  ## Debian packages the tests use: chromium (browser tests; never a downloaded browser), gettext (msgfmt -c)
	@missing=""; command -v chromium >/dev/null 2>&1 || missing="chromium"; \
	command -v msgfmt >/dev/null 2>&1 || missing="$$missing gettext"; \
	[ -z "$$missing" ] || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; }

browser-deps gettext-deps: system-deps  ## kept as names for the guides; both install what system-deps installs

# -k: the browser suites run even when the quick check failed, so one `make test` reports every test (the exit is 2 then)
test:  ## everything: the quick check, then every browser test (CI runs the two as parallel jobs)
	@$(MAKE) --no-print-directory -k check test-browser

check: $(STAMP) system-deps lint  ## the quick check: workflows, pyflakes, rules and examples, catalogs, every test but the browser suites, one browser smoke test
	$(PY) -m pyflakes generator tests scripts
	$(PY) -m generator check
	$(PY) -m generator i18n check
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not browser or smoke"

test-browser: $(STAMP) system-deps  ## the browser suites (Chromium): pages, Ask panels, search, offline, and the every-page sweeps
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "browser and not smoke"

clean:
	rm -rf $(VENV) site build site.staging site.old

lint: $(STAMP)  ## audit the GitHub workflows: actionlint (syntax, expressions) and zizmor (security)
	$(VENV)/bin/actionlint .github/workflows/*.yml
	$(VENV)/bin/zizmor --offline --quiet .github/workflows
