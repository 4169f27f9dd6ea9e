CREATE TABLE `explorer_answers` (
	`user_id` text NOT NULL,
	`position_key` text NOT NULL,
	`database` text NOT NULL,
	`ratings` text NOT NULL,
	`speeds` text NOT NULL,
	`month` text NOT NULL,
	`answer` text NOT NULL,
	`games` integer NOT NULL,
	`fetched_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `position_key`, `database`, `ratings`, `speeds`, `month`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
