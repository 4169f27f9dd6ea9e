CREATE TABLE `explorer_run_lease` (
	`run_key` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
