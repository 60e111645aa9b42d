-- People whose names still wait to become database logins. Same file on SQLite and PostgreSQL.
--
-- Countersign 0.1 named the people of a PostgreSQL store after their operating-system users; since then a person
-- is the database login. A store carried over from then holds one row, the schema version it came with, until its
-- owner adopts the logins (countersign store init --adopt-logins); until then nobody signs in with a role, rather
-- than somebody with another's. A SQLite store's people are operating-system users by design: it holds no row.
-- The migration is told the version by the process applying it (os_names_version), empty for every other store.
CREATE TABLE login_adoption (
    store_version TEXT NOT NULL
);
INSERT INTO login_adoption (store_version) SELECT '${os_names_version}' WHERE '${os_names_version}' <> '';
