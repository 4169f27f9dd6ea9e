// Display helpers: names for value sets, dates, evaluations.

export const PROVIDER_NAMES: Record<string, string> = { siteA: 'chess.com', siteB: 'lichess', fed: 'ECF', manual: 'manual', pgn: 'PGN import' };
export const providerName = (p: string) => PROVIDER_NAMES[p] ?? p;

export function day(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '—';
}

export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : 'never';
}

export function evalText(e: { type: string; value: number; pawns?: number | null; mateIn?: number | null } | null | undefined): string {
  if (!e) return '—';
  if (e.type === 'mate') return `#${e.value}`;
  const p = e.value / 100;
  return `${p > 0 ? '+' : ''}${p.toFixed(2)}`;
}

/**
 * White's winning chances (0–100) from an evaluation in White's frame: lichess's curve
 * (modules/analyse/src/main/WinPercent.scala: 50 + 50·(2/(1+e^(−0.00368208·cp)) − 1),
 * centipawns clamped to ±1000; a mate is 100 or 0). Drawing only: the server's figures use the same curve.
 */
export function whiteWinChances(e: { type: string; value: number } | null | undefined, whiteFrameSign: 1 | -1): number {
  if (!e) return 50;
  if (e.type === 'mate') return e.value * whiteFrameSign > 0 ? 100 : 0;
  const cp = Math.max(-1000, Math.min(1000, e.value * whiteFrameSign));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

export const CLASS_MARK: Record<string, string> = { brilliant: '!!', great: '!', best: '★', good: '', inaccuracy: '?!', mistake: '?', miss: '×', blunder: '??' };
