export * from './entries.js';
export * from './focus.js';
export * from './positions.js';
export * from './state.js';
