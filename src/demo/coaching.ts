import { parsePgn } from '../chess/pgn.js';
import type { Clock } from '../clock.js';
import { addCoachingEntry } from '../services/coaching/index.js';
import { setTrainingFocus } from '../services/coaching/index.js';
import { savePosition } from '../services/coaching/index.js';
import { DEMO_STUDY_GAMES, demoPgn } from './classicsForStudy.js';
import type { DemoSeeder } from './seeder.js';
import { demoOwnerCtx } from './study.js';

/** The position after `ply` of a demo classic, by replaying its moves. */
function positionAfter(slug: string, ply: number): string {
  const game = DEMO_STUDY_GAMES.find((g) => g.slug === slug)!;
  return parsePgn(demoPgn(game)).plies[ply - 1].fenAfter;
}

/**
 * Six weeks of coaching for the demo owner, written through the services (so every rule holds):
 * focuses (two active, one resolved), a log of sessions, notes and reflections, assignments in
 * each state, and saved positions from the classics, some quizzed.
 */
export const seedCoaching: DemoSeeder = (demo) => {
  const end = demo.clock.now().getTime();
  let t = end - 42 * 86_400_000;
  const clock: Clock = { now: () => new Date(t) };
  const ctx = demoOwnerCtx(demo, clock);
  const later = (hours: number) => {
    t += hours * 3_600_000;
  };

  const attack = setTrainingFocus(ctx, { title: 'Punish an uncastled king: open lines before it escapes' });
  const endgames = setTrainingFocus(ctx, { title: 'Convert extra material without allowing counterplay' });
  later(1);
  addCoachingEntry(ctx, { kind: 'session', body: 'First session: went through recent losses; two came from leaving my king in the centre too long.' });
  const opera = addCoachingEntry(ctx, {
    kind: 'assignment',
    body: 'Replay the Opera game and explain, for each of White’s sacrifices, which line it opens.',
    focusId: attack.id,
  });
  const blind = addCoachingEntry(ctx, { kind: 'assignment', body: 'Play through the Immortal Game without a board up to move 15.', focusId: attack.id });

  const saved = [
    ['opera', 30, 'Opera game: White to move and mate in two', '16.Qb8+ Nxb8 17.Rd8#: deflection of the d7 knight.'],
    ['immortal', 42, 'Immortal Game: White to move and mate in two', '22.Qf6+ Nxf6 23.Be7#: the queen deflects the g8 knight.'],
    ['lasker-bauer', 28, 'Lasker–Bauer: the double bishop sacrifice starts here', '15.Bxh7+ then 17.Bxg7 strips the king.'],
    ['lasker-bauer', 42, 'Lasker–Bauer: the fork that cashes in', '22.Qd7 forks the bishops on e7 and b7.'],
    ['game-of-the-century', 33, 'Byrne–Fischer: Black to move, find the queen offer', '17...Be6: the windmill of checks wins more than the queen.'],
  ] as const;
  const positions = saved.map(([slug, ply, label, why]) => {
    later(20);
    return savePosition(ctx, { fen: positionAfter(slug, ply), label, why, focusId: attack.id });
  });

  later(7 * 24);
  addCoachingEntry(ctx, { kind: 'session', body: 'Second session: the Opera game. Counted tempi after 9.Bg5; Black never got castled.' });
  addCoachingEntry(ctx, { kind: 'result', body: 'Explained all four sacrifices; missed why 13.Rxd7 keeps the pin.', assignmentId: opera.id, status: 'completed' });
  addCoachingEntry(ctx, { kind: 'result', body: 'Found 16.Qb8+ at once.', positionId: positions[0].id, correct: true });
  addCoachingEntry(ctx, { kind: 'result', body: 'Looked at the quiet moves first and never tried the queen check.', positionId: positions[1].id, correct: false });
  addCoachingEntry(ctx, { kind: 'reflection', body: 'I look for checks first but stop at the first one that does not mate. Need to keep going.' });

  later(7 * 24);
  addCoachingEntry(ctx, { kind: 'session', body: 'Third session: endgames with an extra pawn. Trade pieces, not pawns.', focusId: endgames.id });
  addCoachingEntry(ctx, { kind: 'result', body: 'Ran out of patience after move 9.', assignmentId: blind.id, status: 'skipped' });
  addCoachingEntry(ctx, {
    kind: 'assignment',
    body: 'Quiz yourself on every saved position due for review before the next session.',
    focusId: attack.id,
  });
  addCoachingEntry(ctx, { kind: 'assignment', body: 'Win five rook endgames a pawn up against the engine at club level.', focusId: endgames.id });

  later(7 * 24);
  const resolved = setTrainingFocus(ctx, { title: 'Stop resigning in positions that are only worse' });
  later(24);
  setTrainingFocus(ctx, { focusId: resolved.id, resolve: true });
  addCoachingEntry(ctx, { kind: 'note', body: 'Resolved the resigning focus: no early resignations in the last 20 games.' });
  addCoachingEntry(ctx, { kind: 'result', body: 'Got it this time: Qf6+ first.', positionId: positions[1].id, correct: true });
  addCoachingEntry(ctx, { kind: 'result', body: 'Missed the fork: only looked at checks.', positionId: positions[3].id, correct: false });

  later(6 * 24);
  addCoachingEntry(ctx, { kind: 'session', body: 'Fourth session: reviewed quizzes; the fork pattern with the queen still slips.', focusId: attack.id });
  demo.log(`coaching: 3 focuses, ${saved.length} saved positions, a six-week log`);
};
