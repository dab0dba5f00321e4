#!/usr/bin/env bash
# Makes a local stand-in for node:22-bookworm-slim where no image registry is reachable (the recipe in
# the team's container notes): a Debian bookworm minbase from debootstrap, Node 22 and npm from the
# npm registry's tarballs, a `node` user (uid 1000). Prints the image name to pass as BASE.
# Needs root, podman, debootstrap; CONTAINERS_CONF / CONTAINERS_STORAGE_CONF as in docs/deploy.md.
set -euo pipefail
cd "$(dirname "$0")/.."

image="${MEMDOCTOR_BASE_IMAGE:-localhost/memdoctor-base:node22-bookworm}"
if podman image exists "$image"; then echo "$image"; exit 0; fi

mirror="$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')"
mirror="${mirror:-http://deb.debian.org/debian}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >&2
node="$(.ci/node22.sh)"
cp "$node" "$work/rootfs/usr/local/bin/node"
(cd "$work" && npm pack --silent npm@10 >/dev/null && mkdir -p rootfs/usr/local/lib/node_modules/npm \
  && tar -xzf npm-10*.tgz -C rootfs/usr/local/lib/node_modules/npm --strip-components=1)
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
chroot "$work/rootfs" /usr/sbin/groupadd --gid 1000 node
chroot "$work/rootfs" /usr/sbin/useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# This machine's CA bundle, so npm inside a build trusts what the host trusts (a TLS proxy's CA here);
# a site's own base image would carry its CA the same way.
mkdir -p "$work/rootfs/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/ca-certificates.crt"
tar -C "$work/rootfs" -c . |
  podman import --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$image" >&2
echo "$image"
