/** The door of src/services/workers/ (issue 36): review jobs handed to review workers over lichess's fishnet protocol (jobs.ts: leases, submissions), their refusals (issues.ts), the owner's view of their keys (keys.ts), and the opening positions a job skips (openingLines.ts). Keys themselves are issued and verified in src/auth/workerKeys.ts. */
export * from './jobs.js';
export * from './issues.js';
export * from './keys.js';
export * from './openingLines.js';
