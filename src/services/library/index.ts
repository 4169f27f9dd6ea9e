/** The door of src/services/library/ (the only module other rooms import). The classic-games library shipped in data/library. */
export * from './library.js';
