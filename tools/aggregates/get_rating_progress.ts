import { RatingLines, RatingsInput } from '../../schemas/aggregates.js';
import { ratingProgress } from '../../src/services/stats/index.js';
import { defineTool, READ_ONLY } from '../defineTool.js';

export const getRatingProgress = defineTool({
  name: 'get_rating_progress',
  title: 'Get my rating progress',
  description:
    'Rating lines over a window, one per provider and time class with a reading in the window (including fed, the ECF over-the-board rating). ' +
    "Readings come from the owner's games (rating after each game) and from published rating histories. Points are one per day (the day's last rating), oldest first; over 60 are evenly downsampled keeping the first and last (pointsDownsampled). " +
    'start is the standing rating from before the window when there is one (seededFromBefore), else the first reading in it; delta = end − start. ' +
    'Time classes are normalised: ultraBullet→bullet; classical, daily, correspondence→standard; fed→standard.',
  access: 'personal',
  family: 'personal',
  rest: { method: 'GET', path: '/api/v1/me/ratings' },
  input: RatingsInput,
  output: RatingLines,
  annotations: READ_ONLY,
  statuses: [400, 401, 429],
  handler: (ctx, input) => ratingProgress(ctx, input),
});
