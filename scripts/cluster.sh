#!/usr/bin/env bash
# A throw-away replicated MariaDB cluster for integration tests: one primary and N replicas on
# 127.0.0.1, GTID replication, everything (datadirs, sockets, pid files, logs) under one base dir.
#
# Usage: scripts/cluster.sh <command> [args]
#   start [replicas=2] [base-port=3307]  start (creating on first use) the primary and replicas
#   stop                                 stop every server of this cluster
#   destroy                              stop and delete the base dir
#   status                               show nodes; exit 0 all running, 1 some, 3 none
#   info                                 machine-readable KEY=VALUE lines (ports, users, dir)
#   sync                                 wait until every replica applied the primary's binlog
#   delay <replica> <seconds>            CHANGE MASTER TO MASTER_DELAY on a replica
#   pause <replica> / resume <replica>   stop / start a replica's SQL thread
#   detach <replica> / attach <replica>  stop / start a replica's IO thread: it receives nothing (it applies
#                                        what it has); a write then reaches no replica, and a promote loses it
#   kill <node> / revive <node>          SIGKILL a server / start it again on the same datadir
#   freeze <replica> / thaw <replica>    SIGSTOP / SIGCONT a replica's mariadbd: it stops answering but keeps
#                                        its sockets open (a paused VM); start, stop, destroy, sync, kill,
#                                        revive, reset and promote thaw every frozen server first
#   sql <node> "<statements>"            run SQL as root, tab-separated output without headers
#   reset                                revive, undelay, resume, attach, recreate database rwsplit, sync
#                                        (after a promote: rebuild the original topology first)
#   promote <replica>                    fail over: stop the primary if it runs, make the replica the
#                                        primary (read_only=OFF) and re-point the other replicas to it
#
# <node> is primary, replica1, replica2, ...; <replica> is replica1 or just 1.
# sql, delay, pause, resume, detach and attach refuse a frozen node.
# Environment: RWSPLIT_CLUSTER_DIR (default: <repo>/.cluster),
#              RWSPLIT_CLUSTER_TIMEOUT seconds for start/sync waits (default 30),
#              RWSPLIT_CLUSTER_BASE_PORT default base port (default 3307).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly REPO_ROOT
readonly CLUSTER_SCRIPT=cluster.sh
# shellcheck source=lib/cluster-common.sh
source "$REPO_ROOT/scripts/lib/cluster-common.sh"
readonly BASE_DIR="${RWSPLIT_CLUSTER_DIR:-$REPO_ROOT/.cluster}"
readonly TIMEOUT="${RWSPLIT_CLUSTER_TIMEOUT:-30}"
readonly APP_DB=rwsplit APP_USER=rwsplit APP_PASSWORD=rwsplit
readonly REPL_USER=repl REPL_PASSWORD=repl
readonly DEFAULT_REPLICAS=2 DEFAULT_BASE_PORT="${RWSPLIT_CLUSTER_BASE_PORT:-3307}"

REPLICAS=""
BASE_PORT=""

# die, showing the end of a node's error log
die_node() {
  local node=$1
  shift
  echo "cluster.sh: $node: $*" >&2
  if [[ -f "$(node_dir "$node")/error.log" ]]; then
    echo "---- last lines of $(node_dir "$node")/error.log ----" >&2
    tail -n 25 "$(node_dir "$node")/error.log" >&2
  fi
  exit 1
}

# ---------------------------------------------------------------- topology

node_dir() { echo "$BASE_DIR/$1"; }

load_topology() {
  [[ -f "$BASE_DIR/cluster.env" ]] || die "no cluster in $BASE_DIR: run 'scripts/cluster.sh start' first"
  # shellcheck source=/dev/null
  source "$BASE_DIR/cluster.env"
}

# ---------------------------------------------------------------- processes

pid_file() { echo "$(node_dir "$1")/mariadbd.pid"; }

# True if PID is a server of this node (guards against reused pids and foreign servers).
process_is_node() {
  local pid=$1 node=$2
  process_alive "$pid" || return 1
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF -- "--defaults-file=$(node_dir "$node")/my.cnf"
}

# Prints the pid of the node's running server, or fails (removing a stale pid file).
node_pid() {
  local node=$1 file pid
  file=$(pid_file "$node")
  [[ -f "$file" ]] || return 1
  pid=$(<"$file")
  if [[ "$pid" =~ ^[0-9]+$ ]] && process_is_node "$pid" "$node"; then
    echo "$pid"
    return 0
  fi
  rm -f "$file"
  return 1
}

node_running() { node_pid "$1" >/dev/null; }

# Every live server started from a config under our base dir, with or without a pid file.
our_pids() {
  local dir pid
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    if tr '\0' ' ' 2>/dev/null <"$dir/cmdline" | grep -qF -- "--defaults-file=$BASE_DIR/"; then
      process_alive "$pid" && echo "$pid"
    fi
  done
  return 0
}

# ---------------------------------------------------------------- SQL

# Runs SQL as root on a node; tab-separated rows, no header.
sql() {
  local node=$1
  shift
  mariadb --no-defaults -h 127.0.0.1 -P "$(node_port "$node")" -u root \
    --connect-timeout=5 --batch --skip-column-names -e "$*"
}

# Prints one field of SHOW SLAVE STATUS (10.11 keeps the old column names).
slave_field() {
  mariadb --no-defaults -h 127.0.0.1 -P "$(node_port "$1")" -u root --connect-timeout=5 \
    -e 'SHOW SLAVE STATUS\G' | awk -v field="$2" -F': ' '$1 ~ "^ *" field "$" { print $2 }'
}

accepts_connections() {
  mariadb --no-defaults -h 127.0.0.1 -P "$(node_port "$1")" -u root --connect-timeout=1 \
    -e 'SELECT 1' >/dev/null 2>&1
}

# ---------------------------------------------------------------- server lifecycle

write_config() {
  local node=$1 dir
  dir=$(node_dir "$node")
  mkdir -p "$dir/tmp"
  {
    echo "[mariadbd]"
    echo "user = root"
    echo "datadir = $dir/data"
    echo "socket = $dir/mariadbd.sock"
    echo "pid-file = $dir/mariadbd.pid"
    echo "log-error = $dir/error.log"
    echo "tmpdir = $dir/tmp"
    echo "port = $(node_port "$node")"
    echo "bind-address = 127.0.0.1"
    echo "server_id = $(($(node_index "$node") + 1))"
    echo "log_bin = $dir/data/binlog"
    echo "relay_log = $dir/data/relay"
    echo "log_slave_updates = ON"
    echo "binlog_format = ROW"
    echo "character-set-server = utf8mb4"
    echo "skip-name-resolve"
    echo "performance_schema = OFF"
    echo "innodb_buffer_pool_size = 32M"
    echo "innodb_log_file_size = 16M"
    echo "innodb_use_native_aio = OFF"
    echo "innodb_flush_log_at_trx_commit = 2"
    echo "sync_binlog = 0"
    echo "key_buffer_size = 1M"
    echo "max_connections = 100"
    echo "slave_net_timeout = 10"
    if [[ "$node" == "$(current_primary)" ]]; then
      echo "read_only = OFF"
    else
      echo "read_only = ON"
    fi
  } >"$dir/my.cnf"
}

# Creates the datadir once (safe to run for several nodes in parallel).
init_node() {
  local node=$1 dir
  dir=$(node_dir "$node")
  [[ -d "$dir/data/mysql" ]] && return 0
  rm -rf "$dir/data"
  # a private tmpdir: concurrent bootstraps sharing /tmp have been seen to crash on each other's temp tables
  mkdir -p "$dir/tmp"
  mariadb-install-db --no-defaults --user=root --datadir="$dir/data" --tmpdir="$dir/tmp" --skip-test-db \
    --auth-root-authentication-method=normal --skip-name-resolve --innodb-log-file-size=16M \
    >"$dir/install.log" 2>&1 || {
    echo "cluster.sh: $node: mariadb-install-db failed, from $dir/install.log:" >&2
    grep -E 'ERROR|signal' "$dir/install.log" >&2 || tail -n 25 "$dir/install.log" >&2
    return 1
  }
}

# Launches the node's server in the background, detached from our stdout/stderr.
launch_node() {
  local node=$1 dir pid
  dir=$(node_dir "$node")
  node_running "$node" && return 0
  port_in_use "$(node_port "$node")" &&
    die "$node: port $(node_port "$node") is already used by a process that is not part of $BASE_DIR"
  write_config "$node"
  # detached: no inherited stdout/stderr (a Java Process reading ours would hang) and no lock fd
  setsid mariadbd --defaults-file="$dir/my.cnf" </dev/null >>"$dir/console.log" 2>&1 9>&- &
  pid=$!
  echo "$pid" >"$(pid_file "$node")"
}

wait_ready() {
  local node=$1 deadline=$((SECONDS + TIMEOUT))
  until accepts_connections "$node"; do
    node_running "$node" || die_node "$node" "mariadbd exited during startup"
    ((SECONDS < deadline)) || die_node "$node" "not accepting connections on port $(node_port "$node") after ${TIMEOUT}s"
    sleep 0.05
  done
}

# Creates users and the app database on the primary; replicas get them through replication.
bootstrap_primary() {
  [[ -f "$BASE_DIR/primary/bootstrapped" ]] && return 0
  sql primary "
    DROP USER IF EXISTS ''@'localhost';
    CREATE USER IF NOT EXISTS '$REPL_USER'@'%' IDENTIFIED BY '$REPL_PASSWORD';
    GRANT REPLICATION SLAVE ON *.* TO '$REPL_USER'@'%';
    CREATE USER IF NOT EXISTS '$APP_USER'@'%' IDENTIFIED BY '$APP_PASSWORD';
    GRANT ALL PRIVILEGES ON \`$APP_DB\`.* TO '$APP_USER'@'%';
    GRANT BINLOG MONITOR, SLAVE MONITOR ON *.* TO '$APP_USER'@'%';
    CREATE DATABASE IF NOT EXISTS \`$APP_DB\` CHARACTER SET utf8mb4;
  " || die_node primary "could not create users"
  touch "$BASE_DIR/primary/bootstrapped"
}

configure_replica() {
  local node=$1
  [[ -n "$(sql "$node" 'SHOW SLAVE STATUS')" ]] && return 0
  sql "$node" "
    CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$BASE_PORT,
      MASTER_USER='$REPL_USER', MASTER_PASSWORD='$REPL_PASSWORD',
      MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1;
    START SLAVE;
  " || die_node "$node" "could not configure replication"
}

stop_pids() {
  local pid deadline=$((SECONDS + TIMEOUT))
  # A server still starting ignores SIGTERM: repeat it until the server goes away.
  while :; do
    local alive=()
    for pid in "$@"; do
      process_alive "$pid" && alive+=("$pid")
    done
    ((${#alive[@]} == 0)) && return 0
    if ((SECONDS >= deadline)); then
      echo "cluster.sh: servers ${alive[*]} ignored SIGTERM for ${TIMEOUT}s, sending SIGKILL" >&2
      kill -KILL "${alive[@]}" 2>/dev/null || true
      for pid in "${alive[@]}"; do wait_gone "$pid" 5 || die "could not kill pid $pid"; done
      return 0
    fi
    kill -TERM "${alive[@]}" 2>/dev/null || true
    local until=$((SECONDS + 1))
    while ((SECONDS < until)); do
      local still=0
      for pid in "${alive[@]}"; do process_alive "$pid" && still=1; done
      ((still)) || break
      sleep 0.05
    done
  done
}

# ---------------------------------------------------------------- replication helpers

set_delay() {
  local node=$1 seconds=$2
  sql "$node" "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=$seconds; START SLAVE;" ||
    die_node "$node" "could not set MASTER_DELAY=$seconds"
}

do_sync() {
  local gtid node result current
  current=$(current_primary)
  gtid=$(sql "$current" 'SELECT @@gtid_binlog_pos') || die_node "$current" "cannot read gtid_binlog_pos"
  for node in $(followers); do
    result=$(sql "$node" "SELECT MASTER_GTID_WAIT('$gtid', $TIMEOUT)") || die_node "$node" "MASTER_GTID_WAIT failed"
    [[ "$result" == 0 ]] || die "$node: did not apply primary position '$gtid' within ${TIMEOUT}s (is it paused, delayed or broken? see 'cluster.sh status')"
  done
}

# ---------------------------------------------------------------- failover

# Points a replica at another node (GTID, from its own applied position) and starts replicating.
replicate_from() {
  local node=$1 source=$2
  sql "$node" "
    STOP SLAVE;
    CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$(node_port "$source"),
      MASTER_USER='$REPL_USER', MASTER_PASSWORD='$REPL_PASSWORD',
      MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1;
    START SLAVE;
  " || die_node "$node" "could not replicate from $source"
}

# Stops fetching from the (gone) primary and applies everything already received; prints the position.
drain() {
  local node=$1 received
  received=$(mariadb --no-defaults -h 127.0.0.1 -P "$(node_port "$node")" -u root --connect-timeout=5 \
    -e 'STOP SLAVE IO_THREAD; START SLAVE SQL_THREAD; SHOW SLAVE STATUS\G' | awk -F': ' '$1 ~ "^ *Gtid_IO_Pos$" { print $2 }') ||
    die_node "$node" "could not stop its IO thread"
  sql "$node" "SELECT IF(MASTER_GTID_WAIT('$received', $TIMEOUT) = 0, @@gtid_slave_pos, 'timeout')" |
    grep -v '^timeout$' || die "$node: did not apply its relay log ('$received') within ${TIMEOUT}s"
}

# Whether NODE has applied POSITION (MASTER_GTID_WAIT with no wait: 0 = contained).
has_applied() {
  [[ -z "$2" || "$(sql "$1" "SELECT MASTER_GTID_WAIT('$2', 0)")" == 0 ]]
}

cmd_promote() {
  local target node position
  target=$(parse_replica "${1:-}")
  [[ ! -f "$BASE_DIR/promoted" ]] ||
    die "$(current_primary) is the primary already (promoted); run 'reset' or 'start' to rebuild the original topology first"
  node_running "$target" || die "$target is not running"
  thaw_all
  # a failover never leaves two writable primaries: the old one goes first
  if node_running primary; then stop_pids "$(node_pid primary)"; fi
  rm -f "$(pid_file primary)"
  # the new primary must have every event a remaining replica has: catch it up from the most advanced one
  drain "$target" >/dev/null
  for node in $(replicas); do
    [[ "$node" != "$target" ]] && node_running "$node" || continue
    position=$(drain "$node")
    if ! has_applied "$target" "$position"; then
      replicate_from "$target" "$node"
      [[ "$(sql "$target" "SELECT MASTER_GTID_WAIT('$position', $TIMEOUT)")" == 0 ]] ||
        die "$target: could not catch up to $node ('$position') within ${TIMEOUT}s"
    fi
  done
  sql "$target" 'STOP SLAVE; RESET SLAVE ALL; SET GLOBAL read_only = OFF' || die_node "$target" "could not promote"
  echo "$target" >"$BASE_DIR/promoted"
  for node in $(followers); do
    node_running "$node" && replicate_from "$node" "$target"
  done
  echo "$target promoted: primary 127.0.0.1:$(node_port "$target"), followed by $(followers | tr '\n' ' ')"
}

# After a promote: every node back to its original role (GTID history cleared, the database is recreated by reset).
restore_topology() {
  [[ -f "$BASE_DIR/promoted" ]] && mv "$BASE_DIR/promoted" "$BASE_DIR/restoring"
  [[ -f "$BASE_DIR/restoring" ]] || return 0
  local node
  for node in $(nodes); do launch_node "$node"; done
  for node in $(nodes); do wait_ready "$node"; done
  for node in $(nodes); do
    sql "$node" "STOP SLAVE; RESET SLAVE ALL; RESET MASTER; SET GLOBAL gtid_slave_pos = '';
      SET GLOBAL read_only = $([[ "$node" == primary ]] && echo OFF || echo ON)" ||
      die_node "$node" "could not clear its replication state"
  done
  for node in $(replicas); do configure_replica "$node"; done
  rm -f "$BASE_DIR/restoring"
  echo "original topology restored: primary 127.0.0.1:$BASE_PORT"
}

# ---------------------------------------------------------------- commands

cmd_start() {
  local want_replicas=${1:-} want_port=${2:-}
  [[ -z "$want_replicas" || "$want_replicas" =~ ^[1-9][0-9]*$ ]] || die "replicas must be a positive number, got '$want_replicas'"
  [[ -z "$want_port" || "$want_port" =~ ^[0-9]+$ ]] || die "base-port must be a number, got '$want_port'"
  mkdir -p "$BASE_DIR"
  if [[ -f "$BASE_DIR/cluster.env" ]]; then
    load_topology
    if [[ -n "$want_replicas$want_port" ]] &&
      [[ "${want_replicas:-$REPLICAS}" != "$REPLICAS" || "${want_port:-$BASE_PORT}" != "$BASE_PORT" ]]; then
      die "the cluster in $BASE_DIR has $REPLICAS replicas on base port $BASE_PORT; run 'scripts/cluster.sh destroy' to change that"
    fi
  else
    REPLICAS=${want_replicas:-$DEFAULT_REPLICAS}
    BASE_PORT=${want_port:-$DEFAULT_BASE_PORT}
  fi
  local socket="$BASE_DIR/replica$REPLICAS/mariadbd.sock"
  ((${#socket} < 108)) || die "base dir too long for a unix socket path: $socket (set RWSPLIT_CLUSTER_DIR)"

  thaw_all
  local node pids=() failed=0
  for node in $(nodes); do
    init_node "$node" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  ((failed == 0)) || die "mariadb-install-db failed (see $BASE_DIR/*/install.log)"
  printf 'REPLICAS=%s\nBASE_PORT=%s\n' "$REPLICAS" "$BASE_PORT" >"$BASE_DIR/cluster.env"

  # check every port first so that a conflict leaves no half-started cluster behind
  for node in $(nodes); do
    node_running "$node" || ! port_in_use "$(node_port "$node")" ||
      die "$node: port $(node_port "$node") is already used by a process that is not part of $BASE_DIR"
  done
  for node in $(nodes); do launch_node "$node"; done
  for node in $(nodes); do wait_ready "$node"; done
  restore_topology
  bootstrap_primary
  for node in $(replicas); do configure_replica "$node"; done
  do_sync
  echo "cluster started: primary 127.0.0.1:$BASE_PORT, $REPLICAS replicas on ports $((BASE_PORT + 1))..$((BASE_PORT + REPLICAS)), dir $BASE_DIR"
}

cmd_stop() {
  [[ -d "$BASE_DIR" ]] || return 0
  local pids
  thaw_all
  mapfile -t pids < <(our_pids)
  ((${#pids[@]} == 0)) || stop_pids "${pids[@]}"
  rm -f "$BASE_DIR"/*/mariadbd.pid
  [[ -z "$(our_pids)" ]] || die "servers still running after stop: $(our_pids | tr '\n' ' ')"
  echo "cluster stopped"
}

cmd_destroy() {
  cmd_stop
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
        printf '%-9s up   pid %-7s port %s primary gtid_binlog_pos=%s\n' "$node" "$pid" "$(node_port "$node")" \
          "$(sql "$node" 'SELECT @@gtid_binlog_pos' 2>/dev/null || echo '?')"
      else
        printf '%-9s up   pid %-7s port %s io=%s sql=%s delay=%s behind=%s gtid_slave_pos=%s %s\n' \
          "$node" "$pid" "$(node_port "$node")" \
          "$(slave_field "$node" Slave_IO_Running)" "$(slave_field "$node" Slave_SQL_Running)" \
          "$(slave_field "$node" SQL_Delay)" "$(slave_field "$node" Seconds_Behind_Master)" \
          "$(sql "$node" 'SELECT @@gtid_slave_pos' 2>/dev/null || echo '?')" \
          "$(slave_field "$node" Last_Error)"
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
  load_topology
  echo "DIR=$BASE_DIR"
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
  kill -KILL "$pid"
  wait_gone "$pid" 10 || die "$node: pid $pid survived SIGKILL"
  rm -f "$(pid_file "$node")"
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
    [[ "$(slave_field "$node" SQL_Delay)" == 0 ]] || set_delay "$node" 0
    # START SLAVE only starts the threads that are stopped
    sql "$node" 'START SLAVE' || die_node "$node" "could not start replication"
  done
  sql primary "DROP DATABASE IF EXISTS \`$APP_DB\`; CREATE DATABASE \`$APP_DB\` CHARACTER SET utf8mb4;" ||
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
      flock -w "$TIMEOUT" 9 || die "another cluster.sh holds $BASE_DIR/.lock"
      ;;
  esac
  if [[ "$command" =~ ^(start|stop|destroy|status|help|-h|--help|)$ ]]; then
    :
  else
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
      [[ "${2:-}" =~ ^[0-9]+$ ]] || die "usage: delay <replica> <seconds>"
      require_thawed "$node"
      set_delay "$node" "$2"
      ;;
    pause | resume)
      local node
      node=$(parse_replica "${1:-}")
      require_thawed "$node"
      if [[ "$command" == pause ]]; then sql "$node" 'STOP SLAVE SQL_THREAD'; else sql "$node" 'START SLAVE SQL_THREAD'; fi
      ;;
    detach | attach)
      local node
      node=$(parse_replica "${1:-}")
      require_thawed "$node"
      if [[ "$command" == detach ]]; then sql "$node" 'STOP SLAVE IO_THREAD'; else sql "$node" 'START SLAVE IO_THREAD'; fi
      ;;
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
    -h | --help | help | "") sed -n '2,30p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$command' (try --help)" ;;
  esac
}

check_server_binary() {
  command -v mariadbd >/dev/null 2>&1 || [[ -x /usr/sbin/mariadbd ]] && return 0
  if command -v mysqld >/dev/null 2>&1 || [[ -x /usr/sbin/mysqld ]]; then
    die "unsupported: found MySQL's mysqld but no mariadbd; this script drives MariaDB only (apt-get install mariadb-server)"
  fi
  die "mariadbd not found (apt-get install mariadb-server)"
}

export PATH="$PATH:/usr/sbin:/usr/local/sbin"
case "${1:-}" in
  start | revive | reset) check_server_binary ;;
esac
main "$@"
