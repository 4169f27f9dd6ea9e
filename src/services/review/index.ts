/** The door of src/services/review/ (the only module other rooms import). The one owner of a review: the queue and the stored reviews (queue, records, derive, view, summary), requests and the review subject of a game, bulk and auto review, the reads over stored reviews (reviewReads), get_game with its review block (gameReview), get_game_analysis (analysis) and get_critical_moments (moments). */
export * from './analysis.js';
export * from './auto.js';
export * from './bulk.js';
export * from './gameReview.js';
export * from './gameSubject.js';
export * from './moments.js';
export * from './queue.js';
export * from './queueStatus.js';
export * from './records.js';
export * from './reviewReads.js';
export * from './reviewRequests.js';
export * from './sourceReviews.js';
export * from './workerLeases.js';
export * from './workerReviews.js';
