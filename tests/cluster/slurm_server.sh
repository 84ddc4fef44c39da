#!/bin/bash
# The one-node Slurm cluster of the tests labelled `slurm` (a CTest fixture):
#   slurm_server.sh start DIR   munged, slurmctld and slurmd with a slurm.conf generated in DIR
#   slurm_server.sh stop DIR    stops the daemons it started (their pid files in DIR), removes DIR
# The tests reach it with SLURM_CONF=DIR/slurm.conf. Its ports and munge socket are DIR's own,
# so it stays apart from any other Slurm on the machine. The daemons run as root (SlurmUser=root)
# and munged as Debian's `munge` user. Without the binaries (Debian's slurm-wlm and munge),
# `start` exits 77 (skipped) and says why.
set -u
action=${1:?start or stop}
dir=${2:?directory}

stop_all() {
  local pids=()
  for p in slurmd slurmctld munged; do
    [ -f "$dir/$p.pid" ] || continue
    local pid
    pid=$(cat "$dir/$p.pid")
    kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
}

case "$action" in
  start)
    for b in slurmctld slurmd munged sbatch squeue sinfo; do
      if ! command -v "$b" >/dev/null && [ ! -x "/usr/sbin/$b" ]; then
        echo "SKIP: no $b; install Debian's slurm-wlm and munge (scripts/install-deps.sh) to run" \
          "the Slurm tests"
        exit 77
      fi
    done
    if [ "$(id -u)" != 0 ]; then
      echo "SKIP: the Slurm tests start slurmd, which needs root"
      exit 77
    fi
    if ! id munge >/dev/null 2>&1; then
      echo "SKIP: no 'munge' user to run munged as"
      exit 77
    fi
    stop_all  # what a killed earlier run left behind
    rm -rf "$dir"
    mkdir -p "$dir"/{state,spool,log,munge} || exit 1
    host=$(hostname -s)
    # Ports of this directory's own, so that two build trees get two clusters.
    sum=$(printf '%s' "$dir" | cksum | cut -d' ' -f1)
    ctld_port=$((20000 + sum % 20000 * 2))
    slurmd_port=$((ctld_port + 1))
    dd if=/dev/urandom bs=1 count=1024 of="$dir/munge/munge.key" 2>/dev/null
    chown -R munge: "$dir/munge"
    chmod 700 "$dir/munge"
    chmod 400 "$dir/munge/munge.key"
    chmod 755 "$dir"
    runuser -u munge -- /usr/sbin/munged --key-file="$dir/munge/munge.key" \
      --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
      --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force \
      || { cat "$dir/munge/munged.log"; exit 1; }
    for _ in $(seq 50); do [ -s "$dir/munge/munged.pid" ] && break; sleep 0.1; done
    cp "$dir/munge/munged.pid" "$dir/munged.pid"
    cat >"$dir/slurm.conf" <<CONF
ClusterName=benchguardtest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF" || { cat "$dir/log/slurmctld.log"; exit 1; }
    slurmd -f "$SLURM_CONF" || { cat "$dir/log/slurmd.log"; exit 1; }
    for _ in $(seq 300); do
      state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
      case "$state" in idle*|mix*|alloc*) break ;; esac
      sleep 0.1
    done
    case "$state" in
      idle*|mix*|alloc*) ;;
      *)
        echo "the Slurm node did not come up (state '$state'):"
        tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log"
        stop_all
        exit 1
        ;;
    esac
    echo "Slurm $(sinfo -V | awk '{print $2}') up: SLURM_CONF=$dir/slurm.conf (node $host, $state)"
    ;;
  stop)
    stop_all
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
