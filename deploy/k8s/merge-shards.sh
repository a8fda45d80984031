#!/usr/bin/env bash
# Adds the shard reports of deploy/k8s/fleet-job.yaml up into the whole fleet's report.
#
#   deploy/k8s/merge-shards.sh SHARDS OUTPUT [JOB]     e.g. deploy/k8s/merge-shards.sh 8 fleet.json
#
# Each shard's report is the log of its succeeded pod (the Job runs `vplay fleet --json --quiet`, so the log is the
# JSON alone); they are saved under OUTPUT's folder as JOB-shard-K.json and merged by `vplay merge` (on PATH, or
# VPLAY=/path/to/vplay). A shard with no succeeded pod is named on stderr and left out, and `vplay merge` then
# refuses the incomplete set: exit 1 (its own rule; pass --allow-partial through MERGE_ARGS to accept it).
# KUBECTL overrides the kubectl command (a context or namespace: KUBECTL="kubectl -n ads").
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 SHARDS OUTPUT [JOB]" >&2
  exit 2
fi
shards=$1
output=$2
job=${3:-vplay-fleet}
kubectl=${KUBECTL:-kubectl}
vplay=${VPLAY:-vplay}
case "$shards" in ''|*[!0-9]*) echo "$0: SHARDS must be a number (got $shards)" >&2; exit 2 ;; esac

folder=$(dirname "$output")
reports=()
for ((index = 0; index < shards; index++)); do
  pod=$($kubectl get pods -l "job-name=$job,batch.kubernetes.io/job-completion-index=$index" \
        --field-selector=status.phase=Succeeded -o name | head -n 1)
  if [ -z "$pod" ]; then
    echo "$0: shard $index has no succeeded pod" >&2
    continue
  fi
  report="$folder/$job-shard-$index.json"
  $kubectl logs "$pod" > "$report"
  reports+=("$report")
done
if [ ${#reports[@]} -eq 0 ]; then
  echo "$0: no shard of $job succeeded" >&2
  exit 1
fi
# shellcheck disable=SC2086 # MERGE_ARGS is a list of options
exec $vplay merge "${reports[@]}" --report "$output" ${MERGE_ARGS:-}
