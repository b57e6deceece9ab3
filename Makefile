# bn — build, test and measure. `make install` and `make test` are all a new
# machine needs; `make ci` is what CI runs.

GO        ?= go
# The release is the git tag (v1.2.0, or v1.2.0-3-gabc1234 after it);
# bn --version adds the commit and its date, which -buildvcs=auto records
# (overriding a GOFLAGS=-buildvcs=false).
VERSION   ?= $(shell git describe --tags 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
GOBUILD    = $(GO) build -trimpath -buildvcs=auto
# Static binaries: without cgo (pulled in by net and os/user) each start
# skips the dynamic loader, about 2 ms of every command.
export CGO_ENABLED := 0
BIN       := bin/bn
MCPBIN    := bin/bn-mcp
VERIFYBIN := bin/bn-verify
CACHE     := $(CURDIR)/.cache
FUZZTIME  ?= 30s
CORPUS    ?= $(CURDIR)/testdata/corpus/claude-agents
# Pinned versions of the real readers `make test-clients` checks bn's output with.
CLIENTS   := @bgotink/kdl@0.4.0 opencode-ai@1.18.33 @anthropic-ai/claude-code@2.1.330 @github/copilot@1.0.102 @google/gemini-cli@0.61.0 @openai/codex@0.169.0 @kilocode/cli@7.7.7 @qwen-code/qwen-code@0.24.4 droid@0.215.0 @modelcontextprotocol/sdk@1.32.2
# Cline, Pi and oh-my-pi (with Bun, which runs it) weigh 1.3 GB and their
# probes take about twenty minutes: `make test-clients MORE_CLIENTS=1` adds
# them (BN_MORE_CLIENTS tells the probes and scripts/test-clients.sh).
HEAVY_CLIENTS := cline@3.0.65 @mariozechner/pi-coding-agent@0.73.1 @oh-my-pi/pi-coding-agent@18.2.3 bun@1.4.5
ifdef MORE_CLIENTS
CLIENTS += $(HEAVY_CLIENTS)
export BN_MORE_CLIENTS := 1
endif

.PHONY: build install test oracle-shells probe-programs vet fmt-check lint-shell test-clients test-clients-install probes schemas cross binaries dist npm test-windows test-install bench fuzz ci clean

# bn, and beside it bn-mcp (the MCP server `bn mcp serve` runs) and
# bn-verify (what `bn config agents verify` runs), kept out of bn so every
# other command starts without the MCP SDK or an HTTP server.
build:
	$(GOBUILD) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/bn
	$(GOBUILD) -ldflags '$(LDFLAGS)' -o $(MCPBIN) ./cmd/bn-mcp
	$(GOBUILD) -o $(VERIFYBIN) ./cmd/bn-verify

# go install leaves each binary as the linker wrote it, through a shared
# memory mapping, and a file so written starts slower for as long as its
# pages stay cached (Linux 6.18, ext4: bn --version 3.96 ms, 3.23 ms for a
# copy of it). install rewrites each with a plain copy, as a release
# archive's are written when it is unpacked.
GOBINDIR = $(or $(shell $(GO) env GOBIN),$(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin)
install:
	$(GO) install -trimpath -buildvcs=auto -ldflags '$(LDFLAGS)' ./cmd/bn ./cmd/bn-mcp
	$(GO) install -trimpath -buildvcs=auto ./cmd/bn-verify
	@for b in bn bn-mcp bn-verify; do p="$(GOBINDIR)/$$b"; \
		if [ -f "$$p" ]; then cp "$$p" "$$p.new" && mv "$$p.new" "$$p" || exit 1; fi; done

# Unit tests, the end-to-end scripts in cmd/bn/testdata/script, and every
# fuzz target's seed corpus.
test: vet fmt-check oracle-shells
	$(GO) test -count=1 ./...
	@# The packages that work side by side, again under the race detector
	@# (which needs cgo; the binaries stay static).
	CGO_ENABLED=1 $(GO) test -race -count=1 ./kdl ./config ./par ./resolver ./export ./emit ./mcpserver

# The enforcement oracle (enforce/oracle_test.go) runs command lines in
# bash and zsh; CI machines get zsh from Debian. Without it the oracle
# tests skip, saying so.
oracle-shells:
	@command -v zsh >/dev/null || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		{ apt-get update -qq && apt-get install -y -qq zsh >/dev/null; }; } || echo "zsh is not installed: the enforcement oracle will skip"

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The enforcement probes' control session runs these programs, whose
# hostile lines must do their damage there; CI machines get them from Debian.
probe-programs:
	@missing=$$(for p in strace time zip rsync perl; do command -v $$p >/dev/null || [ -x /usr/bin/$$p ] || echo $$p; done); \
	[ -z "$$missing" ] || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		{ apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; }; } || \
		echo "not installed: $$missing: the enforcement probes' control calls that run them will fail"

test-clients-install:
	@mkdir -p $(CACHE)/clients
	@test -f $(CACHE)/clients/.installed && [ "$$(cat $(CACHE)/clients/.installed)" = "$(CLIENTS)" ] || \
		{ npm install --prefix $(CACHE)/clients --no-audit --no-fund --loglevel=error $(CLIENTS) && \
		  echo "$(CLIENTS)" > $(CACHE)/clients/.installed; }

# Checks bn's output with the real readers, pinned and installed from npm
# into .cache: a KDL 1.0 parser, OpenCode, Claude Code, the Copilot CLI, the
# Gemini CLI, Codex, Kilo, Qwen Code, Factory Droid, Cline, Pi (whose
# subagent extension ships in its package, examples/extensions/subagent),
# oh-my-pi (with Bun, which runs it) and the MCP TypeScript SDK.
test-clients: build test-clients-install probe-programs
	BN=$(CURDIR)/$(BIN) CLIENTS_DIR=$(CACHE)/clients scripts/test-clients.sh
	@# The probes: each client, offline against a stand-in model API, must
	@# still do what its golden file says, and every crossing agent must
	@# mean there what its definition says, or be reported. Three client
	@# runs at once: a run waits on its client's start as much as it computes.
	BN_CLIENTS_DIR=$(CACHE)/clients $(GO) test -count=1 -v -timeout 80m -parallel 3 -run 'TestClients|TestCrossings|TestEnforcement|TestPlanMode|TestLauncherFlags|TestCopilotHook|TestPluginHosts' ./probe
	@# The scripts that run the real clients (verify on the files on disk).
	BN_CLIENTS_DIR=$(CACHE)/clients $(GO) test -count=1 -run 'TestScripts/verify' ./cmd/bn

# Rewrites the probes' golden files (dialect/testdata/probes) from what the
# installed clients do now; review the diff before committing it.
probes: test-clients-install
	BN_CLIENTS_DIR=$(CACHE)/clients $(GO) test -count=1 -timeout 30m -run 'TestClients|TestPluginHosts' ./probe -update

# Takes again, from the installed clients, the agent-file schemas bn
# vendors for the tools built on OpenCode (dialect/schema); a test fails
# when a pin moves without this.
schemas: test-clients-install
	$(GO) run ./scripts/clientschema -bin $(CACHE)/clients/node_modules/.bin/opencode \
		-package $(filter opencode-ai@%,$(CLIENTS)) -out dialect/schema/opencode.json
	$(GO) run ./scripts/clientschema -bin $(CACHE)/clients/node_modules/.bin/kilo \
		-package $(filter @kilocode/cli@%,$(CLIENTS)) -out dialect/schema/kilo.json

# Go benchmarks, then whole-command timings as ratios against their floors
# and against rulesync (pinned, installed from npm into .cache).
# `make bench VERIFY=1` adds verify's time on the corpus with the real
# clients (make test-clients-install), each client's apart: minutes of
# the clients' own work.
RULESYNC  := rulesync@17.0.0
bench: build
	@mkdir -p $(CACHE)/bench
	@test -x $(CACHE)/bench/node_modules/.bin/rulesync || \
		npm install --prefix $(CACHE)/bench --no-audit --no-fund --loglevel=error $(RULESYNC)
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./scripts/benchreport -bn $(BIN) -rulesync $(CACHE)/bench/node_modules/.bin/rulesync -corpus $(CORPUS) \
		$(if $(VERIFY),-clients $(CACHE)/clients)

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse2$$' -fuzztime $(FUZZTIME) ./kdl
	$(GO) test -run '^$$' -fuzz '^FuzzFormat$$' -fuzztime $(FUZZTIME) ./kdl
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeKDL$$' -fuzztime $(FUZZTIME) ./config
	$(GO) test -run '^$$' -fuzz '^FuzzAgentNode$$' -fuzztime $(FUZZTIME) ./config
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./frontmatter
	$(GO) test -run '^$$' -fuzz '^FuzzFastYAML$$' -fuzztime $(FUZZTIME) ./frontmatter
	$(GO) test -run '^$$' -fuzz '^FuzzMarshal$$' -fuzztime $(FUZZTIME) ./frontmatter
	$(GO) test -run '^$$' -fuzz '^FuzzToolPattern$$' -fuzztime $(FUZZTIME) ./agents
	$(GO) test -run '^$$' -fuzz '^FuzzShellLine$$' -fuzztime $(FUZZTIME) ./enforce
	$(GO) test -run '^$$' -fuzz '^FuzzSetMember$$' -fuzztime $(FUZZTIME) ./emit

# The launcher must stay shellcheck-clean; CI machines get shellcheck from Debian.
lint-shell:
	@command -v shellcheck >/dev/null || { apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null; }
	shellcheck scripts/bn-agent scripts/*.sh

# Users run bn on Windows and macOS too: every platform must build and vet.
PLATFORMS := linux/amd64 linux/arm64 darwin/arm64 darwin/amd64 windows/amd64
cross:
	@for p in $(PLATFORMS); do \
		echo "vet and build for $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet ./... && \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/bn && \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/bn-mcp && \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/bn-verify || exit 1; \
	done

# Every platform's bn, bn-mcp and bn-verify, in dist/bin/OS-ARCH, for the
# release archives and the npm packages.
binaries:
	rm -rf dist/bin
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ "$$os" = windows ] && ext=.exe; \
		for c in bn bn-mcp bn-verify; do \
			GOOS=$$os GOARCH=$$arch $(GOBUILD) -ldflags '$(LDFLAGS)' -o dist/bin/$$os-$$arch/$$c$$ext ./cmd/$$c; \
		done; \
	done

# Release archives: per platform, bn, bn-mcp, bn-verify, the bn-agent
# launcher, README, docs/*.md and LICENSE in dist/bn-VERSION-OS-ARCH.tar.gz (.zip for
# Windows), dist/SHA256SUMS, and from those the Homebrew formula
# (dist/bn.rb) and the Scoop manifest (dist/bn.json) that install them
# from RELEASE_URL. Tag first (git tag v1.2.0) for a release version.
RELEASE_URL ?= https://github.com/binnacle-dev/bn/releases/download/$(VERSION)
dist: binaries
	@command -v zip >/dev/null || { apt-get update -qq && apt-get install -y -qq zip >/dev/null; }
	rm -rf dist/bn-* dist/SHA256SUMS dist/bn.rb dist/bn.json
	@set -e; for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; name=bn-$(VERSION)-$$os-$$arch; \
		cp -R dist/bin/$$os-$$arch dist/$$name; \
		cp README.md LICENSE scripts/bn-agent dist/$$name/; \
		mkdir -p dist/$$name/docs && cp docs/*.md dist/$$name/docs/; \
		if [ "$$os" = windows ]; then (cd dist && zip -qr $$name.zip $$name); echo "dist/$$name.zip"; \
		else tar -C dist -czf dist/$$name.tar.gz $$name; echo "dist/$$name.tar.gz"; fi; \
		rm -rf dist/$$name; \
	done
	cd dist && sha256sum bn-*.tar.gz bn-*.zip > SHA256SUMS
	$(GO) run ./scripts/release -version $(VERSION) -url $(RELEASE_URL) -sums dist/SHA256SUMS -out dist

# npm packages in dist/npm (see scripts/npm-pack.mjs), versioned from the
# git tag, or 0.0.0-dev.COMMIT between tags.
NPM_VERSION ?= $(shell v=$$(git describe --tags --exact-match 2>/dev/null) && echo $${v\#v} || echo 0.0.0-dev.$$(git rev-parse --short HEAD))
npm: binaries
	node scripts/npm-pack.mjs $(NPM_VERSION) dist/bin dist/npm

# The unit tests built for Windows, run under Wine 10 in a Debian 13 root
# set up once outside the checkout (scripts/test-windows.sh).
test-windows:
	scripts/test-windows.sh

# Installs bn the ways users do, from what `make npm` and `make dist`
# wrote: the npm tarballs into a temporary prefix (offline), the Homebrew
# formula and the Scoop manifest checked, the GitHub Action's steps and
# the pre-commit hook run (scripts/test-install.sh).
test-install: build npm dist
	NPM_VERSION=$(NPM_VERSION) scripts/test-install.sh

ci: test cross lint-shell test-windows test-install test-clients

clean:
	rm -rf bin dist $(CACHE)
