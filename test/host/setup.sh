#!/usr/bin/env bash
# Installs the host-test harness: code-server 4.100.3 (VS Code 1.100.3's own server with the real
# Node extension host) and playwright-core, from the npm registry and Debian's packages only.
# Idempotent: returns in well under a second when everything is already in place.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE"

# 1. Debian packages: node-gyp toolchain, krb5 headers (kerberos addon), ripgrep, headless chromium.
PKGS=(build-essential python3 pkg-config libkrb5-dev ripgrep chromium)
if ! dpkg -s "${PKGS[@]}" >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PKGS[@]}" >/dev/null
fi

# Fast path: the lockfile's install is already there and its native addons were built.
CS=node_modules/code-server/lib/vscode/node_modules
STAMP=node_modules/.magi-harness-ok
if [ -f "$STAMP" ] && [ "$STAMP" -nt package-lock.json ]; then
  exit 0
fi

# 2. @vscode/ripgrep's postinstall downloads rg from a host we cannot reach; it first looks in its
#    cache ($TMPDIR/vscode-ripgrep-cache-<version>/<asset>), so put Debian's rg there.
RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
RG_TAR="$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -f "$RG_TAR" ]; then
  mkdir -p "$RG_CACHE"
  tmp=$(mktemp -d); cp /usr/bin/rg "$tmp/rg"
  tar -C "$tmp" -czf "$RG_TAR" rg; rm -rf "$tmp"
fi

# 3. npm ci from this folder's own lockfile.
#    npm_config_yes: node-pty's install runs `npx node-gyp`, which the machine's npmrc would cancel;
#    npm_config_nodedir: node-gyp uses Debian's Node 20 headers instead of downloading them;
#    npm_config_unsafe_perm: code-server's postinstall refuses to run as root without it.
export npm_config_yes=true npm_config_nodedir=/usr npm_config_unsafe_perm=true
t0=$(date +%s)
mkdir -p .state
npm ci --no-audit --no-fund --foreground-scripts >.state/npm-ci.log 2>&1 || { tail -n 60 .state/npm-ci.log; exit 1; }

# 4. Sanity: native addons built against this Node, built-in TypeScript extension present.
for f in node-pty/build/Release/pty.node @vscode/spdlog/build/Release/spdlog.node kerberos/build/Release/kerberos.node \
         native-watchdog/build/Release/watchdog.node @vscode/ripgrep/bin/rg; do
  test -e "$CS/$f" || { echo "harness: missing $f after npm ci (see test/host/.state/npm-ci.log)"; exit 1; }
done
test -f node_modules/code-server/lib/vscode/extensions/typescript-language-features/package.json
touch "$STAMP"
echo "harness: code-server $(node -p 'require("./node_modules/code-server/package.json").version') installed in $(( $(date +%s) - t0 ))s"
