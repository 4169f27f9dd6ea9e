-- One active (queued or running) review job per subject and per owner's moves (issue 30). Duplicates an
-- older version left (a bulk run killed and run again) are removed first: per subject, and then per
-- owner's moves, the running job is kept (its process may still be working it), else the oldest queued.
DELETE FROM `review_jobs` WHERE `rowid` IN (
  SELECT `rowid` FROM (
    SELECT `rowid`, row_number() OVER (PARTITION BY `user_id`, `subject_kind`, `subject_id` ORDER BY (`status` = 'running') DESC, `created_at` ASC, `rowid` ASC) AS `n`
    FROM `review_jobs` WHERE `status` IN ('queued', 'running')
  ) WHERE `n` > 1
);
--> statement-breakpoint
DELETE FROM `review_jobs` WHERE `rowid` IN (
  SELECT `rowid` FROM (
    SELECT `rowid`, row_number() OVER (PARTITION BY `user_id`, `moves_key` ORDER BY (`status` = 'running') DESC, `created_at` ASC, `rowid` ASC) AS `n`
    FROM `review_jobs` WHERE `status` IN ('queued', 'running')
  ) WHERE `n` > 1
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_jobs_active_subject` ON `review_jobs` (`user_id`, `subject_kind`, `subject_id`) WHERE `status` IN ('queued', 'running');
--> statement-breakpoint
CREATE UNIQUE INDEX `review_jobs_active_moves` ON `review_jobs` (`user_id`, `moves_key`) WHERE `status` IN ('queued', 'running');
--> statement-breakpoint
-- The one process that works the review queue at a time (engines per machine, not per process):
-- at most one row, renewed while its holder works, released when it stops or runs out of jobs.
CREATE TABLE `review_worker_lease` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`lease_owner` text NOT NULL,
	`heartbeat_at` text NOT NULL
);
