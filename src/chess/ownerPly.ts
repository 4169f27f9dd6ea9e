import { plyClock, type TimeControlInfo } from './clocks.js';
import { timeTroubleTag } from './concepts.js';
import type { Colour, Ply } from './types.js';

/**
 * What a ply owes to whoever owns the game rather than to the engine output: which side is the
 * owner's, and the clocks of their copy of the game. A review's plies are derived and stored once
 * without it (the same moves give the same plies for every owner); each read lays it on.
 */
export interface PlyOwner {
  userColour: Colour | null;
  /** Seconds on the clock after each ply (games.clocks), or null. */
  clocks: ReadonlyArray<number | null> | null;
  timeControl: TimeControlInfo | null;
}

/** The owner-neutral ply a review stores: nobody's move, no clocks, no time_trouble tag. */
export const NO_OWNER: PlyOwner = { userColour: null, clocks: null, timeControl: null };

/** Lays the owner's side and clocks on an owner-neutral ply (time_trouble is always its last tag). */
export function withOwner(ply: Ply, owner: PlyOwner): Ply {
  const clock = plyClock(owner.clocks, ply.ply, owner.timeControl);
  const trouble = timeTroubleTag(clock.clockSecondsBefore, owner.timeControl?.baseSeconds ?? null, owner.timeControl?.incrementSeconds ?? null);
  return {
    ...ply,
    isUserMove: owner.userColour === ply.colour,
    ...clock,
    concepts: trouble ? [...ply.concepts, trouble] : ply.concepts,
  };
}
