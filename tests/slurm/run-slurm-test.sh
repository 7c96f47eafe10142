#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CTest slurm_summarize: starts a real single-node Slurm cluster from Debian's packages (munge, slurmctld, slurmd,
# slurm-client) in a scratch folder, runs packaging/slurm/summarize.sbatch as a job array over generated rank exports,
# checks that `ranks` over the summaries prints byte for byte what it prints over the exports (and the generator's
# true waits), and stops every daemon it started, also on failure or interruption.
#   run-slurm-test.sh NSYS_WORKBENCH NSYS_TRACEGEN SUMMARIZE_SBATCH
# Skips (exit 77) when the Slurm or munge programs are missing, unless NSW_REQUIRE_SLURM=1 (then it fails).
# See ../shared/docs/slurm-single-node.md for why each setting is there.
set -euo pipefail

nsw=$(readlink -f "$1")
tracegen=$(readlink -f "$2")
script=$(readlink -f "$3")
ranks=${NSW_SLURM_RANKS:-6}

missing=""
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo python3; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
    if [ "${NSW_REQUIRE_SLURM:-0}" = 1 ]; then
        echo "FAIL: NSW_REQUIRE_SLURM=1 but missing:$missing (apt-get install slurmctld slurmd slurm-client munge)"
        exit 1
    fi
    echo "SKIP: missing:$missing (packaging/test.sh installs slurmctld slurmd slurm-client munge)"
    exit 77
fi

dir=$(mktemp -d /tmp/nsw-slurm.XXXXXX)
# Ports of our own, so that parallel runs on one host do not meet.
ctld_port=$((20000 + ($$ % 5000) * 2))
slurmd_port=$((ctld_port + 1))
host=$(hostname -s)
export SLURM_CONF=$dir/etc/slurm.conf
started=()

# A daemon counts as stopped once its process is gone or a zombie (PID 1 may reap late or never).
alive() {
    local state
    [ -r "/proc/$1/stat" ] || return 1
    state=$(sed 's/^[0-9]* (.*) //' "/proc/$1/stat" | cut -d' ' -f1)
    [ "$state" != Z ]
}

stop_all() {
    local status=$? pid i
    set +e
    if [ -f "$dir/run/slurmctld.pid" ]; then
        scancel --partition=debug >/dev/null 2>&1
        for ((i = 0; i < 50; i++)); do
            [ -z "$(squeue -h 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    for pidfile in "$dir/run/slurmd.pid" "$dir/run/slurmctld.pid" "$dir/munge/munged.pid"; do
        [ -f "$pidfile" ] && started+=("$(cat "$pidfile")")
    done
    for pid in "${started[@]}"; do
        kill -TERM "$pid" 2>/dev/null
    done
    for pid in "${started[@]}"; do
        for ((i = 0; i < 50 && $(alive "$pid" && echo 1 || echo 0); i++)); do
            sleep 0.1
        done
        if alive "$pid"; then
            echo "daemon $pid did not stop on TERM: KILL"
            kill -KILL "$pid" 2>/dev/null
        fi
    done
    if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
        echo "--- logs in $dir (kept) ---"
        tail -n 20 "$dir"/log/*.log "$dir"/logs/* 2>/dev/null
    else
        rm -rf "$dir"
    fi
    exit "$status"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

mkdir -p "$dir"/{etc,run,log,logs,spool/slurmctld,spool/slurmd,munge,exports,summaries}
chmod 755 "$dir/munge"

# munge with a private key and socket (nothing under /etc/munge or /run/munge is used).
mungekey -c -k "$dir/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$dir/munge/munge.key"
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force

cat >"$SLURM_CONF" <<EOF
ClusterName=nswtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
ReturnToService=2
StateSaveLocation=$dir/spool/slurmctld
SlurmdSpoolDir=$dir/spool/slurmd
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$host NodeAddr=127.0.0.1 CPUs=${SLURM_CI_CPUS:-8} RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -i -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$host"
for ((i = 0; ; i++)); do
    state=$(sinfo -h -o %t 2>/dev/null || true)
    case $state in idle | mix | alloc) break ;; esac
    if [ "$i" -ge 150 ]; then
        echo "FAIL: the node never became ready (sinfo: '$state')"
        exit 1
    fi
    sleep 0.2
done

"$tracegen" --ranks "$ranks" --out-dir "$dir/exports" --straggler 2 --clock-offset-us 800 --utc-error-us 20 --quiet
ls "$dir"/exports/*.sqlite >"$dir/list"
[ "$(wc -l <"$dir/list")" -eq "$ranks" ] || { echo "FAIL: the generator wrote $(wc -l <"$dir/list") exports"; exit 1; }

jid=$(sbatch --parsable --array=0-$((ranks - 1)) --chdir="$dir/logs" --export=ALL,NSYS_WORKBENCH="$nsw" \
    "$script" "$dir/list" "$dir/summaries")
jid=${jid%%;*}
for ((i = 0; ; i++)); do
    [ -z "$(squeue -h -j "$jid" 2>/dev/null)" ] && break
    if [ "$i" -ge 900 ]; then
        echo "FAIL: the array did not finish in 180 s"
        exit 1
    fi
    sleep 0.2
done
completed=$(scontrol -o show job "$jid" | grep -c 'JobState=COMPLETED .*ExitCode=0:0' || true)
if [ "$completed" -ne "$ranks" ]; then
    echo "FAIL: $completed of $ranks array tasks completed with exit code 0"
    scontrol -o show job "$jid" | grep -o 'JobId=[^ ]*\|JobState=[^ ]*\|ExitCode=[^ ]*'
    exit 1
fi
summaries=$(ls "$dir"/summaries/*.nswsum | wc -l)
[ "$summaries" -eq "$ranks" ] || { echo "FAIL: $summaries summaries for $ranks exports"; exit 1; }

for format in json md csv; do
    "$nsw" ranks "$dir/summaries" --format "$format" -o "$dir/merged.$format"
    # shellcheck disable=SC2046
    "$nsw" ranks $(cat "$dir/list") --format "$format" -o "$dir/direct.$format"
    cmp "$dir/merged.$format" "$dir/direct.$format" \
        || { echo "FAIL: ranks over the summaries differs from ranks over the exports ($format)"; exit 1; }
done

python3 - "$dir/merged.json" "$dir/exports/truth.json" <<'EOF'
import json, sys
ours, truth = (json.load(open(p)) for p in sys.argv[1:3])
for o, t in zip(ours["ranks"], truth["ranks"], strict=True):
    for key in ("rank", "file", "clock_offset_ns", "collectives", "last_arrivals", "wait_ns"):
        if o[key] != t[key]:
            sys.exit(f"FAIL: rank {t['rank']} {key}: ours {o[key]}, truth {t[key]}")
stragglers = {c["straggler"] for c in ours["collectives"]}
if stragglers != {truth["config"]["straggler"]}:
    sys.exit(f"FAIL: stragglers {stragglers}")
EOF
echo "PASS: $ranks array tasks on a single-node Slurm cluster; ranks over their summaries = ranks over the exports"
