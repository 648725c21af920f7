#!/usr/bin/env bash
# Runs WORKERS copies of a command as one benchmark client: each copy gets --metrics-port BASE_PORT+i, a SIGTERM
# reaches every copy, and the script exits once all have, with the first non-zero status. wait4 on this script then
# reports the CPU time of all copies.
#
#   Benchmarks/harness/fleet.sh WORKERS BASE_PORT COMMAND [ARGUMENTS...]
set -u
workers="$1" base_port="$2"
shift 2
pids=()
for i in $(seq 1 "$workers"); do
  "$@" --metrics-port "$((base_port + i))" &
  pids+=("$!")
done
trap 'kill -TERM "${pids[@]}" 2>/dev/null' TERM INT
status=0
for pid in "${pids[@]}"; do
  while :; do
    wait "$pid"
    code=$?
    # Above 128 with the copy still there: the trap interrupted the wait, so wait again.
    if [ "$code" -le 128 ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
  done
  if [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then status="$code"; fi
done
exit "$status"
