# Arbiter: `make run` serves, `make test` tests. Both set themselves up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PROTOS := $(wildcard protos/arbiter/v1/*.proto)
STAMP := $(VENV)/.installed
ARBITER_LISTEN ?= localhost:50051
ARBITER_DATA_DIR ?= ./data

.PHONY: install proto run test lint typecheck bench clean

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
	$(BIN)/arbiter-server --address $(ARBITER_LISTEN) --data-dir $(ARBITER_DATA_DIR)

# One pytest-xdist worker per CPU; an xdist_group (a module sharing one server
# process) stays on one worker; heavy tests go first (tests/conftest.py).
test: install
	$(BIN)/python -m pytest -q -rs -p no:cacheprovider -p no:benchmark \
		-n auto --dist loadgroup --no-loadscope-reorder

lint: install
	$(BIN)/ruff check aggregates service clients tests bench protos/arbiter/wire.py
	$(BIN)/mypy aggregates service clients bench protos/arbiter/wire.py

# Issue 13's figures, each beside its floor from the same run (docs/performance.md);
# BENCH_ARGS=--quick for a short check run. Writes bench/results.json.
bench: install
	$(BIN)/python -m bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) data protos/arbiter/v1/*_pb2*.py protos/arbiter/v1/*_pb2*.pyi
