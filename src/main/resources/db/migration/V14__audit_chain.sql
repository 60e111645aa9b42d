-- The audit chain: every append of governance events, every decision committed or withdrawn and every retention
-- purge is an entry whose hash covers the rows' hashes and the previous entry's hash, written in the transaction
-- of the rows it covers. The event and decision tables keep their shape. Same file on SQLite and PostgreSQL.
--
-- The tables of the chain, for whoever grants privileges on them: audit_chain, audit_head, audit_unchained.
CREATE TABLE audit_chain (
    seq         BIGINT NOT NULL PRIMARY KEY, -- 1, 2, 3 ... in the order the entries were committed
    kind        TEXT   NOT NULL,             -- events, decision, decision_withdrawn, purge
    recorded_at BIGINT NOT NULL,             -- nanoseconds since the epoch, UTC
    actor       TEXT,                        -- purge: who purged
    detail      TEXT,                        -- purge: before=<nanoseconds>, the cutoff
    row_ids     TEXT   NOT NULL,             -- the covered rows' ids, one per line, in append order
    row_marks   TEXT   NOT NULL,             -- the first 16 hex digits of each row's hash, in the same order
    row_hash    TEXT   NOT NULL,             -- SHA-256 over the rows' full hashes
    prev_hash   TEXT   NOT NULL,
    hash        TEXT   NOT NULL
);

-- The chain's one head row: writers update it first thing when they append, which locks it until they commit
-- (SQLite's write lock serialises them anyway). Before the first entry seq is 0 and hash is empty; the counts of
-- what was stored before the chain began are part of the first entry's previous hash.
CREATE TABLE audit_head (
    id               INTEGER NOT NULL PRIMARY KEY, -- always 1
    seq              BIGINT  NOT NULL,
    hash             TEXT    NOT NULL,
    events_before    BIGINT  NOT NULL,
    decisions_before BIGINT  NOT NULL              -- the highest decision id stored before the chain began
);
INSERT INTO audit_head (id, seq, hash, events_before, decisions_before)
SELECT 1, 0, '', (SELECT COUNT(*) FROM governance_events), COALESCE((SELECT MAX(id) FROM decisions), 0);

-- The events stored before the chain began: not covered, and not taken for inserted ones.
CREATE TABLE audit_unchained (
    row_id TEXT NOT NULL PRIMARY KEY
);
INSERT INTO audit_unchained (row_id) SELECT id FROM governance_events;
