#!/bin/bash
# What the official postgres image's entry point does for the settings
# compose.yaml uses: on an empty PGDATA, create the cluster with POSTGRES_USER
# and POSTGRES_PASSWORD (password authentication over TCP) and the database
# POSTGRES_DB, then run the server as the postgres user. The first-run setup
# runs on the Unix socket only, so a TCP health check fails until the real
# server is up.
set -euo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  mkdir -p "$PGDATA"
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?the database is uninitialized and POSTGRES_PASSWORD is not set}"
  POSTGRES_USER="${POSTGRES_USER:-postgres}"
  POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    ${POSTGRES_INITDB_ARGS:-}
  printf '\nhost all all all %s\n' "${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -w start -o "-c listen_addresses='' -p ${PGPORT:-5432}"
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    # From standard input: psql interpolates :"db" there, not in -c.
    psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
      --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db"'
  fi
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
