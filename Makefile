# NFCTagKit — the two commands a fresh machine needs are `make demo` and `make test`.
SWIFT       ?= swift
SWIFT_FLAGS ?= -Xswiftc -warnings-as-errors
# Tests run side by side, at most 8 at a time: most of their time is spent waiting on an
# emulated reader, and a bound keeps a 2-core machine from starving them (and libnfc's UART
# driver, which watches its descriptor with select(), below FD_SETSIZE descriptors).
# TEST_FLAGS=--no-parallel runs one at a time.
TEST_FLAGS  ?= --experimental-maximum-parallelization-width 8

.PHONY: all setup build demo test hil hil-matrix release docs tables clean fuzz sanitize bench soak-under-load test-under-load station-soak format lint

all: build

setup:
	@./scripts/setup

build: setup
	$(SWIFT) build $(SWIFT_FLAGS)

## The main job: the whole mission on an emulated reader (a real one with NFC_DEMO_DEVICE).
demo: build
	@NFCTAG="$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/nfctag" ./scripts/demo

## The whole test suite (Swift Testing), warnings as errors, on the emulated PN532 UART; beside
## it, the reader suites again on an emulated ACR122U and PN533 (scripts/test-reader-kinds), their
## output printed once the suite is done. Both spend most of their time waiting on emulated
## readers, so on two cores they overlap well.
test: setup
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	@log="$$(mktemp)"; SWIFT=$(SWIFT) ./scripts/test-reader-kinds >"$$log" 2>&1 & kinds=$$!; \
	  $(SWIFT) test --skip-build $(TEST_FLAGS); first=$$?; \
	  wait $$kinds; second=$$?; cat "$$log"; rm -f "$$log"; \
	  exit $$(( first != 0 || second != 0 ))

## The hardware-in-the-loop suite as a report a person can send: with NFC_TEST_DEVICE naming a
## real reader, scenario → settled / disproved / skipped, in hil-report/ (report.md, report.json).
hil: setup
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" ./scripts/hil

## The same suite in its as-real mode on each emulated reader kind with each tag family (CI).
hil-matrix: setup
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" ./scripts/hil-matrix

## Release builds as an app makes them: every product, and Tests/ConsumerPackage (the README's
## program, depending on this package by path) built with -c release and run on an emulated reader.
release: setup
	SWIFT=$(SWIFT) SWIFT_FLAGS="$(SWIFT_FLAGS)" ./scripts/release

## libFuzzer targets (Fuzz/), each run for FUZZ_SECONDS (CI: make fuzz FUZZ_SECONDS=20).
FUZZ_SECONDS ?= 60
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz

## The whole test suite under ThreadSanitizer, then AddressSanitizer (SANITIZERS=thread for one).
SANITIZERS ?= thread address
sanitize: setup
	./scripts/sanitize $(SANITIZERS)

## The DocC documentation of NFCTagKit, with the toolchain's docc, into .build/docs.
docs: setup
	@./scripts/docs

## Regenerate Sources/NFCChips/Generated from datasheets/.
tables: setup
	$(SWIFT) run nfcchips-gen datasheets Sources/NFCChips/Generated
	$(SWIFT) format format --in-place --recursive Sources/NFCChips/Generated

clean:
	rm -rf .build

## swift format, the toolchain's, with .swift-format (4 spaces, 120 columns): `make format` rewrites the
## sources, `make lint` checks them (CI). Tests/ConsumerPackage is the README's program byte for byte and
## Tests/Reproducers are the smallest packages that show a compiler bug: both are left as written.
FORMAT_PATHS = Package.swift Sources Examples Fuzz $(filter-out Tests/ConsumerPackage/ Tests/Reproducers/ \
	Tests/OutsideClients/ Tests/Transcripts/ Tests/PublicAPI/,$(wildcard Tests/*/))
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

## Benchmark against the physical floor (release build): `make bench`, at a speed `make bench BENCH_ARGS="--baud 460800"`
## (nfctag and the USB stand-in are built too: the two-process rows and the USB reader kinds run nfctag); one USB kind:
## `make bench BENCH_ARGS="--reader acr122u"`; the soak run: `make bench BENCH_ARGS=--soak`.
BENCH_ARGS ?=
bench: setup
	$(SWIFT) build -c release --product nfctag-bench $(SWIFT_FLAGS)
	$(SWIFT) build -c release --product nfctag $(SWIFT_FLAGS)
	$(SWIFT) build -c release --product nfctag-usb-emulation $(SWIFT_FLAGS)
	$$($(SWIFT) build -c release --show-bin-path)/nfctag-bench $(BENCH_ARGS)

## The soak run while stress-ng loads every core: every tag in a known state, every unplugged
## reader back (`make soak-under-load SOAK_TAGS=2000` for a long one; 300 by default, a few minutes).
SOAK_TAGS ?= 300
SOAK_SEED ?= 8
soak-under-load: setup
	$(SWIFT) build -c release --product nfctag-bench $(SWIFT_FLAGS)
	SWIFT=$(SWIFT) SOAK_TAGS=$(SOAK_TAGS) SOAK_SEED=$(SOAK_SEED) ./scripts/soak-under-load

## The whole suite of `make test` TEST_RUNS times in a row while stress-ng loads every core
## (5 by default, about 30 minutes on 2 cores): no run may fail.
TEST_RUNS ?= 5
test-under-load: setup
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	SWIFT=$(SWIFT) TEST_RUNS=$(TEST_RUNS) TEST_FLAGS="$(TEST_FLAGS)" ./scripts/test-under-load

## `nfctag provision` as a process, killed with SIGKILL at seeded random points and restarted,
## with tears and unplugs (StationKillTests; 120 tags in `make test`): `make station-soak STATION_SOAK_TAGS=5000`.
STATION_SOAK_TAGS ?= 1000
STATION_SOAK_SEED ?= 1592590372
station-soak: setup
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	NFCTAG_STATION_SOAK_TAGS=$(STATION_SOAK_TAGS) NFCTAG_STATION_SOAK_SEED=$(STATION_SOAK_SEED) \
		$(SWIFT) test --skip-build --filter StationKillTests
