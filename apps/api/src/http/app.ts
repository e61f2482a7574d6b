import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { redactUrl, serializeError } from '@portal/logger';
import type { AppContext } from '../context.ts';
import { authPolicy } from '../modules/auth/policy.ts';
import { authRoutes } from '../modules/auth/router.ts';
import { contactPolicy } from '../modules/contact/policy.ts';
import { contactRoutes } from '../modules/contact/router.ts';
import { ledesPolicy } from '../modules/ledes/policy.ts';
import { ledesRoutes } from '../modules/ledes/router.ts';
import { usersPolicy } from '../modules/users/policy.ts';
import { usersRoutes } from '../modules/users/router.ts';
import { AppError, errorMiddleware } from './errors.ts';
import { cors, requireApiKey, requireJsonBody, requireTrustedOrigin } from './guards.ts';
import { mountHealth } from './health.ts';
import { DOCS_PATHS, docsModule } from './openapi.ts';
import { mountModules, type ApiModule } from './routes.ts';
import { sessionMiddleware } from './session.ts';

const API_MODULES: ApiModule[] = [
  { routes: authRoutes, policy: authPolicy },
  { routes: usersRoutes, policy: usersPolicy },
  { routes: contactRoutes, policy: contactPolicy },
  { routes: ledesRoutes, policy: ledesPolicy },
  docsModule,
];

/** The only routes that take multipart bodies. */
const MULTIPART_ROUTES = [/^\/ledes\/file\/[^/]+\/[^/]+$/];

/**
 * GET routes that send mail (named so by the spec) get the cross-site checks of mutating routes.
 * Matched whatever the case, as a second line behind case-sensitive routing.
 */
const SIDE_EFFECT_GETS = [/^\/auth\/request_reset_password\//i, /^\/auth\/first_connection\//i];

const JSON_BODY_LIMIT = '100kb';

export function createHttpApp(ctx: AppContext): { app: Express; policy: ReturnType<typeof mountModules>['policy'] } {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.http.trustProxy);
  app.set('query parser', 'simple');
  // '/api/AUTH/…' must not reach the route '/api/auth/…': the guards below match paths as written.
  app.set('case sensitive routing', true);

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

  mountHealth(app, ctx);

  const api = express.Router({ caseSensitive: true });
  api.use(apiHeaders);
  api.use(cors(ctx));
  const apiKey = requireApiKey(ctx);
  // The documentation is the only key-less part of /api: a browser opening /api/docs cannot send the header.
  api.use((req, res, next) => (req.method === 'GET' && DOCS_PATHS.includes(req.path) ? next() : apiKey(req, res, next)));
  api.use(requireTrustedOrigin(ctx, SIDE_EFFECT_GETS));
  api.use(requireJsonBody(MULTIPART_ROUTES));
  api.use(express.json({ limit: JSON_BODY_LIMIT, strict: true, type: 'application/json' }));
  api.use(sessionMiddleware(ctx));
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

function serveWebApp(app: Express, distDir: string) {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return;
  app.use(
    express.static(distDir, {
      index: false,
      dotfiles: 'ignore',
      setHeaders: (res, file) => {
        // Hashed assets are immutable; the shell must be revalidated so deployments apply at once.
        res.set('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  // The single-page app answers every other GET; the client-side router decides what to show.
  app.get(/^\/(?!api\/|realtime\/|health$).*/, (req, res, next) => {
    if (!req.accepts('html') || path.extname(req.path)) return next();
    res.set('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
}
