import { createHash } from 'node:crypto';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorMiddleware } from '../src/http/errors.ts';
import { openApiPath } from '../src/http/openapi.ts';
import { defineRoute, mountModules } from '../src/http/routes.ts';
import { startTestPortal, type TestPortal } from './support/portal.ts';

describe('OpenAPI document and viewer', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal('pglite');
  });
  afterAll(async () => t.close());

  it('lists every route of the route table with its method, path, access and schemas', async () => {
    const res = await t.client({ apiKey: null }).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const missing: string[] = [];
    for (const [key, access] of t.portal.policy) {
      const [method, path] = key.split(' ') as [string, string];
      const operation = res.body.paths[openApiPath(path)]?.[method.toLowerCase()];
      if (!operation) {
        missing.push(key);
        continue;
      }
      expect(operation['x-access'], key).toEqual(access);
      expect(operation.summary, key).toBeTruthy();
      expect(operation.responses['200'], key).toBeDefined();
      expect(operation.responses.default.content['application/json'].schema, key).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      for (const name of path.match(/:(\w+)/g) ?? []) {
        expect(operation.parameters.some((p: { name: string; in: string }) => p.in === 'path' && `:${p.name}` === name), `${key} ${name}`).toBe(true);
      }
    }
    expect(missing).toEqual([]);
    const operations = Object.values(res.body.paths as Record<string, object>).flatMap((ops) => Object.keys(ops));
    expect(operations.length).toBe(t.portal.policy.size);
  });

  it('documents the JSON schemas: the login body, a history page and the multipart upload', async () => {
    const { paths } = (await t.client().get('/api/openapi.json')).body;
    const login = paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    // The session, or the second-factor step the password leads to.
    const [signedIn, secondFactor] = login.responses['200'].content['application/json'].schema.anyOf;
    expect(signedIn.properties.user.properties.email.type).toBe('string');
    expect(secondFactor.properties.mfa.enum).toEqual(['verify', 'enrol']);
    expect(paths['/api/auth/mfa/verify'].post.requestBody.content['application/json'].schema.required).toEqual(['code']);
    expect(paths['/api/admin/user/{id}/mfa/reset'].post.parameters.some((p: { name: string; in: string }) => p.name === 'id' && p.in === 'path')).toBe(true);
    const history = paths['/api/historique'].get;
    expect(history.parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'limit', 'sort', 'order']);
    expect(history.parameters.find((p: { name: string }) => p.name === 'sort').schema.enum).toEqual(['date', 'name', 'provider', 'office', 'type', 'state']);
    expect(history.responses['204']).toBeDefined();
    const upload = paths['/api/ledes/file/{type}/{office}'].post;
    const fields = upload.requestBody.content['multipart/form-data'].schema.properties;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['office', 'user_id', 'file', 'files']));
    expect(Object.keys(paths['/api/ledes/file/download'].post.responses['200'].content)).toContain('application/octet-stream');
  });

  it('documents the patent listing’s query, the instruction bodies with their version, and the refused rows of the error envelope', async () => {
    const { paths, components } = (await t.client().get('/api/openapi.json')).body;
    const list = paths['/api/brevet_eptane'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['tab', 'dates', 'references', 'instruction', 'office', 'search', 'schedule', 'sort', 'order', 'page', 'limit', 'cursor']);
    expect(list.parameters.find((p: { name: string }) => p.name === 'tab').schema.enum).toEqual(['unprocessed', 'unvalidated']);
    expect(paths['/api/brevet_eptane/admin/{code}'].get.parameters.some((p: { name: string; in: string }) => p.name === 'code' && p.in === 'path')).toBe(true);
    const single = paths['/api/brevet_eptane/update/instruction_paiement/{id}'].put.requestBody.content['application/json'].schema;
    expect(single.required).toEqual(['instruction_paiement', 'version']);
    const bulk = paths['/api/brevet_eptane/many/update_instruction'].put.requestBody.content['application/json'].schema;
    expect(bulk.properties.patents.items.required).toEqual(['idagenda', 'instructionBeingUpdated', 'version']);
    expect(Object.keys(components.schemas.ErrorEnvelope.properties)).toContain('not_updated');
  });

  it('documents the receipts: the upload (multipart file, the spec\'s boolean `result` and the upload to follow), the list\'s query and the PDF download', async () => {
    const { paths } = (await t.client().get('/api/openapi.json')).body;
    const upload = paths['/api/recepisse'].post;
    expect(Object.keys(upload.requestBody.content['multipart/form-data'].schema.properties)).toContain('file');
    const answer = upload.responses['200'].content['application/json'].schema;
    expect(answer.properties.result.type).toBe('boolean');
    expect(answer.required).toEqual(expect.arrayContaining(['success', 'result', 'upload']));
    const list = paths['/api/recepisse'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['search', 'to_complete', 'unlinked', 'sort', 'order', 'page', 'limit']);
    const item = list.responses['200'].content['application/json'].schema.properties.recepisse.items;
    expect(item.required).toEqual(expect.arrayContaining(['reference_client', 'reference_inpi', 'reference_provider', 'date_ordre_paiement', 'path']));
    expect(Object.keys(paths['/api/download/recepisse'].get.responses['200'].content)).toEqual(['application/pdf']);
    expect(paths['/api/recepisse/{id}'].get.parameters.some((p: { name: string; in: string }) => p.name === 'id' && p.in === 'path')).toBe(true);
  });

  it('serves the viewer page under a CSP that allows exactly its own inline script and style', async () => {
    const res = await t.client({ apiKey: null, origin: null }).get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    const script = /<script>([\s\S]*)<\/script>/.exec(res.text)![1]!;
    const style = /<style>([\s\S]*)<\/style>/.exec(res.text)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    // Self-hosted: nothing is loaded from another origin.
    expect(res.text).not.toMatch(/(src|href)="https?:/);
  });

  it('the rest of /api still needs the API key', async () => {
    expect((await t.client({ apiKey: null }).get('/api/auth/check_token')).status).toBe(403);
    expect((await t.client({ apiKey: null }).get('/api/DOCS')).status).toBe(403);
  });

  it('in tests, an answer that does not match its response schema fails the request loudly', async () => {
    const module = {
      policy: { 'GET /drift': 'public' as const },
      routes: () => [
        defineRoute({
          method: 'GET',
          path: '/drift',
          summary: 'answers a field its schema does not declare',
          response: z.strictObject({ success: z.literal(true) }),
          handler: () => JSON.parse('{"success":true,"password_hash":"x"}') as { success: true },
        }),
      ],
    };
    const app = express();
    app.use((req, _res, next) => {
      req.auth = null;
      (req as unknown as { log: unknown }).log = t.portal.ctx.logger;
      next();
    });
    app.use(mountModules(t.portal.ctx, [module]).router);
    app.use(errorMiddleware);
    const server = app.listen(0);
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/drift`);
      expect(res.status).toBe(500);
      expect(t.logs.join('\n')).toMatch(/GET \/drift does not match its response schema/);
    } finally {
      server.close();
    }
  });
});
