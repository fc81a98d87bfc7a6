#!/usr/bin/env bash
# Starts the scale-out topology on this machine (ADR 0023): a throwaway PostgreSQL and Redis on free loopback ports
# and N nodes of the reference service (2 by default) sharing them, each on its own free ports. Ctrl-C stops it all
# and removes the temporary directory. Usage: bash scripts/cluster.sh [nodes]   (npm run cluster -- [nodes])
set -euo pipefail
cd "$(dirname "$0")/.."
nodes="${1:-2}"
work="$(mktemp -d "${TMPDIR:-/tmp}/telemetry-cluster-XXXXXX")"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
pg_bin="$(dirname "$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")"
redis_bin="$(command -v redis-server || echo /usr/bin/redis-server)"
[ -x "$pg_bin/initdb" ] || { echo "cluster: no initdb (bash scripts/setup-postgres.sh)" >&2; exit 1; }
[ -x "$redis_bin" ] || { echo "cluster: no redis-server (bash scripts/setup-redis.sh)" >&2; exit 1; }
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then as_postgres=(runuser -u postgres --); chown postgres "$work"; fi
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pg_port="$(free_port)"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -o "-h 127.0.0.1 -p $pg_port -k $work" start >/dev/null
redis_port="$(free_port)"
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --dir "$work" --save '' --appendonly no >"$work/redis.log" &
pids+=("$!")
export TELEMETRY_POSTGRES_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
export TELEMETRY_REDIS_URL="redis://127.0.0.1:$redis_port"
# One data directory for all nodes: they share the signing key of access and subscriber tokens kept there.
export TELEMETRY_DATA_DIR="$work/data"
echo "PostgreSQL $TELEMETRY_POSTGRES_URL"
echo "Redis      $TELEMETRY_REDIS_URL"
for index in $(seq 1 "$nodes"); do
  log="$work/node-$index.log"
  TELEMETRY_API_PORT="$(free_port)" TELEMETRY_AUTH_PORT="$(free_port)" TELEMETRY_MQTT_PORT="$(free_port)" \
    node_modules/.bin/tsx reference/main.ts --node-id "node-$index" >"$log" 2>&1 &
  pids+=("$!")
  # Nodes start one after another: the first one creates the schema, the signing key and the seeded credentials.
  until grep -qs '^Node ' "$log"; do
    kill -0 "${pids[-1]}" 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.2
  done
  echo "--- node-$index (log: $log)"
  cat "$log"
  tail -n 0 -f "$log" | sed -u "s/^/[node-$index] /" &
  pids+=("$!")
done
echo "--- running; Ctrl-C stops every node, Redis and PostgreSQL"
wait "${pids[1]}"
