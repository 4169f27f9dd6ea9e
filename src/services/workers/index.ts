/** The door of src/services/workers/ (issue 36): review jobs handed to review workers over lichess's fishnet protocol (jobs.ts: leases, submissions), their refusals (issues.ts), and the owner's view of their keys (keys.ts). Keys themselves are issued and verified in src/auth/workerKeys.ts. */
export * from './jobs.js';
export * from './issues.js';
export * from './keys.js';
