import { existsSync, readFileSync } from 'node:fs';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { chatBoardPath } from '../src/paths.js';
import { ApiError } from '../src/errors.js';
import { getCriticalMoments } from './analysis/get_critical_moments.js';
import { getGameAnalysis } from './analysis/get_game_analysis.js';
import { getGame } from './games/get_game.js';
import { getLibraryGame } from './library/get_library_game.js';

/**
 * The chat board: one MCP App (the io.modelcontextprotocol/ui extension, ext-apps 1.7 / spec 2026-01-26) that a
 * host renders beside the answers of the tools below. The board's page is built by web/app/build.ts into
 * dist/web/chat-board.html; the tools' answers stay exactly what they are without it (the app reads them as any
 * client does), so a host without the extension loses nothing.
 */
export const CHAT_BOARD_URI = 'ui://chess-footprint/board';

/** The tools whose answers the board shows. */
export const CHAT_BOARD_TOOLS: ReadonlySet<string> = new Set([getGame.name, getGameAnalysis.name, getCriticalMoments.name, getLibraryGame.name]);

// prefersBorder: the board draws no frame of its own (ext-apps: "Specifying an explicit value … is recommended").
// No csp: the page fetches nothing, so the host's default (no network at all) is what it needs.
const RESOURCE_UI_META = { ui: { prefersBorder: true } };

/**
 * A tool listing's `_meta` naming the board, or undefined for every other tool. Both keys, as ext-apps' own
 * registerAppTool writes them: `ui.resourceUri` (the spec's), and the flat `ui/resourceUri` older hosts read.
 */
export function chatBoardToolMeta(toolName: string): Record<string, unknown> | undefined {
  return CHAT_BOARD_TOOLS.has(toolName) ? { ui: { resourceUri: CHAT_BOARD_URI }, [RESOURCE_URI_META_KEY]: CHAT_BOARD_URI } : undefined;
}

/** The board's resources/list entry. */
export const chatBoardResource: Resource = {
  uri: CHAT_BOARD_URI,
  name: 'chess-board',
  title: 'Chess board (MCP App)',
  description:
    'The interactive board an MCP Apps host shows beside get_game, get_game_analysis, get_critical_moments and get_library_game: the game on a board with its moves, evaluation graph and critical moments. HTML for the host to render, not data.',
  mimeType: RESOURCE_MIME_TYPE,
  _meta: RESOURCE_UI_META,
};

/** resources/read of the board: the built page, whole. */
export function readChatBoard(): ReadResourceResult['contents'] {
  if (!existsSync(chatBoardPath)) throw new ApiError(404, 'the chess board is not built in this installation (npm run build writes dist/web/chat-board.html)');
  return [{ uri: CHAT_BOARD_URI, mimeType: RESOURCE_MIME_TYPE, text: readFileSync(chatBoardPath, 'utf8'), _meta: RESOURCE_UI_META }];
}
