# The SDK's commands. `make generate` and `make test` are the two you need; see README.md.

SHELL := /bin/bash
SWIFT ?= swift
# Warnings are errors.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
# Compile time is a feature: no function or expression may take the compiler over 100 ms to type-check. Those times
# are wall-clock, so a busy machine moves them; `make compile-times` checks them apart from the test verdict.
TYPECHECK_LIMITS := -Xswiftc -Xfrontend -Xswiftc -warn-long-function-bodies=100 \
	-Xswiftc -Xfrontend -Xswiftc -warn-long-expression-type-checking=100
VENV := Tests/Emulator/.venv
PYTHON := $(VENV)/bin/python
SDKGEN_ARGS := --schemas Schemas --output Sources --test-samples Tests --schema-reference Schemas/README.md
# Hand-written Swift; generated files opt out with `// swift-format-ignore-file` (the generator prints them to the
# same width itself).
FORMAT_PATHS := Package.swift Sources Generator Tests Benchmarks Plugins Fuzz \
	$(wildcard Integrations/*/Package.swift Integrations/*/Sources Integrations/*/Tests) \
	$(wildcard Integrations/Examples/*/Package.swift Integrations/Examples/*/Sources Integrations/Examples/*/Tests)

.PHONY: help system-packages generate check lint format build compile-times platforms test integrations postgres stress proofs diff docs emulator demo bench fuzz fuzz-smoke venv clean

help:  ## List the commands.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12

# Every command that builds or runs Swift or the emulator starts here, so a fresh machine needs no set-up of its own.
system-packages:  ## Install the system packages building needs when missing (as root; otherwise print the command).
	Checks/system-packages

generate: system-packages  ## Regenerate Sources/*/Generated (and the model round-trip tests) from Schemas/.
	$(SWIFT) run $(SWIFT_FLAGS) HealthSignInSDKGen $(SDKGEN_ARGS)

check: system-packages  ## Fail when the committed generated code is stale, printing a diff.
	$(SWIFT) run $(SWIFT_FLAGS) HealthSignInSDKGen $(SDKGEN_ARGS) --check

lint:  ## Fail when hand-written Swift does not follow .swift-format.
	$(SWIFT) format lint --strict --recursive --configuration .swift-format $(FORMAT_PATHS)

format:  ## Format hand-written Swift in place with .swift-format.
	$(SWIFT) format format --in-place --recursive --configuration .swift-format $(FORMAT_PATHS)

build: system-packages  ## Build everything, tests included, with warnings as errors.
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)

# A build of its own (so the main one keeps its flags), repeated by Checks/swift-build when it failed only on the
# limits, to tell a slow function from a busy machine. Best run on a quiet machine, before a pull request.
compile-times: system-packages  ## Fail when a function or expression takes the compiler over 100 ms to type-check.
	SWIFT="$(SWIFT)" Checks/swift-build --build-tests --scratch-path .build/compile-times $(SWIFT_FLAGS) \
	  $(TYPECHECK_LIMITS)

venv: $(PYTHON)  ## Create the Python environment the emulator and schema checks use.

$(PYTHON): Tests/Emulator/requirements.txt
	Checks/system-packages
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r Tests/Emulator/requirements.txt
	@touch $(PYTHON)

platforms: system-packages venv  ## Type-check the Apple-only code against swift-crypto and API stubs; lint the CI workflow.
	Checks/apple-platforms
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	$(VENV)/bin/zizmor --offline --quiet .github/workflows

test: system-packages venv check lint build platforms  ## Check generated code and formatting, build, and run every test.
	Checks/system-packages test
	SWIFT="$(SWIFT)" Tests/Tools/run-tests $(SWIFT_FLAGS)

# The packages under Integrations/ (AsyncHTTPClient, swift-log, PostgreSQL, tracing and metrics, swift-configuration,
# Hummingbird, Vapor, the example servers) depend on the ecosystem's packages, so the SDK's own build never does. Their
# tests run against a PostgreSQL server of their own on loopback (installed from Debian's packages when missing) and
# the emulator; their API reference is built after them.
integrations: system-packages venv  ## Build and test every package under Integrations/ against PostgreSQL and the emulator.
	SWIFT="$(SWIFT)" Integrations/Tools/with-postgres Tests/Emulator/with-emulator Integrations/Tools/test-packages

# A server for trying the example backends or the PostgreSQL store by hand, set up as the integrations' tests set up
# theirs: Debian's postgresql installed when missing, a data folder of its own, removed when it stops.
postgres:  ## Keep a PostgreSQL server up on 127.0.0.1 until Ctrl-C, printing its connection settings.
	Integrations/Tools/with-postgres Integrations/Tools/postgres-until-stopped

# Every randomized proof, each from a fresh seed it prints with the command that replays it; `make test` runs the same
# proofs from the seeds written in Tests/HealthSignInTestSupport/Stress/ProofSeed.swift, so a commit has one verdict.
# A failure found here is fixed and kept as a regression case or seed.
stress: export SDK_FRESH_SEEDS = 1
stress: build venv  ## The randomized proofs at full length from fresh seeds: lifecycle, schemas, diff, scalars.
	LIFECYCLE_STRESS_SEQUENCES=$${LIFECYCLE_STRESS_SEQUENCES:-10000} $(SWIFT) test --skip-build --filter LifecycleStressTests
	SDK_SCHEMA_VERDICT_COUNT=$${SDK_SCHEMA_VERDICT_COUNT:-1000} $(SWIFT) test --skip-build --filter SchemaVerdictTests
	SDK_HOSTILE_SAMPLE=$${SDK_HOSTILE_SAMPLE:-all} $(SWIFT) test --skip-build --filter HostileSchemaTests
	$(SWIFT) test --skip-build --filter 'RandomSchemaTests|WireScalarBytesTests|DateTimeTextTests|JSONValueEncoderTests'
	for round in $$(seq $${SDK_DIFF_ROUNDS:-3}); do \
	  SDK_DIFF_EXAMPLES=$${SDK_DIFF_EXAMPLES:-all} SDK_DIFF_MUTANTS=$${SDK_DIFF_MUTANTS:-600} \
	    $(SWIFT) test --skip-build --filter DiffProofTests || exit 1; \
	done

proofs: build venv  ## Every sdkgen diff rule's example proven by the compiler and the runtime, as CI does.
	SDK_DIFF_EXAMPLES=all SDK_DIFF_MUTANTS=0 $(SWIFT) test --skip-build --filter DiffProofTests

docs: build  ## The API reference of every product, the integrations' too, as static sites in .build/docs (README: "API reference").
	Tests/Tools/build-docs .build/docs
	SWIFT="$(SWIFT)" Integrations/Tools/build-docs .build/docs

diff:  ## What the schemas changed since BASE (a directory or git revision; default HEAD): make diff BASE=v0.1.0
	@$(SWIFT) run -q HealthSignInSDKGen diff --base $${BASE:-HEAD} --schemas Schemas; status=$$?; \
	  case $$status in 0) ;; 1) echo "sdkgen diff: 1 (breaking changes)" >&2 ;; \
	    *) echo "sdkgen diff: $$status (a schema set could not be read)" >&2 ;; esac; exit $$status

emulator: venv  ## Run the protocol emulator on http://127.0.0.1:8000 until Ctrl-C (see the README's "Sandboxes").
	$(PYTHON) Tests/Emulator/emulator.py --port 8000

demo: system-packages venv  ## Walk the HealthVault, Koppeltaal, Vital, SMART and Koppeltaal 2.0 journeys against the emulator, printing each step.
	$(SWIFT) build --product HealthSignInDemo
	Tests/Emulator/with-emulator sh -c '.build/debug/HealthSignInDemo --emulator "$$EMULATOR_URL"'

bench: system-packages venv  ## Measure the budgets of Benchmarks/README.md (generator, compile, codecs, client, refresh, lifecycle, transports).
	$(SWIFT) build -c release --product HealthSignInSDKGen
	$(SWIFT) build -c release --product HealthSignInBench
	$(SWIFT) build -c release --product HealthSignInLifecycleWorker
	$(SWIFT) build --target HealthSignInCore
	Tests/Emulator/with-emulator .build/release/HealthSignInBench --sdkgen .build/release/HealthSignInSDKGen --modules .build/debug/Modules
	SWIFT="$(SWIFT)" Integrations/Tools/bench-transports

fuzz: system-packages  ## Fuzz every parser of outside data (1,000,000 runs or 10 minutes each); findings go to .build/fuzz/findings.
	Fuzz/run --runs 1000000 --seconds 600

fuzz-smoke: system-packages  ## A short fuzzing pass over every target from a fixed seed, the same every run, as CI runs it.
	Fuzz/run --runs 3000 --seconds 600 --seed 1

clean:  ## Remove build products and the Python environment.
	rm -rf .build Integrations/.build-integrations $(VENV)
