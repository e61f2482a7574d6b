import {
  GUIDELINE_PREVIEW_FINDINGS,
  guidelineClientParams,
  guidelineClientsResponse,
  guidelinePreviewBody,
  guidelinePreviewResponse,
  guidelineVersionBody,
  guidelineVersionResponse,
  guidelineVersionsResponse,
} from '@portal/contracts';
import { GUIDELINE_PREVIEW_BUDGET_MS } from '@portal/jobs';
import { ruleOf } from '@portal/ledes';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { createVersion, listClients, listVersions, preview } from './service.ts';

export function guidelinesRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/ledes/guidelines',
      summary: 'The clients that have billing guidelines, with their number of versions',
      response: guidelineClientsResponse,
      handler: async () => ({ success: true as const, clients: await listClients(ctx) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/ledes/guidelines/:id_client',
      summary: "A client's billing guideline versions, newest first",
      params: guidelineClientParams,
      response: guidelineVersionsResponse,
      handler: async ({ params }) => ({ success: true as const, id_client: params.id_client, versions: await listVersions(ctx, params.id_client) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/ledes/guidelines/:id_client',
      summary: "Saves a new version of a client's billing guidelines, in force from its effective date",
      params: guidelineClientParams,
      body: guidelineVersionBody,
      response: guidelineVersionResponse,
      async handler({ params, body }, http) {
        const version = await createVersion(ctx, params.id_client, body, http.actor().userId);
        http.log.info({ event: 'ledes_guidelines_saved', versionId: version.id, version: version.version, rules: body.rules.length }, 'guideline version saved');
        return { success: true as const, version };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/ledes/guidelines/:id_client/preview',
      summary: "Checks a set as edited against the client's last checked files: what would it have refused?",
      params: guidelineClientParams,
      body: guidelinePreviewBody,
      response: guidelinePreviewResponse,
      async handler({ params, body }) {
        const { runs, unchecked } = await preview(ctx, params.id_client, body.rules, body.last, GUIDELINE_PREVIEW_FINDINGS);
        return {
          success: true as const,
          unchecked,
          budget_seconds: GUIDELINE_PREVIEW_BUDGET_MS / 1000,
          runs: runs.map((r) => ({
            run_id: r.runId,
            filename: r.filename,
            created: r.created.toISOString(),
            accepted_then: r.acceptedThen,
            refused_by_guidelines: r.errors > 0,
            errors: r.errors,
            warnings: r.warnings,
            findings: r.findings.map((f) => {
              const rule = ruleOf(f.code);
              return { line: f.line, code: f.code, severity: f.severity, champ: f.champ, libelle_en: rule.en, libelle_fr: rule.fr, ...f.values };
            }),
          })),
        };
      },
    }),
  ];
}
