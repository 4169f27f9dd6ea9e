import { NoInput } from '../../schemas/aggregates.js';
import { Profile } from '../../schemas/profile.js';
import * as profile from '../../src/services/accounts/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getProfile = defineTool({
  name: 'get_profile',
  title: 'Get my profile',
  description:
    "The token owner's profile: display name, email, usernames on chess.com (siteA) and lichess (siteB), connected sources with their sync status, game totals, and lastSyncedAt, which bounds how fresh every other answer is. Call it first to learn who you are coaching and whether data is current.",
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me' },
  input: NoInput,
  output: Profile,
  annotations: READ_ONLY,
  statuses: [401, 429],
  handler: (ctx) => profile.getProfile(ctx),
});
