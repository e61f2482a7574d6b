/**
 * Enqueues jobs for rows that are already committed; a failure (Redis down) is logged, not thrown.
 * The AppContext carries the queue and logger it needs.
 */
export { enqueueCommitted } from '@portal/jobs';
