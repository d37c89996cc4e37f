#!/bin/sh
# Writes pgbouncer.ini from the template and the environment, then runs PgBouncer in the foreground.
#   DB_HOST, DB_PORT (5432), DB_USER, DB_PASSWORD: PostgreSQL and the one role the instances use
#   POOL_SIZE (20): connections to PostgreSQL for all instances together
#   LOCK_TIMEOUT_MS (5000), STATEMENT_TIMEOUT_MS (30000): the instances' session limits (decision 0301)
set -eu
: "${DB_HOST:?set DB_HOST}" "${DB_USER:?set DB_USER}" "${DB_PASSWORD:?set DB_PASSWORD}"
dir=/etc/pgbouncer/run
mkdir -p "$dir"
# The auth file holds the password PgBouncer checks clients against (SCRAM) and logs in to PostgreSQL with.
printf '"%s" "%s"\n' "$DB_USER" "$DB_PASSWORD" > "$dir/userlist.txt"
sed -e "s|@DB_HOST@|$DB_HOST|g" -e "s|@DB_PORT@|${DB_PORT:-5432}|g" \
    -e "s|@LISTEN_ADDR@|0.0.0.0|" -e "s|@LISTEN_PORT@|6432|" \
    -e "s|@AUTH_TYPE@|scram-sha-256|" -e "s|@AUTH_FILE@|$dir/userlist.txt|" \
    -e "s|@POOL_SIZE@|${POOL_SIZE:-20}|g" -e "s|@ADMIN_USER@|$DB_USER|g" \
    -e "s|@LOCK_TIMEOUT_MS@|${LOCK_TIMEOUT_MS:-5000}|g" -e "s|@STATEMENT_TIMEOUT_MS@|${STATEMENT_TIMEOUT_MS:-30000}|g" \
    /etc/pgbouncer/pgbouncer.ini.template > "$dir/pgbouncer.ini"
chown -R postgres "$dir"
chmod 600 "$dir/userlist.txt"
exec pgbouncer -u postgres "$dir/pgbouncer.ini"
