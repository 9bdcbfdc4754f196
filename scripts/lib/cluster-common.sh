# Shell functions shared by scripts/cluster.sh (MariaDB) and scripts/pg-cluster.sh (PostgreSQL); sourced, not run.
# The sourcing script sets CLUSTER_SCRIPT (its name, for messages) and REPLICAS and BASE_PORT (once the
# topology is known).

die() {
  echo "$CLUSTER_SCRIPT: $*" >&2
  exit 1
}

# ---------------------------------------------------------------- topology

replicas() {
  local i
  for ((i = 1; i <= REPLICAS; i++)); do echo "replica$i"; done
}

nodes() {
  echo primary
  replicas
}

# The node that takes writes: primary, or the replica that 'promote' made the primary.
current_primary() {
  if [[ -f "$BASE_DIR/promoted" ]]; then cat "$BASE_DIR/promoted"; else echo primary; fi
}

# The replicas that follow the current primary (after a promote the old primary is out).
followers() {
  local node current
  current=$(current_primary)
  for node in $(replicas); do [[ "$node" == "$current" ]] || echo "$node"; done
}

# primary -> 0, replicaN -> N
node_index() {
  case "$1" in
    primary) echo 0 ;;
    replica[0-9]*) echo "${1#replica}" ;;
    *) return 1 ;;
  esac
}

node_port() { echo $((BASE_PORT + $(node_index "$1"))); }

# Validates a node name against the cluster's size and prints it.
parse_node() {
  local node=${1:-} index
  index=$(node_index "$node") || die "unknown node '$node' (expected primary or replica1..replica$REPLICAS)"
  ((index <= REPLICAS)) || die "unknown node '$node': this cluster has $REPLICAS replicas"
  echo "$node"
}

# Accepts replicaN or N.
parse_replica() {
  local arg=${1:-}
  [[ "$arg" =~ ^[0-9]+$ ]] && arg="replica$arg"
  [[ "$arg" == replica* ]] || die "expected a replica (replica1..replica$REPLICAS or 1..$REPLICAS), got '${1:-}'"
  parse_node "$arg"
}

# ---------------------------------------------------------------- processes

# True if PID is a live process (an exited server may linger as a zombie: kill -0 would lie).
process_alive() {
  local pid=$1 state
  [[ -r "/proc/$pid/status" ]] || return 1
  state=$(awk '/^State:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || return 1
  [[ -n "$state" && "$state" != Z && "$state" != X ]]
}

# Waits up to $2 seconds for PID to exit; fails if it is still alive then.
wait_gone() {
  local pid=$1 deadline=$((SECONDS + $2))
  while process_alive "$pid"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.05
  done
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ---------------------------------------------------------------- freeze / thaw

# SIGSTOPs a server and its children, parent first (a stopped parent forks no new child): it stops answering but
# keeps every socket open, like a paused VM. Connections still complete in the kernel's listen backlog.
freeze_pid() {
  local pid=$1 children
  kill -STOP "$pid"
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null || true)
  # shellcheck disable=SC2086
  [[ -z "$children" ]] || kill -STOP $children 2>/dev/null || true
}

# SIGCONTs a server's children, then the server; harmless on one that is not frozen.
thaw_pid() {
  local pid=$1 children
  children=$(ps -o pid= --ppid "$pid" 2>/dev/null || true)
  # shellcheck disable=SC2086
  [[ -z "$children" ]] || kill -CONT $children 2>/dev/null || true
  kill -CONT "$pid" 2>/dev/null || true
}

# True if PID is stopped by a signal (frozen).
process_frozen() {
  [[ "$(awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null)" == T ]]
}

# Thaws every server of this cluster: a frozen one leaves SIGTERM pending and answers no wait, so a test that died
# mid-freeze would otherwise leave a cluster that cannot be stopped or reset.
thaw_all() {
  local pid
  for pid in $(our_pids); do thaw_pid "$pid"; done
}

cmd_freeze() {
  local node pid
  node=$(parse_replica "${1:-}")
  pid=$(node_pid "$node") || die "$node is not running"
  freeze_pid "$pid"
  echo "$node frozen (pid $pid)"
}

cmd_thaw() {
  local node pid
  node=$(parse_replica "${1:-}")
  pid=$(node_pid "$node") || {
    echo "$node is not running"
    return 0
  }
  thaw_pid "$pid"
  echo "$node thawed (pid $pid)"
}

# Fails when NODE is frozen: it would not answer the command (thaw it first).
require_thawed() {
  local pid
  if pid=$(node_pid "$1") && process_frozen "$pid"; then
    die "$1 is frozen (pid $pid): run '$CLUSTER_SCRIPT thaw $1' first"
  fi
  return 0
}
