#!/usr/bin/env bash
# A throw-away replicated PostgreSQL cluster for integration tests: one primary and N hot standbys
# on 127.0.0.1, streaming replication (pg_basebackup -R), everything under one base dir. Same verbs
# as scripts/cluster.sh (the MariaDB cluster).
#
# Usage: scripts/pg-cluster.sh <command> [args]
#   start [replicas=2] [base-port=5441]  start (creating on first use) the primary and standbys
#   stop                                 stop every server of this cluster
#   destroy                              stop and delete the base dir (and the data dir)
#   status                               show nodes; exit 0 all running, 1 some, 3 none
#   info                                 machine-readable KEY=VALUE lines (ports, users, dir)
#   sync                                 wait until every standby replayed the primary's WAL
#   delay <replica> <seconds>|<N>ms      recovery_min_apply_delay on a standby (e.g. 1, or 500ms)
#   pause <replica> / resume <replica>   pg_wal_replay_pause() / pg_wal_replay_resume()
#   detach <replica> / attach <replica>  empty / restore a standby's primary_conninfo: it receives no WAL (it
#                                        replays what it has); a write then reaches no standby, and a promote
#                                        loses it
#   kill <node> / revive <node>          SIGKILL a server / start it again on the same data dir
#   freeze <replica> / thaw <replica>    SIGSTOP / SIGCONT a standby's postmaster and all its children
#                                        (backends, walreceiver, startup, ...): it stops answering but keeps
#                                        its sockets open (a paused VM); start, stop, destroy, sync, kill,
#                                        revive, reset and promote thaw every frozen server first
#   sql <node> "<statements>"            run SQL as superuser on database rwsplit, '|'-separated rows
#   reset                                revive, undelay, resume, attach, recreate database rwsplit, sync
#                                        (after a promote: rebuild the original topology first)
#   promote <replica>                    fail over: stop the primary if it runs, promote the standby
#                                        (pg_ctl promote) and re-point the other standbys to it
#   leftovers                            print the pids of this cluster's servers still running
#
# <node> is primary, replica1, replica2, ...; <replica> is replica1 or just 1.
# sql, delay, pause, resume, detach and attach refuse a frozen node.
# Servers refuse to run as root: as root the servers run as RWSPLIT_PG_OS_USER (default postgres),
# and when that user cannot write the base dir the data lives under /tmp/rwsplit-pg-<hash>/.
# Environment: RWSPLIT_PG_CLUSTER_DIR (default: <repo>/.pg-cluster),
#              RWSPLIT_PG_CLUSTER_TIMEOUT seconds for start/sync waits (default 30),
#              RWSPLIT_PG_CLUSTER_BASE_PORT default base port (default 5441),
#              RWSPLIT_PG_BIN directory of initdb/pg_ctl/postgres (default: newest /usr/lib/postgresql/*/bin).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
readonly CLUSTER_SCRIPT=pg-cluster.sh
# shellcheck source=lib/cluster-common.sh
source "$REPO_ROOT/scripts/lib/cluster-common.sh"
readonly BASE_DIR="${RWSPLIT_PG_CLUSTER_DIR:-$REPO_ROOT/.pg-cluster}"
readonly TIMEOUT="${RWSPLIT_PG_CLUSTER_TIMEOUT:-30}"
readonly APP_DB=rwsplit APP_USER=rwsplit APP_PASSWORD=rwsplit SUPERUSER=postgres
readonly DEFAULT_REPLICAS=2 DEFAULT_BASE_PORT="${RWSPLIT_PG_CLUSTER_BASE_PORT:-5441}"
readonly OS_USER_WANTED="${RWSPLIT_PG_OS_USER:-postgres}"

REPLICAS=""
BASE_PORT=""
DATA_ROOT=""
OS_USER=""
PG_BIN=""

die_node() {
  local node=$1
  shift
  echo "pg-cluster.sh: $node: $*" >&2
  local log
  log="$(node_dir "$node").log"
  if [[ -f "$log" ]]; then
    echo "---- last lines of $log ----" >&2
    tail -n 25 "$log" >&2
  fi
  exit 1
}

# ---------------------------------------------------------------- environment

find_bin() {
  if [[ -n "${RWSPLIT_PG_BIN:-}" ]]; then
    [[ -x "$RWSPLIT_PG_BIN/postgres" ]] || die "RWSPLIT_PG_BIN=$RWSPLIT_PG_BIN has no postgres binary"
    echo "$RWSPLIT_PG_BIN"
    return
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [[ -n "$dir" && -x "$dir/postgres" ]] || die "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)"
  echo "$dir"
}

# Runs a command as the user that owns the servers.
as_owner() {
  if [[ -z "$OS_USER" ]]; then
    "$@"
  else
    runuser -u "$OS_USER" -- "$@"
  fi
}

# Chooses the OS user and the data root on first start.
choose_owner() {
  if [[ $EUID -ne 0 ]]; then
    OS_USER=""
    DATA_ROOT="$BASE_DIR/data"
    return
  fi
  id -u "$OS_USER_WANTED" >/dev/null 2>&1 ||
    die "running as root, but the servers need an unprivileged user and '$OS_USER_WANTED' does not exist (set RWSPLIT_PG_OS_USER)"
  OS_USER=$OS_USER_WANTED
  if runuser -u "$OS_USER" -- test -x "$BASE_DIR" 2>/dev/null; then
    DATA_ROOT="$BASE_DIR/data"
  else
    # the base dir is not reachable for that user (a clone under /root): keep the data under /tmp
    DATA_ROOT="/tmp/rwsplit-pg-$(printf '%s' "$BASE_DIR" | cksum | cut -d' ' -f1)"
  fi
}

load_topology() {
  [[ -f "$BASE_DIR/cluster.env" ]] || die "no cluster in $BASE_DIR: run 'scripts/pg-cluster.sh start' first"
  # shellcheck source=/dev/null
  source "$BASE_DIR/cluster.env"
  PG_BIN=$(find_bin)
}

# ---------------------------------------------------------------- topology

node_dir() { echo "$DATA_ROOT/$1"; }

# ---------------------------------------------------------------- processes

# The postmaster's pid of a node, from postmaster.pid, checked against /proc.
node_pid() {
  local node=$1 file pid
  file="$(node_dir "$node")/postmaster.pid"
  [[ -r "$file" ]] || return 1
  pid=$(head -n 1 "$file")
  [[ "$pid" =~ ^[0-9]+$ ]] && process_alive "$pid" &&
    tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "-D $(node_dir "$node")" || return 1
  echo "$pid"
}

node_running() { node_pid "$1" >/dev/null; }

# Every live postmaster started on a data dir under our data root.
our_pids() {
  [[ -n "$DATA_ROOT" ]] || return 0
  local dir pid
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    if tr '\0' ' ' 2>/dev/null <"$dir/cmdline" | grep -qF -- "-D $DATA_ROOT/"; then
      process_alive "$pid" && echo "$pid"
    fi
  done
  return 0
}

# ---------------------------------------------------------------- SQL

psql_node() {
  local node=$1
  shift
  PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(node_port "$node")" \
    -U "$SUPERUSER" "$@"
}

sql() {
  local node=$1
  shift
  psql_node "$node" -d "$APP_DB" -c "$*"
}

sql_admin() {
  local node=$1
  shift
  psql_node "$node" -d postgres -c "$*"
}

accepts_connections() {
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$(node_port "$1")" -t 1 >/dev/null 2>&1
}

# ---------------------------------------------------------------- server lifecycle

node_config() {
  local node=$1
  cat <<EOF
# written by pg-cluster.sh
listen_addresses = '127.0.0.1'
port = $(node_port "$node")
unix_socket_directories = ''
max_connections = 100
shared_buffers = 16MB
fsync = off
full_page_writes = off
wal_level = replica
max_wal_senders = 10
wal_keep_size = 128MB
# frequent checkpoints, so that standbys make restart points often: a standby killed by a test replays only the WAL
# since its last one when it is revived (without them it replayed everything since the cluster was made: in CI,
# ~500 MB, longer than the 30 s a revive waits)
checkpoint_timeout = 30s
max_wal_size = 128MB
min_wal_size = 32MB
hot_standby = on
hot_standby_feedback = on
wal_receiver_status_interval = 1s
wal_retrieve_retry_interval = 200ms
max_standby_streaming_delay = 5s
logging_collector = off
log_min_messages = warning
EOF
}

init_primary() {
  local dir
  dir=$(node_dir primary)
  [[ -f "$dir/PG_VERSION" ]] && return 0
  as_owner rm -rf "$dir"
  as_owner mkdir -p "$dir"
  as_owner chmod 700 "$dir"
  as_owner "$PG_BIN/initdb" -D "$dir" -U "$SUPERUSER" -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
    >"$DATA_ROOT/primary-initdb.log" 2>&1 || {
    echo "pg-cluster.sh: initdb failed, from $DATA_ROOT/primary-initdb.log:" >&2
    tail -n 25 "$DATA_ROOT/primary-initdb.log" >&2
    return 1
  }
  node_config primary | as_owner tee "$dir/rwsplit.conf" >/dev/null
  echo "include = 'rwsplit.conf'" | as_owner tee -a "$dir/postgresql.conf" >/dev/null
  {
    echo "host all all 127.0.0.1/32 trust"
    echo "host replication all 127.0.0.1/32 trust"
  } | as_owner tee "$dir/pg_hba.conf" >/dev/null
}

# A standby of SOURCE (default: the primary), from a fresh base backup.
init_replica() {
  local node=$1 source=${2:-primary} dir
  dir=$(node_dir "$node")
  [[ -f "$dir/PG_VERSION" ]] && return 0
  as_owner rm -rf "$dir"
  as_owner "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$(node_port "$source")" -U "$SUPERUSER" -D "$dir" -R -X stream \
    -c fast --no-sync >"$DATA_ROOT/$node-basebackup.log" 2>&1 || {
    echo "pg-cluster.sh: $node: pg_basebackup failed:" >&2
    tail -n 25 "$DATA_ROOT/$node-basebackup.log" >&2
    return 1
  }
  node_config "$node" | as_owner tee "$dir/rwsplit.conf" >/dev/null
  # the standby's name in pg_stat_replication
  echo "primary_conninfo = '$(conninfo "$node" "$source")'" | as_owner tee -a "$dir/rwsplit.conf" >/dev/null
  # pg_basebackup -R wrote a primary_conninfo there too, which would win over rwsplit.conf
  as_owner sed -i '/^primary_conninfo/d' "$dir/postgresql.auto.conf"
}

conninfo() { echo "host=127.0.0.1 port=$(node_port "$2") user=$SUPERUSER application_name=$1"; }

launch_node() {
  local node=$1 dir
  dir=$(node_dir "$node")
  node_running "$node" && return 0
  port_in_use "$(node_port "$node")" &&
    die "$node: port $(node_port "$node") is already used by a process that is not part of $DATA_ROOT"
  as_owner rm -f "$dir/postmaster.pid"
  # detached: no inherited stdout/stderr (a Java Process reading ours would hang) and no lock fd
  as_owner setsid "$PG_BIN/postgres" -D "$dir" </dev/null >>"$dir.log" 2>&1 9>&- &
}

wait_ready() {
  local node=$1 deadline=$((SECONDS + TIMEOUT))
  until accepts_connections "$node"; do
    ((SECONDS < deadline)) || die_node "$node" "not accepting connections on port $(node_port "$node") after ${TIMEOUT}s"
    if ((SECONDS > deadline - TIMEOUT + 2)) && ! node_running "$node"; then
      die_node "$node" "postgres exited during startup"
    fi
    sleep 0.05
  done
}

bootstrap_primary() {
  [[ -f "$DATA_ROOT/bootstrapped" ]] && return 0
  sql_admin primary "CREATE ROLE $APP_USER LOGIN PASSWORD '$APP_PASSWORD'" >/dev/null ||
    die_node primary "could not create role $APP_USER"
  sql_admin primary "CREATE DATABASE $APP_DB OWNER $APP_USER ENCODING 'UTF8'" >/dev/null ||
    die_node primary "could not create database $APP_DB"
  as_owner touch "$DATA_ROOT/bootstrapped"
}

stop_pids() {
  local pid deadline=$((SECONDS + TIMEOUT))
  kill -INT "$@" 2>/dev/null || true # fast shutdown
  for pid in "$@"; do
    while process_alive "$pid"; do
      if ((SECONDS >= deadline)); then
        echo "pg-cluster.sh: server $pid ignored SIGINT for ${TIMEOUT}s, sending SIGKILL" >&2
        kill_tree "$pid"
        break
      fi
      sleep 0.05
    done
  done
}

# SIGKILL a postmaster and its children (the backends would otherwise keep the shared memory).
kill_tree() {
  local pid=$1 children
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null || true)
  kill -KILL "$pid" 2>/dev/null || true
  # shellcheck disable=SC2086
  [[ -z "$children" ]] || kill -KILL $children 2>/dev/null || true
  wait_gone "$pid" 10 || die "could not kill pid $pid"
  local child
  for child in $children; do wait_gone "$child" 10 || true; done
}

# ---------------------------------------------------------------- replication helpers

# $2: whole seconds (5) or milliseconds (500ms)
set_delay() {
  local node=$1 delay=$2
  [[ "$delay" =~ ms$ ]] || delay="${delay}s"
  sql_admin "$node" "ALTER SYSTEM SET recovery_min_apply_delay = '$delay'" >/dev/null &&
    sql_admin "$node" "SELECT pg_reload_conf()" >/dev/null ||
    die_node "$node" "could not set recovery_min_apply_delay=$delay"
}

do_sync() {
  local lsn node deadline current
  current=$(current_primary)
  lsn=$(sql_admin "$current" 'SELECT pg_current_wal_lsn()') || die_node "$current" "cannot read pg_current_wal_lsn()"
  for node in $(followers); do
    deadline=$((SECONDS + TIMEOUT))
    until [[ "$(sql_admin "$node" "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn" 2>/dev/null)" == t ]]; do
      ((SECONDS < deadline)) ||
        die "$node: did not replay the primary's WAL up to $lsn within ${TIMEOUT}s (is it paused, delayed or down? see 'pg-cluster.sh status')"
      sleep 0.05
    done
  done
}

# ---------------------------------------------------------------- failover

# Whether NODE replayed SOURCE's WAL up to LSN (then it follows SOURCE's timeline).
replayed() {
  [[ "$(sql_admin "$1" "SELECT pg_last_wal_replay_lsn() >= '$2'::pg_lsn" 2>/dev/null)" == t ]]
}

# Stops a standby's WAL receiver for good (an empty primary_conninfo starts none) and waits until it is gone.
detach() {
  local node=$1 deadline
  require_thawed "$node"
  sql_admin "$node" "ALTER SYSTEM SET primary_conninfo = ''" >/dev/null &&
    sql_admin "$node" 'SELECT pg_reload_conf()' >/dev/null || die_node "$node" "could not empty primary_conninfo"
  deadline=$((SECONDS + TIMEOUT))
  until [[ "$(sql_admin "$node" 'SELECT count(*) FROM pg_stat_wal_receiver')" == 0 ]]; do
    ((SECONDS < deadline)) || die_node "$node" "its WAL receiver still runs ${TIMEOUT}s after primary_conninfo was emptied"
    sleep 0.02
  done
}

# Gives a detached standby its primary_conninfo back (rwsplit.conf's, the one it was built with).
attach() {
  local node=$1
  require_thawed "$node"
  sql_admin "$node" 'ALTER SYSTEM RESET primary_conninfo' >/dev/null &&
    sql_admin "$node" 'SELECT pg_reload_conf()' >/dev/null || die_node "$node" "could not restore primary_conninfo"
}

# Re-points a standby to SOURCE (it follows the new timeline: recovery_target_timeline is 'latest');
# a standby that cannot (it replayed WAL the new primary never had: "new timeline forked off current
# database system timeline before current recovery point") is rebuilt from a base backup.
follow() {
  local node=$1 source=$2 deadline lsn
  sql_admin "$node" "ALTER SYSTEM SET primary_conninfo = '$(conninfo "$node" "$source")'" >/dev/null &&
    sql_admin "$node" 'SELECT pg_reload_conf()' >/dev/null || die_node "$node" "could not re-point it to $source"
  # a write on the new timeline, which only a standby that follows it replays
  sql_admin "$source" 'SELECT pg_switch_wal()' >/dev/null
  lsn=$(sql_admin "$source" 'SELECT pg_current_wal_lsn()') || die_node "$source" "cannot read pg_current_wal_lsn()"
  deadline=$((SECONDS + 10))
  until replayed "$node" "$lsn"; do
    if ((SECONDS >= deadline)); then
      echo "pg-cluster.sh: $node did not follow $source's timeline within 10s: rebuilding it from a base backup" >&2
      stop_pids "$(node_pid "$node")"
      as_owner rm -rf "$(node_dir "$node")"
      init_replica "$node" "$source" || die "$node: pg_basebackup from $source failed"
      launch_node "$node"
      wait_ready "$node"
      return
    fi
    sleep 0.05
  done
}

cmd_promote() {
  local target node deadline
  target=$(parse_replica "${1:-}")
  [[ ! -f "$BASE_DIR/promoted" ]] ||
    die "$(current_primary) is the primary already (promoted); run 'reset' or 'start' to rebuild the original topology first"
  node_running "$target" || die "$target is not running"
  thaw_all
  # a failover never leaves two writable primaries: the old one goes first
  if node_running primary; then stop_pids "$(node_pid primary)"; fi
  as_owner "$PG_BIN/pg_ctl" promote -D "$(node_dir "$target")" >/dev/null || die_node "$target" "pg_ctl promote failed"
  deadline=$((SECONDS + TIMEOUT))
  until [[ "$(sql_admin "$target" 'SELECT pg_is_in_recovery()' 2>/dev/null)" == f ]]; do
    ((SECONDS < deadline)) || die_node "$target" "still in recovery ${TIMEOUT}s after pg_ctl promote"
    sleep 0.02
  done
  echo "$target" >"$BASE_DIR/promoted"
  for node in $(followers); do
    node_running "$node" && follow "$node" "$target"
  done
  echo "$target promoted: primary 127.0.0.1:$(node_port "$target"), followed by $(followers | tr '\n' ' ')"
}

# After a promote: the original primary back, every standby rebuilt from it (they are on another timeline).
restore_topology() {
  [[ -f "$BASE_DIR/promoted" ]] && mv "$BASE_DIR/promoted" "$BASE_DIR/restoring"
  [[ -f "$BASE_DIR/restoring" ]] || return 0
  local node pid
  for node in $(replicas); do
    if pid=$(node_pid "$node"); then stop_pids "$pid"; fi
    as_owner rm -rf "$(node_dir "$node")"
  done
  launch_node primary
  wait_ready primary
  for node in $(replicas); do init_replica "$node" || die "$node: pg_basebackup failed"; done
  for node in $(replicas); do launch_node "$node"; done
  for node in $(replicas); do wait_ready "$node"; done
  rm -f "$BASE_DIR/restoring"
  echo "original topology restored: primary 127.0.0.1:$BASE_PORT"
}

# ---------------------------------------------------------------- commands

cmd_start() {
  local want_replicas=${1:-} want_port=${2:-}
  [[ -z "$want_replicas" || "$want_replicas" =~ ^[1-9][0-9]*$ ]] || die "replicas must be a positive number, got '$want_replicas'"
  [[ -z "$want_port" || "$want_port" =~ ^[0-9]+$ ]] || die "base-port must be a number, got '$want_port'"
  mkdir -p "$BASE_DIR"
  PG_BIN=$(find_bin)
  if [[ -f "$BASE_DIR/cluster.env" ]]; then
    load_topology
    if [[ -n "$want_replicas$want_port" ]] &&
      [[ "${want_replicas:-$REPLICAS}" != "$REPLICAS" || "${want_port:-$BASE_PORT}" != "$BASE_PORT" ]]; then
      die "the cluster in $BASE_DIR has $REPLICAS replicas on base port $BASE_PORT; run 'scripts/pg-cluster.sh destroy' to change that"
    fi
  else
    REPLICAS=${want_replicas:-$DEFAULT_REPLICAS}
    BASE_PORT=${want_port:-$DEFAULT_BASE_PORT}
    choose_owner
  fi
  if [[ -n "$OS_USER" ]]; then
    mkdir -p "$DATA_ROOT"
    chown "$OS_USER" "$DATA_ROOT"
    chmod 700 "$DATA_ROOT"
  else
    mkdir -p "$DATA_ROOT"
  fi
  printf 'REPLICAS=%s\nBASE_PORT=%s\nDATA_ROOT=%s\nOS_USER=%s\n' "$REPLICAS" "$BASE_PORT" "$DATA_ROOT" "$OS_USER" \
    >"$BASE_DIR/cluster.env"

  thaw_all
  local node
  for node in $(nodes); do
    node_running "$node" || ! port_in_use "$(node_port "$node")" ||
      die "$node: port $(node_port "$node") is already used by a process that is not part of $DATA_ROOT"
  done
  init_primary || die "initdb failed"
  restore_topology
  launch_node primary
  wait_ready primary
  bootstrap_primary
  for node in $(replicas); do init_replica "$node" || die "pg_basebackup failed"; done
  for node in $(replicas); do launch_node "$node"; done
  for node in $(replicas); do wait_ready "$node"; done
  do_sync
  echo "cluster started: primary 127.0.0.1:$BASE_PORT, $REPLICAS standbys on ports $((BASE_PORT + 1))..$((BASE_PORT + REPLICAS)), data $DATA_ROOT"
}

cmd_stop() {
  [[ -f "$BASE_DIR/cluster.env" ]] || return 0
  load_topology
  thaw_all
  local pids
  mapfile -t pids < <(our_pids)
  ((${#pids[@]} == 0)) || stop_pids "${pids[@]}"
  [[ -z "$(our_pids)" ]] || die "servers still running after stop: $(our_pids | tr '\n' ' ')"
  echo "cluster stopped"
}

cmd_destroy() {
  cmd_stop
  if [[ -f "$BASE_DIR/cluster.env" ]]; then
    load_topology
    [[ "$DATA_ROOT" == "$BASE_DIR/data" || "$DATA_ROOT" == /tmp/rwsplit-pg-* ]] && rm -rf "$DATA_ROOT"
  fi
  rm -rf "$BASE_DIR"
  echo "cluster deleted: $BASE_DIR"
}

cmd_status() {
  if [[ ! -f "$BASE_DIR/cluster.env" ]]; then
    echo "no cluster in $BASE_DIR"
    return 3
  fi
  load_topology
  local node running=0 total=0 pid
  for node in $(nodes); do
    total=$((total + 1))
    if pid=$(node_pid "$node"); then
      running=$((running + 1))
      if process_frozen "$pid"; then
        printf '%-9s up   pid %-7s port %s frozen (SIGSTOP: answers nothing until thaw)\n' "$node" "$pid" "$(node_port "$node")"
      elif [[ "$node" == "$(current_primary)" ]]; then
        printf '%-9s up   pid %-7s port %s primary wal_lsn=%s timeline=%s\n' "$node" "$pid" "$(node_port "$node")" \
          "$(sql_admin "$node" 'SELECT pg_current_wal_lsn()' 2>/dev/null || echo '?')" \
          "$(sql_admin "$node" 'SELECT timeline_id FROM pg_control_checkpoint()' 2>/dev/null || echo '?')"
      else
        printf '%-9s up   pid %-7s port %s %s\n' "$node" "$pid" "$(node_port "$node")" \
          "$(sql_admin "$node" "SELECT 'receive_lsn=' || coalesce(pg_last_wal_receive_lsn()::text, '-')
             || ' replay_lsn=' || coalesce(pg_last_wal_replay_lsn()::text, '-')
             || ' paused=' || pg_is_wal_replay_paused()
             || ' delay=' || current_setting('recovery_min_apply_delay')" 2>/dev/null || echo '?')"
      fi
    else
      printf '%-9s down port %s\n' "$node" "$(node_port "$node")"
    fi
  done
  ((running == total)) && return 0
  ((running == 0)) && return 3
  return 1
}

cmd_info() {
  echo "DIR=$BASE_DIR"
  echo "DATA_DIR=$DATA_ROOT"
  echo "REPLICAS=$REPLICAS"
  echo "BASE_PORT=$BASE_PORT"
  echo "DATABASE=$APP_DB"
  echo "USER=$APP_USER"
  echo "PASSWORD=$APP_PASSWORD"
}

cmd_kill() {
  local node pid
  node=$(parse_node "${1:-}")
  pid=$(node_pid "$node") || {
    echo "$node is not running"
    return 0
  }
  thaw_pid "$pid"
  kill_tree "$pid"
  echo "$node killed (pid $pid)"
}

cmd_revive() {
  local node
  node=$(parse_node "${1:-}")
  thaw_all
  launch_node "$node"
  wait_ready "$node"
  echo "$node running"
}

cmd_reset() {
  local node
  thaw_all
  restore_topology
  for node in $(nodes); do launch_node "$node"; done
  for node in $(nodes); do wait_ready "$node"; done
  for node in $(replicas); do
    [[ "$(sql_admin "$node" "SELECT current_setting('recovery_min_apply_delay')")" == 0 ]] || set_delay "$node" 0
    sql_admin "$node" 'SELECT pg_wal_replay_resume()' >/dev/null || die_node "$node" "could not resume replay"
    [[ -n "$(sql_admin "$node" "SELECT current_setting('primary_conninfo')")" ]] || attach "$node"
  done
  sql_admin primary "DROP DATABASE IF EXISTS $APP_DB WITH (FORCE)" >/dev/null &&
    sql_admin primary "CREATE DATABASE $APP_DB OWNER $APP_USER ENCODING 'UTF8'" >/dev/null ||
    die_node primary "could not recreate database $APP_DB"
  do_sync
  echo "cluster reset"
}

main() {
  local command=${1:-}
  [[ $# -gt 0 ]] && shift
  case "$command" in
    start | stop | destroy | kill | revive | reset | delay | pause | resume | detach | attach | promote | freeze | thaw)
      mkdir -p "$BASE_DIR"
      exec 9>"$BASE_DIR/.lock"
      flock -w "$TIMEOUT" 9 || die "another pg-cluster.sh holds $BASE_DIR/.lock"
      ;;
  esac
  if [[ ! "$command" =~ ^(start|stop|destroy|status|leftovers|help|-h|--help|)$ ]]; then
    load_topology
  fi
  case "$command" in
    start) cmd_start "$@" ;;
    stop) cmd_stop ;;
    destroy) cmd_destroy ;;
    status) cmd_status ;;
    info) cmd_info ;;
    sync) thaw_all && do_sync && echo "replicas in sync" ;;
    delay)
      local node
      node=$(parse_replica "${1:-}")
      [[ "${2:-}" =~ ^[0-9]+(ms)?$ ]] || die "usage: delay <replica> <seconds>|<N>ms (1, 500ms): ${2:-}"
      require_thawed "$node"
      set_delay "$node" "$2"
      ;;
    pause | resume)
      local node
      node=$(parse_replica "${1:-}")
      require_thawed "$node"
      sql_admin "$node" "SELECT pg_wal_replay_$command()" >/dev/null
      ;;
    detach) detach "$(parse_replica "${1:-}")" ;;
    attach) attach "$(parse_replica "${1:-}")" ;;
    kill) cmd_kill "$@" ;;
    revive) cmd_revive "$@" ;;
    freeze) cmd_freeze "$@" ;;
    thaw) cmd_thaw "$@" ;;
    sql)
      local node
      node=$(parse_node "${1:-}")
      [[ $# -ge 2 ]] || die "usage: sql <node> \"<statements>\""
      require_thawed "$node"
      sql "$node" "$2"
      ;;
    reset) cmd_reset ;;
    promote) cmd_promote "$@" ;;
    leftovers)
      [[ -f "$BASE_DIR/cluster.env" ]] || return 0
      load_topology
      our_pids
      ;;
    -h | --help | help | "") sed -n '2,37p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$command' (try --help)" ;;
  esac
}

main "$@"
