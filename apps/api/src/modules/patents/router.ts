import {
  NEW_CASE_EXTENSIONS,
  NEW_CASE_MAX_BYTES,
  acceptSubmissionBody,
  acceptSubmissionResponse,
  newCaseFields,
  newCaseResponse,
  patentCreateBody,
  patentProposalQuery,
  patentProposalResponse,
  patentCreateResponse,
  patentEditBody,
  patentEditParams,
  patentSubmissionIdParams,
  patentSubmissionsQuery,
  patentSubmissionsResponse,
  rejectSubmissionBody,
  rejectSubmissionResponse,
  missingInfoBody,
  missingInformationQuery,
  missingInformationResponse,
  patentAgendaParams,
  patentEventsResponse,
  patentScheduleResponse,
  toValidateQuery,
  toValidateResponse,
  validateInstructionBody,
  validateInstructionResponse,
  bulkInstructionBody,
  bulkInstructionResponse,
  instructionIdParams,
  patentClientCodeParams,
  patentIdParams,
  patentInstructionBody,
  patentListQuery,
  patentListResponse,
  patentResponse,
  paymentInstructionResponse,
  paymentInstructionsResponse,
} from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { bulkUpdateInstructions, listInstructions, listPatents, readInstruction, readPatent, readScope, updateInstruction } from './service.ts';
import { listEvents, patentCosts, patentLedgerYears, patentSchedule, proposeAnnuity } from './detail.ts';
import { editPatent } from './edit.ts';
import { announceRecords } from './live.ts';
import { sendNewCase } from './new-case.ts';
import { acceptSubmission, createSubmission, listSubmissions, rejectSubmission } from './submissions.ts';
import { listMissingInformation, listToValidate, updateMissingInfo, validateInstructions, validateScope } from './staff.ts';

/*
 * Declared before any later `/brevet_eptane/<word>` route would be: `/brevet_eptane/:id` takes a UUID,
 * so a new fixed path (to_validate, missing-information) must come first in this list.
 */
export function patentsRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/instruction_paiement',
      summary: 'The payment instructions 1 to 4, titles in French and English with their tooltip after a colon; the third ends with next year',
      response: paymentInstructionsResponse,
      async handler() {
        return { success: true as const, instruction_paiement: await listInstructions(ctx) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/instruction_paiement/:id',
      summary: 'One payment instruction by its number; an unknown one is a 404',
      params: instructionIdParams,
      response: paymentInstructionResponse,
      async handler({ params }) {
        return { success: true as const, instruction_paiement: await readInstruction(ctx, params.id) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane',
      summary: "The caller's portfolio (its cabinets and client codes; everyone's for an admin): one tab, due-date range, ';' references, instruction and office filters, search, sort and paging, all in the database",
      query: patentListQuery,
      response: patentListResponse,
      async handler({ query }, http) {
        const actor = http.actor();
        return { success: true as const, ...(await listPatents(ctx, await readScope(ctx, actor), query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/admin/:code',
      summary: 'The patents of one client code, whoever holds it (admin_test and admins): the same tab, filters, search, sort and paging',
      params: patentClientCodeParams,
      query: patentListQuery,
      response: patentListResponse,
      async handler({ params, query }) {
        return { success: true as const, ...(await listPatents(ctx, { kind: 'all' }, query, params.code)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/missing-information',
      summary: 'Patents with an empty application number, publication number or client reference (admins): search, sort (default ReferenceClient) and pages of 25',
      query: missingInformationQuery,
      response: missingInformationResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listMissingInformation(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/to_validate',
      summary: "Instructions given and not validated yet (status processed) in the caller's validation scope: search, sort (default noDepot) and pages of 10",
      query: toValidateQuery,
      response: toValidateResponse,
      async handler({ query }, http) {
        return { success: true as const, ...(await listToValidate(ctx, await validateScope(ctx, http.actor()), query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/patent_submissions',
      summary: 'Patents submitted on the add-patent form, by status (pending by default), oldest first, paged (admins)',
      query: patentSubmissionsQuery,
      response: patentSubmissionsResponse,
      async handler({ query }) {
        return { success: true as const, ...(await listSubmissions(ctx, query)) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/proposal',
      summary: 'What the annuity engine proposes for the add-patent form: the next annuity’s due date, number and fee in euros from the office, origin and filing date (nulls when it cannot tell)',
      query: patentProposalQuery,
      response: patentProposalResponse,
      async handler({ query }) {
        const day = ctx.clock.now().toISOString().slice(0, 10);
        const proposed = await proposeAnnuity(ctx.db, { pays: query.pays, origine: query.origine, dateDepot: query.date_depot, quantieme: null }, day);
        return { success: true as const, date_echeance_annuites: proposed.dateEcheance, quantieme: proposed.quantieme, cout: proposed.cost };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/:id',
      summary: 'One patent the caller may read, with why its instruction is locked if it is, every year of its payment ledger and the next annuity’s cost part by part (official fee, surcharge, agent’s fee, service fee, margin, ECB rate; issue 30 §1); another cabinet’s patent is a 404',
      params: patentIdParams,
      response: patentResponse,
      async handler({ params }, http) {
        const patent = await readPatent(ctx, http.actor(), params.id);
        return { success: true as const, brevet_eptane: patent, ledger: await patentLedgerYears(ctx.db, patent), costs: await patentCosts(ctx, patent) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/:id/events',
      summary: 'The audit trail of one patent the caller may read, newest first: user, old → new instruction and status, source, time',
      params: patentIdParams,
      response: patentEventsResponse,
      async handler({ params }, http) {
        return { success: true as const, events: await listEvents(ctx, http.actor(), params.id) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/brevet_eptane/:id/schedule',
      summary:
        'The annuity schedule of one patent from the annuities engine (due dates, grace ends, fees in the office’s currency and in euros); a patent it cannot schedule has no annuities and a reason code',
      params: patentIdParams,
      response: patentScheduleResponse,
      async handler({ params }, http) {
        return { success: true as const, ...(await patentSchedule(ctx, http.actor(), params.id)) };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/update/instruction_paiement/:id',
      summary:
        'Gives a patent its payment instruction with the version read: unknown instruction 400, locked or validated 409 with the reason, changed meanwhile 409 stale_version; the status becomes processed and the change is audited',
      params: patentIdParams,
      body: patentInstructionBody,
      response: patentResponse,
      async handler({ params, body }, http) {
        const patent = await updateInstruction(ctx, http.actor(), params.id, body.instruction_paiement, body.version);
        announceRecords(ctx, [patent], 'screen');
        http.log.info({ event: 'patent_instruction_updated', patentId: patent._id, instruction: patent.id_instruction, by: http.actor().userId }, 'instruction updated');
        return { success: true as const, brevet_eptane: patent };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/many/update_instruction',
      summary:
        'Gives several patents (by idagenda) their instruction, all or nothing: any refused row (unknown or unreadable, locked, validated, stale version) makes it a 409 listing every refused row and why',
      body: bulkInstructionBody,
      response: bulkInstructionResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        const patents = await bulkUpdateInstructions(ctx, actor, body.patents);
        announceRecords(ctx, patents, 'bulk');
        http.log.info({ event: 'patent_instructions_bulk_updated', rows: patents.length, by: actor.userId }, 'instructions updated');
        return { success: true as const, updated: patents.length, brevet_eptane: patents };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/update-missing-info/:idagenda',
      summary:
        'Fills the empty application number, publication number, client reference or country of a patent (admins) with the version read: a cell filled meanwhile 409 patent_field_filled, changed meanwhile 409 stale_version',
      params: patentAgendaParams,
      body: missingInfoBody,
      response: patentResponse,
      async handler({ params, body }, http) {
        const patent = await updateMissingInfo(ctx, params.idagenda, body);
        announceRecords(ctx, [patent], 'edit');
        http.log.info({ event: 'patent_missing_info_updated', patentId: patent._id, by: http.actor().userId }, 'missing information updated');
        return { success: true as const, brevet_eptane: patent };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/validate-instruction',
      summary:
        'Validates given instructions (processed → validated), all or nothing: a row not processed any more, changed meanwhile or outside the caller’s scope makes it a 409 listing every refused row by _id; each validation is audited',
      body: validateInstructionBody,
      response: validateInstructionResponse,
      async handler({ body }, http) {
        const actor = http.actor();
        const patents = await validateInstructions(ctx, actor, body.patents);
        announceRecords(ctx, patents, 'validation');
        http.log.info({ event: 'patent_instructions_validated', rows: patents.length, by: actor.userId }, 'instructions validated');
        return { success: true as const, validated: patents.length, brevet_eptane: patents };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/brevet_eptane/update/:_id',
      summary:
        'Edits a patent record (admins) with the version read: absent fields unchanged, null cleared; stale 409; a changed instruction makes the status processed (unprocessed when cleared) and is audited with the source edit',
      params: patentEditParams,
      body: patentEditBody,
      response: patentResponse,
      async handler({ params, body }, http) {
        const { patent, instructionChanged } = await editPatent(ctx, http.actor(), params._id, body);
        announceRecords(ctx, [patent], 'edit');
        http.log.info({ event: 'patent_edited', patentId: patent._id, instructionChanged, by: http.actor().userId }, 'patent edited');
        return { success: true as const, brevet_eptane: patent };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/brevet_eptane/create',
      summary: 'Submits a patent from the add-patent form (spec §7 fields); it waits for an admin to accept or reject it',
      body: patentCreateBody,
      response: patentCreateResponse,
      async handler({ body }, http) {
        const submission = await createSubmission(ctx, http.actor(), body);
        http.log.info({ event: 'patent_submitted', submissionId: submission._id, by: http.actor().userId }, 'patent submitted');
        return { success: true as const, submission };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/patent_submissions/:id/accept',
      summary:
        'Accepts a pending submission (admins): the record joins the portfolio with a WEB-<n> idagenda in the cabinet and client code given (default: the submitter’s first ones), missing due date, annuity number and cost proposed by the engine; reviewed already 409',
      params: patentSubmissionIdParams,
      body: acceptSubmissionBody,
      response: acceptSubmissionResponse,
      async handler({ params, body }, http) {
        const result = await acceptSubmission(ctx, http.actor(), params.id, body);
        http.log.info({ event: 'patent_submission_accepted', submissionId: params.id, patentId: result.brevet_eptane._id, by: http.actor().userId }, 'submission accepted');
        return { success: true as const, ...result };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/patent_submissions/:id/reject',
      summary: 'Rejects a pending submission with a reason (admins), mailed to the submitter in its language; reviewed already 409',
      params: patentSubmissionIdParams,
      body: rejectSubmissionBody,
      response: rejectSubmissionResponse,
      async handler({ params, body }, http) {
        const submission = await rejectSubmission(ctx, http.actor(), params.id, body.reason);
        http.log.info({ event: 'patent_submission_rejected', submissionId: params.id, by: http.actor().userId }, 'submission rejected');
        return { success: true as const, submission };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/file/send_email_for_new_case',
      summary: 'Sends a new case (multipart `file`, bounded in size and type) to support with the file attached, and a copy to the sender',
      body: newCaseFields,
      multipart: {
        area: 'patents/new-case',
        fileField: ['file'],
        maxFileBytes: Math.min(ctx.config.uploads.maxBytes, NEW_CASE_MAX_BYTES),
        maxFiles: 1,
        allowedExtensions: NEW_CASE_EXTENSIONS,
      },
      response: newCaseResponse,
      async handler({ files }, http) {
        try {
          await sendNewCase(ctx, http.actor(), files[0]);
        } catch (error) {
          // Refused before the mails were committed: nothing stored stays orphaned.
          await Promise.allSettled(files.map((f) => ctx.storage.delete(f.key)));
          throw error;
        }
        http.log.info({ event: 'new_case_sent', by: http.actor().userId, size: files[0]?.size }, 'new case sent');
        return { success: true as const };
      },
    }),
  ];
}
