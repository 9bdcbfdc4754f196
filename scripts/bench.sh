#!/usr/bin/env bash
# Runs every benchmark and rewrites docs/benchmarks.md (and docs/benchmarks.png, docs/benchmarks-cluster.png):
#   1. JMH overhead on H2 in memory (with -prof gc): plain Hibernate, hibernate-rwsplit (outside and inside
#      Spring read-only transactions), Spring LazyConnectionDataSourceProxy, ShardingSphere;
#   2. JMH: the same operations on the scripts/cluster.sh MariaDB cluster, with mysql-connector-j's replication
#      URL and the AWS Advanced JDBC Wrapper (srw) as further peers;
#   3. the replicated workload, without lag, with `cluster.sh delay 1 1` and with both replicas delayed;
#   3c. the same workload on the scripts/pg-cluster.sh PostgreSQL cluster (when PostgreSQL is installed).
# Every variant's set-up first proves that its reads reach a replica (or the primary, for the baselines).
# Parts 1 and 2 also measure the calling thread's CPU time per operation, plain Hibernate and each routing stack
# in interleaved batches inside one JVM (io.rwsplit.bench.overhead.CpuOverhead): the figure load disturbs least.
#
# Usage: scripts/bench.sh [--quick] [--no-cluster] [--help]
#        scripts/bench.sh overhead [--quick] [--cluster | --page]
#        scripts/bench.sh layer [--quick] [--page]
#        scripts/bench.sh profile [--quick | --page]
#        scripts/bench.sh pattern [--mariadb] [--postgres] [--pairs | --with-pairs] [--with-eventual] [--with-round-robin] [--pg-delay=D]
#                                 [--with-ceiling] [--quick] [--page]
#        scripts/bench.sh pattern --audit [--mariadb] [--postgres] [--quick] [--page]
#   --quick        very short runs (smoke test of the whole pipeline; numbers meaningless)
#   --no-cluster   only the H2 part (1); parts 2 and 3 are reported as not run
#   overhead       only the CPU-time comparison on H2 (under three minutes a fork, BENCH_CPU_FORKS), printed as lines
#                  `overhead findById cpu-ratio 1.02 (spread 0.98-1.05) alloc +120 B/op ...`; with --cluster also
#                  on the MariaDB cluster against the routing peers (longer); docs/benchmarks.md is not rewritten
#                  unless --page is given: then the section "1b. CPU time per operation on H2" alone
#                  (io.rwsplit.bench.report.OverheadSection, markers <!-- overhead-h2:begin --> / <!-- overhead-h2:end -->),
#                  with this run's command and date; a full run writes it again with the rest of the page
#   layer          only what the routing connection costs by itself, below Hibernate and above a JDBC driver that
#                  does nothing (io.rwsplit.bench.layer.RoutingLayerCost: a find's JDBC work, a prepared read alone,
#                  a logical connection opened and closed), against the same calls on HikariCP alone, in
#                  BENCH_LAYER_FORKS JVMs (default 3; about 30 s each); rows in benchmarks/target/layer-results;
#                  --page rewrites the section "What the routing layer alone costs" of docs/benchmarks.md
#                  (io.rwsplit.bench.report.LayerSection, markers <!-- layer:begin --> / <!-- layer:end -->), which a
#                  full run keeps
#   profile        where hibernate-rwsplit's CPU time per operation goes: plain Hibernate and hibernate-rwsplit on
#                  H2 in one JVM, interleaved (io.rwsplit.bench.overhead.CostProfile), watched by async-profiler
#                  (tools.profiler:async-profiler from Maven Central, its linux-x64 library; or ASYNC_PROFILER_LIB),
#                  asked to sample each thread every 2 ms of its CPU time (perf events as root or with
#                  perf_event_paranoid <= 1, else ctimer, which the kernel serves at most once a clock tick;
#                  BENCH_PROFILE_EVENT, BENCH_PROFILE_INTERVAL), the JIT's warm-up not counted; then
#                  io.rwsplit.bench.report.CostBreakdown prints, per operation (BENCH_PROFILE_OPERATIONS, default
#                  findById,jpqlQuery,writeTransaction; BENCH_PROFILE_SECONDS each, default 60), the ns per
#                  operation of hibernate-rwsplit's own code by step, the driver and pool work it calls, and the
#                  difference by package; results in benchmarks/target/profile-results; --page rewrites the
#                  section "Where hibernate-rwsplit's CPU time goes" of docs/benchmarks.md
#                  (io.rwsplit.bench.report.ProfileSection, markers <!-- profile:begin --> / <!-- profile:end -->),
#                  which a full run keeps
#   pattern        only the write-readback workload: each user writes its own row, reads it back in a new
#                  EntityManager, then reads 9 random rows, each in a new EntityManager (--pairs: write and read
#                  back only); PRIMARY_ONLY and UNIT_DEFAULT in BENCH_PATTERN_PAIRS rounds of one run each, round r
#                  starting with the r-th stack (P R, R P, P R ...: no stack always runs first), in one JVM,
#                  after each mode ran once for 20 s unrecorded (the JIT), no injected lag, BENCH_USERS users for
#                  BENCH_SECONDS s, on the MariaDB cluster (--mariadb), the
#                  PostgreSQL one (--postgres) or, with neither, on both (PostgreSQL when installed); each run also
#                  reads from /proc the CPU time its JVM, the primary and the replicas spent per operation (the
#                  servers must run on this machine); prints the
#                  rows and the load average before and after (about 3.5 minutes a cluster); docs/benchmarks.md is
#                  not rewritten unless --page is given
#   --with-pairs   (pattern only) after each database's cells, the same with write and read back only (the pairs
#                  alone), into rows of their own (about 3 minutes more a cluster)
#   --with-eventual (pattern only) each round also runs hibernate-rwsplit with consistency=eventual (EVENTUAL, no
#                  read-your-writes: every read on a replica, nothing waited for or asked), the order rotating:
#                  P R E, R E P, E P R ..., into rows of their own; what reading from the replicas costs by itself
#                  on this machine, apart from what the default's consistency costs (about 1.5 times as long)
#   --with-round-robin (pattern only) each round also runs hibernate-rwsplit with load_balancer=round_robin
#                  (ROUND_ROBIN: each read on the next replica, where the default, thread_affinity, keeps each user's
#                  thread to one), the order rotating: P R T, R T P, T P R ... (with --with-eventual: P R E T,
#                  R E T P, E T P R, T P R E ...), into rows of their own
#   --with-ceiling (pattern only) after each database's cells, what moving the reads to the replicas costs there by
#                  itself: the pattern in raw JDBC (no Hibernate, no hibernate-rwsplit) by BENCH_USERS threads, writes
#                  on the primary, reads on the primary, on the first replica alone or spread over the replicas (per
#                  thread, and each thread's in turn), BENCH_PATTERN_PAIRS rounds of 8 s runs
#                  (io.rwsplit.bench.workload.SpreadCeiling; about 40 s a round), a table of its own under the
#                  section's (ceiling.tsv, ceiling-postgres.tsv), with the CPU each run's operation cost by process
#                  (servers on this machine)
#   --pg-delay=D   (pattern only) on PostgreSQL, run the cells a second time with both standbys D behind
#                  (`pg-cluster.sh delay N D`: whole seconds or milliseconds, e.g. 500ms), into a row of its own
#   --audit        (pattern only) instead of plain Hibernate against hibernate-rwsplit: hibernate-rwsplit in
#                  BENCH_PATTERN_PAIRS rounds, each once with hibernate.rwsplit.audit_sample=0 (no stale-read audit),
#                  100 (the default) and 1 (every replica read), the first rotating; results in
#                  benchmarks/target/audit-results; --page rewrites the section "What the stale-read audit costs"
#                  (io.rwsplit.bench.report.AuditSection, markers <!-- audit:begin --> / <!-- audit:end -->)
#   --page         (pattern; for 'layer', 'overhead' and 'profile' see there; never with --quick, whose numbers mean nothing)
#                  then rewrite the section "Write then read back, under write load" of
#                  docs/benchmarks.md from these results (io.rwsplit.bench.report.PatternSection), between its
#                  <!-- pattern:begin --> and <!-- pattern:end --> markers, or inserted before "## Reproduce" when
#                  the page has none yet; the rest of the page stays as it is (a database not run gets a "not run"
#                  row). A full run rewrites the whole page and then puts back this section from the last
#                  pattern results (benchmarks/target/pattern-results) and the audit section from the last audit
#                  results (benchmarks/target/audit-results), with their own command and date
# Environment:
#   BENCH_CLUSTER_PORT   primary port of the cluster (replicas on the next two), default 3307; the cluster
#                        is started on it if nothing answers there, and stopped again afterwards. A server
#                        already answering there must be this checkout's scripts/cluster.sh cluster (the
#                        lag is injected with `cluster.sh delay`); with other clusters on the machine use
#                        another port, e.g. BENCH_CLUSTER_PORT=3347
#   BENCH_JMH_OPTS       JMH options of every JMH run, default "-f 1 -wi 5 -w 2s -i 10 -r 1s"
#   BENCH_PG_CLUSTER_PORT primary port of the PostgreSQL cluster, default 5441 (started and stopped like
#                        the MariaDB one)
#   BENCH_USERS          concurrent workload users, default 8
#   BENCH_SECONDS        measured seconds per workload cell, default 15 (plus 3 s warm-up)
#   BENCH_PATTERN_PAIRS  pattern only: rounds per workload, each running every stack once (plain Hibernate,
#                        hibernate-rwsplit, EVENTUAL and ROUND_ROBIN when asked for), round r starting with the r-th of
#                        them; default 3. Over as many rounds as there are stacks each runs once in every place (4
#                        with --with-eventual --with-round-robin)
#   BENCH_CPU_OPTS       options of the CPU-time comparison, default "--pairs 100 --batch-ms 50 --warmup-s 8"
#   BENCH_LAYER_FORKS    layer only: JVM forks of the routing-layer comparison, default 3
#   BENCH_CPU_FORKS      JVM forks of the CPU-time comparison on H2 (part 1b, and 'overhead'), default 3: the JIT
#                        compiles each JVM differently and the ratio moves by several per cent between them; the
#                        page shows the fork of the median ratio and lists every fork's
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

quick=false
cluster=true
overhead_only=false
overhead_cluster=false
layer_only=false
profile_only=false
pattern_only=false
pattern_mariadb=false
pattern_postgres=false
pattern_pairs=false
pattern_with_pairs=false
pattern_with_eventual=false
pattern_with_round_robin=false
pattern_with_ceiling=false
pattern_pg_delay=""
pattern_page=false
pattern_audit=false
for arg in "$@"; do
  case "$arg" in
    --quick) quick=true ;;
    --no-cluster) cluster=false ;;
    overhead) overhead_only=true ;;
    --cluster) overhead_cluster=true ;;
    pattern) pattern_only=true ;;
    layer) layer_only=true ;;
    profile) profile_only=true ;;
    --mariadb) pattern_mariadb=true ;;
    --postgres) pattern_postgres=true ;;
    --pairs) pattern_pairs=true ;;
    --with-pairs) pattern_with_pairs=true ;;
    --with-eventual) pattern_with_eventual=true ;;
    --with-round-robin) pattern_with_round_robin=true ;;
    --with-ceiling) pattern_with_ceiling=true ;;
    --page) pattern_page=true ;;
    --audit) pattern_audit=true ;;
    --pg-delay=*) pattern_pg_delay="${arg#--pg-delay=}" ;;
    --help | -h) sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

port="${BENCH_CLUSTER_PORT:-3307}"
pg_port="${BENCH_PG_CLUSTER_PORT:-5441}"
cluster_sh() { RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh "$@"; }
pg_cluster_sh() { RWSPLIT_PG_CLUSTER_BASE_PORT="$pg_port" scripts/pg-cluster.sh "$@"; }
# $1: cluster_sh or pg_cluster_sh; $2: the delay of both replicas (0 for none)
delay_both() {
  "$1" delay 1 "$2" >/dev/null
  "$1" delay 2 "$2" >/dev/null
}
jmh_opts="${BENCH_JMH_OPTS:--f 1 -wi 5 -w 2s -i 10 -r 1s}"
users="${BENCH_USERS:-8}"
pattern_pairs_count="${BENCH_PATTERN_PAIRS:-3}"
seconds="${BENCH_SECONDS:-15}"
warmup=3
cpu_opts="${BENCH_CPU_OPTS:---pairs 100 --batch-ms 50 --warmup-s 8}"
cpu_forks="${BENCH_CPU_FORKS:-3}"
if $quick; then
  jmh_opts="-f 1 -wi 1 -w 1s -i 1 -r 1s"
  seconds=2
  warmup=1
  cpu_opts="--pairs 20 --batch-ms 5 --warmup-s 1"
  cpu_forks=1
fi
if ! $cluster && { $layer_only || $overhead_only || $pattern_only || $profile_only; }; then
  echo "bench.sh: --no-cluster belongs to the full run (see --help)" >&2
  exit 2
fi
if $overhead_cluster && ! $overhead_only; then
  echo "bench.sh: --cluster belongs to 'overhead' (see --help)" >&2
  exit 2
fi
if { $pattern_mariadb || $pattern_postgres || $pattern_pairs || $pattern_with_pairs || $pattern_with_eventual \
  || $pattern_with_round_robin || $pattern_with_ceiling || $pattern_audit || [[ -n "$pattern_pg_delay" ]]; } && ! $pattern_only; then
  echo "bench.sh: --mariadb, --postgres, --pairs, --with-pairs, --with-eventual, --with-round-robin, --with-ceiling, --pg-delay and --audit belong to 'pattern' (see --help)" >&2
  exit 2
fi
if $pattern_page && ! $pattern_only && ! $layer_only && ! $overhead_only && ! $profile_only; then
  echo "bench.sh: --page belongs to 'pattern', 'layer', 'overhead' and 'profile' (see --help)" >&2
  exit 2
fi
if $pattern_page && $quick; then
  echo "bench.sh: --page writes figures into docs/benchmarks.md: not with --quick, whose numbers mean nothing" >&2
  exit 2
fi
if $pattern_page && $overhead_cluster; then
  echo "bench.sh: 'overhead --page' rewrites the H2 section alone: not with --cluster (a full run writes the cluster's)" >&2
  exit 2
fi
if [[ ! "$cpu_forks" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench.sh: BENCH_CPU_FORKS must be a whole number of JVM forks, 1 or more: '$cpu_forks'" >&2
  exit 2
fi
layer_forks="${BENCH_LAYER_FORKS:-3}"
if $layer_only && [[ ! "$layer_forks" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench.sh: BENCH_LAYER_FORKS must be a whole number of JVM forks, 1 or more: '$layer_forks'" >&2
  exit 2
fi
if $pattern_audit && { $pattern_pairs || $pattern_with_pairs || $pattern_with_eventual || $pattern_with_round_robin || $pattern_with_ceiling \
  || [[ -n "$pattern_pg_delay" ]]; }; then
  echo "bench.sh: --audit runs the workload with 9 reads per write and no lag: not with --pairs, --with-pairs, --with-eventual, --with-round-robin, --with-ceiling or --pg-delay" >&2
  exit 2
fi
if [[ ! "$pattern_pairs_count" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench.sh: BENCH_PATTERN_PAIRS must be a whole number of pairs, 1 or more: '$pattern_pairs_count'" >&2
  exit 2
fi
if $pattern_pairs && $pattern_with_ceiling; then
  echo "bench.sh: --with-ceiling measures write-readback-9 in raw JDBC, not the pairs alone of --pairs: use --with-pairs" >&2
  exit 2
fi
if $pattern_pairs && $pattern_with_pairs; then
  echo "bench.sh: --pairs (the pairs instead) and --with-pairs (the pairs as well) exclude each other" >&2
  exit 2
fi
if [[ -n "$pattern_pg_delay" && ! "$pattern_pg_delay" =~ ^[0-9]+(ms)?$ ]]; then
  echo "bench.sh: --pg-delay must be whole seconds or milliseconds (1, 500ms): '$pattern_pg_delay'" >&2
  exit 2
fi
if $pattern_page && [[ ! -f docs/benchmarks.md ]]; then
  echo "bench.sh: --page rewrites a section of docs/benchmarks.md, which does not exist (run scripts/bench.sh first)" >&2
  exit 2
fi
separate_runs=0
for only in $pattern_only $overhead_only $layer_only $profile_only; do
  if $only; then separate_runs=$((separate_runs + 1)); fi
done
if ((separate_runs > 1)); then
  echo "bench.sh: 'overhead', 'pattern', 'layer' and 'profile' are separate runs (see --help)" >&2
  exit 2
fi
pg_installed=false
if compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null; then
  pg_installed=true
fi
pattern_skipped=""
if $pattern_only; then
  if ! $pattern_mariadb && ! $pattern_postgres; then
    pattern_mariadb=true
    pattern_postgres=$pg_installed
    $pg_installed || pattern_skipped="skipped_postgres=PostgreSQL not installed"
  elif $pattern_mariadb && ! $pattern_postgres; then
    pattern_skipped="skipped_postgres=--mariadb only"
  elif ! $pattern_mariadb; then
    pattern_skipped="skipped_mariadb=--postgres only"
  fi
  if [[ -n "$pattern_pg_delay" ]] && ! $pattern_postgres; then
    echo "bench.sh: --pg-delay needs the PostgreSQL cells (not with --mariadb alone; PostgreSQL installed)" >&2
    exit 2
  fi
  if $pattern_postgres && ! $pg_installed; then
    echo "bench.sh: --postgres needs PostgreSQL (no /usr/lib/postgresql/*/bin/postgres)" >&2
    exit 2
  fi
fi

out="$REPO_ROOT/benchmarks/target/bench-results"
jar="$REPO_ROOT/benchmarks/target/benchmarks.jar"
meta="$out/meta.properties"

echo "== building the benchmarks module"
mvn -B -q -Pbench -pl benchmarks -am package -DskipTests

# the lines of a results' meta.properties that say when and on what machine they ran
machine_meta() {
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(nproc)"
  echo "cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
}

# the CPU time per operation of the calling thread, baseline and candidate in interleaved batches; $1: h2 or cluster
cpu_overhead() {
  local target=$1
  shift
  # shellcheck disable=SC2086 # the options are deliberately word-split
  java -Drwsplit.bench.proofs="$proofs" -cp "$jar" io.rwsplit.bench.overhead.CpuOverhead --target "$target" \
    --port "$port" $cpu_opts "$@"
}

# the H2 comparison in $cpu_forks JVMs, each appending its rows to $1
cpu_overhead_h2() {
  for ((fork = 1; fork <= cpu_forks; fork++)); do
    cpu_overhead h2 --out "$1"
  done
}

if $overhead_only; then
  out="$REPO_ROOT/benchmarks/target/overhead-results"
  proofs="$out/proofs.tsv"
  rm -rf "$out"
  mkdir -p "$out"
  {
    echo "command=${BENCH_CPU_FORKS:+BENCH_CPU_FORKS=$BENCH_CPU_FORKS }${BENCH_CPU_OPTS:+BENCH_CPU_OPTS=\"$BENCH_CPU_OPTS\" }scripts/bench.sh${*:+ $*}"
    machine_meta
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "load_cpu_h2=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "cpu_options=$cpu_opts"
  } >"$out/meta.properties"
  echo "== CPU time per operation on H2, $cpu_opts, $cpu_forks JVM forks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  cpu_overhead_h2 "$out/overhead.tsv"
  if $overhead_cluster; then
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "== starting the cluster on port $port"
      RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh start 2 "$port"
      trap 'RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh stop || true' EXIT
    fi
    echo "== CPU time per operation on the cluster (port $port)"
    cpu_overhead cluster --out "$out/overhead.tsv"
  fi
  echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/meta.properties"
  if $pattern_page; then
    java -cp "$jar" io.rwsplit.bench.report.OverheadSection "$out" docs/benchmarks.md
    echo "== rewrote the section \"1b. CPU time per operation on H2\" of docs/benchmarks.md"
  fi
  echo "== done (load average $(cut -d' ' -f1-3 /proc/loadavg)); rows in $out/overhead.tsv"
  exit 0
fi

if $profile_only; then
  out="$REPO_ROOT/benchmarks/target/profile-results"
  rm -rf "$out"
  mkdir -p "$out"
  lib="${ASYNC_PROFILER_LIB:-}"
  if [[ -z "$lib" ]]; then
    case "$(uname -m)" in
      x86_64) ap_arch=linux-x64 ;;
      aarch64) ap_arch=linux-arm64 ;;
      *) echo "bench.sh: profile needs async-profiler's library for $(uname -m): set ASYNC_PROFILER_LIB" >&2; exit 2 ;;
    esac
    ap_version=3.0
    mvn -B -q dependency:copy -Dartifact="tools.profiler:async-profiler:$ap_version" -DoutputDirectory="$out"
    unzip -q -o "$out/async-profiler-$ap_version.jar" "$ap_arch/libasyncProfiler.so" -d "$out"
    lib="$out/$ap_arch/libasyncProfiler.so"
  fi
  # cpu: perf events, a sample every interval of a thread's CPU time (root, or perf_event_paranoid 1 or less); else
  # ctimer: a CPU-time timer per thread (timer_create), which the kernel serves at most once a clock tick (4 ms at
  # HZ=250), so far fewer samples
  if [[ $EUID -eq 0 ]] || (($(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2) <= 1)); then
    profile_default_event=cpu
  else
    profile_default_event=ctimer
  fi
  profile_event="${BENCH_PROFILE_EVENT:-$profile_default_event}"
  profile_interval="${BENCH_PROFILE_INTERVAL:-2ms}"
  profile_seconds="${BENCH_PROFILE_SECONDS:-60}"
  profile_warmup=10
  if $quick; then
    profile_seconds=3
    profile_warmup=1
  fi
  {
    echo "command=${BENCH_PROFILE_SECONDS:+BENCH_PROFILE_SECONDS=$BENCH_PROFILE_SECONDS }scripts/bench.sh${*:+ $*}"
    machine_meta
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "profile_event=$profile_event"
    echo "profile_interval=$profile_interval"
    echo "profile_seconds=$profile_seconds"
    echo "profile_warmup_seconds=$profile_warmup"
  } >"$out/meta.properties"
  IFS=',' read -r -a profile_operations <<<"${BENCH_PROFILE_OPERATIONS:-findById,jpqlQuery,writeTransaction}"
  for operation in "${profile_operations[@]}"; do
    echo "== profiling $operation for ${profile_seconds} s (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    mkdir -p "$out/$operation"
    java "-agentpath:$lib=start,event=$profile_event,interval=$profile_interval,file=$out/$operation/stacks.collapsed,collapsed" \
      -cp "$jar" io.rwsplit.bench.overhead.CostProfile --operation "$operation" --seconds "$profile_seconds" \
      --warmup-s "$profile_warmup" --out "$out/$operation"
    java -cp "$jar" io.rwsplit.bench.report.CostBreakdown "$out/$operation"
    echo
  done
  echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/meta.properties"
  if $pattern_page; then
    java -cp "$jar" io.rwsplit.bench.report.ProfileSection "$out" docs/benchmarks.md
    echo "== rewrote the section \"Where hibernate-rwsplit's CPU time goes\" of docs/benchmarks.md"
  fi
  echo "== done (load average $(cut -d' ' -f1-3 /proc/loadavg)); tables in $out/*/breakdown.md"
  exit 0
fi

if $layer_only; then
  out="$REPO_ROOT/benchmarks/target/layer-results"
  rm -rf "$out"
  mkdir -p "$out"
  layer_opts=""
  $quick && layer_opts="--pairs 20 --batch 2000 --warmup-batches 5"
  {
    echo "command=${BENCH_LAYER_FORKS:+BENCH_LAYER_FORKS=$BENCH_LAYER_FORKS }scripts/bench.sh${*:+ $*}"
    machine_meta
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$out/meta.properties"
  echo "== the routing layer alone, $layer_forks JVM forks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  for ((fork = 1; fork <= layer_forks; fork++)); do
    # shellcheck disable=SC2086 # the options are deliberately word-split
    java -cp "$jar" io.rwsplit.bench.layer.RoutingLayerCost --fork "$fork" $layer_opts --out "$out/layer.tsv"
  done
  echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/meta.properties"
  if $pattern_page; then
    java -cp "$jar" io.rwsplit.bench.report.LayerSection "$out" docs/benchmarks.md
    echo "== rewrote the section \"What the routing layer alone costs\" of docs/benchmarks.md"
  fi
  echo "== done (load average $(cut -d' ' -f1-3 /proc/loadavg)); rows in $out/layer.tsv"
  exit 0
fi

if $pattern_only; then
  out="$REPO_ROOT/benchmarks/target/pattern-results"
  $pattern_audit && out="$REPO_ROOT/benchmarks/target/audit-results"
  rm -rf "$out"
  mkdir -p "$out"
  pattern=write-readback-9
  $pattern_pairs && pattern=pairs
  pattern_cell=PRIMARY_ONLY,UNIT_DEFAULT
  $pattern_with_eventual && pattern_cell+=,EVENTUAL
  $pattern_with_round_robin && pattern_cell+=,ROUND_ROBIN
  pattern_alternate=""
  result_prefix=workload
  if $pattern_audit; then
    pattern_cell=UNIT_DEFAULT
    pattern_alternate="audit_sample=0|audit_sample=100|audit_sample=1"
    result_prefix=audit
  fi
  started_mariadb=false
  started_pg=false
  stop_pattern_clusters() {
    if $started_mariadb; then
      RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh stop || true
    fi
    if $started_pg; then
      RWSPLIT_PG_CLUSTER_BASE_PORT="$pg_port" scripts/pg-cluster.sh stop || true
    fi
  }
  trap stop_pattern_clusters EXIT
  # $1: mariadb or postgres; $2: its primary port; $3: the TSV file; $4: the injected lag's label (default none:
  # then each stack first proves that its reads reach a replica; under lag hibernate-rwsplit may use the primary);
  # $5: the pattern (default the run's)
  pattern_workload() {
    local lag=${4:-none} prove=true workload_pattern=${5:-$pattern}
    [[ "$lag" == none ]] || prove=false
    java -Drwsplit.bench.proofs="$out/proofs.tsv" -cp "$jar" io.rwsplit.bench.workload.WorkloadRunner \
      --database "$1" --port "$2" --users "$users" --seconds "$seconds" --warmup "$warmup" --lag "$lag" \
      --prove "$prove" --modes "$pattern_cell" --rounds "$pattern_pairs_count" --pattern "$workload_pattern" \
      --prime 20 --out "$3" ${pattern_alternate:+--alternate "$pattern_alternate"}
  }
  # $1: mariadb or postgres; $2: its primary port; $3: the TSV file (--with-ceiling)
  pattern_ceiling() {
    local ceiling_seconds=8
    $quick && ceiling_seconds=2
    java -cp "$jar" io.rwsplit.bench.workload.SpreadCeiling --database "$1" --port "$2" --threads "$users" \
      --seconds "$ceiling_seconds" --rounds "$pattern_pairs_count" --out "$3"
  }
  # what PatternSection puts above the table (--page): the command with every setting that differs from its
  # default, the machine and the load average
  pattern_meta="$out/meta.properties"
  {
    env_set=""
    $pattern_mariadb && [[ -n "${BENCH_CLUSTER_PORT:-}" ]] && env_set+="BENCH_CLUSTER_PORT=$port "
    $pattern_postgres && [[ -n "${BENCH_PG_CLUSTER_PORT:-}" ]] && env_set+="BENCH_PG_CLUSTER_PORT=$pg_port "
    [[ -n "${BENCH_USERS:-}" ]] && env_set+="BENCH_USERS=$BENCH_USERS "
    [[ -n "${BENCH_PATTERN_PAIRS:-}" ]] && env_set+="BENCH_PATTERN_PAIRS=$BENCH_PATTERN_PAIRS "
    [[ -n "${BENCH_SECONDS:-}" ]] && env_set+="BENCH_SECONDS=$BENCH_SECONDS "
    echo "command=${env_set}scripts/bench.sh${*:+ $*}"
    machine_meta
    [[ -n "$pattern_skipped" ]] && echo "$pattern_skipped"
    echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$pattern_meta"
  echo "== pattern $pattern, $users users, $seconds s (+ $warmup s warm-up) per cell, $pattern_pairs_count rounds of $pattern_cell, the first rotating"
  echo "== load average before: $(sed -n 's/^load_before=//p' "$pattern_meta")"
  if $pattern_mariadb; then
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "== starting the cluster on port $port"
      RWSPLIT_CLUSTER_BASE_PORT="$port" scripts/cluster.sh start 2 "$port"
      started_mariadb=true
    fi
    delay_both cluster_sh 0
    echo "== MariaDB (port $port), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    pattern_workload mariadb "$port" "$out/$result_prefix.tsv"
    echo "== MariaDB done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    if $pattern_with_pairs; then
      pattern_workload mariadb "$port" "$out/workload-pairs.tsv" none pairs
      echo "== MariaDB pairs done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    if $pattern_with_ceiling; then
      pattern_ceiling mariadb "$port" "$out/ceiling.tsv"
      echo "== MariaDB ceiling done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
  fi
  if $pattern_postgres; then
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$pg_port") 2>/dev/null; then
      echo "== starting the PostgreSQL cluster on port $pg_port"
      RWSPLIT_PG_CLUSTER_BASE_PORT="$pg_port" scripts/pg-cluster.sh start 2 "$pg_port"
      started_pg=true
    fi
    delay_both pg_cluster_sh 0
    echo "== PostgreSQL (port $pg_port), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    pattern_workload postgres "$pg_port" "$out/$result_prefix-postgres.tsv"
    echo "== PostgreSQL done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    if $pattern_with_pairs; then
      pattern_workload postgres "$pg_port" "$out/workload-postgres-pairs.tsv" none pairs
      echo "== PostgreSQL pairs done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    if $pattern_with_ceiling; then
      pattern_ceiling postgres "$pg_port" "$out/ceiling-postgres.tsv"
      echo "== PostgreSQL ceiling done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
    if [[ -n "$pattern_pg_delay" ]]; then
      delay_both pg_cluster_sh "$pattern_pg_delay"
      echo "== PostgreSQL, both standbys $pattern_pg_delay behind, load average $(cut -d' ' -f1-3 /proc/loadavg)"
      pattern_workload postgres "$pg_port" "$out/workload-postgres-delay.tsv" "$pattern_pg_delay on both standbys"
      delay_both pg_cluster_sh 0
      echo "== PostgreSQL with lag done, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    fi
  fi
  for tsv in "$out"/*.tsv; do
    if [[ -f "$tsv" ]]; then
      echo "== rows of $tsv"
      cat "$tsv"
    fi
  done
  echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$pattern_meta"
  echo "== load average after: $(sed -n 's/^load_after=//p' "$pattern_meta")"
  if $pattern_page && $pattern_audit; then
    java -cp "$jar" io.rwsplit.bench.report.AuditSection "$out" docs/benchmarks.md
    echo "== rewrote the audit section of docs/benchmarks.md (raw results in $out)"
  elif $pattern_page; then
    java -cp "$jar" io.rwsplit.bench.report.PatternSection "$out" docs/benchmarks.md
    echo "== rewrote the pattern section of docs/benchmarks.md (raw results in $out)"
  fi
  exit 0
fi
rm -rf "$out"
mkdir -p "$out"

{
  # the command with every setting that differs from its default, so that the page's command reproduces the run
  env_set="BENCH_CLUSTER_PORT=$port"
  [[ -n "${BENCH_JMH_OPTS:-}" ]] && env_set+=" BENCH_JMH_OPTS=\"$BENCH_JMH_OPTS\""
  [[ -n "${BENCH_USERS:-}" ]] && env_set+=" BENCH_USERS=$BENCH_USERS"
  [[ -n "${BENCH_SECONDS:-}" ]] && env_set+=" BENCH_SECONDS=$BENCH_SECONDS"
  [[ -n "${BENCH_CPU_OPTS:-}" ]] && env_set+=" BENCH_CPU_OPTS=\"$BENCH_CPU_OPTS\""
  [[ -n "${BENCH_CPU_FORKS:-}" ]] && env_set+=" BENCH_CPU_FORKS=$BENCH_CPU_FORKS"
  echo "command=$env_set scripts/bench.sh${*:+ $*}"
  machine_meta
  echo "java=$(java -version 2>&1 | head -n 2 | tr '\n' ' ')"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "jmh_options=$jmh_opts"
  echo "cpu_options=$cpu_opts"
  echo "cpu_forks=$cpu_forks"
} >"$meta"

# JMH's own command line (java -jar benchmarks.jar ... works too); JmhMain also writes mean, error, best and
# median iteration of every result to the CSV file given first. -prof gc adds the allocation per operation;
# the forked JVMs inherit the system property naming the file the routing proofs are appended to.
proofs="$out/proofs.tsv"
jmh() {
  local csv=$1
  shift
  # shellcheck disable=SC2086 # JMH options are deliberately word-split
  java -Drwsplit.bench.proofs="$proofs" -cp "$jar" io.rwsplit.bench.JmhMain "$csv" "$@" -prof gc $jmh_opts
}

echo "== 1. overhead on H2"
jmh "$out/h2.csv" H2OverheadBenchmark
echo "== 1b. CPU time per operation on H2"
echo "load_cpu_h2=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
cpu_overhead_h2 "$out/overhead.tsv"

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
  delay_both cluster_sh 0
  echo "== 2. the same operations on the cluster"
  jmh "$out/cluster.csv" ClusterOverheadBenchmark -p port="$port"
  echo "== 2b. CPU time per operation on the cluster"
  echo "load_cpu_cluster=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
  cpu_overhead cluster --out "$out/overhead.tsv"

  # $1 labels the rows; $2: prove each mode's routing first (not under lag, where hibernate-rwsplit may send
  # reads to the primary on purpose); $3: settings added to the hibernate-rwsplit modes
  workload() {
    java -Drwsplit.bench.proofs="$proofs" -cp "$jar" io.rwsplit.bench.workload.WorkloadRunner --port "$port" \
      --users "$users" --seconds "$seconds" --warmup "$warmup" --lag "$1" --prove "$2" --extra "${3:-}" \
      --out "$out/workload.tsv"
  }
  echo "== 3. workload, no injected lag"
  workload "(i) none" true
  echo "== 3. workload, replica1 delayed by 1 s"
  cluster_sh delay 1 1
  workload "(ii) delay 1 on replica1" false
  # max_lag=0 keeps the lagging replicas in rotation, so that consistency (not health) decides each read
  echo "== 3. workload, both replicas delayed by 1 s"
  cluster_sh delay 2 1
  workload "(iii) delay 1 on both replicas" false max_lag=0
  delay_both cluster_sh 0
else
  echo "skipped_cluster=--no-cluster" >>"$meta"
  echo "skipped_workload=--no-cluster" >>"$meta"
fi

if $cluster && $pg_installed; then
  started_pg=false
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$pg_port") 2>/dev/null; then
    echo "== starting the PostgreSQL cluster on port $pg_port"
    pg_cluster_sh start 2 "$pg_port"
    started_pg=true
  fi
  trap 'stop_cluster; if $started_pg; then pg_cluster_sh delay 1 0 >/dev/null 2>&1 || true; pg_cluster_sh stop || true; fi' EXIT
  pg_workload() {
    java -cp "$jar" io.rwsplit.bench.workload.WorkloadRunner --database postgres --port "$pg_port" --users "$users" \
      --seconds "$seconds" --warmup "$warmup" --lag "$1" --modes PRIMARY_ONLY,RWSPLIT_DEFAULT,EVENTUAL \
      --out "$out/workload-postgres.tsv"
  }
  pg_cluster_sh delay 1 0 >/dev/null
  echo "== 3c. PostgreSQL workload, no injected lag"
  pg_workload "(i) none"
  echo "== 3c. PostgreSQL workload, standby 1 delayed by 1 s"
  pg_cluster_sh delay 1 1
  pg_workload "(ii) delay 1 on replica1"
  pg_cluster_sh delay 1 0
else
  echo "skipped_workload_postgres=--no-cluster or PostgreSQL not installed" >>"$meta"
fi

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
mkdir -p docs
# the sections other commands generate (pattern, audit) are kept when this run has no results of theirs
java -cp "$jar" io.rwsplit.bench.report.KeptSections save docs/benchmarks.md "$out/kept-sections"
# docs/benchmarks-notes.md (hand-written reading of the numbers) is appended to the generated page
java -cp "$jar" io.rwsplit.bench.report.Report "$out" docs/benchmarks.md docs/benchmarks.png docs/benchmarks-notes.md
pattern_results="$REPO_ROOT/benchmarks/target/pattern-results"
if [[ -f "$pattern_results/meta.properties" ]]; then
  java -cp "$jar" io.rwsplit.bench.report.PatternSection "$pattern_results" docs/benchmarks.md
fi
audit_results="$REPO_ROOT/benchmarks/target/audit-results"
if [[ -f "$audit_results/meta.properties" ]]; then
  java -cp "$jar" io.rwsplit.bench.report.AuditSection "$audit_results" docs/benchmarks.md
fi
java -cp "$jar" io.rwsplit.bench.report.KeptSections restore docs/benchmarks.md "$out/kept-sections"
echo "== wrote docs/benchmarks.md and docs/benchmarks.png (raw results in $out)"
