-- The database guards the runs too. On PostgreSQL only: between the two placeholders SQLite reads a comment, since
-- there the file and its permissions are the boundary (docs/team.md).
--
-- Every login (the store's owner too; a superuser may switch triggers off, as it may do anything) changes a run only
-- through the transitions of the run's lifecycle (io.countersign.engine.run.RunLifecycle, docs/lifecycle.md):
-- * the pair of statuses before and after is one the lifecycle's table makes (a status here is the stored status, and
--   a run 'running' with calls whose outcome is unknown counts as outcome_unknown); RunGuardMigrationTest keeps the
--   pairs below the table's;
-- * a waiting card's call, arguments and digest (its paused state, pause number, summary and its run's prompt,
--   transcript and history) change only by a transition: a decision takes the card as it is, a card shown again (a
--   release, a settle) asks for the same calls with the same arguments (what their tools preview is read again),
--   and only a new pause, from a running run, shows a new one;
-- * a run leaves its card for running or the queue only on a decision recorded for that card (its pause and digest),
--   checked when the transaction commits, so that the claim that writes both in one statement passes;
-- * a worker's login, which carries out decisions, does not settle a run whose outcome is unknown;
-- * no run is deleted, and an ended run does not change.
-- A refusal is SQLSTATE 42501 (insufficient privilege) with a sentence naming the run and the transition.
${postgresql_only}
CREATE FUNCTION countersign_run_status(status TEXT, outcome_unknown TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN status = 'running' AND outcome_unknown IS NOT NULL THEN 'outcome_unknown' ELSE status END $$;

CREATE FUNCTION countersign_without_previews(state JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
SELECT state - 'calls' || jsonb_build_object('calls', COALESCE((SELECT jsonb_agg(c - 'preview' - 'stale' ORDER BY n)
    FROM jsonb_array_elements(state -> 'calls') WITH ORDINALITY AS e (c, n)), '[]'::jsonb)) $$;

-- Whether two stored paused states ask for the same calls with the same arguments: the same JSON, however spaced or
-- ordered, but for what each call's tool previews (read again when a card is shown again) and whether it changed.
CREATE FUNCTION countersign_same_calls(was TEXT, becomes TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF was IS NOT DISTINCT FROM becomes THEN
        RETURN TRUE;
    END IF;
    IF was IS NULL OR becomes IS NULL THEN
        RETURN FALSE;
    END IF;
    BEGIN
        RETURN countersign_without_previews(was::jsonb) = countersign_without_previews(becomes::jsonb);
    EXCEPTION WHEN invalid_text_representation OR invalid_parameter_value THEN
        RETURN FALSE;
    END;
END $$;

-- The functions run in the store's schema, whatever the login's search path.
CREATE FUNCTION countersign_guard_run() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    was TEXT;
    becomes TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'run %: a run is never deleted; it ends as completed, failed or cancelled', OLD.id
            USING ERRCODE = '42501';
    END IF;
    becomes := countersign_run_status(NEW.status, NEW.outcome_unknown);
    IF TG_OP = 'INSERT' THEN
        IF becomes NOT IN ('running', 'queued') OR NEW.pause_number <> 0 OR NEW.paused_state IS NOT NULL
                OR NEW.digest IS NOT NULL OR NEW.claimed_decision IS NOT NULL THEN
            RAISE EXCEPTION 'run %: a run starts running or queued, with no card and no decision', NEW.id
                USING ERRCODE = '42501';
        END IF;
        RETURN NEW;
    END IF;
    was := countersign_run_status(OLD.status, OLD.outcome_unknown);
    IF was IN ('completed', 'failed', 'cancelled') THEN
        RAISE EXCEPTION 'run %: a run that is % has ended and does not change', OLD.id, replace(was, '_', ' ')
            USING ERRCODE = '42501';
    END IF;
    IF was <> becomes AND (was, becomes) NOT IN (
            ('queued', 'running'),
            ('running', 'waiting_for_approval'),
            ('running', 'waiting_for_input'),
            ('running', 'queued'),
            ('running', 'outcome_unknown'),
            ('running', 'completed'),
            ('running', 'failed'),
            ('running', 'cancelled'),
            ('waiting_for_approval', 'running'),
            ('waiting_for_approval', 'queued'),
            ('waiting_for_approval', 'failed'),
            ('waiting_for_input', 'running'),
            ('waiting_for_input', 'queued'),
            ('waiting_for_input', 'failed'),
            ('outcome_unknown', 'waiting_for_approval'),
            ('outcome_unknown', 'waiting_for_input'),
            ('outcome_unknown', 'failed')) THEN
        RAISE EXCEPTION 'run %: a run that is % cannot become %; the lifecycle has no such transition', OLD.id,
            replace(was, '_', ' '), replace(becomes, '_', ' ') USING ERRCODE = '42501';
    END IF;
    IF NEW.id <> OLD.id OR NEW.agent <> OLD.agent OR NEW.initiator <> OLD.initiator OR NEW.prompt <> OLD.prompt
            OR NEW.unattended <> OLD.unattended OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'run %: who started a run, for which agent and with which prompt does not change', OLD.id
            USING ERRCODE = '42501';
    END IF;
    IF becomes IN ('completed', 'failed', 'cancelled') THEN
        NULL; -- an end: the card goes with the run
    ELSIF was = 'running' AND becomes LIKE 'waiting%' AND NEW.pause_number = OLD.pause_number + 1 THEN
        NULL; -- a new pause: the loop shows its next card
    ELSIF (was LIKE 'waiting%' AND becomes = was AND (NEW.pause_number <> OLD.pause_number
                OR NEW.digest IS DISTINCT FROM OLD.digest OR NEW.paused_state IS DISTINCT FROM OLD.paused_state
                OR NEW.transcript <> OLD.transcript OR NEW.history <> OLD.history
                OR NEW.waiting_tools IS DISTINCT FROM OLD.waiting_tools
                OR NEW.refused_count IS DISTINCT FROM OLD.refused_count
                OR NEW.waiting_since IS DISTINCT FROM OLD.waiting_since))
            OR NEW.pause_number <> OLD.pause_number
            OR (NEW.digest IS DISTINCT FROM OLD.digest AND NEW.paused_state IS NOT DISTINCT FROM OLD.paused_state)
            OR NOT countersign_same_calls(OLD.paused_state, NEW.paused_state) THEN
        RAISE EXCEPTION 'run %: the card of a run that is % changes only by a decision and a new pause; its call,'
            ' arguments and digest stay as recorded', OLD.id, replace(was, '_', ' ') USING ERRCODE = '42501';
    END IF;
    IF was = becomes AND NEW.claimed_decision IS NOT NULL
            AND NEW.claimed_decision IS DISTINCT FROM OLD.claimed_decision THEN
        RAISE EXCEPTION 'run %: a run takes a decision only as it leaves its card', OLD.id USING ERRCODE = '42501';
    END IF;
    IF was LIKE 'waiting%' AND becomes IN ('running', 'queued') AND NEW.claimed_decision IS NULL THEN
        RAISE EXCEPTION 'run %: a run that is % leaves its card only on a decision recorded for it', OLD.id,
            replace(was, '_', ' ') USING ERRCODE = '42501';
    END IF;
    IF was = 'outcome_unknown' AND becomes <> was
            AND NOT EXISTS (SELECT 1 FROM pg_roles g WHERE g.rolname IN ('countersign_operator', 'countersign_admin')
                AND pg_has_role(session_user, g.oid, 'MEMBER'))
            AND EXISTS (SELECT 1 FROM pg_roles g WHERE g.rolname = 'countersign_worker'
                AND pg_has_role(session_user, g.oid, 'MEMBER')) THEN
        RAISE EXCEPTION 'run %: % is a worker; a run whose outcome is unknown is settled by an operator or an admin',
            OLD.id, session_user USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER countersign_guard_run BEFORE INSERT OR UPDATE OR DELETE ON runs
    FOR EACH ROW EXECUTE FUNCTION countersign_guard_run();

-- The decision a claim points at, looked for when the transaction commits: the claim may insert it after.
CREATE FUNCTION countersign_guard_run_decided() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    current_decision BIGINT;
    recorded BOOLEAN;
BEGIN
    SELECT r.claimed_decision INTO current_decision FROM runs r WHERE r.id = NEW.id;
    IF current_decision IS DISTINCT FROM NEW.claimed_decision THEN
        RETURN NULL; -- put back or carried further in the same transaction; that write had its own check
    END IF;
    recorded := EXISTS (SELECT 1 FROM decisions d WHERE d.id = NEW.claimed_decision AND d.run_id = NEW.id
        AND d.pause_number = NEW.pause_number AND d.digest = NEW.digest);
    IF NOT recorded THEN
        RAISE EXCEPTION 'run %: it left its card on decision %, which is not recorded for that card', NEW.id,
            NEW.claimed_decision USING ERRCODE = '42501';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER countersign_guard_run_decided AFTER UPDATE ON runs DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (OLD.status IN ('waiting_for_approval', 'waiting_for_input')
        AND NEW.status IN ('running', 'queued'))
    EXECUTE FUNCTION countersign_guard_run_decided();
${end_postgresql_only}
