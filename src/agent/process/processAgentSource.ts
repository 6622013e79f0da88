/**
 * Which `use` of an experiment is an agent process, and how it is started: `file.py` or
 * `file.py:ClassName` runs under python3 with arcbench's Python layer (python/); any other file that is
 * executable (and not a .ts/.js plugin) is started as it is and spoken to over the agent protocol.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../packageFiles.ts';
import type { AgentCommand } from './agentProcess.ts';
import type { ModelGatewaySettings } from '../gateway/gatewaySettings.ts';

/** python/ ships in the package beside src/ (and dist/), so both find it from the package root. */
export const PYTHON_LAYER_DIR = fileURLToPath(new URL('python/', PACKAGE_ROOT));
export const PYTHON_HOST_SCRIPT = `${PYTHON_LAYER_DIR}arcbench_host.py`;

const PYTHON_USE = /^(.+\.py)(?::([A-Za-z_][A-Za-z0-9_]*))?$/;
const PLUGIN_EXTENSION = /\.(m?ts|m?js|cjs|cts|tsx|jsx)$/;

export interface ProcessAgentOptions {
  /** The agent entry's `python:` (an interpreter, e.g. a virtualenv's bin/python). */
  readonly python?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The agent entry's `model_gateway:`: its model calls go through a gateway of the episode's. */
  readonly modelGateway?: ModelGatewaySettings;
}

/** The agent's file and how to start it, or undefined when `use` is not an agent process. */
export function processAgentCommand(use: string, baseDir: string, options: ProcessAgentOptions = {}): { file: string; command: AgentCommand } | undefined {
  const python = PYTHON_USE.exec(use);
  if (python !== null) {
    const file = inBase(python[1]!, baseDir);
    const args = [PYTHON_HOST_SCRIPT, file, ...(python[2] === undefined ? [] : [python[2]])];
    const notFound = "install python3 (3.10 or newer), or name an interpreter in the agent entry's python: or in ARCBENCH_PYTHON";
    return { file, command: { command: pythonInterpreter(options, baseDir), args, cwd: baseDir, describe: use, notFound } };
  }
  if (!(use.includes('/') || use.includes('\\')) || PLUGIN_EXTENSION.test(use)) return undefined;
  const file = inBase(use, baseDir);
  if (!isExecutableFile(file)) return undefined;
  return { file, command: { command: file, args: [], cwd: baseDir, describe: use } };
}

/** The entry's `python:`, else ARCBENCH_PYTHON, else python3 on PATH. */
export function pythonInterpreter(options: ProcessAgentOptions, baseDir: string): string {
  const chosen = options.python ?? (options.env ?? process.env).ARCBENCH_PYTHON;
  if (chosen === undefined || chosen === '') return 'python3';
  // A bare name (python3.12) is looked up on PATH; a path is relative to the experiment's folder.
  return chosen.includes('/') ? inBase(chosen, baseDir) : chosen;
}

function inBase(path: string, baseDir: string): string {
  return isAbsolute(path) ? path : resolve(baseDir, path);
}

/**
 * A file named as an agent that is neither a plugin (.ts, .js…) nor a .py file, and that cannot be run:
 * what to do about it, for the load error; undefined when that is not the case.
 */
export function notExecutableAdvice(use: string, baseDir: string): string | undefined {
  if (!(use.includes('/') || use.includes('\\')) || PLUGIN_EXTENSION.test(use) || PYTHON_USE.test(use)) return undefined;
  const file = inBase(use, baseDir);
  if (!isRegularFile(file) || isExecutableFile(file)) return undefined;
  return `agent file ${file} is not executable: an agent process (any language, docs/agent-protocol.md) must be; make it so with chmod +x ${file}, or give a plugin (.ts, .js) or a Python file (.py)`;
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
