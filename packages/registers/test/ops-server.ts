import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded OPS answer body from test/fixtures (see its README for where each comes from). */
export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

export interface Answer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** The headers OPS sent with the recorded legal answer (patent_client cassette, 22 May 2024). */
export const RECORDED_HEADERS = {
  'Content-Type': 'application/xml;charset=utf-8',
  'X-API': 'ops-v3.2',
  'X-IndividualQuotaPerHour-Used': '165630',
  'X-RegisteredQuotaPerWeek-Used': '165630',
  'X-Throttling-Control': 'idle (images=green:200, inpadoc=green:60, other=green:1000, retrieval=green:200, search=green:30)',
};

type Handler = (request: SeenRequest, index: number) => Answer;

/**
 * A local OPS: routes are `METHOD path` (the path without the query), each a fixed answer or a function of
 * the request and of how many times the route was hit. Every request is recorded; an unknown route is a 599.
 */
export class FakeOps {
  readonly requests: SeenRequest[] = [];
  private readonly routes = new Map<string, Handler>();
  private readonly hits = new Map<string, number>();
  private server: Server | null = null;
  url = '';

  /** Answers every request no route names (the fault suite's portfolio of numbers): the request and how many such came before. */
  fallback(handler: Handler): this {
    this.otherwise = handler;
    return this;
  }
  private otherwise: Handler | null = null;

  route(key: string, answer: Answer | Handler): this {
    this.routes.set(key, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  /** The token endpoint answering the recorded token (expires_in 1199) with a numbered access_token. */
  tokens(expiresIn = '1199'): this {
    return this.route('POST /3.2/auth/accesstoken', (_request, index) => {
      const token = JSON.parse(fixture('auth-accesstoken.json')) as Record<string, string>;
      token.access_token = `token-${index + 1}`;
      token.expires_in = expiresIn;
      return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(token, null, 2) };
    });
  }

  count(key: string): number {
    return this.requests.filter((r) => `${r.method} ${r.path}` === key).length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.answer(req).then(
        ({ status = 200, headers = {}, body = '' }) => {
          res.writeHead(status, headers);
          res.end(body);
        },
        (error: unknown) => {
          res.writeHead(599);
          res.end(String(error));
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async answer(req: IncomingMessage): Promise<Answer> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const path = (req.url ?? '').split('?')[0] as string;
    const seen: SeenRequest = { method: req.method ?? '', path, authorization: req.headers.authorization, contentType: req.headers['content-type'], body };
    this.requests.push(seen);
    const key = `${seen.method} ${path}`;
    const handler = this.routes.get(key) ?? this.otherwise;
    if (!handler) return { status: 599, body: `no route ${key}` };
    const index = this.hits.get(key) ?? 0;
    this.hits.set(key, index + 1);
    return handler(seen, index);
  }
}
