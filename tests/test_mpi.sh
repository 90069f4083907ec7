#!/bin/sh
# test_mpi.sh: `collviz run --backend mpi`, one rank per MPI process, under
# a real launcher (Open MPI's mpirun, oversubscribed: 8 processes on 2 cores
# is what CI has).
#  - every op and algorithm at 1, 2, 3, 5 and 8 processes verifies against
#    the reference on rank 0, over counts that do not divide evenly (0, 1,
#    P-1, 7P+3, one per case in turn), and a sweep of dtypes and redops;
#  - it can fail: for a few cases the MPI run's JSON (steps, inputs,
#    results, wrong count) equals the CPU backend's value for value;
#  - bench --backend mpi checks its rows and times MPI's own call beside;
#  - a trace written by an MPI run replays in `export --trace` (the build
#    with the window) and agrees bit for bit with the CPU's replay;
#  - --ranks other than the process count, a bad flag on one process, a
#    different collective or subcommand on one process, an --nccl-log of
#    another rank count and a bad COLLVIZ_MPI_TIMEOUT are one line each,
#    exit 2 or 3;
#  - a process killed mid-run ends the others within 10 s (the launcher's
#    notice names it and ends the others with SIGTERM, on which a process
#    exits 3: checked by sending one SIGTERM), and a stopped one is
#    reported by the others' timeout (COLLVIZ_MPI_TIMEOUT) in one line
#    naming its rank, exit 3;
#  - processes on two hosts in blocks make a spec of two nodes.
# Skipped (77) where there is no mpirun or collviz was built without MPI;
# there, --backend mpi must say "mpi unavailable" and exit 3.
# SECTION runs one part only: ops-P (every op and algorithm at P processes,
# P one of 1 2 3 5 8), dtypes, cpu (value for value), trace, hosts, bench,
# mistakes, signals; tests/mpi.cmake makes each a ctest of its own, so they
# run side by side (most of their time is the launcher's start-up). Without
# it, or with "all", every part runs.
#
#   sh tests/test_mpi.sh COLLVIZ [MPIEXEC [SECTION]]
set -u
collviz=${1:?usage: test_mpi.sh COLLVIZ [MPIEXEC [SECTION]]}
mpiexec=${2:-$(command -v mpirun || true)}
section=${3:-all}
case $section in
all) procs="1 2 3 5 8" ;;
ops-1 | ops-2 | ops-3 | ops-5 | ops-8) procs=${section#ops-} ;;
dtypes | cpu | trace | hosts | bench | mistakes | signals) procs= ;;
*) echo "test_mpi.sh: unknown section '$section'" >&2; exit 2 ;;
esac
part() { [ "$section" = all ] || [ "$section" = "$1" ]; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # what, status
    if [ "$2" -ne 0 ]; then
        echo "FAIL: $1"
        fail=1
    else
        echo "ok: $1"
    fi
}

if ! "$collviz" list | grep -q '^backends:.* mpi'; then
    msg=$("$collviz" run --backend mpi --op allreduce 2>&1 >/dev/null)
    rc=$?
    [ "$rc" -eq 3 ] && echo "$msg" | grep -q "^collviz: --backend mpi: mpi unavailable (built without MPI)" &&
        [ "$(echo "$msg" | wc -l)" -eq 1 ]
    check "without MPI: one line and exit 3 ($rc: $msg)" $?
    [ "$fail" -eq 0 ] || exit 1
    echo "test_mpi: collviz was built without MPI; skipped"
    exit 77
fi
if [ -z "$mpiexec" ] || ! [ -x "$mpiexec" ]; then
    echo "test_mpi: no mpirun here; skipped"
    exit 77
fi
# Open MPI refuses root without these and more processes than cores
# without --oversubscribe; other MPIs ignore the variables.
# hwloc's GL component (libhwloc-plugins) opens the X displays :0, :1, ...
# to find GPUs, in mpirun and in every process; an Xvfb that another test
# shuts down meanwhile makes Xlib end that process with exit 1, which reads
# as a wrong result. The processes need no display: leave that component out.
export HWLOC_COMPONENTS=-gl
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
launch() { # P, collviz args...
    p=$1
    shift
    "$mpiexec" -np "$p" "$collviz" "$@" </dev/null
}

# ------------------------------------------------ every op and algorithm
if [ -n "$procs" ]; then
ops=$("$collviz" list | sed -n '/^ops and/,/^dtypes/p' | sed '1d;$d')
i=0
for p in $procs; do
    echo "$ops" | while read -r op algos; do
        for algo in $(echo "$algos" | tr -d ,); do
            i=$((i + 1))
            case $(((i + p) % 4)) in
            0) count=0 ;;
            1) count=1 ;;
            2) count=$((p > 1 ? p - 1 : 2)) ;;
            *) count=$((7 * p + 3)) ;;
            esac
            args="run --op $op --algo $algo --count $count --init random --seed $i"
            # What the CPU refuses (a rank count the algorithm cannot take)
            # MPI must refuse alike.
            "$collviz" $args --ranks "$p" >/dev/null 2>&1
            want=$?
            out=$(launch "$p" $args --backend mpi 2>&1)
            rc=$?
            if [ "$rc" -ne "$want" ]; then
                echo "FAIL: P=$p $op $algo count $count: exit $rc, cpu $want"
                echo "$out" | tail -3
                echo x >>"$tmp/bad"
            elif [ "$rc" -ne 0 ]; then
                echo x >>"$tmp/refused"
            elif ! echo "$out" | grep -q "^verified: 0 of"; then
                echo "FAIL: P=$p $op $algo count $count: not verified"
                echo x >>"$tmp/bad"
            fi
            echo x >>"$tmp/cases"
        done
    done
done
cases=$(wc -l <"$tmp/cases")
bad=$([ -f "$tmp/bad" ] && wc -l <"$tmp/bad" || echo 0)
refused=$([ -f "$tmp/refused" ] && wc -l <"$tmp/refused" || echo 0)
[ "$bad" -eq 0 ] && [ "$refused" -lt $((cases / 4)) ]
check "every op x algorithm at P = $procs verifies through MPI ($cases runs, $bad wrong, $refused refused alike by the CPU)" $?
fi

# --------------------------------------------------- dtypes and redops
if part dtypes; then
sweep_bad=0
for dt in int8 int32 int64 float16 bfloat16 float64; do
    for redop in sum prod min max avg band bxor; do
        case $dt:$redop in float*:b* | bfloat16:b*) continue ;; esac
        out=$(launch 3 run --backend mpi --op allreduce --algo rabenseifner --count 11 \
              --dtype "$dt" --redop "$redop" --init random 2>&1)
        if [ $? -ne 0 ] || ! echo "$out" | grep -q "^verified: 0 of"; then
            echo "FAIL: allreduce rabenseifner $dt $redop: $(echo "$out" | tail -1)"
            sweep_bad=$((sweep_bad + 1))
        fi
    done
done
[ "$sweep_bad" -eq 0 ]
check "dtypes x redops through MPI (allreduce rabenseifner, 3 processes)" $?
fi

# ---------------------------------- value for value against the CPU's run
if part cpu; then
same_as_cpu() { # P, run args...
    p=$1
    shift
    strip='/"time_us"/d; /"backend"/d; /"host"/d; /"hosts"/d; /"created"/d'
    "$collviz" run --json --ranks "$p" "$@" | sed "$strip" >"$tmp/cpu.json"
    launch "$p" run --json --backend mpi "$@" | sed "$strip" >"$tmp/mpi.json"
    grep -q '"outputs"' "$tmp/mpi.json" && cmp -s "$tmp/cpu.json" "$tmp/mpi.json"
}
for c in "4 --op allreduce --algo ring --count 13 --dtype float32 --init random" \
         "5 --op reducescatter --algo direct --count 3 --dtype float16 --redop avg --init random" \
         "3 --op alltoall --algo bruck --count 2 --dtype int32" \
         "6 --op allreduce --algo in-network --count 9 --dtype bfloat16 --redop max --init random" \
         "8 --op reduce --algo tree --root 5 --count 10 --dtype int64 --redop prod --init random"; do
    same_as_cpu $c
    check "MPI's --json equals the CPU's value for value: $c" $?
done
# ... and differs where the values do: the comparison can fail.
"$collviz" run --json --ranks 4 --op allreduce --count 13 --seed 2 --init random |
    sed '/"time_us"/d; /"backend"/d; /"host"/d; /"hosts"/d; /"created"/d' >"$tmp/cpu2.json"
launch 4 run --json --backend mpi --op allreduce --count 13 --seed 3 --init random |
    sed '/"time_us"/d; /"backend"/d; /"host"/d; /"hosts"/d; /"created"/d' >"$tmp/mpi2.json"
! cmp -s "$tmp/cpu2.json" "$tmp/mpi2.json"
check "a run with other inputs does not compare equal" $?
fi

# ----------------------------------------------------------------- trace
if part trace; then
launch 4 run --backend mpi --op allreduce --algo tree --count 7 --init random \
    --trace-out "$tmp/t.json" >/dev/null
check "an MPI run writes its trace" $?
grep -q '"backend":"mpi"' "$tmp/t.json" && grep -q '"hosts":\["[^"]*","[^"]*","[^"]*","[^"]*"\]' "$tmp/t.json"
check "the trace names the backend and each rank's host" $?
if "$collviz" export --help >/dev/null 2>&1; then
    out=$("$collviz" export --trace "$tmp/t.json" --stills --out "$tmp/s" --size 640x400 2>&1)
    rc=$?
    [ "$rc" -eq 0 ] && echo "$out" | grep -q "agree bit for bit"
    check "export --trace replays the MPI trace, equal to the CPU's: $out" $?
else
    echo "ok: export --trace (no window in this build; not checked)"
fi
fi

# ------------------------------------------------------- hosts are nodes
# Two hosts of two processes each (named through COLLVIZ_MPI_HOST, as
# containers on one machine would be): the spec's nodes follow them, so
# the stage draws two nodes and the cost model prices the network between;
# --nodes overrides; hosts that interleave are no nodes a spec can say.
if part hosts; then
hosts() { # four host names, then collviz's arguments for every process
    a=$1 b=$2 c=$3 d=$4
    shift 4
    "$mpiexec" -np 1 env COLLVIZ_MPI_HOST="$a" "$collviz" "$@" : \
        -np 1 env COLLVIZ_MPI_HOST="$b" "$collviz" "$@" : \
        -np 1 env COLLVIZ_MPI_HOST="$c" "$collviz" "$@" : \
        -np 1 env COLLVIZ_MPI_HOST="$d" "$collviz" "$@" </dev/null 2>/dev/null
}
out=$(hosts alpha alpha beta beta run --backend mpi --op allreduce --algo ring --count 8 --json)
echo "$out" | grep -q '"nodes":[[:space:]]*2,' && echo "$out" | grep -q '"ranks_per_node":[[:space:]]*2,'
check "ranks on two hosts in blocks make 2 nodes" $?
out=$(hosts alpha alpha beta beta run --backend mpi --op allreduce --algo ring --count 8 --nodes 1 --json)
echo "$out" | grep -q '"nodes":[[:space:]]*1,'
check "--nodes 1 overrides the hosts" $?
out=$(hosts alpha beta alpha beta run --backend mpi --op allreduce --algo ring --count 8 --json)
echo "$out" | grep -q '"nodes":[[:space:]]*1,'
check "interleaved hosts: one node" $?
fi

# ----------------------------------------------------------------- bench
if part bench; then
out=$(launch 3 bench --backend mpi --op reducescatter -b 96 -e 96K -f 32 -n 2 2>&1)
# MPI's time ($10) is above 0; the ratio ($11) is a number, which reads
# 0.00 when a busy machine stalls collviz's own timing of 2 iterations.
rows=$(echo "$out" | awk '/^ +[0-9]/ && $9 == 0 && $10 + 0 > 0 && $11 ~ /^[0-9]+\.[0-9]+$/' | wc -l)
[ "$rows" -eq 3 ] && echo "$out" | grep -q "Out of bounds values : 0 OK"
check "bench --backend mpi: 3 rows checked, each beside MPI's own call ($rows)" $?
out=$(launch 2 bench --backend mpi --op allreduce --redop avg -b 1k -e 1k -n 2 2>&1)
echo "$out" | awk '/^ +1024/ && $9 == 0 && $10 == "-" { found = 1 } END { exit !found }'
check "bench --backend mpi: '-' where MPI has no such call (avg)" $?
fi

# ------------------------------------------------------------- mistakes
if part mistakes; then
one_line() { # what, want rc, want text, P, args...
    what=$1 wantrc=$2 want=$3 p=$4
    shift 4
    "$mpiexec" -np "$p" "$@" </dev/null >/dev/null 2>"$tmp/err"
    rc=$?
    msg=$(grep '^collviz' "$tmp/err")
    if [ "$rc" -eq "$wantrc" ] && [ "$(echo "$msg" | wc -l)" -eq 1 ] &&
        echo "$msg" | grep -q -- "$want"; then
        echo "ok: $what: $msg"
    else
        echo "FAIL: $what: exit $rc (wanted $wantrc), said: $msg (wanted: $want)"
        fail=1
    fi
}
one_line "--ranks other than the process count" 2 "^collviz: --ranks 4: .* started 3" \
    3 "$collviz" run --backend mpi --op allreduce --ranks 4
one_line "a bad flag on every process" 2 "^collviz: --dtype: unknown value 'nope'" \
    2 "$collviz" run --backend mpi --op allreduce --dtype nope
# Open MPI's MPMD form: another command line for the processes after ':'.
one_line "a bad flag on one process" 3 "^collviz: rank 2: --count: 'x'" \
    2 "$collviz" run --backend mpi --op allreduce : -np 1 "$collviz" run --backend mpi \
    --op allreduce --count x
one_line "another collective on one process" 3 "^collviz: rank 2: runs --count 9 where rank 0 runs --count 8" \
    1 "$collviz" run --backend mpi --op allreduce --count 8 : -np 1 "$collviz" run \
    --backend mpi --op allreduce --count 8 : -np 1 "$collviz" run --backend mpi --op allreduce \
    --count 9

# A log of another rank count: the same mistake on every process, said
# once, exit 2 (each process said it and exit 3).
one_line "--nccl-log of 4 ranks on 2 processes" 2 \
    "^collviz: --nccl-log .*dbtree-4\.log: its communicator has 4 ranks and the launcher started 2 processes" \
    2 "$collviz" run --backend mpi --op allreduce --nccl-log "$(dirname "$0")/ncclog/dbtree-4.log"
# A timeout that is no number of seconds is the user's setting: exit 2 (3).
for v in abc 0 -1 nan 2000000; do
    one_line "COLLVIZ_MPI_TIMEOUT=$v" 2 "^collviz: --backend mpi: COLLVIZ_MPI_TIMEOUT='$v': allowed: seconds above 0" \
        2 env COLLVIZ_MPI_TIMEOUT="$v" "$collviz" run --backend mpi --op allreduce
done
# Another subcommand on one process names both (it said "runs bench where
# rank 0 runs --op").
one_line "bench on one process, run on the others" 3 \
    "^collviz: rank 2: runs bench where rank 0 runs run; every process must run the same collective" \
    2 "$collviz" run --backend mpi --op allreduce : -np 1 "$collviz" bench --backend mpi \
    --op allreduce -b 1k -e 1k -n 1
fi

# ------------------------------------------- a process killed or stopped
if part signals; then
# A bench of many iterations: whenever the signal lands after MPI_Init, it
# lands mid-run. Each process writes its pid, then becomes collviz (exec
# keeps the pid).
long="bench --backend mpi --op allreduce --algo ring -b 16M -e 16M -n 100000"
signalled() { # name, signal, rank, processes, [env...]
    name=$1 sig=$2 victim=$3 p=$4
    shift 4
    rm -rf "$tmp/pids"
    mkdir "$tmp/pids"
    start=$(date +%s)
    env "$@" timeout 60 "$mpiexec" -np "$p" sh -c 'echo $$ >"$0/$OMPI_COMM_WORLD_RANK"; exec "$@"' \
        "$tmp/pids" "$collviz" $long </dev/null >"$tmp/$name.out" 2>&1 &
    launcher=$!
    n=0
    while [ "$(ls "$tmp/pids" | wc -l)" -lt "$p" ] && [ $n -lt 100 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    # Past MPI_Init: a process stopped inside it stops the others there
    # too, where no program can time it (docs/MPI.md).
    sleep 1
    kill "-$sig" "$(cat "$tmp/pids/$victim")"
    wait $launcher
    rc=$?
    took=$(($(date +%s) - start))
    kill -KILL "$(cat "$tmp/pids/$victim")" 2>/dev/null
    lines=$(grep -c '^collviz' "$tmp/$name.out")
}
signalled killed KILL 2 4
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$took" -le 12 ] &&
    grep -q "rank 2 .* signal 9" "$tmp/killed.out"
check "rank 2 killed mid-run: every process ended in ${took} s, exit $rc, the launcher names it" $?
signalled terminated TERM 1 3
[ "$rc" -eq 3 ] && [ "$took" -le 12 ] && grep -q "Exit code: *3" "$tmp/terminated.out"
check "rank 1 ended by SIGTERM (as the launcher ends the others): exit 3 in ${took} s" $?
signalled stopped STOP 1 3 COLLVIZ_MPI_TIMEOUT=2
[ "$rc" -eq 3 ] && [ "$took" -le 15 ] && [ "$lines" -eq 1 ] &&
    grep -q "^collviz: rank [02]: bench: .*step [0-9]*.*rank 1 within 2 s" "$tmp/stopped.out"
check "rank 1 stopped: exit $rc in ${took} s, $lines line: $(grep '^collviz' "$tmp/stopped.out")" $?
fi

exit "$fail"
