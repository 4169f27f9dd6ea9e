export * from './fedRating.js';
