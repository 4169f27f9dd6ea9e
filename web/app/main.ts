import { App, applyDocumentTheme, applyHostStyleVariables, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { clear, h } from '../dom.js';
import { answerKind, ownerTitle, readAnswer, type GameView, type ReviewPly } from './answer.js';
import { modelContext, type Shown } from './context.js';
import { gameBoard, positionOnly } from './view.js';

// The chat board (MCP Apps, the io.modelcontextprotocol/ui extension): a host renders it beside an answer of
// get_game, get_game_analysis, get_critical_moments or get_library_game (tools/app.ts). It opens on what the answer
// is about, fetches the rest of the game through the host with the same tools (tools/call, under the chat's token
// and limits), and tells the model which position the player is looking at.

const root = document.getElementById('app')!;
const app = new App({ name: 'chess-footprint board', version: '1.0.0' }, {}, { autoResize: true });

function applyContext(ctx: McpUiHostContext | undefined): void {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
}

/** A tool's structured answer through the host, or null when the host or the tool refuses. */
async function call(name: string, args: Record<string, unknown>): Promise<any | null> {
  try {
    const r = await app.callServerTool({ name, arguments: args });
    return r.isError ? null : (r.structuredContent ?? null);
  } catch {
    return null;
  }
}

/** Every reviewed ply (get_game_analysis pages through at most 120 a call). */
async function allPlies(id: string): Promise<ReviewPly[]> {
  const plies: ReviewPly[] = [];
  let from: number | null = 1;
  while (from !== null) {
    const page: any = await call('get_game_analysis', { id, fromPly: from, limit: 120 });
    if (!page?.analysed) return plies;
    plies.push(...page.plies);
    from = page.pagination.nextFromPly ?? null;
  }
  return plies;
}

/** The rest of an owner's game: its moves (get_game), every reviewed ply, its critical moments. */
async function complete(view: GameView): Promise<GameView> {
  if (!view.gameId) return view;
  const id = view.gameId;
  const game = view.kind === 'game' ? null : await call('get_game', { id });
  const reviewed = view.kind === 'game' ? null : game?.reviewed;
  const next = { ...view };
  if (game) Object.assign(next, { moves: game.moves ?? [], title: ownerTitle(game.colour, game.opponent ?? '?') });
  if (!next.moves) return next;
  if (view.kind !== 'analysis' || reviewed !== false) {
    const plies = await allPlies(id);
    if (plies.length) next.plies = plies;
  }
  if (view.kind !== 'moments' && next.plies.length) {
    const moments = await call('get_critical_moments', { id });
    if (moments?.moments) next.moments = moments.moments;
  }
  return next;
}

let lastSent = '';
function tellModel(shown: Shown): void {
  const update = modelContext(shown);
  const key = JSON.stringify(update);
  if (key === lastSent || !app.getHostCapabilities()?.updateModelContext) return;
  lastSent = key;
  app.updateModelContext(update).catch(() => {
    lastSent = '';
  });
}

function show(view: GameView): void {
  clear(root);
  if (!view.moves) {
    // Only the answer's own position until the game's moves arrive (or when the host cannot fetch them).
    if (!view.openFen) return void root.append(h('p', { class: 'muted' }, 'Loading the game…'));
    root.append(positionOnly(view, view.openFen, tellModel));
    return;
  }
  const board = gameBoard(view, root.clientWidth || 360, tellModel);
  root.append(board.root);
  board.go(view.openPly ?? view.moves.length);
}

let generation = 0;
async function open(toolName: string | undefined, structured: Record<string, unknown>): Promise<void> {
  const kind = answerKind(toolName, structured);
  if (!kind) return;
  const mine = ++generation;
  const first = readAnswer(kind, structured);
  show(first);
  const full = await complete(first);
  if (mine !== generation) return;
  if (full.moves) return show(full);
  const note = root.querySelector('[data-testid="note"]');
  if (note) note.textContent = 'This chat did not fetch the rest of the game: the position the answer is about.';
}

app.ontoolresult = (result) => {
  if (result.isError || !result.structuredContent) {
    clear(root);
    root.append(h('p', { class: 'muted' }, 'No board for this answer.'));
    return;
  }
  void open(app.getHostContext()?.toolInfo?.tool.name, result.structuredContent);
};
app.onhostcontextchanged = (ctx) => applyContext(ctx);

await app.connect();
applyContext(app.getHostContext());
