/**
 * The random-walk answer: one valid tool call for an action the request's tools offer, its arguments
 * drawn from the tool's own JSON schema (integers within their bounds, say). Game actions are preferred
 * over RESET and other tools (a scratchpad, say), so a walk moves. A request without tools (an agent
 * asking for a JSON answer) gets one JSON object naming an action its text offers.
 */
import type { Rng } from '../../agent/rng.ts';
import type { OfferedTool, ToolAnswer } from './answer.ts';

const GAME_ACTION = /^ACTION\d+$/;

/** A value its schema accepts: the bounds of an integer, one of an enum, a sentence for a string. */
function sampleOf(schema: Record<string, unknown>, rng: Rng): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return rng.pick(schema.enum);
  if (schema.type === 'integer' || schema.type === 'number') {
    const low = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 0;
    const high = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : low + 63;
    return low + rng.int(Math.max(1, high - low + 1));
  }
  if (schema.type === 'boolean') return rng.int(2) === 1;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  return 'a random step (arcbench model-server)';
}

/** Arguments with every required property, and a rationale where the tool takes one. */
function argumentsOf(tool: OfferedTool, rng: Rng): Record<string, unknown> {
  const properties = (tool.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(tool.parameters.required) ? tool.parameters.required.map(String) : [];
  const names = [...new Set([...required, ...('rationale' in properties ? ['rationale'] : [])])];
  return Object.fromEntries(names.map((name) => [name, sampleOf(properties[name] ?? {}, rng)]));
}

export function randomToolCall(tools: readonly OfferedTool[], rng: Rng): ToolAnswer | undefined {
  if (tools.length === 0) return undefined;
  const moves = tools.filter((tool) => GAME_ACTION.test(tool.name));
  const tool = rng.pick(moves.length > 0 ? moves : tools);
  return { tool: tool.name, arguments: argumentsOf(tool, rng) };
}

/** For a request without tools: `{"action": …}` naming a game action its text lists, ACTION6 with x and y. */
export function randomJsonText(body: unknown, rng: Rng): string {
  const named = [...new Set(JSON.stringify(body).match(/\bACTION\d+\b/g) ?? [])];
  const action = named.length > 0 ? rng.pick(named) : 'ACTION1';
  const click = action === 'ACTION6' ? { x: rng.int(64), y: rng.int(64) } : {};
  return JSON.stringify({ action, ...click, rationale: 'a random step (arcbench model-server)' });
}
