/**
 * The toolkit's web framework (Flask over Werkzeug) answers a request it cannot route or parse with an
 * HTML page of its own, byte for byte these (werkzeug/exceptions.py, Flask's Request.get_json): the
 * status's description, never a word about the request. Its routing differs from ours in three places a
 * client can see: a rule answers OPTIONS itself (200, empty, `Allow`), a 405 names OPTIONS (and HEAD
 * beside GET) in `Allow`, and `GET /api/scorecard/open` is a read of a card called "open".
 */
import type { FastifyReply } from 'fastify';
import { sendCardNotFound } from './toolkitRefusals.ts';
import { werkzeugReason } from './toolkitStatusLine.ts';

/** What each page says (its `<p>`), already escaped as Werkzeug escapes it. */
const DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'The browser (or proxy) sent a request that this server could not understand.',
  404: 'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
  405: 'The method is not allowed for the requested URL.',
  413: 'The data value transmitted exceeds the capacity limit.',
  // Flask's get_json() says this rather than Werkzeug's own 415 description.
  415: 'Did not attempt to load JSON data because the request Content-Type was not &#39;application/json&#39;.',
};
const HTML = 'text/html; charset=utf-8';

/** The page Werkzeug answers `status` with; `_code` and `_message` are arcbench's, which the toolkit never says. */
export function toolkitErrorPage(reply: FastifyReply, status: number, _code: string, _message: string): FastifyReply {
  if (status === 405) return wrongMethod(reply);
  return sendPage(reply, status);
}

function sendPage(reply: FastifyReply, status: number): FastifyReply {
  const reason = werkzeugReason(status);
  const description = DESCRIPTIONS[status] ?? '';
  return reply.code(status).type(HTML).send(`<!doctype html>\n<html lang=en>\n<title>${status} ${reason}</title>\n<h1>${reason}</h1>\n<p>${description}</p>\n`);
}

/** A path we know, with a method it does not take (the route set `Allow` to the one it does). */
function wrongMethod(reply: FastifyReply): FastifyReply {
  const { method, url } = reply.request;
  const cardAction = /^\/api\/scorecard\/(open|close)\/?(?:\?|$)/.exec(url);
  // Werkzeug matches these paths with the rule /api/scorecard/<card_id> first, whose method GET is.
  if (cardAction && (method === 'GET' || method === 'HEAD')) return sendCardNotFound(reply.removeHeader('allow'), cardAction[1]!);
  const allowed = String(reply.getHeader('allow') ?? '');
  reply.header('allow', allowed === 'GET' ? 'HEAD, OPTIONS, GET' : `${allowed}, OPTIONS`);
  if (method === 'OPTIONS') return reply.code(200).type(HTML).send('');
  return sendPage(reply, 405);
}
