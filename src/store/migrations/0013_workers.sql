CREATE TABLE `worker_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`fingerprint` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	`last_contact_at` text,
	`last_user_agent` text,
	`jobs_done` integer DEFAULT 0 NOT NULL,
	`positions_done` integer DEFAULT 0 NOT NULL,
	`search_ms` integer DEFAULT 0 NOT NULL,
	`nodes_done` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `worker_keys_fingerprint_unique` ON `worker_keys` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `worker_keys_user` ON `worker_keys` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `worker_keys_live_name` ON `worker_keys` (`user_id`,`name`) WHERE revoked_at IS NULL;