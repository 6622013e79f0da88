/** The agent protocol's grid codec lives with the protocol, where the game host (src/games/official/) reuses it. */
export * from '../../protocol/hexGrid.ts';
