/** The door of src/services/accounts/ (the only module other rooms import). The owner's account: the user row and tokens' owner (accounts), the profile get_profile shows, and the Claude Desktop entry (claudeConfig). */
export * from './accounts.js';
export * from './claudeConfig.js';
export * from './profile.js';
