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
# both lines together: a task of an array of another size refuses to run,
# saying what to set (an array too small would leave scenarios out, and
# the merge would write a Figure 3 without them). PDN_ARGS adds flags to
# every task (-reps 20, say).
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
case $SHARDS in
'' | *[!0-9]* | 0) echo "slurm-sweep.sh: SHARDS=$SHARDS is not a whole number above 0; set SHARDS=4, say, with --array=0-31" >&2; exit 2 ;;
esac
want=$((8 * SHARDS))
count=${SLURM_ARRAY_TASK_COUNT:-}
if [ -z "$count" ] && [ -n "${SLURM_ARRAY_TASK_MAX:-}" ]; then
  count=$((SLURM_ARRAY_TASK_MAX - ${SLURM_ARRAY_TASK_MIN:-0} + 1))
fi
if [ "${count:-$want}" != "$want" ] || [ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ] || [ "$k" -ge "$want" ]; then
  echo "slurm-sweep.sh: the array has ${count:-?} tasks (${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?}), but SHARDS=$SHARDS needs 8 × $SHARDS = $want (8 scenarios × $SHARDS shards): submit with --array=0-$((want - 1)), or set SHARDS to the array's size / 8" >&2
  exit 2
fi
# shellcheck disable=SC2086 # PDN_ARGS is a list of flags
exec "$PDN" sweep -scenario $((k / SHARDS + 1)) -shard $((k % SHARDS + 1))/"$SHARDS" \
  -workers "${SLURM_CPUS_PER_TASK:-2}" -out "$OUT" ${PDN_ARGS:-}
