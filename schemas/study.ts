import { z } from 'zod';

/** Study uploads accept the same bounded PGN as attach (documented in the tool description). */
export const STUDY_PGN_MAX_CHARS = 100_000;

export const UploadStudyInput = z.strictObject({
  pgn: z.string().min(1).max(STUDY_PGN_MAX_CHARS).describe('One complete PGN game with movetext (1 to 100,000 characters); comments become per-ply notes'),
});

export const StudyIdInput = z.object({ id: z.string().min(1).max(100).describe('Study game id from list_study_games') });
