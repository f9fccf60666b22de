# Arbiter: `make run` serves, `make test` tests. Both set themselves up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PROTOS := $(wildcard protos/arbiter/v1/*.proto)
# The wire contract's generated Python code, arbiter.v1, a distribution of its own
# (arbiter-protos) that the server and the client library (arbiter-client) both
# depend on; `make proto` writes it in place.
PROTOS_PY := protos/python
GENERATED := $(PROTOS_PY)/arbiter/v1
SDK := clients/sdk
STAMP := $(VENV)/.installed
ARBITER_LISTEN ?= localhost:50051
ARBITER_DATA_DIR ?= ./data
# `make run ADDRESS=0.0.0.0:50051 DATA=/srv/arbiter METRICS=localhost:9464 WEB=...`: given on
# make's command line they win; else $ARBITER_LISTEN, $ARBITER_DATA_DIR and
# $ARBITER_METRICS_ADDRESS (no /metrics port unless one is set).
ADDRESS := $(ARBITER_LISTEN)
DATA := $(ARBITER_DATA_DIR)
METRICS := $(ARBITER_METRICS_ADDRESS)
# `make run WEB=localhost:8080`: the web pages and JSON gateway there (else
# $ARBITER_WEB_ADDRESS; none when unset).
WEB := $(ARBITER_WEB_ADDRESS)
# Tools from the npm registry (tools/package.json, pinned by its lock file),
# installed into the project, never globally: buf, and Node's gRPC client.
TOOLS := .tools
TOOLS_STAMP := $(TOOLS)/.installed
BUF := $(TOOLS)/node_modules/.bin/buf
# The wire contract of the last release, that `buf breaking` compares with
# (`make baseline` when cutting a release).
BASELINE := protos/baseline.binpb

.PHONY: install proto run test check soak openspiel lint lint-python typecheck bench capacity clean tools baseline \
	gen-ts browser screenshots bytecode sdk-docs no-npm

install: $(STAMP) proto

# The generated code's distribution, the client's and the server's, which depends
# on both (editable: their code is the source tree's, arbiter.v1 from `make
# proto`). `arbiter` is a namespace package split over the first two.
# uv (from PyPI, pinned) installs the same pinned releases as pip in a few seconds
# where pip's four installs took about 30 (a fresh clone's `make test` waited on
# them); where uv cannot be had or cannot reach the index, pip does it as before.
UV := $(BIN)/uv
EDITABLES := -e $(PROTOS_PY) -e $(SDK) -e '.[dev,postgres,embedded-redis]'
$(STAMP): pyproject.toml $(PROTOS_PY)/pyproject.toml $(PROTOS_PY)/setup.py $(SDK)/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@($(BIN)/pip install --quiet --quiet uv==0.9.30 && $(UV) pip install --quiet --python $(BIN)/python \
		$(EDITABLES)) || { echo "make: installing with pip instead of uv"; \
		$(BIN)/pip install --quiet --upgrade pip && \
		$(BIN)/pip install --quiet -e $(PROTOS_PY) && \
		$(BIN)/pip install --quiet -e $(SDK) && \
		$(BIN)/pip install --quiet -e '.[dev,postgres,embedded-redis]'; }
	touch $(STAMP)

proto: $(STAMP) $(GENERATED)/game_pb2.py

# From the wire contract in protos/ into its Python package. Also the descriptors
# with their comments (source info), which server reflection serves
# (service/reflection.py) and the gateway's OpenAPI document describes its schemas
# with (service/web/openapi.py): the generated modules carry none. The same files
# as the wheel's build hook (protos/python/setup.py) writes.
$(GENERATED)/game_pb2.py: $(PROTOS)
	rm -rf $(SDK)/arbiter/v1  # where an older checkout generated it, in the client's package
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=$(PROTOS_PY) --pyi_out=$(PROTOS_PY) \
		--grpc_python_out=$(PROTOS_PY) --include_source_info \
		--descriptor_set_out=$(GENERATED)/descriptors.binpb $(PROTOS)

# The project's own modules compiled once, ahead: where PYTHONDONTWRITEBYTECODE is
# set (as on this project's CI machine), Python never writes them, and every server
# and CLI process the tests start compiled every module again (about 0.7 s of CPU
# each: a server's imports took 1.6-1.8 s, 1.0-1.1 s compiled). compileall writes
# them whatever that setting; a stale one is ignored by Python, never used.
bytecode: install
	@$(BIN)/python -m compileall -q aggregates service clients bench tools >/dev/null

run: install bytecode
	$(BIN)/arbiter-server --address $(ADDRESS) --data-dir $(DATA) \
		$(if $(METRICS),--metrics-address $(METRICS)) \
		$(if $(WEB),--web-address $(WEB))

# One pytest-xdist worker per CPU; an xdist_group (a module sharing one server
# process) stays on one worker; heavy tests go first (tests/conftest.py).
# The npm tools (buf, the Node clients' packages) first, where npm exists, so
# the Node and TypeScript client tests never install them concurrently.
# Progress is counted ("[ 812/2215]") and the slowest 20 tests are listed at the
# end; every skipped test says why (-rs).
# WORKERS=N runs N workers instead (default: one per CPU; one more than the
# CPUs was slower on 2 cores, measured on a fresh clone).
WORKERS ?= auto
# pytest rewrites every test module's asserts as it imports it, and keeps the
# result in the module's __pycache__ (ignored by git) unless
# PYTHONDONTWRITEBYTECODE is set, as on this project's CI machine: there each
# worker rewrote every module again at every run, 10 s of each worker's start.
# The suite's runs let it write them (PYTREWRITE). On a fresh clone, while npm
# installs the tools (waiting on the network), one collection writes them all
# (REWRITE_AHEAD), and the workers then read them: 11.9 s of CPU per worker's
# collection -> 4.1 s (at a load of 4). Where the tools are installed
# already nothing overlaps it, and it is not done (the workers write them).
PYTREWRITE := PYTHONDONTWRITEBYTECODE=
REWRITE_AHEAD := $(and $(shell command -v npm),$(if $(wildcard $(TOOLS_STAMP)),,yes))
test: install bytecode
	@$(if $(REWRITE_AHEAD),$(PYTREWRITE) $(BIN)/python -m pytest -q --collect-only \
		-p no:cacheprovider -p no:benchmark >/dev/null 2>&1 & rewriting=$$!;) \
	$(MAKE) --no-print-directory browser $(if $(shell command -v npm),tools,no-npm); \
	status=$$?; $(if $(REWRITE_AHEAD),wait $$rewriting;) exit $$status
	@echo "make test: the whole suite, $(WORKERS) workers on $$(nproc 2>/dev/null || echo several)" \
		"CPUs; skips are listed at the end with their reasons"
	$(PYTREWRITE) $(BIN)/python -m pytest -q -rs -p no:cacheprovider -p no:benchmark \
		-o console_output_style=count --durations=20 \
		-n $(WORKERS) --dist loadgroup --no-loadscope-reorder

# Said once, where npm is missing: what `make test` leaves out then.
no-npm:
	@echo "make test: no npm here, so buf and the Node.js packages are not installed;" \
		"the Node.js and TypeScript client tests and buf's checks will skip (install" \
		"Node.js with npm to run them)"

# While working: the Python lint and the fast unit tiers, in under a minute on
# 2 cores. No browser and no npm tool is installed for it: buf's lint and
# breaking check run only where `make tools` already installed buf, else a note
# (`make lint` runs them always). The unit tests marked heavy (random playouts,
# whole games through a server) and every test that starts a server process are
# left to `make test`.
check: install
	$(MAKE) --no-print-directory lint-python
	@if [ -x $(BUF) ]; then $(BUF) lint && $(BUF) breaking --against $(BASELINE); \
	else echo "make check: buf is not installed here (make tools); the wire contract is checked by make lint"; fi
	$(BIN)/python -m pytest -q -p no:cacheprovider -p no:benchmark -n auto \
		-m "not heavy and not integration" tests/unit

# The heavy playouts and soaks (tests/soak.py): every property and conformance
# test with its soak counts (at least 100 games per player count), eight Redis
# Cluster failovers in a row under play (test_feed_cluster), kept out of
# `make test` so the suite stays under 8 minutes on 2 cores.
# OpenSpiel (pyproject's openspiel extra) for the adapter's checks that `make soak` runs
# (tests/unit/test_openspiel_adapter.py); where it cannot be installed, they skip saying why.
openspiel: install
	@$(BIN)/python -c 'import pyspiel' 2>/dev/null || $(UV) pip install --quiet --python $(BIN)/python \
		-e '.[openspiel]' 2>/dev/null || $(BIN)/pip install --quiet -e '.[openspiel]' \
		|| echo "make: open-spiel could not be installed here; the OpenSpiel adapter's checks will skip"

soak: install bytecode openspiel
	ARBITER_SOAK=1 $(PYTREWRITE) $(BIN)/python -m pytest -q -rs -p no:cacheprovider -p no:benchmark \
		-n auto --timeout 3600 tests/property tests/conformance tests/unit/test_schemas.py \
		tests/unit/test_audit_decide_alone.py tests/integration/test_replay.py \
		tests/integration/test_leaks.py tests/integration/test_faults.py \
		tests/web/test_web_leaks.py tests/web/test_seat_leaks.py \
		tests/integration/test_leaks_screens_and_choices.py \
		tests/integration/test_feed_cluster.py tests/unit/test_openspiel_adapter.py \
		tests/integration/test_bench_smoke.py \
		tests/web/test_browser.py::test_replay_slider_shows_each_version_as_the_server_does
	$(BIN)/python -m tests.bots_soak --games $${ARBITER_BOT_GAMES:-200} --budget $${ARBITER_BOT_BUDGET:-0.5}

# Headless Chromium for the browser tests (tests/web/test_browser.py): Debian's
# chromium package, installed when it is missing and we may (root, apt-get);
# else a note, and those tests skip saying why. Playwright's Python package
# (pyproject's dev extras) drives it; no browser is ever downloaded by Playwright.
browser:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make browser: installing Debian's chromium"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
		|| { apt-get update -q >/dev/null 2>&1 \
			&& apt-get install -y -q --no-install-recommends chromium >/dev/null; } \
		|| echo "make browser: could not install chromium; the browser tests will skip"; \
	else \
		echo "make browser: no chromium here (install Debian's chromium package as root);" \
			"the browser tests will skip"; \
	fi

# The Python client library's reference, docs/sdk/: a page per class of arbiter.client,
# written from its docstrings (tools/sdkdoc.py); the unit tests fail while the
# committed pages differ from a fresh run.
sdk-docs: install
	$(BIN)/python tools/sdkdoc.py

# The screenshots of docs/screenshots.md: every page of every served game at 390 and 1280 px
# (tools/screenshots.py: a server of its own, bots, headless Chromium).
screenshots: install browser
	$(BIN)/python tools/screenshots.py

lint: install tools lint-python
	$(BUF) lint
	$(BUF) breaking --against $(BASELINE)

# ruff and mypy: the Python half of `make lint`, all that `make check` needs. `clients`
# includes the client library, clients/sdk (its modules of the `arbiter` namespace;
# mypy names them from there, pyproject.toml's mypy_path); protos/python/setup.py is
# the generated code's build hook.
lint-python: install
	$(BIN)/ruff check aggregates service clients tests bench tools protos/python/setup.py
	$(BIN)/mypy aggregates service clients bench tools protos/python/setup.py

tools: $(TOOLS_STAMP)

$(TOOLS_STAMP): tools/package.json tools/package-lock.json
	@echo "make: installing the npm tools of tools/package.json (buf, Node's gRPC client) into $(TOOLS)"
	mkdir -p $(TOOLS)
	cp tools/package.json tools/package-lock.json $(TOOLS)/
	npm ci --prefix $(TOOLS) --no-audit --no-fund --loglevel=error
	touch $(TOOLS_STAMP)

# The generated TypeScript/JavaScript client (buf.gen.ts.yaml: protoc-gen-es from
# .tools) into tests/clients/ts/gen, and a node_modules link there to .tools' packages
# (@connectrpc/connect, connect-node, @bufbuild/protobuf) so that Node.js resolves them.
TS_CLIENT := tests/clients/ts
gen-ts: tools
	$(BUF) generate --template buf.gen.ts.yaml
	ln -sfn ../../../$(TOOLS)/node_modules $(TS_CLIENT)/node_modules

baseline: tools
	$(BUF) build --exclude-source-info -o $(BASELINE)

# Issue 13's figures, each beside its floor from the same run (docs/performance.md);
# BENCH_ARGS=--quick for a short check run. Writes bench/results.json.
bench: install
	$(BIN)/python -m bench $(BENCH_ARGS)

# The capacity model (docs/scaling.md): one shard measured on PostgreSQL, the
# model checked against the real server at reduced scale (exit 1 past its
# bound), then extrapolated. CAPACITY_ARGS=--quick for a short smoke run.
capacity: install
	$(BIN)/python -m bench.capacity $(CAPACITY_ARGS)

clean:
	rm -rf $(VENV) $(TOOLS) $(TS_CLIENT)/gen $(TS_CLIENT)/node_modules data $(GENERATED)/*_pb2*.py $(GENERATED)/*_pb2*.pyi \
		$(GENERATED)/descriptors.binpb $(SDK)/build $(PROTOS_PY)/build

# Each game's schemas.json (its view, events and outcome) and its docs page's event
# table, written from its declarations: views.py's View, events.py's classes
# (aggregates/kernel/record/schemagen.py; tests/unit/kernel/test_schemagen.py fails while
# a committed file differs).
.PHONY: schemas
schemas: install
	$(BIN)/python -m aggregates.kernel.record.schemagen
