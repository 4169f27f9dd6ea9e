CREATE TABLE `repertoires` (
	`user_id` text NOT NULL,
	`colour` text NOT NULL,
	`source` text NOT NULL,
	`study_game_id` text,
	`pgn` text NOT NULL,
	`positions` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `colour`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `scout_games` (
	`scout_id` text NOT NULL,
	`source_id` text NOT NULL,
	`played_at` text NOT NULL,
	`colour` text NOT NULL,
	`result` text NOT NULL,
	`opponent` text NOT NULL,
	`opponent_rating` integer,
	`rating` integer,
	`time_class` text NOT NULL,
	`rated` integer NOT NULL,
	`eco` text,
	`opening` text,
	`san_moves` text NOT NULL,
	PRIMARY KEY(`scout_id`, `source_id`),
	FOREIGN KEY (`scout_id`) REFERENCES `scouts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scout_games_played` ON `scout_games` (`scout_id`,`played_at`);--> statement-breakpoint
CREATE TABLE `scouts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`username` text NOT NULL,
	`max_games` integer NOT NULL,
	`months` integer NOT NULL,
	`cursor` text DEFAULT '{}' NOT NULL,
	`status` text NOT NULL,
	`status_message` text,
	`fetched_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scouts_owner_player` ON `scouts` (`user_id`,`provider`,`username`);