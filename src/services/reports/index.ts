export * from './mailer.js';
export * from './reportMarkdown.js';
export * from './reportPage.js';
export * from './reportScheduler.js';
export * from './reports.js';
