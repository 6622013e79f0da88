/**
 * Every error class arcbench declares is recognised as an arcbench error, by `isArcbenchError` and by
 * `instanceof`, also when a second copy of the package made it: the copy a plugin gets when it imports
 * `arcbench` through tsx's scoped loader, as the plugin loader does. The classes are found by reading
 * src/ and agents/, so a new class cannot be missed; the table below pins each one's codes, which are
 * a contract.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type NamespacedUnregister, register } from 'tsx/esm/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as entry from '../src/index.ts';
import * as referenceEntry from '../src/reference/index.ts';
import * as serverEntry from '../src/reference/server/index.ts';
import { API_ERROR_CODES, ArcbenchError, isArcbenchError } from '../src/index.ts';

type ErrorClass = new (...args: never[]) => ArcbenchError;
type AnyErrorClass = new (...args: any[]) => ArcbenchError;

/** Instances of each class, one per code it can carry, and those codes. */
const SAMPLES: Record<string, (Class: AnyErrorClass) => ArcbenchError[]> = {
  ArcbenchError: (C) => [new C('ARCBENCH', 'a sentence')],
  AgentContractError: (C) => [new C('a sentence')],
  AgentLoadError: (C) => [new C('a sentence')],
  AgentProcessError: (C) => [new C('a sentence')],
  AnswerOutOfStepError: (C) => [new C('a sentence')],
  ApiError: (C) => API_ERROR_CODES.map((code) => new C(400, code, 'a sentence')),
  BaselinesUnknownError: (C) => [new C('a sentence')],
  ConfigError: (C) => [new C('a sentence')],
  DollarBudgetSpent: (C) => [new C('a sentence')],
  EstimateOverBudgetError: (C) => [new C('a sentence')],
  FrameResponseDecodeError: (C) => [new C('a sentence')],
  GameEngineMissingError: (C) => [new C('a sentence')],
  GameFaultError: (C) => [new C('a sentence')],
  GameHostDiedError: (C) => [new C('a sentence')],
  GameLoadError: (C) => [new C('a sentence')],
  GridCodecError: (C) => [new C('a sentence')],
  HexGridError: (C) => [new C('a sentence')],
  KeysError: (C) => [new C('a sentence')],
  MergeError: (C) => [new C('a sentence')],
  MissingVariableError: (C) => [new C(['a line'])],
  OutputPathError: (C) => [new C('a sentence')],
  ModelCallError: (C) => [new C('a sentence')],
  NotSubmittableError: (C) => [new C('a sentence')],
  NothingToResumeError: (C) => [new C('a/run', 3)],
  QueueRunError: (C) => [new C('a sentence')],
  RepliesFileError: (C) => [new C('a sentence')],
  QueueUnreachableError: (C) => [new C('a sentence')],
  RunFolderError: (C) => ['RUN_FOLDER_INVALID', 'RUN_FOLDER_IN_USE', 'RUN_FOLDER_BUSY', 'RUN_FOLDER_CONFIG_CHANGED'].map((code) => new C('a sentence', code)),
  RunFolderWriteError: (C) => [new C('a sentence')],
  RunNotStartedError: (C) => [new C('a sentence')],
  RunsNotComparableError: (C) => [new C('a sentence')],
  TransportError: (C) => ['ambiguous', 'unreachable', 'protocol', 'interrupted'].map((kind) => new C(kind, 'a sentence')),
  UnrestorableStateError: (C) => [new C('a sentence')],
  ViewFolderError: (C) => ['VIEW_FOLDER_MISSING', 'VIEW_PORT_IN_USE'].map((code) => new C('a sentence', code)),
};

/** The codes each class carries, pinned: callers branch on them, so a change must be deliberate. */
const CODES: Record<string, string[]> = {
  ArcbenchError: ['ARCBENCH'],
  AgentContractError: ['AGENT_CONTRACT'],
  AgentLoadError: ['AGENT_LOAD_FAILED'],
  AgentProcessError: ['AGENT_PROCESS_FAILED'],
  AnswerOutOfStepError: ['TRANSPORT_ANSWER_OUT_OF_STEP'],
  ApiError: [...API_ERROR_CODES],
  BaselinesUnknownError: ['BASELINES_UNKNOWN'],
  ConfigError: ['CONFIG_INVALID'],
  DollarBudgetSpent: ['DOLLAR_BUDGET_SPENT'],
  EstimateOverBudgetError: ['ESTIMATE_OVER_BUDGET'],
  FrameResponseDecodeError: ['FRAME_RESPONSE_DECODE'],
  GameEngineMissingError: ['GAMES_ENGINE_MISSING'],
  GameFaultError: ['GAMES_FAULT'],
  GameHostDiedError: ['GAMES_HOST_DIED'],
  GameLoadError: ['GAMES_LOAD'],
  GridCodecError: ['GRID_CODEC'],
  HexGridError: ['AGENT_PROTOCOL_GRID'],
  KeysError: ['KEYS_FILE'],
  MergeError: ['RUN_MERGE_INVALID'],
  MissingVariableError: ['CONFIG_MISSING_VARIABLE'],
  OutputPathError: ['OUTPUT_PATH_INVALID'],
  ModelCallError: ['MODEL_CALL_FAILED'],
  UnrestorableStateError: ['AGENT_STATE_UNRESTORABLE'],
  NotSubmittableError: ['RUN_NOT_SUBMITTABLE'],
  NothingToResumeError: ['NOTHING_TO_RESUME'],
  QueueRunError: ['QUEUE_RUN_INVALID'],
  RepliesFileError: ['MODEL_SERVER_REPLIES'],
  QueueUnreachableError: ['QUEUE_UNREACHABLE'],
  RunFolderError: ['RUN_FOLDER_INVALID', 'RUN_FOLDER_IN_USE', 'RUN_FOLDER_BUSY', 'RUN_FOLDER_CONFIG_CHANGED'],
  RunFolderWriteError: ['RUN_FOLDER_WRITE_FAILED'],
  RunNotStartedError: ['RUN_NOT_STARTED'],
  RunsNotComparableError: ['RUNS_NOT_COMPARABLE'],
  TransportError: ['TRANSPORT_AMBIGUOUS', 'TRANSPORT_UNREACHABLE', 'TRANSPORT_PROTOCOL', 'TRANSPORT_INTERRUPTED'],
  ViewFolderError: ['VIEW_FOLDER_MISSING', 'VIEW_PORT_IN_USE'],
};

const SRC = join(import.meta.dirname, '..', 'src');
/** The built-in agents throw arcbench errors too (they import the base from the package entry). */
const AGENTS = join(import.meta.dirname, '..', 'agents');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith('.ts') && !item.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The modules of src/ and agents/ that declare a class extending an error class. */
const declaringModules = [...sourceFiles(SRC), ...sourceFiles(AGENTS)].filter((file) => /\bclass \w+ extends \w*Error\b/.test(readFileSync(file, 'utf8')));

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && value.prototype instanceof Error;
}

/** The arcbench error classes among `modules`' exports, by name, the base included. */
function errorClassesOf(modules: readonly Record<string, unknown>[], base: ErrorClass): Map<string, ErrorClass> {
  const classes = new Map<string, ErrorClass>();
  for (const module of modules) {
    for (const value of Object.values(module)) {
      if (isErrorClass(value) && (value === base || Object.prototype.isPrototypeOf.call(base, value))) classes.set(value.name, value);
    }
  }
  return classes;
}

let host: Map<string, ErrorClass>;
let copy: Map<string, ErrorClass>;
let copyIsArcbenchError: (value: unknown) => boolean;
let copyLoader: NamespacedUnregister | undefined;

beforeAll(async () => {
  const hostModules = await Promise.all(declaringModules.map((file) => import(pathToFileURL(file).href)));
  host = errorClassesOf([...hostModules, entry], ArcbenchError);
  // A second copy of every module, as a plugin's `import 'arcbench'` loads one: tsx's scoped loader.
  copyLoader = register({ namespace: 'errors-test-copy' });
  const loader = copyLoader;
  const copyErrors = await loader.import(pathToFileURL(join(SRC, 'errors.ts')).href, import.meta.url);
  const copyModules = await Promise.all(declaringModules.map((file) => loader.import(pathToFileURL(file).href, import.meta.url)));
  copy = errorClassesOf(copyModules, copyErrors.ArcbenchError);
  copyIsArcbenchError = copyErrors.isArcbenchError;
}, 120_000);

afterAll(async () => {
  await copyLoader?.unregister();
});

function instancesOf(name: string, Class: ErrorClass): ArcbenchError[] {
  const make = SAMPLES[name];
  if (make === undefined) throw new Error(`${name} has no row in SAMPLES and CODES: add one with every code it can carry`);
  return make(Class as unknown as AnyErrorClass);
}

describe('the error classes', () => {
  it('are found in src/ and agents/, every one has its codes pinned here, and the copy holds the same classes', () => {
    expect(host.size).toBeGreaterThan(10);
    expect([...host.keys()].sort()).toEqual(Object.keys(SAMPLES).sort());
    expect(Object.keys(CODES).sort()).toEqual(Object.keys(SAMPLES).sort());
    expect([...copy.keys()].sort()).toEqual([...host.keys()].sort());
    for (const [name, Class] of host) expect(copy.get(name)).not.toBe(Class);
  });

  it('exported from the package entries are the classes found in src/', () => {
    const exported = errorClassesOf([entry, referenceEntry, serverEntry], ArcbenchError);
    for (const [name, Class] of exported) expect(host.get(name), name).toBe(Class);
    // The classes a library user meets through the entry's functions.
    for (const name of [
      'ArcbenchError',
      'ApiError',
      'TransportError',
      'ConfigError',
      'AgentLoadError',
      'AgentContractError',
      'RunFolderError',
      'RunNotStartedError',
      'RunsNotComparableError',
    ]) {
      expect(exported.has(name), `${name} is exported from src/index.ts`).toBe(true);
    }
    expect(exported.has('KeysError')).toBe(true);
  });

  it('carry a stable code each, and no two classes share one', () => {
    const owner = new Map<string, string>();
    for (const [name, Class] of host) {
      const codes = instancesOf(name, Class).map((error) => error.code);
      expect(codes, name).toEqual(CODES[name]);
      for (const code of codes) {
        expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(owner.get(code), `${code} belongs to ${owner.get(code)} and ${name}`).toBeUndefined();
        owner.set(code, name);
      }
    }
  });

  it('are recognised by isArcbenchError and instanceof, whichever copy made them and whichever copy asks', () => {
    for (const [name, Class] of host) {
      const CopyClass = copy.get(name) as ErrorClass;
      for (const [made, by] of [
        [instancesOf(name, Class), 'host'],
        [instancesOf(name, CopyClass), 'copy'],
      ] as const) {
        for (const error of made) {
          const what = `${name} made by the ${by} copy`;
          expect(isArcbenchError(error), what).toBe(true);
          expect(copyIsArcbenchError(error), what).toBe(true);
          expect(error instanceof ArcbenchError, what).toBe(true);
          expect(error instanceof (copy.get('ArcbenchError') as ErrorClass), what).toBe(true);
          expect(error instanceof Class, what).toBe(true);
          expect(error instanceof CopyClass, what).toBe(true);
          expect(error instanceof Error, what).toBe(true);
          expect(error.name, what).toBe(name);
        }
      }
    }
  });

  it('are instances of their ancestors only, not of their sibling classes', () => {
    for (const [name, Class] of host) {
      const [error] = instancesOf(name, Class);
      for (const [other, OtherClass] of host) {
        if (other === name || other === 'ArcbenchError') continue;
        const ancestor = Object.prototype.isPrototypeOf.call(OtherClass, Class);
        expect(error instanceof OtherClass, `${name} instanceof ${other}`).toBe(ancestor);
        expect(error instanceof (copy.get(other) as ErrorClass), `${name} instanceof the copy's ${other}`).toBe(ancestor);
      }
    }
  });

  it("include a plugin's own class below either copy's base, known by its own name too", () => {
    for (const Base of [ArcbenchError, copy.get('ArcbenchError') as AnyErrorClass]) {
      class PluginError extends Base {}
      const error = new PluginError('PLUGIN_FAILED', 'a sentence');
      expect(isArcbenchError(error)).toBe(true);
      expect(error instanceof ArcbenchError).toBe(true);
      expect(error instanceof PluginError).toBe(true);
      expect(error instanceof (host.get('ConfigError') as ErrorClass)).toBe(false);
      expect(new (host.get('ConfigError') as AnyErrorClass)('a sentence') instanceof PluginError).toBe(false);
    }
  });

  it('leave errors that are not arcbench errors unrecognised', () => {
    const plain = Object.assign(new Error('a sentence'), { name: 'ConfigError', code: 'CONFIG_INVALID' });
    for (const value of [plain, new TypeError('x'), { code: 'CONFIG_INVALID', name: 'ConfigError' }, null, undefined, 'ConfigError', 42]) {
      expect(isArcbenchError(value)).toBe(false);
      expect(value instanceof ArcbenchError).toBe(false);
      expect(value instanceof (host.get('ConfigError') as ErrorClass)).toBe(false);
    }
  });

  it('print and compare as before: the mark is not an enumerable property', () => {
    const error = new (host.get('ConfigError') as AnyErrorClass)('a sentence');
    expect(Object.keys(error).sort()).toEqual(['code', 'name']);
    expect(Object.getOwnPropertySymbols(error).filter((key) => Object.prototype.propertyIsEnumerable.call(error, key))).toEqual([]);
    expect(String(error)).toBe('ConfigError: a sentence');
  });
});
