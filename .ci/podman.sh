# Sourced by .ci/run: Podman for the image test (test/architecture/container.test.ts), set up as the
# team's container notes found it works on these machines: rootful, runc (crun fails on hybrid
# cgroups), explicit ulimits (the host's cannot be copied). Storage lives under one fixed folder, kept
# between runs so the base image is made once; everything else is pruned each run.

MEMDOCTOR_CONTAINERS="${MEMDOCTOR_CONTAINERS:-${HOME}/.cache/memdoctor/containers}"
export CONTAINERS_CONF="${MEMDOCTOR_CONTAINERS}/containers.conf"
export CONTAINERS_STORAGE_CONF="${MEMDOCTOR_CONTAINERS}/storage.conf"
# The base is named after the script that makes it, so a changed recipe makes a new one.
MEMDOCTOR_BASE_IMAGE="localhost/memdoctor-base:node22-$(sha256sum .ci/container-base.sh | cut -c1-12)"
export MEMDOCTOR_BASE_IMAGE
IMAGE_TEST_TAG=localhost/memdoctor:container-test
# What image_prepare returns when the image test cannot run here (its reason is printed).
IMAGE_SKIPPED=3

podman_install() {
  local missing=()
  for tool in podman debootstrap runc; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null || [ "$(id -u)" -ne 0 ]; then
    echo "image test skipped: ${missing[*]} missing, and no apt-get as root to install them"
    return 1
  fi
  echo "installing podman buildah debootstrap runc with apt-get (${missing[*]} missing)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    podman buildah debootstrap runc; } >"${MEMDOCTOR_CONTAINERS}/apt.log" 2>&1; then
    tail -5 "${MEMDOCTOR_CONTAINERS}/apt.log"
    echo "image test skipped: apt-get could not install Podman (log: ${MEMDOCTOR_CONTAINERS}/apt.log)"
    return 1
  fi
}

# Native overlay where the kernel and the folder's filesystem allow it (ext4 here: a build took 4 min
# on a loaded machine, and the storage keeps 344 MB between runs); vfs otherwise, which copies every
# layer in full (11 min and about 17 GB written for the same build). Each driver keeps its own folder:
# podman refuses to switch the driver of a storage that has images.
podman_configure() {
  cat >"$CONTAINERS_CONF" <<CONF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
  local driver
  for driver in overlay vfs; do
    cat >"$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "${driver}"
runroot = "${MEMDOCTOR_CONTAINERS}/${driver}/run"
graphroot = "${MEMDOCTOR_CONTAINERS}/${driver}/storage"
CONF
    if podman info >/dev/null 2>&1; then
      echo "podman storage: ${driver} under ${MEMDOCTOR_CONTAINERS}/${driver}"
      return 0
    fi
  done
  echo "podman info fails with both overlay and vfs storage:"
  podman info 2>&1 | tail -3
  return 1
}

# Every container, the test image, the layers it left, and bases made by an older recipe.
image_prune() {
  podman rm -af >/dev/null 2>&1 || true
  podman rmi -f "$IMAGE_TEST_TAG" >/dev/null 2>&1 || true
  podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/memdoctor-base:' |
    grep -vx "$MEMDOCTOR_BASE_IMAGE" | xargs -r podman rmi -f >/dev/null 2>&1 || true
  podman image prune -f >/dev/null 2>&1 || true
}

# The same build the image test starts with (its arguments must match for the layers to be reused),
# run beside the suite so the test finds every layer built.
image_build() {
  local secret=()
  [ -f "${HOME}/.npmrc" ] && secret=(--secret "id=npmrc,src=${HOME}/.npmrc")
  podman build --pull=never --network host --build-arg "BASE=${MEMDOCTOR_BASE_IMAGE}" "${secret[@]}" \
    -t "$IMAGE_TEST_TAG" .
}

# Podman installed and configured, the base made (or found), the test image built: 0, or
# IMAGE_SKIPPED with the reason printed, or another status when a step failed.
image_prepare() {
  mkdir -p "$MEMDOCTOR_CONTAINERS"
  podman_install || return "$IMAGE_SKIPPED"
  podman_configure || return
  image_prune
  local started=$SECONDS
  .ci/container-base.sh >/dev/null || return
  echo "base image ${MEMDOCTOR_BASE_IMAGE} ready after $((SECONDS - started)) s"
  started=$SECONDS
  image_build || return
  echo "image built in $((SECONDS - started)) s"
}
