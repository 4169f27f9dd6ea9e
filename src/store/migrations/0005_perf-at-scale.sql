CREATE TABLE `owner_stamps` (
	`user_id` text PRIMARY KEY NOT NULL,
	`games` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `games_user_played`;--> statement-breakpoint
DROP INDEX `games_user_filters`;--> statement-breakpoint
DROP INDEX `games_user_san`;--> statement-breakpoint
CREATE INDEX `games_user_played` ON `games` (`user_id`,`played_at`,`id`);--> statement-breakpoint
CREATE INDEX `games_user_filters` ON `games` (`user_id`,`provider`,`result`,`time_class`,`colour`,`played_at`,`moves_count`,`platform_accuracy`,`review_accuracy`,`opening`,`opponent`,`eco`,`event`,`id`);--> statement-breakpoint
CREATE INDEX `games_user_san` ON `games` (`user_id`,`san_moves`,`played_at`,`id`);