#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, for the real-cluster test (tests/test_reproducibility.py).
#
#   .ci/slurm-cluster.sh start DIR   install slurm-wlm and munge (Debian packages) if missing, write
#                                    DIR/slurm.conf and start munged, slurmctld and slurmd; prints the
#                                    line `export SLURM_CONF=DIR/slurm.conf` for the clients
#   .ci/slurm-cluster.sh stop DIR    stop the three daemons by the PIDs recorded in DIR
#
# Needs root on a Debian-like system. The cluster is the one the issue measured: Debian's slurm-wlm,
# munge, one node with every CPU of the machine, partition `debug`, no accounting database (sacct
# cannot answer), daemons started by hand. Everything it writes stays in DIR (configs, state, logs)
# except munged's folder /tmp/sparseact-munge.* (removed by stop) and one link,
# /etc/slurm/slurm.conf -> DIR/slurm.conf, because the job steps inside a batch job (the plugin's
# `srun`) do not see SLURM_CONF and read the default path; start refuses to run where that file
# already exists and is not such a link. The ports are
# SPARSEACT_SLURMCTLD_PORT and SPARSEACT_SLURMD_PORT (default 6817 and 6818).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

stop_cluster() {
    local name pid
    for name in slurmd slurmctld munged; do
        [ -f "$dir/$name.pid" ] || continue
        pid=$(cat "$dir/$name.pid")
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid"
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        fi
        rm -f "$dir/$name.pid"
    done
    if [ -L /etc/slurm/slurm.conf ] && [ "$(readlink /etc/slurm/slurm.conf)" = "$dir/slurm.conf" ]; then
        rm -f /etc/slurm/slurm.conf
    fi
    if [ -f "$dir/munge.path" ]; then
        rm -rf "$(cat "$dir/munge.path")"
        rm -f "$dir/munge.path"
    fi
}

start_cluster() {
    [ "$(id -u)" = 0 ] || { echo "$0: needs root (it installs packages and starts daemons)" >&2; exit 1; }
    if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        command -v apt-get >/dev/null || { echo "$0: slurm-wlm and munge are missing and there is no apt-get" >&2; exit 1; }
        apt-get update >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null
    fi
    mkdir -p "$dir/state" "$dir/spool"
    dir=$(cd "$dir" && pwd)
    if [ -e /etc/slurm/slurm.conf ] && [ ! -L /etc/slurm/slurm.conf ]; then
        echo "$0: /etc/slurm/slurm.conf exists: this machine has its own SLURM; not starting a test cluster" >&2
        exit 1
    fi
    # one test cluster per machine: they would share the link above and the ports
    local other
    if [ -L /etc/slurm/slurm.conf ]; then
        other=$(dirname "$(readlink /etc/slurm/slurm.conf)")
        if [ "$other" != "$dir" ] && [ -f "$other/slurmctld.pid" ] && kill -0 "$(cat "$other/slurmctld.pid")" 2>/dev/null; then
            echo "$0: another test cluster is running ($other); stop it first (one per machine)" >&2
            exit 1
        fi
    fi
    # munged runs as the munge user: its socket, log and seed go to a folder of its own under /tmp
    # (DIR's parents may be closed to other users, as pytest's temporary folders are)
    local munge
    munge=$(mktemp -d /tmp/sparseact-munge.XXXXXX)
    echo "$munge" >"$dir/munge.path"
    chown munge:munge "$munge"
    chmod 755 "$munge"
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    local host node
    host=$(hostname -s)
    # the node as slurmd sees it: every CPU (sockets, cores, threads) and the memory
    node=$(slurmd -C | head -n 1)
    cat >"$dir/slurm.conf" <<EOF
ClusterName=sparseact
SlurmctldHost=$host
SlurmctldPort=${SPARSEACT_SLURMCTLD_PORT:-6817}
SlurmdPort=${SPARSEACT_SLURMD_PORT:-6818}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
$node State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    runuser -u munge -- munged --socket="$munge/munge.socket" --pid-file="$munge/munged.pid" \
        --log-file="$munge/munged.log" --seed-file="$munge/munged.seed" --key-file=/etc/munge/munge.key
    cp "$munge/munged.pid" "$dir/munged.pid"
    mkdir -p /etc/slurm
    ln -sfn "$dir/slurm.conf" /etc/slurm/slurm.conf
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF"
    for _ in $(seq 60); do
        if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then
            echo "export SLURM_CONF=$SLURM_CONF"
            return 0
        fi
        sleep 1
    done
    echo "$0: the node did not become idle in 60 s; sinfo says: $(sinfo -h -o '%T %E' 2>&1)" >&2
    tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    stop_cluster
    exit 1
}

case $action in
    start) start_cluster ;;
    stop) stop_cluster ;;
    *) usage ;;
esac
