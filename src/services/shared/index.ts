export * from './figures.js';
export * from './ownerMemo.js';
export * from './window.js';
