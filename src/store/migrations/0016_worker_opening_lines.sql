CREATE TABLE `worker_opening_lines` (
	`user_id` text NOT NULL,
	`position_key` text NOT NULL,
	`nodes` integer NOT NULL,
	`line` text NOT NULL,
	PRIMARY KEY(`user_id`, `position_key`, `nodes`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
