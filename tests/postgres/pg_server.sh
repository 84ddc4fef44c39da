#!/bin/bash
# The PostgreSQL server of the tests labelled `postgres` (a CTest fixture):
#   pg_server.sh start DIR   initdb + pg_ctl start in DIR, listening on a unix socket in DIR only
#   pg_server.sh stop DIR    stops it and removes DIR
#   pg_server.sh restart DIR stops it (fast: every session ended) and starts it again
# The tests reach it as postgresql:///DB?host=DIR&user=benchguard (trust authentication,
# superuser benchguard; role bg_pw logs in with the password bg-pw-s3cret, role bg_qh with
# pa?ss#w0rd, which a URL holds as libpq reads it, up to the '@'). As root the server
# runs as Debian's `postgres` user (PostgreSQL refuses root). Without the server binaries,
# `start` exits 77 (skipped) and says why.
set -u
action=${1:?start or stop}
dir=${2:?directory}

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/initdb" ] && bindir=$candidate
done

as_server() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    if [ -z "$bindir" ]; then
      echo "SKIP: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb); install" \
        "Debian's postgresql package (scripts/install-deps.sh) to run the PostgreSQL tests"
      exit 77
    fi
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
      echo "SKIP: running as root and there is no 'postgres' user to run the server as"
      exit 77
    fi
    # A server a killed earlier run left behind.
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
    fi
    rm -rf "$dir"
    mkdir -p "$dir" || exit 1
    chmod 700 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    as_server "$bindir/initdb" -D "$dir/data" -U benchguard --auth=trust -E UTF8 \
      --locale=C --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }
    # Users bg_pw and bg_qh log in with a password (scram-sha-256), for the credential tests;
    # everyone else is trusted.
    as_server sed -i '1i local all bg_pw,bg_qh scram-sha-256' "$dir/data/pg_hba.conf"
    # The socket directory must be reachable by the tests (as root they reach anything).
    chmod 711 "$dir"
    as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
      start >/dev/null || { cat "$dir/server.log"; exit 1; }
    "$bindir/psql" -q -X "host=$dir user=benchguard dbname=postgres" \
      -c "CREATE ROLE bg_pw LOGIN PASSWORD 'bg-pw-s3cret'" \
      -c "CREATE ROLE bg_qh LOGIN PASSWORD 'pa?ss#w0rd'" || exit 1
    echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') up at postgresql:///postgres?host=$dir&user=benchguard"
    ;;
  restart)
    as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 restart >/dev/null ||
      { cat "$dir/server.log"; exit 1; }
    ;;
  stop)
    if [ -n "$bindir" ] && [ -f "$dir/data/postmaster.pid" ]; then
      as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|restart DIR" >&2
    exit 2
    ;;
esac
