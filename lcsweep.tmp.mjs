import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
const client = new Client({ name: 'x', version: '0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.URL ?? 'http://127.0.0.1:3917/api/mcp'), { requestInit: { headers: { Authorization: `Bearer ${process.env.TOK}` } } }));
const call = async (name, args = {}) => { const r = await client.callTool({ name, arguments: args }); return r.structuredContent ?? JSON.parse(r.content[0].text); };
const games = await call('list_games', { reviewed: 'yes' });
const gid = games.games[0].id;
const study = await call('list_study_games', {});
const lib = await call('list_library_games', {});
const calls = [
  ['get_profile'], ['get_chess_stats'], ['get_chess_stats', { range: 'all' }], ['get_rating_progress'], ['list_games'], ['get_game', { id: gid }],
  ['get_game_analysis', { id: gid }], ['get_critical_moments', { id: gid }], ['get_critical_moments', { id: gid, minCentipawnLoss: 50 }], ['get_problem_lines'], ['get_weekly_report'],
  ['get_puzzle_stats'], ['list_study_games'], ['get_weakness_profile'], ['get_weakness_profile', { range: 'all' }], ['get_coaching_state'], ['list_saved_positions'],
  ['list_library_games'], ['get_library_game', { slug: lib.games?.[0]?.slug ?? lib.items?.[0]?.slug }],
  ['calculate_ecf_rating_change', { currentRating: 1650, games: [{ opponentRating: 1700, result: 'win' }, { opponentRating: 1500, result: 'draw' }, { opponentRating: 1800, result: 'loss' }] }],
];
const found = new Map();
for (const [name, args] of calls) {
  let out;
  try { out = await call(name, args); } catch (e) { console.log(name, 'ERR', e.message); continue; }
  const walk = (n, p) => {
    if (Array.isArray(n)) return n.forEach((x, i) => walk(x, p + '[]'));
    if (n && typeof n === 'object') return Object.entries(n).forEach(([k, v]) => walk(v, p + '.' + k));
    if (typeof n === 'number' && !Number.isInteger(n)) {
      const dec = String(n).split('.')[1]?.length ?? 0;
      const key = name + ' ' + p;
      const cur = found.get(key) ?? { max: 0, ex: n };
      if (dec > cur.max) found.set(key, { max: dec, ex: n });
    }
  };
  walk(out, '');
  if (process.env.SIZE) console.log(name, JSON.stringify(out).length);
}
for (const [k, v] of found) if (v.max > 2) console.log(k, v.max, v.ex);
await client.close();
