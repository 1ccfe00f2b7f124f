/**
 * The checking part (issue 42): what runs a check, bundled apart (`dist/checking.js`, lazy.ts) and loaded when a
 * check is first asked for, not with every command. The views and the core use the checks store, the policy and
 * the shapes (store.ts, policy.ts, types.ts), which are not part of it.
 */
export { CheckRefused, type CheckOutcome, type CheckSandbox, type CheckSessionInput, type ProposedFile, type ScratchPlan, folderHolding, runCheckSession, scratchPlan } from './session';
export { DECLARED_MAX_CHARS, declaredRuns, detectChecks, testTaskCommand } from './detect';
export { fixRequest, machineSecrets, redactCommand, redactText } from './feedback';
export { checkEnvironment } from './runner';
export { buildScratch, listFiles } from './scratch';
export { sandboxSupport, secretPlaces } from './sandbox';
