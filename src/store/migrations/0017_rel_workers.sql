ALTER TABLE `review_jobs` ADD `progress_done` integer;--> statement-breakpoint
ALTER TABLE `worker_keys` ADD `failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `worker_keys` ADD `failed_at` text;--> statement-breakpoint
ALTER TABLE `worker_keys` ADD `left_at` text;--> statement-breakpoint
ALTER TABLE `worker_opening_lines` ADD `key_id` text;