#!/usr/bin/env bash
# Runs every benchmark and rewrites docs/benchmarks.md (and docs/benchmarks.png):
#   1. JMH routing overhead on H2 in memory: plain Hibernate, hibernate-rwsplit, Spring, ShardingSphere
#      (+ a -prof gc run of plain vs hibernate-rwsplit for allocation per statement);
#   2. JMH: the same operations on the scripts/cluster.sh MariaDB cluster, with mysql-connector-j's
#      replication URL as a peer;
#   3. the replicated workload, without lag and with `cluster.sh delay 1 1`.
#
# Usage: scripts/bench.sh [--quick] [--no-cluster] [--help]
#   --quick        very short runs (smoke test of the whole pipeline; numbers meaningless)
#   --no-cluster   only the H2 part (1); parts 2 and 3 are reported as not run
# Environment:
#   BENCH_CLUSTER_PORT   primary port of the cluster (replicas on the next two), default 3307; the cluster
#                        is started on it if nothing answers there, and stopped again afterwards. A server
#                        already answering there must be this checkout's scripts/cluster.sh cluster (the
#                        lag is injected with `cluster.sh delay`); with other clusters on the machine use
#                        another port, e.g. BENCH_CLUSTER_PORT=3347
#   BENCH_JMH_OPTS       JMH options of every JMH run, default "-f 1 -wi 5 -w 2s -i 10 -r 1s"
#   BENCH_USERS          concurrent workload users, default 8
#   BENCH_SECONDS        measured seconds per workload cell, default 15 (plus 3 s warm-up)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

quick=false
cluster=true
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --no-cluster) cluster=false ;;
    --help | -h) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

port="${BENCH_CLUSTER_PORT:-3307}"
jmh_opts="${BENCH_JMH_OPTS:--f 1 -wi 5 -w 2s -i 10 -r 1s}"
users="${BENCH_USERS:-8}"
seconds="${BENCH_SECONDS:-15}"
warmup=3
if $quick; then
  jmh_opts="-f 1 -wi 1 -w 1s -i 1 -r 1s"
  seconds=2
  warmup=1
fi

out="$REPO_ROOT/benchmarks/target/bench-results"
jar="$REPO_ROOT/benchmarks/target/benchmarks.jar"
meta="$out/meta.properties"

echo "== building the benchmarks module"
mvn -B -q -Pbench -pl benchmarks -am package -DskipTests
rm -rf "$out"
mkdir -p "$out"

{
  echo "command=BENCH_CLUSTER_PORT=$port scripts/bench.sh${*:+ $*}"
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(nproc)"
  echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
  echo "java=$(java -version 2>&1 | head -n 2 | tr '\n' ' ')"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "jmh_options=$jmh_opts"
} >"$meta"

# JMH's own command line (java -jar benchmarks.jar ... works too); JmhMain also writes mean, error, best and
# median iteration of every result to the CSV file given first
jmh() {
  local csv=$1
  shift
  # shellcheck disable=SC2086 # JMH options are deliberately word-split
  java -cp "$jar" io.rwsplit.bench.JmhMain "$csv" "$@" $jmh_opts
}

echo "== 1. overhead on H2"
jmh "$out/h2.csv" H2OverheadBenchmark
echo "== 1b. allocation, plain vs hibernate-rwsplit"
jmh "$out/h2-gc.csv" H2OverheadBenchmark -p variant=PLAIN,RWSPLIT -prof gc

cluster_sh() { RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh "$@"; }
started_cluster=false
stop_cluster() {
  if $started_cluster; then
    cluster_sh delay 1 0 >/dev/null 2>&1 || true
    cluster_sh delay 2 0 >/dev/null 2>&1 || true
    cluster_sh stop || true
  fi
}
trap stop_cluster EXIT

if $cluster; then
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "== starting the cluster on port $port"
    cluster_sh start 2 "$port"
    started_cluster=true
  fi
  cluster_sh delay 1 0 >/dev/null
  echo "== 2. the same operations on the cluster"
  jmh "$out/cluster.csv" ClusterOverheadBenchmark -p port="$port"

  workload() {
    java -cp "$jar" io.rwsplit.bench.workload.WorkloadRunner --port "$port" --users "$users" \
      --seconds "$seconds" --warmup "$warmup" --lag "$1" --out "$out/workload.tsv"
  }
  echo "== 3. workload, no injected lag"
  workload "(i) none"
  echo "== 3. workload, replica1 delayed by 1 s"
  cluster_sh delay 1 1
  workload "(ii) delay 1 on replica1"
  # max_lag=0 keeps the lagging replicas in rotation, so that consistency (not health) decides each read
  echo "== 3. workload, both replicas delayed by 1 s (the unit-wide default against named scopes and eventual)"
  cluster_sh delay 2 1
  java -cp "$jar" io.rwsplit.bench.workload.WorkloadRunner --port "$port" --users "$users" \
    --seconds "$seconds" --warmup "$warmup" --lag "(iii) delay 1 on both replicas" --out "$out/workload.tsv" \
    --modes PRIMARY_ONLY,UNIT_DEFAULT,RWSPLIT_DEFAULT,EVENTUAL --extra max_lag=0
  cluster_sh delay 1 0
  cluster_sh delay 2 0
else
  echo "skipped_cluster=--no-cluster" >>"$meta"
  echo "skipped_workload=--no-cluster" >>"$meta"
fi

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
mkdir -p docs
# docs/benchmarks-notes.md (hand-written reading of the numbers) is appended to the generated page
java -cp "$jar" io.rwsplit.bench.report.Report "$out" docs/benchmarks.md docs/benchmarks.png docs/benchmarks-notes.md
echo "== wrote docs/benchmarks.md and docs/benchmarks.png (raw results in $out)"
