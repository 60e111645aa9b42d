-- Writes of an older build fail after this migration. Same file on SQLite and PostgreSQL: a line starting with
-- ${sqlite} is SQLite's alone, one starting with ${postgresql} PostgreSQL's (the other database reads it as a comment).
--
-- A process of an older Countersign left running while a newer one migrated the store (store upgrade --force) was
-- made for the schema as it was: it knows nothing of the audit chain or of later rules. Each row it would add to the
-- tables it writes (events, decisions, runs) lacks written_at_schema, which this build and later ones fill with the
-- schema version they were made for, and a trigger refuses such a row with a sentence the old process prints when it
-- stops. Its claim of a queued run is refused the same way: every claim since V13 moves the run's epoch on, an older
-- one does not. The rows stored before stay as they are (NULL: written by a build before this one); audit verify
-- reads the column to tell an older build's writes outside the chain from rows inserted behind Countersign's back.
ALTER TABLE governance_events ADD COLUMN written_at_schema INTEGER;
ALTER TABLE decisions ADD COLUMN written_at_schema INTEGER;
ALTER TABLE runs ADD COLUMN written_at_schema INTEGER;

${sqlite}CREATE TRIGGER governance_events_of_an_older_build BEFORE INSERT ON governance_events WHEN NEW.written_at_schema IS NULL BEGIN SELECT RAISE(ABORT, 'a newer Countersign migrated this store to schema version 27: this older process may not write to it; stop it and use the newer version'); END;
${sqlite}CREATE TRIGGER decisions_of_an_older_build BEFORE INSERT ON decisions WHEN NEW.written_at_schema IS NULL BEGIN SELECT RAISE(ABORT, 'a newer Countersign migrated this store to schema version 27: this older process may not write to it; stop it and use the newer version'); END;
${sqlite}CREATE TRIGGER runs_of_an_older_build BEFORE INSERT ON runs WHEN NEW.written_at_schema IS NULL BEGIN SELECT RAISE(ABORT, 'a newer Countersign migrated this store to schema version 27: this older process may not write to it; stop it and use the newer version'); END;
${sqlite}CREATE TRIGGER runs_claimed_by_an_older_build BEFORE UPDATE OF status ON runs WHEN OLD.status = 'queued' AND NEW.status = 'running' AND NEW.epoch = OLD.epoch BEGIN SELECT RAISE(ABORT, 'a newer Countersign migrated this store to schema version 27: this older process may not write to it; stop it and use the newer version'); END;

${postgresql}CREATE FUNCTION refuse_an_older_build() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'a newer Countersign migrated this store to schema version 27: this older process may not write to it; stop it and use the newer version'; END $$;
${postgresql}CREATE TRIGGER governance_events_of_an_older_build BEFORE INSERT ON governance_events FOR EACH ROW WHEN (NEW.written_at_schema IS NULL) EXECUTE FUNCTION refuse_an_older_build();
${postgresql}CREATE TRIGGER decisions_of_an_older_build BEFORE INSERT ON decisions FOR EACH ROW WHEN (NEW.written_at_schema IS NULL) EXECUTE FUNCTION refuse_an_older_build();
${postgresql}CREATE TRIGGER runs_of_an_older_build BEFORE INSERT ON runs FOR EACH ROW WHEN (NEW.written_at_schema IS NULL) EXECUTE FUNCTION refuse_an_older_build();
${postgresql}CREATE TRIGGER runs_claimed_by_an_older_build BEFORE UPDATE OF status ON runs FOR EACH ROW WHEN (OLD.status = 'queued' AND NEW.status = 'running' AND NEW.epoch = OLD.epoch) EXECUTE FUNCTION refuse_an_older_build();
