# Segnapunti: `make run` serves the demo club on http://127.0.0.1:8000 (uvicorn: the pages and their
# live streams, one process), `make test` runs the suite
# (the scripts' tests under Node, then pytest; not the browser and broker tests: it says how).
# Phones at the table: `make run HOST=0.0.0.0:8000` serves on the local network too (the home page,
# opened on this computer, names the address phones open; README "Playing at the club").
# Both create .venv on their own with the first Python >= 3.12 they find.

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000

.PHONY: run test lint format messages worker clean

# Candidates in order: python3.13, python3.12, python3, then pyenv's own installs (whose shims fail
# when no version is selected). The first that runs and is >= 3.12 wins.
define FIND_PYTHON
for c in "$$PYTHON" python3.13 python3.12 python3 \
         $$(ls -d "$$(pyenv root 2>/dev/null || echo $$HOME/.pyenv)"/versions/3.1[2-9]*/bin/python 2>/dev/null | sort -rV); do \
  [ -n "$$c" ] || continue; \
  if "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then echo "$$c"; exit 0; fi; \
done; exit 1
endef
export FIND_PYTHON

$(PY):
	@py=$$(sh -c "$$FIND_PYTHON") || { echo "Segnapunti needs Python 3.12 or newer: install it (or set PYTHON=/path/to/python3.12) and run make again." >&2; exit 1; }; \
	echo "Creating $(VENV) with $$py ($$("$$py" --version))"; \
	"$$py" -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# Served beyond this computer, the site must answer to whatever address the phones use.
LAN    := $(if $(filter 127.0.0.1:% localhost:% [::1]:% 127.0.0.1 localhost,$(HOST)),,yes)

# Web Push for development: a key pair kept in .vapid.env (made once), unless the environment has one.
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py loaddemo
	@test -n "$$VAPID_PRIVATE_KEY" || test -f .vapid.env || { $(PY) manage.py vapidkeys > .vapid.env.new && mv .vapid.env.new .vapid.env; }
	if [ -z "$$VAPID_PRIVATE_KEY" ]; then set -a; . ./.vapid.env; set +a; fi; \
	$(if $(LAN),ALLOWED_HOSTS="$${ALLOWED_HOSTS:-*}" ,)$(PY) manage.py serve $(HOST)

# The scripts' pure parts (tests/js/) run first, under Node's own test runner: no npm package.
test: $(STAMP)
	node --test --test-reporter=dot tests/js/*.test.js
	$(PY) -m coverage erase
	$(PY) -m coverage run -m pytest -n auto -m "not browser and not broker and not plans" $(ARGS)
	$(PY) -m coverage combine --quiet
	$(PY) -m coverage report --include='scoring/rules/*,scoring/stats/*,tournaments/scheduling/*,tournaments/standings/*,teams/standings/*,circuits/standings/*' --fail-under=100
	$(PY) -m coverage report --format=total | sed 's/^/Total coverage of the project: /; s/$$/%/'
	@echo "Left out: the browser tests (they need Chromium) and the broker tests (a Redis server). Run them with"
	@echo "  CHROMIUM_PATH=\$$(command -v chromium) $(PY) -m pytest -m browser tests/browser"
	@echo "  CELERY_BROKER_URL=redis://127.0.0.1:6379/15 $(PY) -m pytest -m broker tests/tournaments/test_broker.py tests/scoring/test_live_redis.py"
	@echo "(bash .ci/run runs everything, as CI does)."

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

messages: $(STAMP)
	$(PY) manage.py makemessages -l fr -l it --ignore=.venv --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

worker: $(STAMP)
	$(VENV)/bin/celery -A config worker --loglevel=info

clean:
	rm -rf $(VENV) .coverage staticfiles db.sqlite3*
