/** The door of src/services/coaching/ (the only module other rooms import). Coaching: the training focus, coaching entries and saved positions, and the state get_coaching_state assembles from them. */
export * from './entries.js';
export * from './focus.js';
export * from './positions.js';
export * from './state.js';
