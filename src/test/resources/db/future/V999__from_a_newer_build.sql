-- Stands for a migration of a newer Countersign that this build does not have.
CREATE TABLE from_a_newer_build (id INTEGER NOT NULL PRIMARY KEY);
