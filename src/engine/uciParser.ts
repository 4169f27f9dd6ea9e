import type { EngineLine, EngineScore } from '../chess/engineOutput.js';

/**
 * A pure parser of the UCI lines an engine prints. No I/O: the process wrapper feeds it lines,
 * tests feed it saved Stockfish output. Scores stay in UCI's frame: the side to move's point of view.
 */

export interface InfoLine {
  depth: number | null;
  seldepth: number | null;
  multiPv: number;
  score: EngineScore | null;
  /** 'lower'/'upper' when the score is only a bound (an aspiration-window fail), not a value. */
  bound: 'lower' | 'upper' | null;
  nodes: number | null;
  /** Milliseconds the search has run and its nodes per second, as the engine reports them. */
  time: number | null;
  nps: number | null;
  pv: string[];
}

export type UciMessage =
  | { kind: 'id'; field: 'name' | 'author'; value: string }
  | { kind: 'uciok' }
  | { kind: 'readyok' }
  | { kind: 'info'; info: InfoLine }
  | { kind: 'bestmove'; move: string | null; ponder: string | null }
  | { kind: 'other'; text: string };

const INT_FIELDS = new Set(['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'tbhits', 'currmovenumber', 'cpuload']);

function parseInfo(tokens: string[]): InfoLine {
  const info: InfoLine = { depth: null, seldepth: null, multiPv: 1, score: null, bound: null, nodes: null, time: null, nps: null, pv: [] };
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === 'pv') {
      info.pv = tokens.slice(i + 1);
      break;
    }
    if (t === 'string') break; // free text to the end of the line
    if (t === 'score') {
      const kind = tokens[i + 1];
      const value = Number(tokens[i + 2]);
      if ((kind === 'cp' || kind === 'mate') && Number.isInteger(value)) {
        info.score = kind === 'cp' ? { cp: value, mate: null } : { cp: null, mate: value };
      }
      i += 2;
      if (tokens[i + 1] === 'lowerbound' || tokens[i + 1] === 'upperbound') {
        info.bound = tokens[i + 1] === 'lowerbound' ? 'lower' : 'upper';
        i += 1;
      }
      continue;
    }
    if (t === 'wdl') {
      i += 3;
      continue;
    }
    if (INT_FIELDS.has(t)) {
      const n = Number(tokens[i + 1]);
      i += 1;
      if (!Number.isFinite(n)) continue;
      if (t === 'depth') info.depth = n;
      else if (t === 'seldepth') info.seldepth = n;
      else if (t === 'multipv') info.multiPv = n;
      else if (t === 'nodes') info.nodes = n;
      else if (t === 'time') info.time = n;
      else if (t === 'nps') info.nps = n;
      continue;
    }
    if (t === 'currmove') i += 1;
  }
  return info;
}

export function parseUciLine(raw: string): UciMessage {
  const line = raw.trim();
  const tokens = line.split(/\s+/);
  switch (tokens[0]) {
    case 'id':
      if (tokens[1] === 'name' || tokens[1] === 'author') return { kind: 'id', field: tokens[1], value: tokens.slice(2).join(' ') };
      break;
    case 'uciok':
      return { kind: 'uciok' };
    case 'readyok':
      return { kind: 'readyok' };
    case 'info':
      if (tokens[1] !== 'string') return { kind: 'info', info: parseInfo(tokens) };
      break;
    case 'bestmove': {
      const move = tokens[1] && tokens[1] !== '(none)' && tokens[1] !== '0000' ? tokens[1] : null;
      const ponder = tokens[2] === 'ponder' && tokens[3] ? tokens[3] : null;
      return { kind: 'bestmove', move, ponder };
    }
  }
  return { kind: 'other', text: line };
}

/** What one `go` produced: the final MultiPV lines, best first, plus what the search reached. */
export interface SearchResult {
  bestMove: string | null;
  lines: EngineLine[];
  /** Deepest completed iteration of the first line. */
  depth: number;
  nodes: number;
  /** Stockfish's answer in a terminal position: `info depth 0 score mate 0` (mated) or `score cp 0` (stalemate). */
  terminalScore: EngineScore | null;
}

/**
 * Collects the info lines of one search. Per MultiPV slot it keeps the latest exact line and the latest
 * bound (fail-high/low) line. A bound is not an evaluation, so the exact line wins, unless a later bound
 * line names a different move: then the engine has reordered that slot (typically when the node budget
 * ends an iteration mid-way) and the bound line is the only one for the move the slot now holds.
 * Slots naming a move an earlier slot already holds are dropped.
 */
export class SearchCollector {
  private exact = new Map<number, { seq: number; info: InfoLine }>();
  private bounded = new Map<number, { seq: number; info: InfoLine }>();
  private seq = 0;
  private maxNodes = 0;
  private terminal: EngineScore | null = null;

  push(info: InfoLine): void {
    if (info.nodes !== null) this.maxNodes = Math.max(this.maxNodes, info.nodes);
    if (info.depth === 0 && info.score && info.pv.length === 0) {
      this.terminal = info.score;
      return;
    }
    if (!info.score || info.pv.length === 0 || info.depth === null) return;
    this.seq += 1;
    (info.bound ? this.bounded : this.exact).set(info.multiPv, { seq: this.seq, info });
  }

  private slotLine(slot: number): InfoLine {
    const e = this.exact.get(slot);
    const b = this.bounded.get(slot);
    if (e && (!b || b.seq < e.seq || b.info.pv[0] === e.info.pv[0])) return e.info;
    return (b ?? e)!.info;
  }

  finish(bestMove: string | null): SearchResult {
    const slots = [...new Set([...this.exact.keys(), ...this.bounded.keys()])].sort((a, b) => a - b);
    const chosen = slots.map((slot) => this.slotLine(slot));
    if (bestMove && chosen.length && chosen[0].pv[0] !== bestMove) {
      // The move the engine plays leads: take the freshest line that starts with it.
      const all = [...this.exact.values(), ...this.bounded.values()].sort((a, b) => b.seq - a.seq);
      const lead = all.find((x) => x.info.pv[0] === bestMove);
      if (lead) chosen.unshift(lead.info);
    }
    const seen = new Set<string>();
    const lines: EngineLine[] = [];
    for (const c of chosen) {
      if (seen.has(c.pv[0])) continue;
      seen.add(c.pv[0]);
      lines.push({ multiPv: lines.length + 1, score: c.score!, pv: c.pv, depth: c.depth! });
    }
    const cap = Math.max(1, slots.length);
    return {
      bestMove,
      lines: lines.slice(0, cap),
      depth: lines[0]?.depth ?? 0,
      nodes: this.maxNodes,
      terminalScore: this.terminal,
    };
  }
}

/** Runs saved engine output through the parser: one SearchResult per `bestmove`. */
export function parseSearches(output: string): { name: string | null; searches: SearchResult[] } {
  let name: string | null = null;
  const searches: SearchResult[] = [];
  let collector = new SearchCollector();
  for (const raw of output.split(/\r?\n/)) {
    if (!raw.trim()) continue;
    const msg = parseUciLine(raw);
    if (msg.kind === 'id' && msg.field === 'name') name = msg.value;
    else if (msg.kind === 'info') collector.push(msg.info);
    else if (msg.kind === 'bestmove') {
      searches.push(collector.finish(msg.move));
      collector = new SearchCollector();
    }
  }
  return { name, searches };
}
