#!/usr/bin/env bash
# The container setup end to end, with podman (README, "Running in containers"; decision 0271):
#  1. builds local stand-ins for the official base images (no registry is reachable here), tagged
#     with the official names: node:20-bookworm-slim, postgres:16, caddy:2;
#  2. builds the Olympus image from the Dockerfile with --pull=never;
#  3. starts compose.yaml (PostgreSQL, PgBouncer, two Olympus instances, Caddy) with podman-compose;
#  4. registers a user through the proxy and tops up in the NOWPayments sandbox;
#  5. stops one instance in the middle of steady traffic: no request may fail, the balance is intact;
#  6. stops and starts everything: the account and its balance are still there.
# Too slow for .ci/run. Needs root, podman, runc, podman-compose and mmdebstrap
# (apt-get install -y podman runc mmdebstrap podman-compose). Exits non-zero on the first failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${SMOKE_CACHE:-/var/cache/olympus-smoke}
PROJECT=olympus-smoke
HTTP_PORT=${SMOKE_HTTP_PORT:-18080}
BASE_URL="http://127.0.0.1:${HTTP_PORT}"
WORK=$(mktemp -d /tmp/olympus-smoke.XXXXXX)
STARTED=$(date +%s)

say() { printf '[smoke %4ss] %s\n' "$(( $(date +%s) - STARTED ))" "$*"; }
fail() { say "FAIL: $*"; exit 1; }

for tool in podman podman-compose mmdebstrap runc node; do
  command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install -y podman runc mmdebstrap podman-compose)"
done

# This machine's two differences from a laptop: the runc runtime, and resource limits no higher than
# the machine's own (containers may not raise them). A private containers.conf, nothing global changed.
cat > "$WORK/containers.conf" <<'EOF'
[engine]
runtime = "runc"
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]
EOF
export CONTAINERS_CONF="$WORK/containers.conf"
ULIMITS=(--ulimit nofile=20000:20000 --ulimit nproc=1000:1000)
podman() { command podman --runtime runc "$@"; }

compose() { (cd "$WORK/project" && podman-compose -p "$PROJECT" "$@"); }

cleanup() {
  local code=$?
  if [ -d "$WORK/project" ]; then
    say "cleaning up: containers, network and volumes of $PROJECT"
    compose down -v >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
  exit $code
}
trap cleanup EXIT

# 1. Stand-ins for the base images ------------------------------------------------------------------
mkdir -p "$CACHE"
if ! podman image exists localhost/debian-base:bookworm; then
  say "making the Debian bookworm base with mmdebstrap (about 90 s, once)"
  mmdebstrap --variant=minbase \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    bookworm "$CACHE/base.tar" >"$WORK/mmdebstrap.log" 2>&1 || { cat "$WORK/mmdebstrap.log"; fail "mmdebstrap"; }
  podman import "$CACHE/base.tar" localhost/debian-base:bookworm >/dev/null
  rm -f "$CACHE/base.tar"
else
  say "Debian base image cached: localhost/debian-base:bookworm"
fi

standin() { # name, Containerfile, context
  if podman image exists "docker.io/library/$1"; then say "stand-in cached: $1"; return; fi
  say "building stand-in $1"
  podman build --pull=never "${ULIMITS[@]}" --format docker -f "$2" -t "docker.io/library/$1" "$3" >"$WORK/standin.log" 2>&1 \
    || { tail -40 "$WORK/standin.log"; fail "stand-in $1"; }
}
NODE_CTX="$WORK/node-context"
mkdir -p "$NODE_CTX"
cp "$(command -v node)" "$NODE_CTX/node"
cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$NODE_CTX/npm"
cp /etc/ssl/certs/ca-certificates.crt "$NODE_CTX/ca-certificates.crt"
NODE_HEADERS=$(node -p 'require("path").resolve(process.execPath, "../../include/node")')
[ -f "$NODE_HEADERS/node_api.h" ] || NODE_HEADERS=/usr/include/node
[ -f "$NODE_HEADERS/node_api.h" ] || fail "Node.js headers not found (needed to compile argon2 without nodejs.org)"
cp -r "$NODE_HEADERS" "$NODE_CTX/include"
[ "$("$NODE_CTX/node" -p 'process.versions.node.split(".")[0]')" = 20 ] || fail "the stand-in needs this machine's node to be Node.js 20"
standin node:20-bookworm-slim "$ROOT/scripts/container-standins/node.Containerfile" "$NODE_CTX"
standin postgres:16 "$ROOT/scripts/container-standins/postgres.Containerfile" "$ROOT/scripts/container-standins"
standin caddy:2 "$ROOT/scripts/container-standins/caddy.Containerfile" "$ROOT/scripts/container-standins"
# PgBouncer's image (deploy/pgbouncer/Dockerfile) starts from the official debian:bookworm-slim: the base stands in.
podman image exists docker.io/library/debian:bookworm-slim || podman tag localhost/debian-base:bookworm docker.io/library/debian:bookworm-slim
say "building the PgBouncer image (deploy/pgbouncer)"
podman build --pull=never "${ULIMITS[@]}" --format docker -t localhost/olympus-pgbouncer:latest "$ROOT/deploy/pgbouncer" >"$WORK/pgbouncer-build.log" 2>&1 \
  || { tail -40 "$WORK/pgbouncer-build.log"; fail "PgBouncer image build"; }

# 2. The Olympus image, from the Dockerfile as users build it ---------------------------------------
say "building the Olympus image (podman build --pull=never --format docker)"
# This machine's npm cache, as a copy-on-write overlay (the host's stays untouched): npm ci then
# downloads only what is missing. The Dockerfile is the same either way.
NPM_CACHE=()
[ -d "$HOME/.npm/_cacache" ] && NPM_CACHE=(--volume "$HOME/.npm/_cacache:/root/.npm/_cacache:O")
podman build --pull=never "${ULIMITS[@]}" "${NPM_CACHE[@]}" --format docker -t localhost/olympus:latest "$ROOT" >"$WORK/build.log" 2>&1 \
  || { tail -60 "$WORK/build.log"; fail "image build"; }
SIZE_BYTES=$(podman image inspect --format '{{.Size}}' localhost/olympus:latest)
BASE_BYTES=$(podman image inspect --format '{{.Size}}' docker.io/library/node:20-bookworm-slim)
say "image localhost/olympus:latest: $(( SIZE_BYTES / 1000000 )) MB ($(( (SIZE_BYTES - BASE_BYTES) / 1000000 )) MB above the node:20-bookworm-slim stand-in of $(( BASE_BYTES / 1000000 )) MB)"
[ "$(podman image inspect --format '{{.Config.User}}' localhost/olympus:latest)" = node ] || fail "the image does not run as the node user"
podman image inspect --format '{{json .Config.Healthcheck}}' localhost/olympus:latest | grep -q readyz || fail "no HEALTHCHECK on /readyz"
say "runs as user: node; HEALTHCHECK: /readyz; STOPSIGNAL: $(podman image inspect --format '{{.Config.StopSignal}}' localhost/olympus:latest)"
# Without DATABASE_URL the default image (no embedded database) must say so and stop, not hang.
NO_DB=$(podman run --rm "${ULIMITS[@]}" -e ALLOW_SANDBOX=1 -e JWT_SECRET="$(node -p 'require("crypto").randomBytes(32).toString("hex")')" \
  localhost/olympus:latest 2>&1 | grep -v 'level=error' || true)
printf '%s\n' "$NO_DB" | grep -q 'set DATABASE_URL to a PostgreSQL database' || { printf '%s\n' "$NO_DB" | tail -20; fail "no clear message without DATABASE_URL"; }
say "without DATABASE_URL the image stops with: $(printf '%s\n' "$NO_DB" | grep -o 'This build has no embedded database[^:]*')"
# Traces load in the image as built (the Dockerfile trims OpenTelemetry's bundler builds).
TRACING=$(podman run --rm "${ULIMITS[@]}" -e OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:9 localhost/olympus:latest node -e \
  "import('/app/dist/server/tracing/start.js').then((m) => m.startTracing()).then((stop) => { console.log('tracing started'); return stop(); })" 2>&1 | grep -v 'level=error' || true)
printf '%s\n' "$TRACING" | grep -q 'tracing started' || { printf '%s\n' "$TRACING" | tail -20; fail "OpenTelemetry does not load in the image"; }
say "OpenTelemetry loads in the image (OTEL_EXPORTER_OTLP_ENDPOINT set)"

# 3. compose.yaml, as shipped, with its .env --------------------------------------------------------
mkdir -p "$WORK/project/deploy"
cp "$ROOT/compose.yaml" "$WORK/project/compose.yaml"
cp "$ROOT/deploy/Caddyfile" "$WORK/project/deploy/Caddyfile"
cp -r "$ROOT/deploy/pgbouncer" "$WORK/project/deploy/pgbouncer"
cat > "$WORK/project/.env" <<EOF
POSTGRES_PASSWORD=$(node -p 'require("crypto").randomBytes(18).toString("hex")')
JWT_SECRET=$(node -p 'require("crypto").randomBytes(48).toString("base64")')
PUBLIC_URL=$BASE_URL
HTTP_PORT=$HTTP_PORT
ALLOW_SANDBOX=1
# The smoke's admin signs in with a password alone to move the sandbox payment (staff only in production).
REQUIRE_STAFF_2FA=0
EOF
compose down -v >/dev/null 2>&1 || true
say "podman-compose up -d (postgres, pgbouncer, olympus-1, olympus-2, proxy)"
compose up -d >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; fail "compose up"; }

wait_ready() { # through the proxy: both instances healthy
  local deadline=$(( $(date +%s) + 240 ))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE_URL/readyz")" = 200 ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { compose logs >"$WORK/logs.txt" 2>&1; tail -80 "$WORK/logs.txt"; fail "not ready through the proxy in 240 s"; }
    sleep 2
  done
  for c in olympus-1 olympus-2; do
    until [ "$(podman healthcheck run "${PROJECT}_${c}_1" >/dev/null 2>&1 && echo ok)" = ok ]; do
      [ "$(date +%s)" -lt "$deadline" ] || fail "$c not healthy"
      sleep 2
    done
  done
}
wait_ready
say "ready through the proxy; both instances healthy"
MIGRATED=$(podman logs "${PROJECT}_olympus-1_1" 2>&1; podman logs "${PROJECT}_olympus-2_1" 2>&1)
say "instances started: $(printf '%s\n' "$MIGRATED" | grep -c 'Olympus is running') of 2"
# Migrations ran once: the journal holds each migration once, whichever instance applied it.
DUP=$(podman exec "${PROJECT}_postgres_1" psql -U olympus -d olympus -Atc "SELECT count(*) - count(DISTINCT hash) FROM drizzle.__drizzle_migrations")
[ "$DUP" = 0 ] || fail "a migration was applied twice"
say "migrations applied once: $(podman exec "${PROJECT}_postgres_1" psql -U olympus -d olympus -Atc 'SELECT count(*) FROM drizzle.__drizzle_migrations') in the journal"
# The instances reach PostgreSQL through PgBouncer (decision 0334): PostgreSQL sees PgBouncer's server
# connections and one direct LISTEN connection per instance, not two pools of ten.
BOUNCER_IP=$(podman inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "${PROJECT}_pgbouncer_1")
CONNS=$(podman exec "${PROJECT}_postgres_1" psql -U olympus -d olympus -Atc "SELECT count(*) FILTER (WHERE client_addr = '$BOUNCER_IP'), count(*) FILTER (WHERE client_addr <> '$BOUNCER_IP') FROM pg_stat_activity WHERE datname = 'olympus' AND backend_type = 'client backend' AND client_addr IS NOT NULL")
# Straight from each instance: its LISTEN, and for a few seconds after start the connection it migrated on.
[ "${CONNS##*|}" -ge 2 ] && [ "${CONNS##*|}" -le 4 ] || fail "expected 2 to 4 direct connections (LISTEN, migrations), found ${CONNS##*|} besides PgBouncer's ${CONNS%%|*}"
say "PostgreSQL connections: ${CONNS%%|*} from PgBouncer, ${CONNS##*|} straight from the instances (LISTEN, migrations)"

# The operator command works inside the image (staff accounts).
ADMIN_USER=smoke_admin
ADMIN_PASSWORD='a long admin passphrase 42'
podman exec "${PROJECT}_olympus-1_1" node dist/server/cli.js create-user --username "$ADMIN_USER" --password "$ADMIN_PASSWORD" --role admin >/dev/null \
  || fail "the operator command failed inside the container"
say "operator command in the container: staff account created"

# 4-6. The user's side, in Node (fetch) --------------------------------------------------------------
node_step() { BASE_URL="$BASE_URL" STATE="$WORK/state.json" ADMIN_USER="$ADMIN_USER" ADMIN_PASSWORD="$ADMIN_PASSWORD" node --input-type=module -e "$1"; }

say "registering through the proxy and topping up in the sandbox"
node_step '
import { writeFileSync } from "node:fs";
const base = process.env.BASE_URL;
const call = async (method, path, body, token) => {
  const res = await fetch(base + path, { method, headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
};
const username = "smoke_" + Math.random().toString(36).slice(2, 8);
const password = "correct horse battery staple";
const reg = await call("POST", "/api/register", { username, email: `${username}@example.com`, password, turnstileToken: "ok" });
if (reg.status !== 201) throw new Error("register: " + reg.status + " " + JSON.stringify(reg.json));
const { token, user } = reg.json;
const dep = await call("POST", "/api/payments/deposit", { crypto: "btc", amount: 25 }, token);
if (dep.status !== 201) throw new Error("deposit: " + dep.status + " " + JSON.stringify(dep.json));
// The sandbox control answers staff only in production: the admin made above signs in for it.
const staff = await call("POST", "/api/login", { username: process.env.ADMIN_USER, password: process.env.ADMIN_PASSWORD, turnstileToken: "ok" });
if (staff.status !== 200) throw new Error("admin login: " + staff.status + " " + JSON.stringify(staff.json));
const done = await call("POST", `/sandbox/nowpayments/payments/${dep.json.payment._id}/status`, { status: "finished" }, staff.json.token);
if (done.status !== 200) throw new Error("sandbox: " + done.status + " " + JSON.stringify(done.json));
let credits = 0;
for (let i = 0; i < 60 && credits === 0; i++) {
  credits = (await call("GET", `/api/users/${user._id}/credits`, null, token)).json.credits;
  if (credits === 0) await new Promise((r) => setTimeout(r, 500));
}
if (!(credits > 0)) throw new Error("the top-up was not credited");
const history = await call("GET", "/api/credits/history?pageSize=100", null, token);
console.log(`user ${username} registered; top-up of 25 USD credited: balance ${credits}, ${history.json.entries.length} ledger entry`);
writeFileSync(process.env.STATE, JSON.stringify({ username, password, token, userId: user._id, credits, entries: history.json.entries.length }));
'

say "steady traffic through the proxy; stopping olympus-1 (SIGTERM) in the middle of it"
node_step '
import { readFileSync } from "node:fs";
const base = process.env.BASE_URL;
const s = JSON.parse(readFileSync(process.env.STATE, "utf8"));
const auth = { authorization: `Bearer ${s.token}` };
let ok = 0; const failures = [];
const statuses = {};
let stop = false;
const worker = async (n) => {
  for (let i = 0; !stop; i++) {
    // Reads of the balance and history, and a write: a new deposit (a payment row, no money moves).
    const write = (i + n) % 5 === 0;
    const path = write ? "/api/payments/deposit" : i % 2 ? `/api/users/${s.userId}/credits` : "/api/credits/history?pageSize=5";
    try {
      const res = await fetch(base + path, write
        ? { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ crypto: "btc", amount: 5 }) }
        : { headers: auth });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === (write ? 201 : 200)) ok++; else failures.push(`${path} ${res.status}`);
    } catch (err) { failures.push(`${path} ${err.cause?.code ?? err.message}`); }
    await new Promise((r) => setTimeout(r, 50));
  }
};
const workers = [1, 2, 3, 4].map(worker);
await new Promise((r) => setTimeout(r, 25_000));
stop = true;
await Promise.all(workers);
console.log(`requests answered: ${ok}; failed: ${failures.length}; statuses: ${JSON.stringify(statuses)}`);
if (failures.length) { console.log(failures.slice(0, 20).join("\n")); process.exit(1); }
' &
TRAFFIC=$!
sleep 8
STOP_AT=$(date +%s)
podman stop -t 20 "${PROJECT}_olympus-1_1" >/dev/null
say "olympus-1 stopped in $(( $(date +%s) - STOP_AT )) s, exit code $(podman inspect --format '{{.State.ExitCode}}' "${PROJECT}_olympus-1_1")"
podman logs --tail 5 "${PROJECT}_olympus-1_1" 2>&1 | grep -E 'shutting down' >/dev/null && say "olympus-1 logged a graceful shutdown"
wait $TRAFFIC || fail "requests failed while an instance stopped"
say "no request failed while olympus-1 stopped"
podman start "${PROJECT}_olympus-1_1" >/dev/null
wait_ready

check_account() { # the balance and ledger as before, from a fresh login
  node_step '
import { readFileSync } from "node:fs";
const base = process.env.BASE_URL;
const s = JSON.parse(readFileSync(process.env.STATE, "utf8"));
const login = await fetch(base + "/api/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: s.username, password: s.password, turnstileToken: "ok" }) });
if (login.status !== 200) throw new Error("login: " + login.status);
const { token } = await login.json();
const auth = { authorization: `Bearer ${token}` };
const credits = (await (await fetch(`${base}/api/users/${s.userId}/credits`, { headers: auth })).json()).credits;
const history = await (await fetch(`${base}/api/credits/history?pageSize=100`, { headers: auth })).json();
console.log(`login ok; balance ${credits} (was ${s.credits}); ledger entries ${history.entries.length} (was ${s.entries}); history balance ${history.balanceCents} cents`);
if (credits !== s.credits || history.entries.length !== s.entries) process.exit(1);
'
}
check_account || fail "the balance changed"
say "balance intact after the stop"

say "stopping everything (podman-compose down, volumes kept) and starting again"
compose down >"$WORK/down.log" 2>&1 || { cat "$WORK/down.log"; fail "compose down"; }
compose up -d >"$WORK/up2.log" 2>&1 || { cat "$WORK/up2.log"; fail "compose up again"; }
wait_ready
check_account || fail "data lost across the restart"
say "data still there after restarting everything"

# Ledger invariants in the database itself: each balance is the sum of its entries.
BAD=$(podman exec "${PROJECT}_postgres_1" psql -U olympus -d olympus -Atc "
  SELECT count(*) FROM users u
  WHERE u.credits_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM credit_ledger_entries e WHERE e.user_id = u.id)")
[ "$BAD" = 0 ] || fail "$BAD balances differ from their ledger"
say "every balance equals the sum of its ledger entries"
say "PASS (image $(( SIZE_BYTES / 1000000 )) MB)"
