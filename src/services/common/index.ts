/** The door of src/services/common/ (the only module other rooms import). Pieces every aggregate uses: the per-owner memo (ownerMemo), figure rounding and means (figures), date ranges and time classes over an owner's games (window), one request at a time per site (siteTurns), the background fetches that take those turns (siteRuns), the base of links in answers (links), long derived reads in slices (slices), one long-lived instance per app (perApp), a claim on work kept in the store so processes on one data folder take turns (storeLease). */
export * from './figures.js';
export * from './links.js';
export * from './ownerMemo.js';
export * from './perApp.js';
export * from './siteRuns.js';
export * from './siteTurns.js';
export * from './window.js';
export * from './slices.js';
export * from './storeLease.js';
