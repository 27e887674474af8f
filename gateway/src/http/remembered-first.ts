// The gateway's HTTP listener: a GET whose remembered answer is known (caches/
// answer-shortcuts.ts) is sent from here, as is one whose answer is being computed again
// (after a write or a hint) once that computation gives it; everything else goes to the
// express app, as does a request whose awaited computation gave nothing to keep. What
// express would have added around the route is done here the same way: the headers set
// before the route (Access-Control-Expose-Headers), the request metrics under the route's
// template, and the access log line. Not used while tracing is on (tracing.ts starts a span
// per request in express).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { recordHttpRequest, type Logger } from '@anvil/kit';
import type { AnswerShortcuts, Shortcut } from '../caches/answer-shortcuts.js';
import type { Answer } from '../caches/answers.js';
import { logRequest, traceIdOf } from './access-log.js';
import { sendAnswer } from './send-answer.js';

export function rememberedFirst(app: RequestListener, shortcuts: AnswerShortcuts, log: Logger): RequestListener {
  const send = (req: IncomingMessage, res: ServerResponse, shortcut: Shortcut, answer: Answer, started: bigint): void => {
    for (const name in shortcut.headers) res.setHeader(name, shortcut.headers[name]!);
    sendAnswer(req, res, answer);
    // Sent in one go, so the time is taken now rather than on 'close' as express's layers do.
    recordHttpRequest('GET', shortcut.route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    if (log.isLevelEnabled('info')) logRequest(log, 'GET', req.url!, res.statusCode, started, shortcut.auth.caller.login, traceIdOf(req.headers));
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const found = shortcuts.find(req);
    if (!found) return app(req, res);
    const started = process.hrtime.bigint();
    if (found.answer) return send(req, res, found.shortcut, found.answer, started);
    found.pending.then((answer) => (answer ? send(req, res, found.shortcut, answer, started) : app(req, res))).catch((err: unknown) => {
      log.warn({ err }, 'sending a remembered answer failed');
      res.destroy();
    });
  };
}
