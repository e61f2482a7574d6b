export { createProcessors, createSendMailProcessor, type ProcessorDeps } from './processors/index.ts';
