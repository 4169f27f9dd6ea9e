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
	`moves_key` text,
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
CREATE INDEX `games_moves_key` ON `games` (`moves_key`);--> statement-breakpoint
CREATE INDEX `games_user_filters` ON `games` (`user_id`,`provider`,`result`,`time_class`,`colour`,`played_at`,`moves_count`,`platform_accuracy`,`review_accuracy`,`opening`,`opponent`,`eco`,`event`);--> statement-breakpoint
CREATE INDEX `games_user_san` ON `games` (`user_id`,`san_moves`);--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE `puzzle_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`puzzle_id` text NOT NULL,
	`attempted_at` text NOT NULL,
	`win` integer NOT NULL,
	`puzzle_rating` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `puzzle_attempts_key` ON `puzzle_attempts` (`user_id`,`provider`,`puzzle_id`,`attempted_at`);--> statement-breakpoint
CREATE TABLE `rating_points` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`series` text NOT NULL,
	`date` text NOT NULL,
	`rating` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rating_points_key` ON `rating_points` (`user_id`,`provider`,`series`,`date`);--> statement-breakpoint
CREATE TABLE `analyses` (
	`moves_key` text PRIMARY KEY NOT NULL,
	`payload` text NOT NULL,
	`engine` text NOT NULL,
	`depth` integer NOT NULL,
	`nodes_per_position` integer NOT NULL,
	`accuracy_white` real NOT NULL,
	`accuracy_black` real NOT NULL,
	`analysed_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `review_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`subject_kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`moves_key` text NOT NULL,
	`start_fen` text NOT NULL,
	`moves_uci` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_jobs_status` ON `review_jobs` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_jobs_subject` ON `review_jobs` (`user_id`,`subject_kind`,`subject_id`);--> statement-breakpoint
CREATE TABLE `study_games` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`moves_key` text NOT NULL,
	`start_fen` text NOT NULL,
	`san_moves` text NOT NULL,
	`uci_moves` text NOT NULL,
	`ply_count` integer NOT NULL,
	`headers` text NOT NULL,
	`result` text NOT NULL,
	`eco` text,
	`opening` text,
	`pgn_hash` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pgn_hash`) REFERENCES `pgns`(`hash`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `study_games_user_moves` ON `study_games` (`user_id`,`moves_key`);--> statement-breakpoint
CREATE INDEX `study_games_user_created` ON `study_games` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `study_notes` (
	`study_game_id` text NOT NULL,
	`ply` integer NOT NULL,
	`text` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`study_game_id`, `ply`),
	FOREIGN KEY (`study_game_id`) REFERENCES `study_games`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `coaching_entries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`body` text NOT NULL,
	`status` text,
	`assignment_id` text,
	`position_id` text,
	`correct` integer,
	`focus_id` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`focus_id`) REFERENCES `coaching_focuses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coaching_entries_id_unique` ON `coaching_entries` (`id`);--> statement-breakpoint
CREATE INDEX `coaching_entries_user_seq` ON `coaching_entries` (`user_id`,`seq`);--> statement-breakpoint
CREATE INDEX `coaching_entries_assignment` ON `coaching_entries` (`user_id`,`assignment_id`);--> statement-breakpoint
CREATE INDEX `coaching_entries_user_kind` ON `coaching_entries` (`user_id`,`kind`,`seq`);--> statement-breakpoint
CREATE TABLE `coaching_focuses` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`resolved_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `coaching_focuses_user_status` ON `coaching_focuses` (`user_id`,`status`);--> statement-breakpoint
CREATE TABLE `position_quizzes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`position_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`correct` integer NOT NULL,
	`quizzed_at` text NOT NULL,
	FOREIGN KEY (`position_id`) REFERENCES `saved_positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `position_quizzes_position` ON `position_quizzes` (`position_id`,`id`);--> statement-breakpoint
CREATE TABLE `saved_positions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`fen` text NOT NULL,
	`label` text NOT NULL,
	`why` text,
	`focus_id` text,
	`source_kind` text,
	`source_id` text,
	`source_ply` integer,
	`eval_cp` integer,
	`eval_mate` integer,
	`best_move_uci` text,
	`last_quizzed_at` text,
	`last_quiz_correct` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`focus_id`) REFERENCES `coaching_focuses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `saved_positions_user_created` ON `saved_positions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `saved_positions_user_focus` ON `saved_positions` (`user_id`,`focus_id`);--> statement-breakpoint
CREATE TABLE `weekly_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`week_start` text NOT NULL,
	`week_end` text NOT NULL,
	`payload` text NOT NULL,
	`generated_at` text NOT NULL,
	`share_token` text NOT NULL,
	`emailed_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `weekly_reports_share_token_unique` ON `weekly_reports` (`share_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `weekly_reports_week` ON `weekly_reports` (`user_id`,`week_end`);