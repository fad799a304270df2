package guard

// localProgram reports whether a program acts on local state only: the
// machine's files, the project's build, its dependencies, its local
// processes, containers and virtual machines. The model of harm reads a
// destructive verb in its subcommand path as local scratch (npm cache
// clean, cargo clean, kind delete cluster, pm2 delete api, brew
// uninstall), not as a change to shared state. What such a program does
// to shared state (npm unpublish, docker system prune -a, cargo yank) is
// in the packs, by name. A program not named here is taken to manage
// remote or shared state when its subcommand path says so.
func localProgram(name string) bool {
	switch name {
	// build systems and compilers
	case "make", "gmake", "bmake", "cmake", "ctest", "cpack", "ninja", "meson", "bazel", "bazelisk", "buck", "buck2", "pants",
		"scons", "autoreconf", "autoconf", "automake", "configure", "just", "task", "mage", "earthly", "go", "gofmt",
		"goimports", "gopls", "golangci-lint", "staticcheck", "govulncheck", "cargo", "rustup", "rustc", "rustfmt",
		"cargo-watch", "cross", "gcc", "g++", "cc", "c++", "clang", "clang++", "clang-format", "clang-tidy", "ld", "ar",
		"nm", "objdump", "strip", "javac", "java", "jar", "mvn", "mvnw", "mvnd", "gradle", "gradlew", "sbt", "lein",
		"clojure", "clj", "kotlin", "kotlinc", "scala", "scalac", "dotnet", "msbuild", "swift", "swiftc", "xcodebuild",
		"xcrun", "xcode-select", "pod", "carthage", "flutter", "dart", "pub", "zig", "nim", "nimble", "crystal", "shards",
		"elixir", "mix", "iex", "erl", "rebar3", "ghc", "ghci", "cabal", "stack", "ocaml", "opam", "dune", "racket", "raco",
		"julia", "haxe", "v", "odin", "gleam", "tsc", "tsx", "ts-node", "esbuild", "swc", "vite", "webpack", "rollup",
		"parcel", "turbo", "nx", "lerna", "rush", "eslint", "prettier", "biome", "oxlint", "stylelint", "jest", "vitest",
		"mocha", "ava", "playwright", "cypress", "storybook", "next", "nuxt", "nuxi", "astro", "remix", "svelte-kit", "ng",
		"vue-cli-service", "react-scripts", "expo", "react-native", "electron", "electron-builder", "tauri", "husky",
		"lint-staged", "nodemon", "pm2", "forever", "corepack", "volta", "fnm", "nvm", "n", "npm", "pnpm", "yarn", "bun",
		"bunx", "pnpx", "npx", "deno", "node", "nodejs":
		return true
	// Python, Ruby, PHP and other language tools
	case "pip", "pip3", "pipx", "uv", "uvx", "poetry", "pipenv", "pdm", "hatch", "rye", "conda", "mamba", "micromamba",
		"virtualenv", "pyenv", "tox", "nox", "pytest", "py.test", "coverage", "black", "isort", "ruff", "flake8", "pylint",
		"mypy", "pyright", "bandit", "pre-commit", "jupyter", "ipython", "sphinx-build", "mkdocs", "flask", "uvicorn",
		"gunicorn", "hypercorn", "streamlit", "ruby", "gem", "bundle", "bundler", "rspec", "rubocop", "irb", "pry", "php",
		"composer", "phpunit", "phpstan", "psalm", "pest", "perl", "cpan", "cpanm", "lua", "luarocks", "r", "rscript":
		return true
	// package managers and version managers of the machine
	case "brew", "apt", "apt-get", "apt-cache", "aptitude", "dpkg", "dnf", "yum", "rpm", "pacman", "yay", "paru", "apk",
		"zypper", "snap", "flatpak", "port", "nix", "nix-env", "nix-shell", "nix-store", "nix-collect-garbage",
		"home-manager", "asdf", "mise", "rtx", "sdk", "jenv", "rbenv", "nodenv", "goenv", "pyenv-virtualenv", "direnv",
		"winget", "choco", "scoop", "mas", "softwareupdate", "devbox", "pixi", "flox", "devenv", "proto", "aqua", "pkgx":
		return true
	// editors, terminals, local processes and the shell's helpers
	case "tmux", "screen", "zellij", "vim", "vi", "nvim", "emacs", "nano", "code", "cursor", "subl", "idea", "less", "more",
		"man", "open", "xdg-open", "pbcopy", "pbpaste", "xclip", "xsel", "watchman", "ccache", "sccache", "entr", "fswatch",
		"inotifywait", "htop", "top", "ps", "lsof", "ss", "netstat", "ip", "ifconfig", "ping", "dig", "nslookup", "host",
		"traceroute", "mtr", "jq", "yq", "fx", "gron", "launchctl", "journalctl", "logrotate", "supervisorctl", "tailscale",
		"ngrok", "mkcert", "age", "ffmpeg", "ffprobe", "convert", "magick", "pandoc", "latexmk", "pdflatex", "xelatex",
		"gs", "zip", "unzip", "tar", "gzip", "gunzip", "7z", "xz", "zstd", "brotli", "bzip2", "ollama", "lms", "llm",
		"huggingface-cli", "hf":
		return true
	// local containers, clusters and virtual machines
	case "docker", "docker-compose", "podman", "podman-compose", "nerdctl", "buildah", "colima", "lima", "limactl",
		"finch", "orb", "orbctl", "kind", "minikube", "vagrant", "multipass", "vboxmanage", "virsh", "qemu-img", "utmctl",
		"devcontainer", "act", "tilt", "skaffold-local", "k9s":
		return true
	// mobile and desktop development
	case "adb", "emulator", "avdmanager", "sdkmanager", "simctl", "ios-deploy", "fastlane-local":
		return true
	// file tools (the file rules judge what they delete)
	case "truncate", "shred", "unlink", "rmdir", "fallocate", "srm", "trash", "trash-put", "trash-empty", "gio", "rimraf", "del-cli",
		"kill", "pkill", "killall", "xkill":
		return true
	// version control (git has rules of its own)
	case "git", "git-lfs", "hg", "jj", "sl", "fossil", "svn", "tig", "lazygit", "gitui", "delta":
		return true
	}
	return false
}

// remoteCopyProgram reports whether a program copies files between hosts
// or containers (judged by the model's remote part, not by its verbs).
func remoteCopyProgram(name string) bool {
	switch name {
	case "scp", "rsync", "sftp", "ssh", "rclone", "lftp", "unison", "robocopy":
		return true
	}
	return false
}
