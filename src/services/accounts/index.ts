export * from './accounts.js';
export * from './claudeConfig.js';
export * from './profile.js';
