import type { Family } from '../config.js';

/** Families the surface charges before the handler runs; `review` and `studyUpload` are charged inside the service. */
export function chargedBySurface(family: Family): boolean {
  return family !== 'review' && family !== 'studyUpload' && family !== 'personal' && family !== 'scout';
}
