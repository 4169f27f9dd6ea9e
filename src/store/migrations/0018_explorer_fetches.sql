CREATE TABLE `explorer_fetches` (
	`run_key` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`state` text NOT NULL,
	`message` text NOT NULL,
	`failures` integer NOT NULL,
	`failed_at` text NOT NULL,
	`retry_at` text NOT NULL,
	`token_fingerprint` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `explorer_fetches_user` ON `explorer_fetches` (`user_id`);
--> statement-breakpoint
CREATE TABLE `explorer_lease` (
	`id` integer PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
