#!/usr/bin/env bash
# A PostgreSQL server on this machine, for testing the study's database layer against it for real
# (tests/study/test_postgres.py).
#   bash scripts/postgres_local.sh up       install (apt, as root), start a cluster, make the test role and
#                                           database; print the database URL; idempotent
#   bash scripts/postgres_local.sh down     stop the cluster (the packages, role and database stay)
#   bash scripts/postgres_local.sh status   exit 0 if the test database answers on 127.0.0.1
#   bash scripts/postgres_local.sh url      print the database URL
# Debian's postgresql (15 on Debian 12) without systemd: the cluster is started with pg_ctlcluster.
# The role ga_pig (password ga_pig unless $GA_PIG_POSTGRES_PASSWORD says otherwise) owns the database
# ga_pig_test and nothing else; the cluster's pg_hba.conf is left as Debian writes it (password
# logins over 127.0.0.1). The test database holds only what the tests make, in schemas they drop.
set -euo pipefail

ROLE=ga_pig
DATABASE=ga_pig_test
PASSWORD=${GA_PIG_POSTGRES_PASSWORD:-ga_pig}
HOST=127.0.0.1
PORT=${GA_PIG_POSTGRES_PORT:-5432}
URL="postgresql+psycopg://$ROLE:$PASSWORD@$HOST:$PORT/$DATABASE"

answers() {
    PGPASSWORD=$PASSWORD PGCONNECT_TIMEOUT=5 psql -h "$HOST" -p "$PORT" -U "$ROLE" -d "$DATABASE" -Atqc 'select 1' \
        >/dev/null 2>&1
}

as_postgres() { runuser -u postgres -- "$@"; }
sql() { as_postgres psql -p "$PORT" -v ON_ERROR_STOP=1 -Atq "$@"; }

install() {
    if command -v pg_ctlcluster >/dev/null && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
        return
    fi
    [ "$(id -u)" = 0 ] || { echo "postgres_local: postgresql is missing; run as root to install it" >&2; exit 1; }
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
}

# The cluster on $PORT ("version name"), made (version: the newest installed, name main) if there is none.
cluster() {
    local found version
    found=$(pg_lsclusters -h | awk -v port="$PORT" '$3 == port {print $1, $2; exit}')
    if [ -z "$found" ]; then
        version=$(printf '%s\n' /usr/lib/postgresql/*/bin/postgres | awk -F/ '{print $5}' | sort -n | tail -1)
        pg_createcluster --port "$PORT" "$version" main >/dev/null
        found="$version main"
    fi
    echo "$found"
}

up() {
    exec 3>&1 1>&2  # stdout carries the URL alone, so that URL=$(bash scripts/postgres_local.sh up) works
    install
    [ "$(id -u)" = 0 ] || { echo "postgres_local: run as root (it starts the cluster and makes a role)" >&2; exit 1; }
    local version name
    read -r version name <<<"$(cluster)"
    if ! pg_lsclusters -h | awk -v v="$version" -v n="$name" '$1 == v && $2 == n {print $4}' | grep -q online; then
        pg_ctlcluster "$version" "$name" start </dev/null 3>&-  # the server must not hold the URL's pipe open
    fi
    for _ in $(seq 30); do
        as_postgres pg_isready -q -p "$PORT" && break
        sleep 1
    done
    as_postgres pg_isready -q -p "$PORT" || {
        echo "postgres_local: cluster $version/$name did not come up; see /var/log/postgresql/" >&2
        exit 1
    }
    if [ "$(sql -c "select 1 from pg_roles where rolname = '$ROLE'")" != 1 ]; then
        sql -c "create role $ROLE login password '$PASSWORD'"
    else
        sql -c "alter role $ROLE login password '$PASSWORD'"
    fi
    if [ "$(sql -c "select 1 from pg_database where datname = '$DATABASE'")" != 1 ]; then
        sql -c "create database $DATABASE owner $ROLE"
    fi
    answers || { echo "postgres_local: $DATABASE does not answer on $HOST:$PORT" >&2; exit 1; }
    echo "postgres_local: up (PostgreSQL $version, cluster $name, port $PORT); the test database:"
    echo "$URL" >&3
}

down() {
    local version name
    read -r version name <<<"$(pg_lsclusters -h | awk -v port="$PORT" '$3 == port {print $1, $2; exit}')"
    if [ -n "${version:-}" ]; then
        pg_ctlcluster "$version" "$name" stop || true
    fi
    echo "postgres_local: down"
}

case "${1:-up}" in
    up) up ;;
    down) down ;;
    status) answers ;;
    url) echo "$URL" ;;
    *) echo "usage: $0 up|down|status|url" >&2; exit 2 ;;
esac
