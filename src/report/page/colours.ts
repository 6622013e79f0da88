/** Agents take colours of the palette of docs/protocol.md in this order (greys and white left out: they read as no data). */
import { PALETTE_HEX } from '../../protocol/grid.ts';

const AGENT_COLOUR_INDICES = [9, 12, 14, 15, 8, 6, 11, 10, 13, 7];

export function agentColour(index: number): string {
  return `#${PALETTE_HEX[AGENT_COLOUR_INDICES[Math.max(0, index) % AGENT_COLOUR_INDICES.length]!]}`;
}
