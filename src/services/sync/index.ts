export * from './connections.js';
export * from './sync.js';
export * from './syncScheduler.js';
export * from './types.js';
export * from './warmReads.js';
