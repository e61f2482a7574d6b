import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { AppError } from './errors.ts';
import { safeEqual } from '../security/tokens.ts';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CORS for the configured origins only: never '*', never 'null', never echoing an unknown origin (HDR-06).
 * Pre-flights are answered here, before the API key check, because browsers never send custom headers on them.
 */
export function cors(ctx: AppContext): RequestHandler {
  const allowed = new Set(ctx.config.security.allowedOrigins);
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin && allowed.has(origin)) {
      res.vary('Origin');
      res.set('Access-Control-Allow-Origin', origin);
      res.set('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method === 'OPTIONS') {
      if (origin && allowed.has(origin)) {
        res.set('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE');
        res.set('Access-Control-Allow-Headers', 'Content-Type,X-Api-Key,Accept-Language');
        res.set('Access-Control-Max-Age', '600');
        res.status(204).end();
      } else {
        res.status(403).end();
      }
      return;
    }
    next();
  };
}

/** The spec's fixed API key header, on every call. Its presence also turns every cross-site request into a pre-flighted one. */
export function requireApiKey(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    const key = req.get('x-api-key');
    if (!key || !safeEqual(key, ctx.config.security.apiKey)) throw new AppError('invalid_api_key');
    next();
  };
}

/**
 * CSRF: a state-changing request must come from an allowed Origin. The two GET routes the spec
 * uses to send mail are held to the same rule through Sec-Fetch-Site (HARD-20, HARD-21, HARD-22).
 */
export function requireTrustedOrigin(ctx: AppContext, sideEffectGets: RegExp[]): RequestHandler {
  const allowed = new Set(ctx.config.security.allowedOrigins);
  return (req, _res, next) => {
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site');
    if (MUTATING.has(req.method)) {
      if (!origin || !allowed.has(origin)) throw new AppError('csrf_rejected');
    } else if (sideEffectGets.some((pattern) => pattern.test(req.path))) {
      if ((origin && !allowed.has(origin)) || fetchSite === 'cross-site') throw new AppError('csrf_rejected');
    }
    next();
  };
}

/**
 * JSON bodies only on JSON routes: a text/plain or form body (the classic CSRF shapes) is a 415 (VAL-11).
 * The upload routes take multipart instead; the Origin check above already applies to them.
 */
export function requireJsonBody(multipartRoutes: RegExp[]): RequestHandler {
  return (req, _res, next) => {
    if (req.is('multipart/form-data') && multipartRoutes.some((pattern) => pattern.test(req.path))) return next();
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (MUTATING.has(req.method) && hasBody && !req.is('application/json')) {
      throw new AppError('unsupported_media_type');
    }
    next();
  };
}
