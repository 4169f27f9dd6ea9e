export * from './estimates.js';
export * from './state.js';
