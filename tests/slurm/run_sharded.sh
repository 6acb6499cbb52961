#!/usr/bin/env bash
# The sharded explorer on a real batch engine: starts a private single-node
# Slurm on this machine (munged, slurmctld, slurmd from Debian's munge and
# slurm-wlm), submits two searches as job arrays of N shards
# (tests/slurm/explore_array.sh), merges each with `explore-merge` and checks
# that the merge prints, writes and exits exactly as the same search in one
# process: one search that finds a counterexample (exit 1), one that finds
# none (exit 0). Everything lives in a private folder under build/; a trap
# stops the daemons this script started, and only those, on every exit.
# Run by tools/full.sh (stage "slurm"), so by `./test.sh --full`.
#
#   tests/slurm/run_sharded.sh <path-to-leasescope-cli>
#
# Environment: SLURM_SHARDS (3) shards per search, SLURM_UP_SECONDS (60) for
# each daemon to come up, SLURM_JOB_SECONDS (600) for each array job.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 <path-to-leasescope-cli>" >&2
  exit 2
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
cli=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$cli" ] || { echo "slurm: $cli is not an executable" >&2; exit 2; }
shards=${SLURM_SHARDS:-3}
up_seconds=${SLURM_UP_SECONDS:-60}
job_seconds=${SLURM_JOB_SECONDS:-600}

missing=()
for tool in munged mungekey munge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm: missing ${missing[*]}; install Debian's slurm-wlm and munge" \
    "(source tools/deps.sh; leasescope_install_deps \"\${leasescope_full_packages[@]}\")" >&2
  exit 2
fi

mkdir -p "$src/build"
dir=$(mktemp -d "$src/build/slurm.XXXXXX")
# munged refuses a socket in a folder that not everyone may enter (execute
# only: nobody else can list or write it).
chmod 711 "$dir"
# Unix socket paths are at most 107 bytes; slurmd puts one per job step in
# its spool folder, named after the node and the job.
if [ ${#dir} -gt 60 ]; then
  echo "slurm: $dir is too long a path for the daemons' sockets (at most 60 characters)" >&2
  rm -rf "$dir"
  exit 2
fi

started_pids=()   # the daemons, in the order they were started
started_names=()
sbatch_pid=       # the sbatch --wait under way, if any
ctld_pid=         # slurmctld, once started
ok=0
cleanup() {
  local code=$?
  # A daemon's process is a copy of this shell until it execs, and a signal
  # in that moment would run the copy's traps: only this shell cleans up.
  [ "$BASHPID" = "$$" ] || exit "$code"
  set +e
  if [ -n "$sbatch_pid" ]; then kill -TERM "$sbatch_pid" 2>/dev/null; wait "$sbatch_pid" 2>/dev/null; fi
  # Jobs first, while slurmctld still answers: a job left running would keep
  # its slurmstepd and shard alive after slurmd stops. Every job of this
  # private cluster is one of ours.
  if [ -n "$ctld_pid" ]; then
    scancel --quiet --user "$(id -un)" 2>/dev/null
    for _ in $(seq 1 30); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  # Then the daemons, the last started first.
  local i pid
  for ((i = ${#started_pids[@]} - 1; i >= 0; i--)); do
    pid=${started_pids[$i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "slurm: ${started_names[$i]} (pid $pid) did not stop in 10 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
  done
  if [ "$ok" = 1 ]; then
    rm -rf "$dir"
  else
    echo "slurm: kept $dir (configuration, logs, results)" >&2
  fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "slurm: FAILED: $*" >&2
  exit 1
}

# Prints a daemon's log files, then fails.
daemon_failed() {  # daemon_failed WHAT LOG...
  local what=$1
  shift
  echo "slurm: FAILED: $what" >&2
  local log
  for log in "$@"; do
    [ -f "$log" ] || continue
    echo "---- $log (last 40 lines)" >&2
    tail -n 40 "$log" | sed 's/^/  | /' >&2
  done
  exit 1
}

# Waits up to up_seconds for CHECK to succeed while the daemon PID lives.
wait_up() {  # wait_up WHAT PID CHECK LOG...
  local what=$1 pid=$2 check=$3
  shift 3
  local deadline=$((SECONDS + up_seconds))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "$pid" 2>/dev/null || daemon_failed "$what exited while starting" "$@"
    if $check; then
      echo "slurm: $what is up" >&2
      return 0
    fi
    sleep 0.5
  done
  daemon_failed "$what did not come up within $up_seconds s" "$@"
}

start() {  # start NAME LOG COMMAND...: a daemon in the foreground, in the background
  local name=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1 &
  started_pids+=($!)
  started_names+=("$name")
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ---- munge: a key of our own and a munged on a socket in our folder ----
mungekey --create --keyfile "$dir/munge.key" >"$dir/mungekey.log" 2>&1 ||
  daemon_failed "mungekey could not create $dir/munge.key" "$dir/mungekey.log"
socket=$dir/munge.socket
start munged "$dir/munged.out" munged --foreground --key-file "$dir/munge.key" --socket "$socket" \
  --pid-file "$dir/munged.pid" --log-file "$dir/munged.log" --seed-file "$dir/munged.seed"
munge_works() { munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1; }
wait_up munged "${started_pids[-1]}" munge_works "$dir/munged.out" "$dir/munged.log"

# ---- slurm.conf ----
# One node, this machine, with the CPUs and memory slurmd itself detects
# (`slurmd -C`), so the controller never drains it for a mismatch. The node
# has a name of our own (slurmd -N) and is reached on 127.0.0.1.
node=leasescope
hardware=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
[ -n "$hardware" ] || fail "slurmd -C printed no node description"
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
user=$(id -un)
mkdir -p "$dir/state" "$dir/spool" "$dir/search"
export SLURM_CONF=$dir/slurm.conf
cat >"$SLURM_CONF" <<EOF
# Written by tests/slurm/run_sharded.sh: a private single-node cluster.
ClusterName=leasescope
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# The daemons run as whoever runs the test (root in CI), and so do the jobs.
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Containers may have neither systemd nor a writable cgroup tree: track a
# job's processes through /proc (proctrack/linuxproc), bind no task to CPUs
# (task/none) and gather no accounting (jobacct_gather/none), the plugins
# that need neither; proctrack/cgroup and task/cgroup would need both.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# Cores are the resource: array tasks share the node one core each
# (with memory as a resource too, each would ask for all of it).
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 $hardware State=UNKNOWN
PartitionName=explore Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# ---- slurmctld and slurmd, in the foreground of their own processes ----
start slurmctld "$dir/slurmctld.out" slurmctld -D -f "$SLURM_CONF"
ctld_pid=${started_pids[-1]}
ctld_up() { scontrol ping 2>/dev/null | grep -q 'is UP'; }
wait_up slurmctld "$ctld_pid" ctld_up "$dir/slurmctld.out" "$dir/slurmctld.log"
start slurmd "$dir/slurmd.out" slurmd -D -N "$node" -f "$SLURM_CONF"
node_idle() { [ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
wait_up "slurmd (node $node idle)" "${started_pids[-1]}" node_idle \
  "$dir/slurmd.out" "$dir/slurmd.log" "$dir/slurmctld.log"

# ---- the searches ----
# The report without the bench line, whose timings differ between runs.
report() { grep -v '^bench: ' "$1"; }

# Runs one search as a job array of N shards, merges it, runs it whole, and
# compares exit code, printed report and counterexample file.
search() {  # search LABEL EXPECTED-EXIT SCENARIO [explore options...]
  local label=$1 expected=$2
  shift 2
  local work=$dir/search/$label
  mkdir -p "$work/shards" "$work/merged" "$work/whole"
  echo "slurm: $label: submitting $shards shards" >&2
  local rc=0
  # In the background, so that a signal to this script is handled at once
  # (bash runs a trap only after the foreground command ends).
  timeout "$job_seconds" sbatch --wait --quiet --array="0-$((shards - 1))" --chdir="$work/shards" \
    --output="$work/shards/shard-%a.out" "$src/tests/slurm/explore_array.sh" \
    "$cli" "$work/shards" "$@" >"$work/sbatch.out" 2>&1 &
  sbatch_pid=$!
  wait "$sbatch_pid" || rc=$?
  sbatch_pid=
  if [ $rc -ne 0 ]; then
    local what="sbatch exited $rc"
    [ $rc -eq 124 ] && what="the array job did not finish within $job_seconds s"
    daemon_failed "$label: $what" "$work/sbatch.out" "$work"/shards/shard-*.out "$dir/slurmd.log" "$dir/slurmctld.log"
  fi
  local files=() k
  for ((k = 0; k < shards; k++)); do
    [ -s "$work/shards/shard-$k.json" ] || daemon_failed "$label: shard $k wrote no result" "$work/shards/shard-$k.out"
    files+=("$work/shards/shard-$k.json")
  done

  local merged_rc=0 whole_rc=0
  (cd "$work/merged" && "$cli" explore-merge "${files[@]}" --out counterexample.json >stdout 2>stderr) || merged_rc=$?
  (cd "$work/whole" && "$cli" explore "$@" --jobs 1 --out counterexample.json >stdout 2>stderr) || whole_rc=$?
  [ $whole_rc -eq "$expected" ] ||
    fail "$label: the whole search exits $whole_rc, expected $expected: $(cat "$work/whole/stderr")"
  [ $merged_rc -eq $whole_rc ] ||
    fail "$label: explore-merge exits $merged_rc, the whole search $whole_rc: $(cat "$work/merged/stderr")"
  local out
  for out in whole merged; do
    [ "$(grep -c '^bench: ' "$work/$out/stdout")" -eq 1 ] || fail "$label: $out prints no single bench line"
    grep -q '^proved: ' "$work/$out/stdout" || fail "$label: $out prints no proved line"
  done
  if ! diff <(report "$work/whole/stdout") <(report "$work/merged/stdout") >"$work/report.diff"; then
    echo "slurm: $label: the merged report differs from the whole search's (< whole, > merged):" >&2
    cat "$work/report.diff" >&2
    fail "$label: merged report differs"
  fi
  if [ "$expected" -eq 1 ]; then
    [ -f "$work/whole/counterexample.json" ] || fail "$label: the whole search wrote no counterexample"
    cmp "$work/whole/counterexample.json" "$work/merged/counterexample.json" >&2 ||
      fail "$label: the counterexample files differ ($work/whole, $work/merged)"
  else
    if [ -e "$work/whole/counterexample.json" ] || [ -e "$work/merged/counterexample.json" ]; then
      fail "$label: a counterexample file was written for a search that found none"
    fi
  fi
  echo "slurm: $label: $shards shards merged = one process (exit $whole_rc; $(grep '^proved: ' "$work/whole/stdout" | cut -c1-60)...)" >&2
}

S=$src/scenarios
# Found at level 2 after about 8.5 M schedules (0.8 s in one process).
search found 1 "$S/contention.json" --property unsafe_write --max-faults 3 --max-pause 8
# No counterexample among 36.5 M schedules of up to 3 faults (0.8 s): with
# the resource checking fencing, no write lands out of order.
search none 0 "$S/gc-pause-no-fencing.json" --set 'faults=[]' --set resource.mode=check \
  --property unsafe_write --max-faults 3 --max-pause 3

ok=1
echo "slurm: both searches: the merged shards of the job arrays equal the whole search" >&2
