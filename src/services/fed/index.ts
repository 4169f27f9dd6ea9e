/** The door of src/services/fed/ (the only module other rooms import). The ECF rating calculator (calculate_ecf_rating_change), on src/chess/ecfRating.ts. */
export * from './fedRating.js';
