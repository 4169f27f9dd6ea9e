/** The door of src/services/reports/ (the only module other rooms import). The weekly report: its figures (reports), page, text, Markdown, mail and scheduler. */
export * from './mailer.js';
export * from './reportMarkdown.js';
export * from './reportPage.js';
export * from './reportScheduler.js';
export * from './reports.js';
