#!/usr/bin/env bash
# Build, once, the stand-in for AWS's python3.13 Lambda base image that `sam local` runs functions in.
#
# No container registry is reachable, so public.ecr.aws/lambda/python:3.13 cannot be pulled. Instead:
# a Debian trixie minbase root filesystem (Debian's python3 is 3.13, the runtime's minor version), the
# AWS Lambda runtime interface client (awslambdaric, cp313 wheel from PyPI) under /var/runtime, and a
# /var/runtime/bootstrap that starts it; `docker import` turns it into an image. SAM adds its runtime
# interface emulator on top. The tag carries a hash of this script and the pins below, so a change
# rebuilds it; the root filesystem tarball is cached under build/sam-local/ for a fresh engine.
#
# Prints the image tag on stdout. Needs root (debootstrap) and a running engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
AWSLAMBDARIC=awslambdaric==4.2.2
PIP=${PIP:-.venv/bin/pip}
HASH=$(cat "$0" | sha256sum | cut -c1-12)
TAG="mcp-platform/lambda-python3.13:local-$HASH"
CACHE=build/sam-local
TARBALL="$CACHE/rootfs-$HASH.tar.gz"

if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "$TAG"
  exit 0
fi
mkdir -p "$CACHE"
if [ ! -s "$TARBALL" ]; then
  if ! command -v debootstrap >/dev/null; then
    apt-get update -q >&2 && apt-get install -y -q --no-install-recommends debootstrap >&2
  fi
  ROOTFS=$(mktemp -d)
  trap 'rm -rf "$ROOTFS"' EXIT
  debootstrap --variant=minbase --include=python3 trixie "$ROOTFS" http://deb.debian.org/debian >&2
  # The runtime's minor version, or no image: a trixie point release must not slip in another Python.
  chroot "$ROOTFS" python3 -c 'import sys; assert sys.version_info[:2] == (3, 13), sys.version'
  "$PIP" install -q --no-compile --target "$ROOTFS/var/runtime" --only-binary=:all: \
    --python-version 3.13 --implementation cp --platform manylinux2014_x86_64 "$AWSLAMBDARIC" >&2
  # Lambda's search order: the function, its layers, then the runtime.
  cat >"$ROOTFS/var/runtime/bootstrap" <<'BOOT'
#!/bin/sh
export PYTHONPATH="/var/task:/opt/python/lib/python3.13/site-packages:/opt/python:/var/runtime"
exec /usr/bin/python3 -m awslambdaric "$_HANDLER"
BOOT
  chmod 755 "$ROOTFS/var/runtime/bootstrap"
  mkdir -p "$ROOTFS/var/task" "$ROOTFS/opt"
  rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/*
  tar -C "$ROOTFS" -czf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
fi
docker import \
  --change 'ENV LANG=C.UTF-8 LAMBDA_TASK_ROOT=/var/task LAMBDA_RUNTIME_DIR=/var/runtime' \
  --change 'WORKDIR /var/task' \
  --change 'ENTRYPOINT ["/var/runtime/bootstrap"]' \
  "$TARBALL" "$TAG" >&2
# Earlier builds of this script are dead weight (an image SAM still builds on stays until it is pruned).
find "$CACHE" -name 'rootfs-*.tar.gz' ! -name "rootfs-$HASH.tar.gz" -delete
docker images --format '{{.Repository}}:{{.Tag}}' "${TAG%%:*}" | grep -vxF "$TAG" | xargs -r docker rmi >/dev/null 2>&1 || true
echo "$TAG"
