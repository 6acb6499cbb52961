#!/bin/bash
# One task of a Slurm job array runs one shard of an explorer search: task K
# of an array of N (--array=0-(N-1)) searches shard K/N and writes
# RESULTS/shard-K.json for `leasescope-cli explore-merge`. A shard exits 0
# whether or not it met a failure, so a task fails only on a real error.
# tests/slurm/run_sharded.sh submits it; docs/explorer.md shows it to users.
#
#   sbatch --array=0-2 explore_array.sh CLI RESULTS SCENARIO [explore options...]
#SBATCH --job-name=leasescope-explore
#SBATCH --cpus-per-task=1
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: sbatch --array=0-(N-1) $0 CLI RESULTS SCENARIO [explore options...]" >&2
  exit 2
fi
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ] || [ -z "${SLURM_ARRAY_TASK_COUNT:-}" ]; then
  echo "$0: not a task of a job array (submit it with sbatch --array=0-(N-1))" >&2
  exit 2
fi
cli=$1 results=$2
shift 2
exec "$cli" explore "$@" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" --out "$results/shard-$SLURM_ARRAY_TASK_ID.json"
