-- Reviews are per owner (issue 37 item 1): `analyses` was keyed by moves alone, its first writer's
-- review (an engine run, or lichess's own analysis synced by one owner) granted to every owner with the
-- same moves. It is now keyed by (user_id, moves_key) and carries the owner's review time, so
-- `owner_reviews` folds into it. Each owner holding a review today keeps their own copy of the row they
-- read: holders are `owner_reviews`, and (for stores never started since 0004, whose start-up backfill
-- never ran) owners with a completed job for the moves or a game carrying its accuracy, at their earliest
-- time. A row no owner holds is dropped.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_analyses` (
	`user_id` text NOT NULL,
	`moves_key` text NOT NULL,
	`payload` text NOT NULL,
	`engine` text NOT NULL,
	`depth` integer NOT NULL,
	`nodes_per_position` integer NOT NULL,
	`accuracy_white` real NOT NULL,
	`accuracy_black` real NOT NULL,
	`analysed_at` text NOT NULL,
	`reviewed_at` text NOT NULL,
	`derivation` text,
	`derivation_version` integer DEFAULT 0 NOT NULL,
	`view` blob,
	PRIMARY KEY(`user_id`, `moves_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_analyses`("user_id", "moves_key", "payload", "engine", "depth", "nodes_per_position", "accuracy_white", "accuracy_black", "analysed_at", "reviewed_at", "derivation", "derivation_version", "view")
SELECT h."user_id", a."moves_key", a."payload", a."engine", a."depth", a."nodes_per_position", a."accuracy_white", a."accuracy_black", a."analysed_at", h."reviewed_at", a."derivation", a."derivation_version", a."view"
  FROM (
    SELECT "user_id", "moves_key", MIN("at") AS "reviewed_at" FROM (
      SELECT o."user_id", o."moves_key", o."reviewed_at" AS "at" FROM `owner_reviews` o
      UNION ALL
      SELECT j."user_id", j."moves_key", COALESCE(j."finished_at", x."analysed_at") FROM `review_jobs` j JOIN `analyses` x ON x."moves_key" = j."moves_key" WHERE j."status" = 'complete'
      UNION ALL
      SELECT g."user_id", g."moves_key", x."analysed_at" FROM `games` g JOIN `analyses` x ON x."moves_key" = g."moves_key" WHERE g."review_accuracy" IS NOT NULL
    ) GROUP BY "user_id", "moves_key"
  ) h
  JOIN `analyses` a ON a."moves_key" = h."moves_key"
  WHERE h."user_id" IN (SELECT "id" FROM `users`);--> statement-breakpoint
DROP TABLE `analyses`;--> statement-breakpoint
ALTER TABLE `__new_analyses` RENAME TO `analyses`;--> statement-breakpoint
DROP TABLE `owner_reviews`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
