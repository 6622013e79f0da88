/**
 * Loading an agent process is starting it once and asking `hello` (docs/agent-protocol.md §5): a
 * Python module with a syntax or import error, or a program that cannot start, is a config error
 * before anything is played, with the file and line the agent reported.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import type { AgentDefinition } from '../defineAgent.ts';
import type { ModelGatewaySettings } from '../gateway/gatewaySettings.ts';
import { type AgentCommand, AgentProcess } from './agentProcess.ts';
import { descriptionOfHello } from './declaredDescription.ts';
import { processAgentDefinition } from './processAgent.ts';
import { errorMessage, helloLine } from './protocolMessages.ts';

/** A process that takes longer to answer hello (a module importing torch, say) is not waited for. */
const LOAD_TIMEOUT_MS = 60_000;
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The agent definition, or an Error whose message is a sentence for the config's author. */
export async function loadProcessAgent(
  file: string,
  command: AgentCommand,
  builtIns: readonly string[] = [],
  gateway?: ModelGatewaySettings,
): Promise<AgentDefinition> {
  if (!existsSync(file)) throw new Error(`agent file ${file} does not exist; check the path (relative paths start at the config file's folder)`);
  const output: string[] = [];
  const child = new AgentProcess(command, (_stream, line) => {
    if (output.length < 20) output.push(line);
  });
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    void child.close(undefined, 0);
  }, LOAD_TIMEOUT_MS);
  try {
    const answer = await child.request(helloLine());
    if (answer.type === 'error') throw new Error(`agent "${command.describe}" failed to load: ${errorMessage(answer)}`);
    if (answer.type !== 'hello') throw new Error(`agent "${command.describe}" answered hello with "${answer.type}"; see docs/agent-protocol.md`);
    const name = answer.name ?? '';
    if (!AGENT_NAME.test(name)) throw new Error(`agent "${command.describe}" gave the name ${JSON.stringify(name)}; a name is letters, digits, "-" or "_"`);
    return processAgentDefinition(command, nameBesideBuiltIns(name, file, builtIns), descriptionOfHello(answer.describe), gateway);
  } catch (error) {
    const message = late ? `did not answer hello within ${LOAD_TIMEOUT_MS / 1000} s` : (error as Error).message;
    throw new Error(message.startsWith('agent "') ? message : `agent "${command.describe}" failed to load: ${message}`);
  } finally {
    clearTimeout(timer);
    await child.close(undefined, 1000);
  }
}

/**
 * The name is the default label, and a label names one agent across runs (compare, merge and resume pair
 * episodes by it): a process agent named as a built-in (the official template's class Random is
 * "random") is told apart by a suffix, `random-py`.
 */
function nameBesideBuiltIns(name: string, file: string, builtIns: readonly string[]): string {
  if (!builtIns.includes(name)) return name;
  return `${name}-${extname(file) === '.py' ? 'py' : 'process'}`;
}
