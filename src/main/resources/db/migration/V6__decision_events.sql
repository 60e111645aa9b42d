-- Whether a decision's governance event (approval_decided, input_submitted) is recorded. A process that stops
-- after recording it and before any call starts leaves the decision to be carried out again; the event is
-- recorded with the flag in one transaction, so carrying it out again does not record it a second time.
-- A decision taken again on the same pause (after a release or a retry) is a new row with its own flag.
ALTER TABLE decisions ADD COLUMN event_recorded BOOLEAN NOT NULL DEFAULT FALSE;
