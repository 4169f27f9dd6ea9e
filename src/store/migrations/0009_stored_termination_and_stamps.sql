ALTER TABLE `pgns` ADD `termination` text;--> statement-breakpoint
ALTER TABLE `owner_stamps` ADD `study_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `owner_stamps` ADD `account_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `owner_reviews_moves_key` ON `owner_reviews` (`moves_key`);--> statement-breakpoint
-- The texts stored before this column existed: pgn_tag is src/chess/pgn.ts pgnTag, registered by openStore (src/store/db.ts).
UPDATE `pgns` SET `termination` = pgn_tag(`text`, 'Termination');
