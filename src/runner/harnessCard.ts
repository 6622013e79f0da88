/**
 * Makes a run's harness card (src/runfolder/harnessCard.ts is its shape) from the experiment: the run's
 * own facts from the config, each agent's from what it says of itself (`describe(params).harness`,
 * through describeAgent) beside its kind and version. Prompts enter as SHA-256 hashes only, and every
 * value passes the config's redactor with the rest of run.json, so no text or key reaches the card.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { BUILT_IN_AGENTS } from '../agent/pluginLoader.ts';
import { DEFAULT_RETRY_POLICY } from '../client/http/retryPolicy.ts';
import { DEFAULT_EPISODE_SECONDS, DEFAULT_FIRST_ACTION_SECONDS } from '../episode/budgets.ts';
import { type CardFacts, HARNESS_CARD_FORMAT, type HarnessCard } from '../runfolder/harnessCard.ts';
import { redactSecretFields } from '../redaction.ts';
import { describeAgent } from './agentDescription.ts';
import type { Experiment, ResolvedAgent } from './config/loader.ts';
import { httpOptions } from './targets.ts';

export function buildHarnessCard(experiment: Experiment, arcbenchVersion: string): HarnessCard {
  return {
    format: HARNESS_CARD_FORMAT,
    run: runFacts(experiment, arcbenchVersion),
    agents: experiment.agents.map((agent) => ({ label: agent.label, facts: agentFacts(agent, experiment.baseDir, arcbenchVersion) })),
  };
}

function runFacts(experiment: Experiment, arcbenchVersion: string): CardFacts {
  const { config } = experiment;
  const overHttp = config.target !== 'reference';
  const { budgets } = config;
  return {
    arcbench: arcbenchVersion,
    ...targetFacts(config.target),
    games: config.games_dir === undefined ? "arcbench's own" : `official (${basename(config.games_dir)})`,
    seed: config.seed,
    episodes: config.episodes,
    repeats: config.repeats,
    concurrency: config.concurrency,
    'budgets.max_actions': budgets.max_actions,
    'budgets.max_actions_per_level': budgets.max_actions_per_level ?? null,
    'budgets.episode_seconds': budgets.episode_seconds ?? DEFAULT_EPISODE_SECONDS,
    'budgets.first_action_seconds': budgets.first_action_seconds ?? DEFAULT_FIRST_ACTION_SECONDS,
    'budgets.run_seconds': budgets.run_seconds ?? null,
    'budgets.max_cost_usd': budgets.max_cost_usd ?? null,
    'budgets.max_run_cost_usd': budgets.max_run_cost_usd ?? null,
    // Retries and rate limits are the HTTP client's; the in-process service has neither.
    'service.retries': overHttp ? (httpOptions(config).maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries) : null,
    'service.rate_limit': overHttp ? rateLimitFact(config.rate_limit) : null,
    competition_mode: config.scorecard.competition_mode,
  };
}

/**
 * The service as the config names it, not as the run found it: a server this run started listens on a
 * port of the moment, and two runs of one config must not differ by it.
 */
function targetFacts(target: Experiment['config']['target']): CardFacts {
  if (target === 'reference') return { target: 'in-process reference service', target_kind: 'reference', dialect: null };
  if ('url' in target) return { target: target.url, target_kind: 'url', dialect: null };
  const server = target.server;
  return {
    target: `arcbench server on 127.0.0.1, ${server.backends} backend${server.backends === 1 ? '' : 's'}`,
    target_kind: 'server',
    dialect: server.dialect,
    'server.rotate_affinity': server.rotate_affinity,
    'server.rate_limit_per_minute': server.rate_limit_per_minute ?? null,
    'server.inject_429_every': server.inject_429_every ?? null,
  };
}

function rateLimitFact(limit: Experiment['config']['rate_limit']): string | boolean {
  if (limit === undefined) return 'default';
  if (limit === false) return false;
  return `${limit.requests} per ${limit.interval_ms} ms`;
}

function agentFacts(agent: ResolvedAgent, baseDir: string, arcbenchVersion: string): CardFacts {
  const declared = describeAgent(agent).harness ?? {};
  const prompts = Object.entries(declared.prompts ?? {}).map(([name, text]) => [`prompt.${name}`, `sha256:${sha256(text)}`]);
  return {
    agent: agent.definition.name,
    kind: agentKind(agent.use),
    version: agentVersion(agent.use, baseDir, arcbenchVersion),
    ...Object.fromEntries(Object.entries(agent.arm?.levels ?? {}).map(([factor, level]) => [`factor.${factor}`, level])),
    ...declared.facts,
    ...Object.fromEntries(prompts),
    // Every param (keys left out), in one hash: two cards whose agents say nothing else still show a change of params.
    params: `sha256:${sha256(canonicalJson(redactSecretFields(agent.params)))}`,
  };
}

const PYTHON_AGENT = /\.py(:[A-Za-z_][A-Za-z0-9_]*)?$/;
const MODULE_AGENT = /\.(ts|mts|cts|js|mjs|cjs)$/;

function agentKind(use: string): string {
  if ((BUILT_IN_AGENTS as readonly string[]).includes(use)) return 'built-in';
  if (PYTHON_AGENT.test(use)) return 'python';
  if (MODULE_AGENT.test(use)) return 'plugin';
  return 'executable';
}

/** A built-in is arcbench's version; a user's agent is its file's content (of the file named, not what it imports). */
function agentVersion(use: string, baseDir: string, arcbenchVersion: string): string | null {
  if ((BUILT_IN_AGENTS as readonly string[]).includes(use)) return `arcbench ${arcbenchVersion}`;
  const file = resolve(baseDir, use.replace(/:[A-Za-z_][A-Za-z0-9_]*$/, ''));
  try {
    return `sha256:${sha256(readFileSync(file))} (${basename(file)})`;
  } catch {
    return null; // an executable found on PATH, not in the experiment's folder
  }
}

/** The first 16 hex digits: enough to tell two prompts apart, short enough to read in a table. */
function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/** JSON with keys sorted, so the same params always hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
