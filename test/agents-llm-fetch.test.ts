// The fetch the llm agent gives the provider SDKs (agents/llm/providers/lightFetch.ts), against a real
// HTTP server on 127.0.0.1: what the SDKs send arrives as sent, and what the server answers comes back as
// a standard Response, decoded when it came compressed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lightFetch } from '../agents/llm/providers/lightFetch.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const REPLY = JSON.stringify({ id: 'msg_1', type: 'message', content: [{ type: 'text', text: 'é → ok' }] });

/** The answer for a path: /gzip, /br, /deflate compress REPLY; /empty is a 204; /never never answers. */
function answer(request: IncomingMessage, response: ServerResponse, seen: Seen[], body: string): void {
  seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
  const path = request.url ?? '';
  if (path === '/never') return;
  if (path === '/empty') return void response.writeHead(204).end();
  const encodings: Record<string, [string, (text: string) => Buffer]> = {
    '/gzip': ['gzip', (text) => gzipSync(text)],
    '/br': ['br', (text) => brotliCompressSync(text)],
    '/deflate': ['deflate', (text) => deflateSync(text)],
    '/compress': ['compress', (text) => Buffer.from(text)],
  };
  const encoding = encodings[path];
  const headers: Record<string, string | string[]> = { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'retry-after-ms': '250' };
  if (encoding === undefined) return void response.writeHead(path === '/busy' ? 429 : 200, headers).end(REPLY);
  response.writeHead(200, { ...headers, 'content-encoding': encoding[0] }).end(encoding[1](REPLY));
}

describe('the llm agent’s fetch', () => {
  const seen: Seen[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => answer(request, response, seen, body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the method, headers and body as given, and hands back status, headers and body', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ü'.repeat(10_000) }] });
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'secret-key' });
    const response = await lightFetch(`${base}/v1/messages`, { method: 'POST', headers, body });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/messages', body });
    expect(request.headers['x-api-key']).toBe('secret-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual(JSON.parse(REPLY));
  });

  it('keeps an error status and the headers the retry reads (a URL object as the address)', async () => {
    const response = await lightFetch(new URL(`${base}/busy`), { method: 'POST', headers: [['content-type', 'application/json']], body: '{}' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after-ms')).toBe('250');
    expect(await response.text()).toBe(REPLY);
  });

  it.each(['gzip', 'br', 'deflate'])('decodes an answer sent in %s, and says it is decoded', async (encoding) => {
    const response = await lightFetch(`${base}/${encoding}`, { method: 'POST', body: '{}' });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual(JSON.parse(REPLY));
  });

  it('refuses an answer in an encoding it cannot decode, naming it', async () => {
    await expect(lightFetch(`${base}/compress`, { method: 'POST', body: '{}' })).rejects.toThrow(/content-encoding "compress"/);
  });

  it('hands back a 204 without a body', async () => {
    const response = await lightFetch(`${base}/empty`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it('gives up when its signal is aborted, while the server has not answered', async () => {
    const controller = new AbortController();
    const pending = lightFetch(`${base}/never`, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('sends nothing when its signal is already aborted', async () => {
    const before = seen.length;
    await expect(lightFetch(`${base}/aborted`, { method: 'POST', body: '{}', signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    await lightFetch(`${base}/after`, { method: 'POST', body: '{}' });
    expect(seen.slice(before).map((request) => request.url)).toEqual(['/after']);
  });

  it('fails as a connection error when nothing listens at the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(lightFetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves a body that is not a string (a form) to the global fetch', async () => {
    const response = await lightFetch(`${base}/form`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(seen.at(-1)).toMatchObject({ url: '/form', body: 'a=1' });
    expect(seen.at(-1)!.headers['content-type']).toMatch(/x-www-form-urlencoded/);
    expect(await response.json()).toEqual(JSON.parse(REPLY));
  });

  it('hands back an answer that reads as any Response does: once, as text, JSON, bytes or a stream, and cloned before', async () => {
    const post = () => lightFetch(`${base}/v1/messages`, { method: 'POST', body: '{}' });
    const once = await post();
    expect(once.bodyUsed).toBe(false);
    expect(await once.text()).toBe(REPLY);
    expect(once.bodyUsed).toBe(true);
    await expect(once.json()).rejects.toThrow(TypeError);
    expect(() => once.clone()).toThrow(TypeError);

    const twice = await post();
    const copy = twice.clone();
    expect(await twice.json()).toEqual(JSON.parse(REPLY));
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe(REPLY);
    expect(copy.bodyUsed).toBe(true);

    const streamed = await post();
    expect(await new Response(streamed.body).text()).toBe(REPLY);
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
    expect(await (await post()).blob()).toMatchObject({ size: Buffer.byteLength(REPLY) });
  });
});
