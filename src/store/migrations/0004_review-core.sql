CREATE TABLE `owner_reviews` (
	`user_id` text NOT NULL,
	`moves_key` text NOT NULL,
	`reviewed_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `moves_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `analyses` ADD `derivation` text;--> statement-breakpoint
ALTER TABLE `analyses` ADD `derivation_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `review_jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `review_jobs` ADD `heartbeat_at` text;--> statement-breakpoint
ALTER TABLE `review_jobs` ADD `priority` integer DEFAULT 0 NOT NULL;