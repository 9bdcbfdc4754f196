#!/usr/bin/env bash
# Runs the Quarkus sample application (demo-quarkus-app) on the replicated MariaDB cluster of scripts/cluster.sh:
# builds it, starts the cluster (if it is not running), makes both replicas apply every write one second late (so
# that a stale read would show), creates the application's database, and runs the application in the foreground
# on http://localhost:8080/notes (PORT=... to change it). When the application stops (Ctrl-C), the cluster stops
# too, unless it was already running before.
#
# Usage: scripts/demo-quarkus.sh
# Environment: PORT (default 8080), REPLICA_DELAY seconds (default 1), RWSPLIT_CLUSTER_BASE_PORT (see cluster.sh).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
readonly PORT=${PORT:-8080}
readonly REPLICA_DELAY=${REPLICA_DELAY:-1}
readonly DATABASE=notes
readonly JAR=demo-quarkus-app/target/quarkus-app/quarkus-run.jar

echo "building demo-quarkus-app (mvn -B -q -Pquarkus -pl demo-quarkus-app -am package -DskipTests)"
mvn -B -q -Pquarkus -pl demo-quarkus-app -am package -DskipTests

status=0
scripts/cluster.sh status >/dev/null 2>&1 || status=$?
if ((status == 3)); then
  trap 'echo "stopping the cluster"; scripts/cluster.sh stop' EXIT
fi
scripts/cluster.sh start

info=$(scripts/cluster.sh info)
value() { sed -n "s/^$1=//p" <<<"$info"; }
base_port=$(value BASE_PORT)
replicas=$(value REPLICAS)
user=$(value USER)

replica_urls=""
for ((i = 1; i <= replicas; i++)); do
  scripts/cluster.sh delay "replica$i" "$REPLICA_DELAY"
  replica_urls+="${replica_urls:+,}jdbc:mariadb://127.0.0.1:$((base_port + i))/$DATABASE"
done
scripts/cluster.sh sql primary "CREATE DATABASE IF NOT EXISTS $DATABASE CHARACTER SET utf8mb4;
  GRANT ALL PRIVILEGES ON $DATABASE.* TO '$user'@'%'"
scripts/cluster.sh sync

echo "replicas apply every write ${REPLICA_DELAY} s late; the notes: http://localhost:$PORT/notes (Ctrl-C stops)"
# the password in the environment, where no process listing shows it
app_status=0
QUARKUS_DATASOURCE_PASSWORD=$(value PASSWORD) java \
  -Dquarkus.http.port="$PORT" \
  -Dquarkus.datasource.jdbc.url="jdbc:mariadb://127.0.0.1:$base_port/$DATABASE" \
  -Dquarkus.datasource.username="$user" \
  -Dquarkus.rwsplit.replicas="$replica_urls" \
  -jar "$JAR" || app_status=$?
# Ctrl-C (SIGINT) ends the JVM with 130, a SIGTERM with 143: how the application is meant to stop
((app_status == 0 || app_status == 130 || app_status == 143)) || exit "$app_status"
