import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { inRequestLane } from '@portal/db';
import { redactUrl, serializeError } from '@portal/logger';
import type { AppContext } from '../context.ts';
import { analyticsPolicy, analyticsRoutes } from '../modules/analytics/index.ts';
import { annuitiesPolicy, annuitiesRoutes } from '../modules/annuities/index.ts';
import { authPolicy, authRoutes } from '../modules/auth/index.ts';
import { contactPolicy, contactRoutes } from '../modules/contact/index.ts';
import { costsPolicy, costsRoutes } from '../modules/costs/index.ts';
import { guidelinesPolicy, guidelinesRoutes } from '../modules/guidelines/index.ts';
import { forecastPolicy, forecastRoutes } from '../modules/forecast/index.ts';
import { ledesPolicy, ledesRoutes } from '../modules/ledes/index.ts';
import { mfaPolicy, mfaRoutes } from '../modules/mfa/index.ts';
import { opsPolicy, opsRoutes } from '../modules/ops/index.ts';
import { patentPortfolioPolicy, patentPortfolioRoutes } from '../modules/patent-portfolio/index.ts';
import { patentsPolicy, patentsRoutes } from '../modules/patents/index.ts';
import { receiptsPolicy, receiptsRoutes } from '../modules/receipts/index.ts';
import { registersPolicy, registersRoutes } from '../modules/registers/index.ts';
import { renewalCallsPolicy, renewalCallsRoutes } from '../modules/renewal-calls/index.ts';
import { usersPolicy, usersRoutes } from '../modules/users/index.ts';
import { AppError, errorMiddleware } from './errors.ts';
import { cors, requireApiKey, requireJsonBody, requireTrustedOrigin } from './guards.ts';
import { mountHealth, OPS_PATHS } from './health.ts';
import { adminsOnly, QUEUE_DASHBOARD_PATH } from './queue-dashboard.ts';
import { DOCS_PATHS, docsModule } from './openapi.ts';
import { mountModules, METRICS_ROUTE, type ApiModule } from './routes.ts';
import { sessionMiddleware } from './session.ts';

export const API_MODULES: ApiModule[] = [
  { routes: authRoutes, policy: authPolicy },
  { routes: mfaRoutes, policy: mfaPolicy },
  { routes: usersRoutes, policy: usersPolicy },
  { routes: contactRoutes, policy: contactPolicy },
  { routes: ledesRoutes, policy: ledesPolicy },
  { routes: guidelinesRoutes, policy: guidelinesPolicy },
  { routes: analyticsRoutes, policy: analyticsPolicy },
  { routes: annuitiesRoutes, policy: annuitiesPolicy },
  { routes: patentsRoutes, policy: patentsPolicy },
  { routes: patentPortfolioRoutes, policy: patentPortfolioPolicy },
  { routes: opsRoutes, policy: opsPolicy },
  { routes: receiptsRoutes, policy: receiptsPolicy },
  { routes: costsRoutes, policy: costsPolicy },
  { routes: forecastRoutes, policy: forecastPolicy },
  { routes: registersRoutes, policy: registersPolicy },
  { routes: renewalCallsRoutes, policy: renewalCallsPolicy },
  docsModule,
];

/** The only routes that take multipart bodies. */
const MULTIPART_ROUTES = [/^\/ledes\/file\/[^/]+\/[^/]+$/, /^\/brevets\/annuite$/, /^\/patent_imports$/, /^\/recepisse$/, /^\/file\/send_email_for_new_case$/, /^\/exchange_rates\/ecb$/];

/**
 * Machine routes authenticated by a bearer key of their own and never by the session cookie: no
 * ambient credential a cross-site page could use, so no Origin to check (decision 107).
 */
const BEARER_ROUTES = new Set(['PUT /brevet_eptane/sync']);

/**
 * GET routes that send mail (named so by the spec) get the cross-site checks of mutating routes.
 * Matched whatever the case, as a second line behind case-sensitive routing.
 */
const SIDE_EFFECT_GETS = [/^\/auth\/request_reset_password\//i, /^\/auth\/first_connection\//i];

const JSON_BODY_LIMIT = '100kb';
/**
 * Routes whose bounded lists need more than 100 kB: the bulk instruction update takes up to
 * PATENT_BULK_MAX_ROWS rows of the screen's shape (about 200 bytes each). Parsed first; the general
 * parser then leaves the body alone.
 */
const LARGER_JSON_BODIES: Array<{ path: string; limit: string }> = [
  { path: '/brevet_eptane/many/update_instruction', limit: '512kb' },
  // The back office sync: up to PATENT_SYNC_MAX_ROWS rows with their titles.
  { path: '/brevet_eptane/sync', limit: '2mb' },
];

export interface HttpAppOptions {
  /** bull-board's router (production mode), mounted at /api/admin/queues behind the admin gate. */
  queueDashboard?: RequestHandler;
}

export function createHttpApp(ctx: AppContext, options: HttpAppOptions = {}): { app: Express; policy: ReturnType<typeof mountModules>['policy'] } {
  const app = express();
  app.disable('x-powered-by');
  // API answers are `no-store` (below): no client may keep one to revalidate, so an ETag (a hash of
  // every JSON answer) would cost CPU for nothing. The web app's files are revalidated by their date.
  app.set('etag', false);
  app.set('trust proxy', ctx.config.http.trustProxy);
  app.set('query parser', 'simple');
  // '/api/AUTH/…' must not reach the route '/api/auth/…': the guards below match paths as written.
  app.set('case sensitive routing', true);
  // Every statement a request issues, here or in what it awaits, goes ahead of the jobs' and the maintenance's
  // on the embedded database (decision 185); jobs run in their own context, never in the enqueuer's.
  app.use((_req, _res, next) => inRequestLane(next));

  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req, res) => {
        const id = randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        // pino-http would otherwise put pino's plain serializer back, which prints query parameters.
        err: serializeError,
      },
      autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
    }),
  );
  app.use(securityHeaders(ctx));
  app.use(httpMetrics(ctx));

  mountHealth(app, ctx);

  const api = express.Router({ caseSensitive: true });
  api.use(apiHeaders);
  api.use(cors(ctx));
  const apiKey = requireApiKey(ctx);
  // The documentation is the only key-less part of /api: a browser opening /api/docs cannot send the header.
  // So is the queue dashboard's (GET only; its session and admin role are checked below).
  api.use((req, res, next) => (req.method === 'GET' && (DOCS_PATHS.includes(req.path) || isQueueDashboardPath(req.path)) ? next() : apiKey(req, res, next)));
  const trustedOrigin = requireTrustedOrigin(ctx, SIDE_EFFECT_GETS);
  api.use((req, res, next) => (BEARER_ROUTES.has(`${req.method} ${req.path}`) ? next() : trustedOrigin(req, res, next)));
  api.use(requireJsonBody(MULTIPART_ROUTES));
  for (const { path: route, limit } of LARGER_JSON_BODIES) api.use(route, express.json({ limit, strict: true, type: 'application/json' }));
  api.use(express.json({ limit: JSON_BODY_LIMIT, strict: true, type: 'application/json' }));
  api.use(sessionMiddleware(ctx));
  if (options.queueDashboard) api.use(QUEUE_DASHBOARD_PATH, adminsOnly, options.queueDashboard);
  const { router, policy } = mountModules(ctx, API_MODULES);
  api.use(router);
  api.use(() => {
    throw new AppError('not_found');
  });
  app.use('/api', api);

  if (ctx.config.http.serveWeb) serveWebApp(app, ctx.config.http.webDistDir);
  app.use((_req, _res) => {
    throw new AppError('not_found');
  });
  app.use(errorMiddleware);
  return { app, policy };
}

function isQueueDashboardPath(path: string): boolean {
  return path === QUEUE_DASHBOARD_PATH || path.startsWith(`${QUEUE_DASHBOARD_PATH}/`);
}

/**
 * Times every request into `portal_http_request_duration_seconds`, labelled by the declared route
 * pattern the router recorded (`/api/ledes/runs/:id`), never by the URL itself: ids would make one
 * series per run. Health and metrics paths keep their name; the queue dashboard is one label; any
 * other /api path is `/api/*` (404s, refused keys), anything else `web`.
 */
function httpMetrics(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const end = ctx.metrics.httpDuration.startTimer();
    const path = req.path;
    res.once('finish', () => {
      const declared = res.locals[METRICS_ROUTE] as string | undefined;
      const route = declared
        ? `/api${declared}`
        : (OPS_PATHS as readonly string[]).includes(path)
          ? path
          : path.startsWith(`/api${QUEUE_DASHBOARD_PATH}/`) || path === `/api${QUEUE_DASHBOARD_PATH}`
            ? `/api${QUEUE_DASHBOARD_PATH}`
            : path.startsWith('/api/') || path === '/api'
              ? '/api/*'
              : path === '/realtime' || path.startsWith('/realtime/')
                ? '/realtime'
                : 'web';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/** helmet's defaults (HSTS 365 days, nosniff, no-referrer, frame-ancestors) plus a stricter CSP (HDR-01..05). */
function securityHeaders(ctx: AppContext): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // Mantine injects CSS variables at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", ...ctx.config.security.allowedOrigins.map((o) => o.replace(/^http/, 'ws'))],
        upgradeInsecureRequests: ctx.config.isProduction ? [] : null,
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/** API answers are data, never documents: nothing may render or cache them. */
const apiHeaders: RequestHandler = (_req, res, next) => {
  res.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  res.set('Cache-Control', 'no-store');
  next();
};

/** Hashed build output (`/assets/*`): the name changes with the content, so it never needs revalidating. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The shell and unhashed files: revalidated on each load so a deployment applies at once. */
const REVALIDATE = 'no-cache';
/** Precompressed copies written by the web build beside each text asset, in order of preference. */
const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The file of the build a URL path names, or undefined: no dot segment (so no `..` and no
 * `.vite/manifest.json`), no NUL, never outside `distDir`, never a precompressed copy itself.
 */
function resolveInDist(distDir: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s.startsWith('.'))) return undefined;
  if (/\.(?:br|gz)$/.test(decoded)) return undefined;
  const file = path.join(distDir, ...segments);
  return file.startsWith(distDir + path.sep) ? file : undefined;
}

/**
 * Sends one file of the build: the brotli or gzip copy when the client accepts it and the build
 * wrote one (Content-Encoding, the original's Content-Type, `Vary: Accept-Encoding`), the file
 * itself otherwise.
 */
async function sendBuilt(req: Request, res: Response, next: NextFunction, file: string, cacheControl: string): Promise<void> {
  res.set('Cache-Control', cacheControl);
  res.type(path.extname(file));
  let chosen = file;
  const variants = await Promise.all(ENCODINGS.map(async (e) => ((await isFile(file + e.suffix)) ? e : undefined)));
  const available = variants.filter((e) => e !== undefined);
  if (available.length > 0) {
    // Whether or not this client gets a compressed copy, caches must key the answer on its header.
    res.vary('Accept-Encoding');
    // The server's order (brotli is smaller) among the codings the client accepts at all.
    const pick = available.find((e) => req.acceptsEncodings(e.coding) === e.coding);
    if (pick) {
      res.set('Content-Encoding', pick.coding);
      chosen = file + pick.suffix;
    }
  }
  res.sendFile(chosen, { dotfiles: 'allow', lastModified: true, etag: true }, (error?: Error) => {
    if (error && !res.headersSent) next(error);
  });
}

function serveWebApp(app: Express, distDir: string) {
  const root = path.resolve(distDir);
  const index = path.join(root, 'index.html');
  if (!existsSync(index)) return;
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = resolveInDist(root, req.path);
    if (!file || file === index) return next();
    isFile(file).then(
      (found) => (found ? sendBuilt(req, res, next, file, file.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : REVALIDATE) : next()),
      next,
    ).catch(next);
  });
  // The single-page app answers every other GET; the client-side router decides what to show.
  app.get(/^\/(?!api\/|realtime\/|health$).*/, (req, res, next) => {
    if (!req.accepts('html') || (path.extname(req.path) && req.path !== '/index.html')) return next();
    sendBuilt(req, res, next, index, REVALIDATE).catch(next);
  });
}
