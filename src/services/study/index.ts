/** The door of src/services/study/ (the only module other rooms import). The study collection: uploaded games, their notes and analysis requests. */
export * from './study.js';
export * from './studyView.js';
