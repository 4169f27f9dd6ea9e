/**
 * Four published game scores (public-domain records; moves as replayed by chess.js) used by the
 * study and coaching demo seeders, with short study notes keyed by ply (0: before the first move).
 */
export interface DemoStudyGame {
  slug: string;
  headers: Record<string, string>;
  moves: string;
  notes: Record<number, string>;
}

export const DEMO_STUDY_GAMES: DemoStudyGame[] = [
  {
    slug: 'opera',
    headers: { Event: 'Casual game', Site: 'Paris FRA', Date: '1858.??.??', White: 'Morphy, Paul', Black: 'Duke Karl of Brunswick and Count Isouard', Result: '1-0' },
    moves: `1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0`,
    notes: {
      0: 'Played in a box at the Paris opera; a model of rapid development against a lagging opponent.',
      19: '10.Nxb5: a knight for two pawns, to open lines against the uncastled king.',
      25: '13.Rxd7: the exchange goes back to keep the pin on d7.',
      31: '16.Qb8+: the queen deflects the knight from d7.',
      33: '17.Rd8#: mate with the last two pieces.',
    },
  },
  {
    slug: 'immortal',
    headers: { Event: 'Casual game', Site: 'London ENG', Date: '1851.06.21', White: 'Anderssen, Adolf', Black: 'Kieseritzky, Lionel', Result: '1-0' },
    moves: `1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5
8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8
15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6
21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0`,
    notes: {
      0: 'The Immortal Game: a King’s Gambit where White gives a bishop, both rooks and the queen.',
      35: '18.Bd6: both rooks are left to be taken; the minor pieces will do the work.',
      43: '22.Qf6+: the queen too, deflecting the knight from g8.',
      45: '23.Be7#: three minor pieces against a king with its army at home.',
    },
  },
  {
    slug: 'lasker-bauer',
    headers: { Event: 'Amsterdam', Site: 'Amsterdam NED', Date: '1889.??.??', White: 'Lasker, Emanuel', Black: 'Bauer, Johann Hermann', Result: '1-0' },
    moves: `1. f4 d5 2. e3 Nf6 3. b3 e6 4. Bb2 Be7 5. Bd3 b6 6. Nf3 Bb7 7. Nc3 Nbd7 8. O-O
O-O 9. Ne2 c5 10. Ng3 Qc7 11. Ne5 Nxe5 12. Bxe5 Qc6 13. Qe2 a6 14. Nh5 Nxh5
15. Bxh7+ Kxh7 16. Qxh5+ Kg8 17. Bxg7 Kxg7 18. Qg4+ Kh7 19. Rf3 e5 20. Rh3+ Qh6
21. Rxh6+ Kxh6 22. Qd7 Bf6 23. Qxb7 Kg7 24. Rf1 Rab8 25. Qd7 Rfd8 26. Qg4+ Kf8
27. fxe5 Bg7 28. e6 Rb7 29. Qg6 f6 30. Rxf6+ Bxf6 31. Qxf6+ Ke8 32. Qh8+ Ke7
33. Qg7+ Kxe6 34. Qxb7 Rd6 35. Qxa6 d4 36. exd4 cxd4 37. h4 d3 38. Qxd3 1-0`,
    notes: {
      29: '15.Bxh7+: the first bishop.',
      33: '17.Bxg7: the second bishop; the pattern now carries Lasker’s name.',
      37: '19.Rf3: the rook lift that decides.',
      43: '22.Qd7: the fork wins back a bishop and leaves White a clean extra pawn.',
    },
  },
  {
    slug: 'game-of-the-century',
    headers: { Event: 'Rosenwald Memorial', Site: 'New York, NY USA', Date: '1956.10.17', White: 'Byrne, Donald', Black: 'Fischer, Robert James', Result: '0-1' },
    moves: `1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6 8. e4
Nbd7 9. Rd1 Nb6 10. Qc5 Bg4 11. Bg5 Na4 12. Qa3 Nxc3 13. bxc3 Nxe4 14. Bxe7 Qb6
15. Bc4 Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 18. Bxb6 Bxc4+ 19. Kg1 Ne2+ 20. Kf1
Nxd4+ 21. Kg1 Ne2+ 22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 25. Qxb6 Nxd1 26. h3
Rxa2 27. Kh2 Nxf2 28. Re1 Rxe1 29. Qd8+ Bf8 30. Nxe1 Bd5 31. Nf3 Ne4 32. Qb8 b5
33. h4 h5 34. Ne5 Kg7 35. Kg1 Bc5+ 36. Kf1 Ng3+ 37. Ke1 Bb4+ 38. Kd1 Bb3+
39. Kc1 Ne2+ 40. Kb1 Nc3+ 41. Kc1 Rc2# 0-1`,
    notes: {
      0: '“The Game of the Century”: Fischer was thirteen.',
      22: '11...Na4: the knight offers itself to pull the white pieces off the king.',
      34: '17...Be6: the queen is left en prise; the windmill of checks that follows wins far more.',
    },
  },
];

/**
 * The game as PGN text with its notes as {comments}. Notes are attached after the ply they name,
 * which is where a PGN reader (src/chess/pgn.ts) files a comment.
 */
export function demoPgn(game: DemoStudyGame): string {
  const headers = Object.entries(game.headers)
    .map(([k, v]) => `[${k} "${v}"]`)
    .join('\n');
  const words = game.moves.split(/\s+/);
  const out: string[] = [];
  if (game.notes[0]) out.push(`{${game.notes[0]}}`);
  let ply = 0;
  for (const w of words) {
    const move = w.replace(/^\d+\.+/, '');
    out.push(w);
    if (move === '' || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(w)) continue;
    ply += 1;
    if (game.notes[ply]) out.push(`{${game.notes[ply]}}`);
  }
  return `${headers}\n\n${out.join(' ')}`;
}
