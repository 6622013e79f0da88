/**
 * Whether a model call failed because the request was longer than the model's context window: the
 * agent's token estimate (4 characters a token) can fall short of the provider's tokenizer, and the
 * server then refuses the request (400, or 413) with a sentence of its own. Those sentences, as each
 * server words them: OpenAI and vLLM "maximum context length is N tokens" (code context_length_exceeded),
 * Anthropic "prompt is too long", llama.cpp "exceeds the available context size", Ollama and others
 * "context window" / "too many tokens".
 */
const OVERFLOW =
  /context_length_exceeded|maximum context length|context length|prompt is too long|exceeds the available context|context window|too many tokens|input is too long/i;

export function isContextOverflow(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return / answered (400|413)\b/.test(error.message) && OVERFLOW.test(error.message);
}
