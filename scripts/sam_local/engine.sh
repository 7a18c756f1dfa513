#!/usr/bin/env bash
# Start a Docker engine for `sam local` if none answers, and keep everything it runs on this machine.
#
# Containers use Docker's default bridge (SAM needs it: with --docker-network host it cannot reach the
# container), but no traffic may leave the machine: no NAT (--ip-masq=false) and every packet forwarded
# out of the bridge to another interface is dropped. Needs root; installs docker.io from Debian if missing.
set -euo pipefail
LOG=${DOCKERD_LOG:-/var/log/mcp-dockerd.log}

if ! command -v dockerd >/dev/null; then
  apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends docker.io iptables >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
  nohup dockerd --ip-masq=false --host unix:///var/run/docker.sock >"$LOG" 2>&1 &
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    echo "sam-local: the Docker engine did not start; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
  fi
fi
# Checked every time: an engine started elsewhere must not forward out of the bridge either.
iptables -C FORWARD -i docker0 ! -o docker0 -j DROP 2>/dev/null || iptables -I FORWARD -i docker0 ! -o docker0 -j DROP
