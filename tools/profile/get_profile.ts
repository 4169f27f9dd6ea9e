import { z } from 'zod';
import { NoInput } from '../../schemas/aggregates.js';
import { notAvailableYet } from '../../src/errors.js';
import { defineTool } from '../defineTool.js';

/** Output shape: to be designed with the capability. */
const GetProfileOutput = z.object({}).describe('Get my profile');

export const getProfile = defineTool({
  name: 'get_profile',
  title: 'Get my profile',
  description:
    "The token owner's profile: display name, email, usernames on chess.com (siteA) and lichess (siteB), connected sources with their sync status, game totals, and lastSyncedAt, which bounds how fresh every other answer is. Call it first to learn who you are coaching and whether data is current.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me' },
  input: NoInput,
  output: GetProfileOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  statuses: [401, 429],
  handler: () => {
    throw notAvailableYet('get_profile');
  },
});
