import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { serverT, type Locale } from '@portal/i18n';
import type { Logger } from '@portal/logger';
import type { AppContext } from '../context.ts';
import { allows, type Access, type HttpMethod, type PolicyTable, type RouteKey } from './access.ts';
import { AppError, requestLocale } from './errors.ts';
import { receiveMultipart, type MultipartOptions, type StoredUpload } from './multipart.ts';
import type { AuthState } from './session.ts';
import { parse } from './validate.ts';

/** Declared input when a route takes none: any path parameter, query key or body key is a 400. */
const NOTHING = z.strictObject({});
const NO_BODY = NOTHING.optional();
type Nothing = typeof NOTHING;
type NoBody = typeof NO_BODY;

/** A response that is not JSON: a download or a page the handler writes to `res` itself. */
export interface RawResponse {
  raw: readonly string[];
  description: string;
}

/** What a multipart route reads (file fields and limits, for the parser and the documentation); its text fields are the route's `body` schema. */
export type MultipartSpec = Omit<MultipartOptions, 'storage' | 'rateLimit'> & {
  /** Called once the route's access and parameters are checked, before the body is read: work to start beside the upload. */
  onBegin?: () => void;
};

/** Returned by a handler of a route that declares `noContent`: the answer is a bodiless 204. */
export const NO_CONTENT = Symbol('204 No Content');

export interface RouteInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** Files of a multipart route, already stored; the handler deletes them if it refuses them before a commit. */
  files: StoredUpload[];
}

/** The request beyond its validated input: who asks, in which language, and the raw exchange for cookies and streams. */
export interface Exchange {
  req: Request;
  res: Response;
  auth: AuthState | null;
  locale: Locale;
  t: ReturnType<typeof serverT>;
  log: Logger;
  /** The signed-in caller; the policy already refused anonymous callers on non-public routes. */
  actor(): AuthState;
}

/**
 * A route of the table. `T` is the JSON answer's type, inferred from the `response` schema (and from
 * the handler, which cannot add or drop fields); a raw route's handler writes to `res` and returns nothing.
 */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, T> {
  method: HttpMethod;
  /** Express path under /api, e.g. '/user/:id'. */
  path: string;
  /** One line for the API documentation. */
  summary: string;
  params?: P;
  query?: Q;
  /** The JSON body, or the text fields of a multipart route. */
  body?: B;
  multipart?: MultipartSpec;
  /** The success answer: a zod schema of the JSON body, or a raw (non-JSON) answer. */
  response: z.ZodType<T> | RawResponse;
  /** Set when the route may answer 204 without a body; says when. */
  noContent?: string;
  /** A machine route authenticated by its own bearer key instead of a session: the OpenAPI security scheme's name. */
  bearer?: 'patentSync';
  handler(input: RouteInput<P, Q, B>, http: Exchange): Promise<T | typeof NO_CONTENT> | T | typeof NO_CONTENT;
}

/** A route of the table, its schemas erased; built with `defineRoute`. */
export type Route = RouteSpec<z.ZodType, z.ZodType, z.ZodType, unknown>;

/** Declares a route; the handler's input is typed from the schemas, which the router applies before calling it. */
export function defineRoute<P extends z.ZodType = Nothing, Q extends z.ZodType = Nothing, B extends z.ZodType = NoBody, T = unknown>(
  spec: RouteSpec<P, Q, B, T>,
): Route {
  return spec;
}

export interface ApiModule {
  /** `table` is the whole route table once mounted (the documentation routes describe it). */
  routes(ctx: AppContext, table: readonly MountedRoute[]): Route[];
  policy: PolicyTable;
}

export interface MountedRoute {
  route: Route;
  access: Access;
}

export interface MountOptions {
  /**
   * Parse every JSON answer through its declared schema and fail the request (500, logged) on a
   * mismatch. On under NODE_ENV=test so a response that breaks its contract fails a test; off in
   * development and production, where the schemas only cost at the input.
   */
  checkResponses?: boolean;
}

/** `res.locals` key holding the declared path of the route that answered (the HTTP metrics' label). */
export const METRICS_ROUTE = 'metricsRoute';

export const routeKey = (route: Pick<Route, 'method' | 'path'>): RouteKey => `${route.method} ${route.path}` as RouteKey;

export const isRawResponse = (response: Route['response']): response is RawResponse => 'raw' in response && Array.isArray(response.raw);

/** A JSON answer that does not match its route's declared schema: a bug of ours, never the caller's. */
export class ContractViolation extends Error {
  constructor(key: RouteKey, error: z.ZodError) {
    super(`The answer of ${key} does not match its response schema:\n${z.prettifyError(error)}`);
    this.name = 'ContractViolation';
  }
}

/**
 * Mounts every module's routes behind its policy entry. A route without an entry, or an entry without
 * a route, stops the server at start-up: access rules cannot be forgotten. Each route's declared
 * schemas parse its input before the handler runs.
 */
export function mountModules(
  ctx: AppContext,
  modules: ApiModule[],
  options: MountOptions = {},
): { router: Router; policy: Map<RouteKey, Access>; table: readonly MountedRoute[] } {
  const checkResponses = options.checkResponses ?? ctx.config.env === 'test';
  const router = Router({ caseSensitive: true });
  const policy = new Map<RouteKey, Access>();
  for (const module of modules) for (const [key, access] of Object.entries(module.policy)) policy.set(key as RouteKey, access);

  const table: MountedRoute[] = [];
  for (const module of modules) {
    for (const route of module.routes(ctx, table)) {
      const key = routeKey(route);
      const access = policy.get(key);
      if (!access) throw new Error(`Route ${key} has no access policy entry`);
      if (table.some((mounted) => routeKey(mounted.route) === key)) throw new Error(`Route ${key} is declared twice`);
      checkDeclaration(key, route);
      table.push({ route, access });
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      router[method](route.path, async (req, res) => {
        res.locals[METRICS_ROUTE] = route.path;
        const verdict = allows(access, req.auth?.roles ?? null);
        if (verdict === 'unauthenticated') throw new AppError('unauthorized');
        if (verdict === 'forbidden') {
          req.log.warn({ event: 'authz_denied', route: key, userId: req.auth?.userId }, 'access denied');
          throw new AppError('forbidden');
        }
        const input = await readInput(ctx, route, req);
        const result: unknown = await route.handler(input, exchange(req, res));
        send(key, route, res, result, checkResponses);
      });
    }
  }
  const unused = [...policy.keys()].filter((key) => !table.some((mounted) => routeKey(mounted.route) === key));
  if (unused.length > 0) throw new Error(`Policy entries without a route: ${unused.join(', ')}`);
  return { router, policy, table };
}

/** Every path parameter has a schema, and a multipart route declares its text fields. */
function checkDeclaration(key: RouteKey, route: Route) {
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const declared = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
  const missing = names.filter((name) => !declared.includes(name));
  if (missing.length > 0) throw new Error(`Route ${key} declares no schema for the path parameter(s) ${missing.join(', ')}`);
  if (route.multipart && !route.body) throw new Error(`Route ${key} is multipart but declares no schema for its text fields`);
}

async function readInput(ctx: AppContext, route: Route, req: Request): Promise<RouteInput<z.ZodType, z.ZodType, z.ZodType>> {
  const params = parse(route.params ?? NOTHING, { ...req.params });
  const query = parse(route.query ?? NOTHING, { ...(req.query as Record<string, unknown>) });
  if (!route.multipart) return { params, query, body: parse(route.body ?? NO_BODY, req.body), files: [] };
  // Every upload counts against its caller's budget (429 past it), before the body is read.
  const rateLimit = req.auth ? { limiter: ctx.limits.upload, key: req.auth.userId } : undefined;
  const { onBegin, ...multipart } = route.multipart;
  onBegin?.();
  const { fields, files } = await receiveMultipart(req, { ...multipart, storage: ctx.storage, rateLimit });
  try {
    return { params, query, body: parse(route.body!, fields), files };
  } catch (error) {
    await Promise.allSettled(files.map((file) => ctx.storage.delete(file.key)));
    throw error;
  }
}

function exchange(req: Request, res: Response): Exchange {
  const locale = requestLocale(req);
  return {
    req,
    res,
    auth: req.auth,
    locale,
    t: serverT(locale),
    log: req.log,
    actor() {
      if (!req.auth) throw new AppError('unauthorized');
      return req.auth;
    },
  };
}

function send(key: RouteKey, route: Route, res: Response, result: unknown, checkResponses: boolean) {
  if (result === NO_CONTENT) {
    if (!route.noContent) throw new Error(`Route ${key} answered 204 but does not declare noContent`);
    res.status(204).end();
    return;
  }
  if (isRawResponse(route.response)) {
    if (!res.headersSent) throw new Error(`Route ${key} declares a raw answer but sent nothing`);
    return;
  }
  if (checkResponses) {
    const checked = route.response.safeParse(result);
    if (!checked.success) throw new ContractViolation(key, checked.error);
  }
  res.json(result);
}
