#!/usr/bin/env bash
# mpi_netns.sh: runs a collviz command under Open MPI across two "hosts" on
# one Linux machine: two network namespaces joined by a bridge, each with a
# hostname of its own (nodeA, nodeB), so MPI sees two nodes and carries
# every message between them over TCP, as between machines, while the
# processes inside one namespace share memory. Needs root (ip netns,
# unshare) and Open MPI's mpirun.
#
#   scripts/mpi_netns.sh [-np N] COLLVIZ ARGS...   N processes, half on each (default 8)
#   scripts/mpi_netns.sh --down                    removes the namespaces and the bridge
#
# Example (docs/BENCHMARKS.md):
#   scripts/mpi_netns.sh build/collviz bench --backend mpi --op allreduce --algo ring -b 64M -e 64M -n 5
# The namespaces stay up between runs; --down removes them.
set -euo pipefail
NET=10.9.0 BR=cvbr0
down() {
  ip netns del cvn1 2>/dev/null || true
  ip netns del cvn2 2>/dev/null || true
  ip link del "$BR" 2>/dev/null || true
}
if [ "${1:-}" = --down ]; then
  down
  exit 0
fi
np=8
if [ "${1:-}" = -np ]; then
  np=$2
  shift 2
fi
[ $# -ge 1 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "mpi_netns.sh: needs root (ip netns, unshare)" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "mpi_netns.sh: no mpirun (scripts/deps.sh installs Open MPI)" >&2; exit 2; }
[ $((np % 2)) -eq 0 ] || { echo "mpi_netns.sh: -np must be even (half on each host)" >&2; exit 2; }

# the bridge, and a namespace on it per host
if ! ip link show "$BR" >/dev/null 2>&1; then
  ip link add "$BR" type bridge
  ip addr add "$NET.1/24" dev "$BR"
  ip link set "$BR" up
fi
for i in 1 2; do
  ns=cvn$i
  if ! ip netns list | grep -q "^$ns\b"; then
    ip netns add "$ns"
    ip link add "cvv$i" type veth peer name eth0 netns "$ns"
    ip link set "cvv$i" master "$BR" up
    ip netns exec "$ns" ip addr add "$NET.1$i/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$ns" ip link set lo up
  fi
done

# mpirun starts its daemon on each "host" through this agent instead of ssh
agent=$(mktemp /tmp/collviz-netns-agent.XXXXXX)
trap 'rm -f "$agent"' EXIT
cat > "$agent" <<EOF
#!/bin/sh
host=\$1; shift
case "\$host" in
  $NET.11) ns=cvn1 name=nodeA ;;
  $NET.12) ns=cvn2 name=nodeB ;;
  *) echo "mpi_netns.sh: unknown host \$host" >&2; exit 1 ;;
esac
exec ip netns exec \$ns unshare -u sh -c "hostname \$name; \$*"
EOF
chmod +x "$agent"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
half=$((np / 2))
mpirun --oversubscribe --mca plm_rsh_agent "$agent" \
  --mca btl tcp,self,vader --mca btl_tcp_if_include "$NET.0/24" \
  --mca oob_tcp_if_include "$NET.0/24" \
  --host "$NET.11:$half,$NET.12:$half" -np "$np" "$@"
