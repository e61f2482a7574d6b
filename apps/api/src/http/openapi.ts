import { createHash } from 'node:crypto';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@portal/contracts';
import type { AppContext } from '../context.ts';
import type { PolicyTable } from './access.ts';
import { defineRoute, isRawResponse, type ApiModule, type MountedRoute, type Route } from './routes.ts';

/**
 * OpenAPI 3.1 from the route table: the same zod schemas that validate requests (read as inputs) and
 * check answers (read as outputs) become the JSON Schemas (2020-12, OpenAPI 3.1's dialect) of the
 * document, so the documentation cannot drift from the code.
 */
type JsonSchema = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  // Transforms and refinements have no JSON Schema form: the input or output side is described instead.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** Express '/user/:id' → OpenAPI '/user/{id}'. */
export const openApiPath = (path: string) => `/api${path.replace(/:(\w+)/g, '{$1}')}`;

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: location, required: location === 'path' || required.has(name), schema: property }));
}

function requestBody(route: Route) {
  if (!route.body) return undefined;
  if (route.multipart) {
    const fields = jsonSchema(route.body, 'input');
    const file = { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, maxItems: route.multipart.maxFiles };
    const files = Object.fromEntries(route.multipart.fileField.map((name) => [name, file]));
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { ...fields, properties: { ...(fields.properties as object), ...files } },
          encoding: Object.fromEntries(route.multipart.fileField.map((name) => [name, { contentType: 'application/octet-stream' }])),
        },
      },
    };
  }
  // A body schema that accepts undefined (the default "no body") is not a required body.
  const required = !route.body.safeParse(undefined).success;
  return { required, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
}

function responses(route: Route) {
  const success = isRawResponse(route.response)
    ? {
        description: route.response.description,
        content: Object.fromEntries(route.response.raw.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
      }
    : { description: 'Success', content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } };
  return {
    200: success,
    ...(route.noContent ? { 204: { description: route.noContent } } : {}),
    default: { description: 'The error envelope, its message translated from Accept-Language', content: { 'application/json': { schema: ERROR_REF } } },
  };
}

export function openApiDocument(table: readonly MountedRoute[], cookieName: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, access } of table) {
    const path = openApiPath(route.path);
    const body = requestBody(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      // Who may call it: 'public', 'authenticated', or the roles listed (the route × role policy).
      'x-access': access,
      security: route.bearer ? [{ apiKey: [], [route.bearer]: [] }] : access === 'public' ? [{ apiKey: [] }] : [{ apiKey: [], session: [] }],
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      ...(body ? { requestBody: body } : {}),
      responses: responses(route),
    };
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'IP portal API',
      version: '1',
      description: 'Every call sends the x-api-key header; signed-in calls the session cookie. Errors are the envelope { success: false, message, code }.',
    },
    paths,
    components: {
      schemas: { ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output') },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        session: { type: 'apiKey', in: 'cookie', name: cookieName },
        patentSync: { type: 'http', scheme: 'bearer', description: 'The back office integration key (PATENT_SYNC_API_KEY), for PUT /brevet_eptane/sync only; no session' },
      },
    },
  };
}

/* ------------------------------------------------------------------ the viewer page */

/**
 * A small self-contained viewer: no CDN and no third-party bundle. Its inline script and style are
 * allowed by their hashes in the page's own CSP, which otherwise allows nothing but fetching
 * /api/openapi.json from the same origin. Every text is set with textContent.
 */
const VIEWER_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}details{border:1px solid #d0d7de;border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}
summary{cursor:pointer}code,pre{font:12px/1.4 ui-monospace,monospace}pre{background:#f6f8fa;padding:.5rem;overflow:auto;max-height:30rem}
.m{display:inline-block;min-width:4rem;font-weight:600}.a{color:#57606a;margin-left:.5rem}`;

const VIEWER_SCRIPT = `(async () => {
  const main = document.getElementById('ops');
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  const section = (parent, title, value) => { parent.append(el('h4', title)); parent.append(el('pre', JSON.stringify(value, null, 2))); };
  const response = await fetch('openapi.json', { headers: { accept: 'application/json' } });
  const doc = await response.json();
  document.getElementById('info').textContent = doc.info.description;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const item = el('details');
      const summary = el('summary');
      summary.append(el('span', method.toUpperCase(), 'm'), el('code', path), el('span', op.summary + ' (' + JSON.stringify(op['x-access']) + ')', 'a'));
      item.append(summary);
      if (op.parameters.length) section(item, 'Parameters', op.parameters);
      if (op.requestBody) section(item, 'Request body', op.requestBody.content);
      section(item, 'Responses', op.responses);
      main.append(item);
    }
  }
  section(main, 'Error envelope', doc.components.schemas.ErrorEnvelope);
})();`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const VIEWER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>IP portal API</title><meta name="viewport" content="width=device-width, initial-scale=1">
<style>${VIEWER_STYLE}</style></head>
<body><h1>IP portal API</h1><p id="info"></p><p><a href="openapi.json">openapi.json</a> (OpenAPI 3.1)</p><main id="ops"></main>
<script>${VIEWER_SCRIPT}</script></body></html>`;

export const VIEWER_CSP = [
  "default-src 'none'",
  `script-src ${sha256(VIEWER_SCRIPT)}`,
  `style-src ${sha256(VIEWER_STYLE)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The documentation routes. Public and without the API key (app.ts exempts them): they carry no
 * data, the same shapes ship in the web bundle, and a browser opening /api/docs cannot send a header.
 */
export const docsPolicy = {
  'GET /openapi.json': 'public',
  'GET /docs': 'public',
} satisfies PolicyTable;

export const DOCS_PATHS = ['/openapi.json', '/docs'];

export const docsModule: ApiModule = {
  policy: docsPolicy,
  routes(ctx: AppContext, table: readonly MountedRoute[]) {
    let document: ReturnType<typeof openApiDocument> | undefined;
    return [
      defineRoute({
        method: 'GET',
        path: '/openapi.json',
        summary: 'This document: OpenAPI 3.1 of every route',
        response: z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
        // Built on first use, when the table is complete.
        handler: () => (document ??= openApiDocument(table, ctx.config.security.cookie.name)),
      }),
      defineRoute({
        method: 'GET',
        path: '/docs',
        summary: 'A page to read the OpenAPI document',
        response: { raw: ['text/html'], description: 'The viewer page' },
        handler(_input, { res }) {
          res.set('Content-Security-Policy', VIEWER_CSP);
          res.type('html').send(VIEWER_PAGE);
        },
      }),
    ];
  },
};
