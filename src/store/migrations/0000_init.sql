CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`external_id` text NOT NULL,
	`source_token` text,
	`status` text DEFAULT 'never-synced' NOT NULL,
	`status_message` text,
	`connected_at` text NOT NULL,
	`last_synced_at` text,
	`cursor` text DEFAULT '{}' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_user_provider` ON `connections` (`user_id`,`provider`);--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`fingerprint` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_fingerprint_unique` ON `tokens` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `tokens_user` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`email` text NOT NULL,
	`username_site_a` text,
	`username_site_b` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `games` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`source_id` text NOT NULL,
	`played_at` text NOT NULL,
	`colour` text NOT NULL,
	`result` text NOT NULL,
	`opponent` text NOT NULL,
	`opponent_rating` integer,
	`user_rating` integer,
	`rating_delta` integer,
	`time_class` text NOT NULL,
	`time_control` text,
	`rated` integer NOT NULL,
	`eco` text,
	`opening` text,
	`event` text,
	`moves_count` integer NOT NULL,
	`platform_accuracy` real,
	`review_accuracy` real,
	`source_url` text NOT NULL,
	`san_moves` text,
	`moves_source` text,
	`pgn_hash` text,
	`clocks` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pgn_hash`) REFERENCES `pgns`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `games_source` ON `games` (`user_id`,`provider`,`source_id`);--> statement-breakpoint
CREATE INDEX `games_user_played` ON `games` (`user_id`,`played_at`);--> statement-breakpoint
CREATE INDEX `games_user_provider_played` ON `games` (`user_id`,`provider`,`played_at`);--> statement-breakpoint
CREATE TABLE `pgns` (
	`hash` text PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_buckets` (
	`key` text PRIMARY KEY NOT NULL,
	`tokens` real NOT NULL,
	`updated_at_ms` integer NOT NULL
);
