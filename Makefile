# make demo   starts the sandbox, builds the library and runs the C examples against it
# make demo-window  the offer unit in an SDL2 window (under Xvfb with a screenshot when there is no display)
# make demo-wall    the offer wall in an SDL2 window (the same)
# make test   runs every test (engine, C hosts, header/exports, valgrind, the release library), then make test-portable
# make test-portable  the engine built with its portable POSIX platform layer, through the engine and C host suites
# make dist   builds the self-contained release library into dist/
# make cli    builds the blinkengage command into dist/bin (make install installs it with its man page)
# make wheel  builds the Python wheel into build/wheel
# make unity-package  the C# binding as a Unity package, with the library, into build/unity
# make bench  runs the benchmarks under bench/
# make install PREFIX=/usr/local   installs the release library, header, pkg-config file and CMake package
# make docs   renders the API reference from the header into build/docs/html
# make fuzz   fuzzes every parser of remote or stored input for FUZZ_SECONDS (default 60) each
# make check-tsan / check-asan   the concurrency tests under ThreadSanitizer / the C hosts under AddressSanitizer

SWIFT     ?= swift
VERSION   := $(shell sed -n 's/.*static let \(major\|minor\|patch\) = \([0-9]*\).*/\2/p' Sources/BlinkEngageCore/Model/LibraryVersion.swift | paste -sd.)
DEBUG_DIR  = $(CURDIR)/.build/debug
DIST       = $(CURDIR)/dist
PREFIX    ?= /usr/local
CFLAGS_STRICT = -std=c99 -Wall -Wextra -Werror -pedantic

FUZZ_SECONDS ?= 60

.PHONY: all deps build demo demo-window demo-wall test test-portable dist cli wheel unity-package bench install docs clean fuzz check-tsan check-asan

all: build

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build --product blinkengage

demo: build
	@scripts/demo.sh "$(DEBUG_DIR)"

demo-window: build
	@scripts/demo-window.sh "$(DEBUG_DIR)"

demo-wall: build
	@scripts/demo-window.sh "$(DEBUG_DIR)" wall

test: build cli docs wheel
	scripts/abi-check.sh 0.2.0
	scripts/check-readme-examples.py
	scripts/python-test.sh build/wheel/*.whl
	$(SWIFT) build --build-tests
	BE_LIB_DIR="$(DEBUG_DIR)" BE_DIST_DIR="$(DIST)" $(SWIFT) test
	scripts/swift-example.sh
	scripts/csharp-test.sh "$(DIST)"
	scripts/java-test.sh "$(DIST)"
	scripts/fuzz.sh run 3
	scripts/check-sanitizer.sh thread
	scripts/check-sanitizer.sh address
	cd bindings/rust && env -u BLINKENGAGE_LIB_DIR PKG_CONFIG_LIBDIR=/nonexistent cargo test --offline  # finds ../../dist/lib itself
	scripts/rust-example.sh
	scripts/tfo-check.sh "$(DIST)"
	scripts/early-data-check.sh "$(DIST)"
	scripts/sync-check.sh "$(DIST)"
	$(MAKE) --no-print-directory test-portable
	scripts/scan-test.sh

# The portable POSIX platform layer (Sources/BlinkEngageCore/Platform: poll and self-pipes, no epoll, eventfd,
# inotify, timerfd or getrandom), built apart in .build-portable and run through the engine's tests and the C
# hosts' (crash, two-process, idle and full-disk tests included). The release library's tests read dist/ as in
# make test.
PORTABLE = -Xswiftc -DBLINKENGAGE_PLATFORM_POSIX -Xcc -DBLINKENGAGE_PLATFORM_POSIX --scratch-path $(CURDIR)/.build-portable
test-portable: deps
	$(SWIFT) build --product blinkengage $(PORTABLE)
	$(SWIFT) build --build-tests $(PORTABLE)
	@[ -f "$(DIST)/bin/blinkengage" ] || $(MAKE) --no-print-directory cli
	BE_LIB_DIR="$(CURDIR)/.build-portable/debug" BE_DIST_DIR="$(DIST)" $(SWIFT) test --skip-build $(PORTABLE)

# Every fuzz target: its seed corpus replayed, then new inputs for FUZZ_SECONDS each.
fuzz: deps
	scripts/fuzz.sh run $(FUZZ_SECONDS)

check-tsan: deps
	scripts/check-sanitizer.sh thread

check-asan: deps
	scripts/check-sanitizer.sh address

# The release library: Swift runtime linked in, only be_* exported, soname libblinkengage.so.1. Identical
# functions are folded (--icf=safe: never one whose address is taken), mostly the standard library's generic
# specializations: about 78 KB of the stripped library.
dist: deps
	BLINKENGAGE_LEAN_LIBRARY=1 $(SWIFT) build -c release --product blinkengage -Xswiftc -static-stdlib \
	  -Xlinker --version-script=$(CURDIR)/packaging/blinkengage.map -Xlinker -soname=libblinkengage.so.1 \
	  -Xlinker --icf=safe
	rm -rf "$(DIST)" && mkdir -p "$(DIST)/lib"
	cp "$$(BLINKENGAGE_LEAN_LIBRARY=1 $(SWIFT) build -c release --show-bin-path)/libblinkengage.so" "$(DIST)/lib/libblinkengage.so.1"
	scripts/install.sh "$(DIST)" "$(DIST)" "$(VERSION)"
	@echo "dist: $$(du -h "$(DIST)/lib/libblinkengage.so.1" | cut -f1) unstripped"

# The blinkengage command, over the public API of the release library (found beside it, in ../lib).
cli: dist
	mkdir -p "$(DIST)/bin"
	gcc $(CFLAGS_STRICT) -O2 -I include cli/command_line.c -o "$(DIST)/bin/blinkengage" \
	  -L "$(DIST)/lib" -lblinkengage -Wl,-rpath,'$$ORIGIN/../lib'
	scripts/install.sh "$(DIST)" "$(DIST)" "$(VERSION)"

# The Python wheel (bindings/python) with the release library inside, tagged by auditwheel.
wheel: dist
	scripts/wheel.sh "$(DIST)" build/wheel

# The Unity package (UPM) with the release library in Plugins/x86_64, in build/unity/com.blinkengage.sdk: add it in
# Unity's Package Manager from disk. Its Tests and Examples run with Mono in make test, not in Unity.
unity-package: dist
	rm -rf build/unity && mkdir -p build/unity
	cp -r bindings/csharp build/unity/com.blinkengage.sdk
	rm -rf "build/unity/com.blinkengage.sdk/Tests~" "build/unity/com.blinkengage.sdk/Examples~"
	cp "$(DIST)/lib/libblinkengage.so.1" build/unity/com.blinkengage.sdk/Plugins/x86_64/libblinkengage.so
	@echo "unity-package: build/unity/com.blinkengage.sdk"

install:
	@[ -f "$(DIST)/bin/blinkengage" ] || $(MAKE) cli
	scripts/install.sh "$(DIST)" "$(PREFIX)" "$(VERSION)"

# The API references: C from the header (build/docs/html), Swift from the module BlinkEngage with its DocC catalog
# (build/docs/swift); an undocumented public function or symbol, and any other warning, fails it.
docs: deps
	@mkdir -p build/docs
	doxygen docs/Doxyfile
	@echo "docs: build/docs/html/index.html"
	scripts/swift-docs.sh

# Side-by-side benchmarks (bench/), reported as ratios.
bench: deps
	@scripts/bench.sh

clean:
	rm -rf .build .build-portable dist build
