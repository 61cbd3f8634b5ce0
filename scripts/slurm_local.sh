#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, for testing hydra/launcher=slurm for real.
#   bash scripts/slurm_local.sh up       install (apt, as root) and start munge + slurmctld + slurmd; idempotent
#   bash scripts/slurm_local.sh down     stop the daemons (the packages and config stay)
#   bash scripts/slurm_local.sh status   exit 0 if sbatch answers
# Debian's slurm-wlm 22.05 without systemd: no cgroup plugin (there is no "disabled" in 22.05, so no
# cgroup.conf at all), proctrack/linuxproc, task/none, accounting off, one partition "short". A requeued job may
# start again 10 s after its requeue (cred_expire; SLURM's default, 120 s, was most of the requeue tests' time).
# It writes /etc/slurm/slurm.conf only if there is none or it is this script's own.
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# ga_pig one-node test cluster (scripts/slurm_local.sh)"
HOST=$(hostname -s)
STATE=/var/spool/ga_pig_slurm
LOGS=/var/log/ga_pig_slurm

answers() { timeout 10 sinfo -h -o %T >/dev/null 2>&1; }

install() {
    if command -v sbatch >/dev/null && command -v slurmctld >/dev/null && command -v munged >/dev/null; then
        return
    fi
    [ "$(id -u)" = 0 ] || { echo "slurm_local: slurm-wlm and munge are missing; run as root to install them" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
}

configure() {
    if [ -f "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
        echo "slurm_local: $CONF belongs to another cluster; not touching it" >&2
        exit 1
    fi
    mkdir -p "$STATE/ctld" "$STATE/d" "$LOGS" /etc/slurm /run/munge
    chown -R slurm:slurm "$STATE" "$LOGS"
    local cpus memory
    cpus=$(nproc)
    memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
    cat > "$CONF.tmp" <<CONFEOF
$MARK
ClusterName=ga_pig
SlurmctldHost=$HOST
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
AuthInfo=cred_expire=10
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=10
Waittime=0
NodeName=$HOST CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=short Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONFEOF
    mv "$CONF.tmp" "$CONF"
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key /run/munge
    chmod 0400 /etc/munge/munge.key
}

up() {
    install
    configure
    if ! pgrep -x munged >/dev/null; then
        runuser -u munge -- /usr/sbin/munged
    fi
    pgrep -x slurmctld >/dev/null || /usr/sbin/slurmctld
    pgrep -x slurmd >/dev/null || /usr/sbin/slurmd
    for _ in $(seq 60); do
        if answers && [ "$(sinfo -h -o %T -n "$HOST" | head -1)" = idle ]; then
            echo "slurm_local: up ($HOST, partition short, $(nproc) CPUs)"
            return
        fi
        scontrol update nodename="$HOST" state=resume >/dev/null 2>&1 || true
        sleep 1
    done
    echo "slurm_local: the cluster did not come up; see $LOGS" >&2
    sinfo >&2 || true
    exit 1
}

down() {
    pkill -x slurmd 2>/dev/null || true
    pkill -x slurmctld 2>/dev/null || true
    pkill -x munged 2>/dev/null || true
    echo "slurm_local: down"
}

case "${1:-up}" in
    up) up ;;
    down) down ;;
    status) answers ;;
    *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
