-- What the inbox lists of a waiting run without decoding its paused state. Same file on SQLite and PostgreSQL.
--
-- Written with the paused state: the names of the tools the run waits on, one per line in call order (the
-- approval's calls, or the one input form), and how many of its calls a rule refused. An inbox of 10,000 runs
-- decoded 10,000 paused states (one to two seconds) at every refresh; with these it reads plain columns. Runs
-- paused before this migration have neither, and the store reads those from their paused states.
ALTER TABLE runs ADD COLUMN waiting_tools TEXT;
ALTER TABLE runs ADD COLUMN refused_count INTEGER;
