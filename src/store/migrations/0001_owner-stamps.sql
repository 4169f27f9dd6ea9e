CREATE TABLE `owner_stamps` (
	`user_id` text PRIMARY KEY NOT NULL,
	`games` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
