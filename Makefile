# hookwright: `make demo` runs the main job (a live Claude Code session whose
# hook blocks a force-push), `make test` runs every test.

VERSION := $(shell sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' plugin/.claude-plugin/plugin.json)
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

# The variables a user sets (make demo CC_VERSION=2.1.330, on the command
# line or in the environment) are checked before anything runs and are never
# run themselves. Each is first made a plain copy of the text as given
# ($(value), never expanded: $(shell ...) in it is only text), then must be
# one word of the characters it allows, else make stops with one line that
# names it; the recipes hand them to programs through the environment or as
# quoted words. TestMakefileRunsNoVariable (internal/layout) holds the
# Makefile to this.
USER_VARS := CC_VERSION KEEP BENCHTIME BENCH_LINES NPM_OUT BUILDVCS TOOLS_PLATFORMS
$(foreach v,$(USER_VARS),$(eval override $(v) := $$(value $(v))))
DIGITS := 0 1 2 3 4 5 6 7 8 9
LOWER := a b c d e f g h i j k l m n o p q r s t u v w x y z
UPPER := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
# without,TEXT,CHARS: TEXT with every character of CHARS taken out
without = $(if $(2),$(call without,$(subst $(firstword $(2)),,$(1)),$(wordlist 2,$(words $(2)),$(2))),$(1))
define NL


endef
# check,NAME,CHARS,WHAT: stop unless NAME is empty or one word of CHARS
check = $(if $(call without,$(subst $$,@,$(value $(1))),$(2))$(filter-out 0 1,$(words $(value $(1)))),$(error $(1)=$(subst $(NL),\n,$(value $(1))) is not $(3); nothing was run))
$(call check,CC_VERSION,$(DIGITS) . v,a Claude Code release such as 2.1.33)
$(call check,KEEP,0 1,0 or 1)
$(call check,BENCHTIME,$(DIGITS) . x n u m s h,a go test -benchtime such as 200x or 2s)
$(call check,BENCH_LINES,$(DIGITS),a number of lines)
$(call check,NPM_OUT,$(DIGITS) $(LOWER) $(UPPER) . _ - /,a folder of letters, digits and ._-/)
$(call check,BUILDVCS,$(LOWER),true or false)
$(call check,VERSION,$(DIGITS) .,a version such as 0.1.0 (plugin.json))
$(foreach p,$(subst $$,@,$(TOOLS_PLATFORMS)),$(if $(call without,$(p),$(DIGITS) $(LOWER) /),$(error TOOLS_PLATFORMS holds $(p), not an os/arch such as linux/amd64; nothing was run)))
export HW_CC_VERSION := $(or $(CC_VERSION),2.1.33)
export HW_BENCHTIME := $(or $(BENCHTIME),200x)
export HW_BENCH_LINES := $(or $(BENCH_LINES),1000000)
export HW_NPM_OUT := $(or $(NPM_OUT),dist/npm)
# Reproducible: -trimpath (no local path), an empty build id, no time stamp;
# BUILDVCS=true (make release, .ci/repro) records the commit, its time and
# the tag's version, which go version -m shows.
LDFLAGS := -s -w -buildid= -X main.version=$(VERSION)
GOBUILD := CGO_ENABLED=0 go build -trimpath $(if $(BUILDVCS),-buildvcs=$(BUILDVCS)) -ldflags "$(LDFLAGS)"
STATICCHECK := v0.8.2

.PHONY: all build test bench bench-budgets bench-store demo lint plugin compat release clean version npm

all: build

version:
	@echo $(VERSION)

## build: host binaries in bin/
build:
	@mkdir -p bin
	$(GOBUILD) -o bin/ ./cmd/...

## test: every test, the live tier against real Claude Code releases included
test:
	go test -timeout 45m ./...

## bench: median wall time per event as a ratio to a trivial static Go binary, and peak RSS;
## then the design budgets (bench-budgets)
bench: build plugin
	$(GOBUILD) -o bin/baseline ./cmd/hookbench/baseline
	./bin/hookbench -hookwright bin/hookwright -baseline bin/baseline -launcher plugin/bin/hookwright -plugin plugin
	$(MAKE) bench-budgets

## bench-budgets: go test -bench for JSON parse, serialize, the contract check, each built-in handler and each
## event's dispatch, printed beside SPEC-HOOK-001's budgets (1 ms, 1 ms, 1 ms, 100 ms, 200 ms); BENCHTIME overrides 200x
bench-budgets:
	@mkdir -p bin
	go test -run '^$$' -bench . -benchtime "$$HW_BENCHTIME" ./internal/handlers/builtin > bin/bench-budgets.txt
	go run ./cmd/hookbench/budgets < bin/bench-budgets.txt

## bench-store: hwctl's store and dashboard on a 1M-line journal: ingest lines/s, each query's first page,
## the page in headless Chromium while 100 calls a second stream in (BENCH_LINES overrides the size)
bench-store:
	HOOKWRIGHT_BENCH_LINES="$$HW_BENCH_LINES" go test -run '^$$' -bench . -benchtime 1x -timeout 30m ./internal/store
	HOOKWRIGHT_BENCH_LINES="$$HW_BENCH_LINES" go test -run '^$$' -bench DashboardUnderLoad -benchtime 1x -timeout 30m -v ./cmd/hwctl

## demo: the main job, live: real Claude Code (npm) + scripted model on 127.0.0.1; hookwright blocks a force-push.
## CC_VERSION picks the release (default 2.1.33); KEEP=1 keeps the demo project and ends with the hwctl serve command for it
demo:
	go run ./cmd/hwdemo -cc-version "$$HW_CC_VERSION" $(if $(filter 1,$(KEEP)),-keep)

## lint: gofmt, go vet, staticcheck
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	go vet ./...
	go run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) ./...

clean:
	rm -rf bin dist

## plugin: the plugin's binaries for every platform, next to the launcher in plugin/bin/
PLUGIN_BINS := $(foreach p,$(PLATFORMS),plugin/bin/hookwright-$(subst /,-,$(p))$(if $(findstring windows,$(p)),.exe))

plugin: $(PLUGIN_BINS)

plugin/bin/hookwright-%: FORCE
	GOOS=$(word 1,$(subst -, ,$(basename $*))) GOARCH=$(word 2,$(subst -, ,$(basename $*))) \
		$(GOBUILD) -o $@ ./cmd/hookwright

## plugin-tools: hookgen and hwctl for every platform (TOOLS_PLATFORMS), next to the runtime in plugin/bin/,
## where their launchers (plugin/bin/hookgen, plugin/bin/hwctl) find them; make release puts them in its download files
override TOOLS_PLATFORMS := $(or $(TOOLS_PLATFORMS),$(PLATFORMS))
TOOL_BINS := $(foreach t,hookgen hwctl,$(foreach p,$(TOOLS_PLATFORMS),plugin/bin/$(t)-$(subst /,-,$(p))$(if $(findstring windows,$(p)),.exe)))

plugin-tools: $(TOOL_BINS)

plugin/bin/hookgen-%: FORCE
	GOOS=$(word 1,$(subst -, ,$(basename $*))) GOARCH=$(word 2,$(subst -, ,$(basename $*))) \
		$(GOBUILD) -o $@ ./cmd/hookgen

plugin/bin/hwctl-%: FORCE
	GOOS=$(word 1,$(subst -, ,$(basename $*))) GOARCH=$(word 2,$(subst -, ,$(basename $*))) \
		$(GOBUILD) -o $@ ./cmd/hwctl

## plugin-hooks: regenerate plugin/hooks/hooks.json (floor band) and plugin/hooks/bands/*.json
plugin-hooks:
	go test ./plugin -run 'TestManifests' -update

## npm: hookgen's npm packages (hookgen and hookgen-<os>-<cpu>, version from plugin.json), packed into dist/npm/*.tgz
npm:
	./cmd/hookgen/npm/build.sh "$$HW_NPM_OUT" "$(VERSION)"

## release: commit the plugin with its runtimes onto the release branch (never touches the work tree), write the
## download files (hookgen, hwctl, SHA256SUMS, SBOMs) to dist/release/v<version>; prints every size, fails over 25 MB;
## RELEASE_BRANCH, RELEASE_TAG, RELEASE_DIST override
release:
	./plugin/release.sh

.PHONY: plugin-hooks plugin-tools FORCE
FORCE:

## compat: the HWC/HWF/HWR suite on plugin/ (hookgen compat), then the live tier across real
## Claude Code releases (internal/compatsuite TestLive), which rewrites the matrix report compat/REPORT.md
compat: plugin
	go run ./cmd/hookgen compat plugin --spec manifests/hookwright.spec.json
	HOOKWRIGHT_COMPAT_REPORT=$(CURDIR)/compat/REPORT.md go test -count=1 -timeout 30m -run 'TestLive' ./internal/compatsuite
