#!/usr/bin/env bash
# Figure 3's full sweep (scenarios 1-8, every model, 10 reps) as a SLURM
# job array: task k runs shard k%SHARDS+1 of scenario k/SHARDS+1, on the
# cores SLURM gives it, into a folder every node sees. Submit, then merge
# once every task is done:
#
#   job=$(sbatch --parsable deploy/slurm-sweep.sh)
#   sbatch --dependency=afterok:$job --wrap "bin/pdn merge -out figure3 shards"
#
# The array's size is 8 × SHARDS (here 8 × 4 = 32, tasks 0-31); change
# both lines together. PDN_ARGS adds flags to every task (-reps 20, say).
#SBATCH --job-name=pdn-sweep
#SBATCH --array=0-31
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=01:00:00
set -euo pipefail
SHARDS=${SHARDS:-4}
PDN=${PDN:-bin/pdn}
OUT=${OUT:-shards}
k=${SLURM_ARRAY_TASK_ID:?run this as a SLURM array task (sbatch), or set SLURM_ARRAY_TASK_ID}
# shellcheck disable=SC2086 # PDN_ARGS is a list of flags
exec "$PDN" sweep -scenario $((k / SHARDS + 1)) -shard $((k % SHARDS + 1))/"$SHARDS" \
  -workers "${SLURM_CPUS_PER_TASK:-2}" -out "$OUT" ${PDN_ARGS:-}
