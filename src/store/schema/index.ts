// Every table of the store; drizzle-kit reads this file to generate migrations.
export * from './accounts.js';
export * from './games.js';
export * from './limits.js';
export * from './ratings.js';
export * from './reviews.js';
export * from './study.js';
export * from './coaching.js';
export * from './reports.js';
export * from './ownerStamps.js';
export * from './sessions.js';
export * from './prep.js';
export * from './peers.js';
export * from './workers.js';
