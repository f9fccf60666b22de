# Arbiter: `make run` serves, `make test` tests. Both set themselves up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PROTOS := $(wildcard protos/arbiter/v1/*.proto)
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

.PHONY: install proto run test lint typecheck bench clean tools baseline gen-ts browser

install: $(STAMP) proto

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres,embedded-redis]'
	touch $(STAMP)

proto: $(STAMP) protos/arbiter/v1/game_pb2.py

protos/arbiter/v1/game_pb2.py: $(PROTOS)
	$(BIN)/python -m grpc_tools.protoc -Iprotos --python_out=protos --pyi_out=protos \
		--grpc_python_out=protos $(PROTOS)

run: install
	$(BIN)/arbiter-server --address $(ADDRESS) --data-dir $(DATA) \
		$(if $(METRICS),--metrics-address $(METRICS)) \
		$(if $(WEB),--web-address $(WEB))

# One pytest-xdist worker per CPU; an xdist_group (a module sharing one server
# process) stays on one worker; heavy tests go first (tests/conftest.py).
# The npm tools (buf, the Node clients' packages) first, where npm exists, so
# the Node and TypeScript client tests never install them concurrently.
test: install browser $(if $(shell command -v npm),tools)
	$(BIN)/python -m pytest -q -rs -p no:cacheprovider -p no:benchmark \
		-n auto --dist loadgroup --no-loadscope-reorder

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

lint: install tools
	$(BIN)/ruff check aggregates service clients tests bench protos/arbiter protos/setup.py tools
	$(BIN)/mypy aggregates service clients bench protos/arbiter protos/setup.py tools
	$(BUF) lint
	$(BUF) breaking --against $(BASELINE)

tools: $(TOOLS_STAMP)

$(TOOLS_STAMP): tools/package.json tools/package-lock.json
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

clean:
	rm -rf $(VENV) $(TOOLS) $(TS_CLIENT)/gen $(TS_CLIENT)/node_modules data protos/arbiter/v1/*_pb2*.py protos/arbiter/v1/*_pb2*.pyi
