/**
 * The one submission pipeline: an instruction, maybe code, maybe the attachment basket, maybe a thread
 * → a tracked task, or a typed "too long" outcome the command can offer an attachment for. Settings are
 * read once per submission, uploads go one way, and the prompt limit is one rule. The task is stored
 * before anything else can fail, so a submission is never lost.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { UploadSource } from '../../api';
import { LIMITS, promptLength } from '../../api/requests';
import type { ApiService, Client } from '../../apiService';
import type { KeyStore } from '../../auth/keyStore';
import type { Config, Settings } from '../../config';
import { UserFacingError, errorKind, inert, messageOf, submissionMayHaveArrived } from '../../errors';
import { Actions, engineSettingsNotApplied, promptTooLong, reasoningEffortUnsupported, tooManyUploads } from '../../vocabulary';
import type { Logger } from '../../log';
import type { AttachmentBasket, AttachmentPlan } from './attachments';
import { isTerminalStatus } from '../../api/status';
import { type SourceRef, type TrackedTask, titleFrom } from '../model';
import { type CodeContext, buildAttachmentPrompt, buildPrompt, withLandingInstruction } from './prompt';
import type { TaskStore } from '../store/taskStore';
import { checkOutgoingBytes, checkOutgoingFile } from './uploadCheck';
import { attachedTexts, sourceTexts } from './sentCandidates';

export interface TaskRequest {
  instruction: string;
  /**
   * The code and where it came from; absent for a bare instruction. `documentText` is the whole document when
   * the code was taken (kept for Review Changes); without it the document's text at submission is kept.
   */
  code?: { context: CodeContext; source: SourceRef; documentText?: string };
  /** More code the instruction already carries (chat references beyond the first): only kept for Review Changes. */
  extraCode?: { context: CodeContext; source: SourceRef; documentText?: string }[];
  /** Run inside this thread (no attachments there). */
  threadId?: string;
  /** Send the basket's files with it (Orchestrate does; Run Again and thread runs do not). */
  withBasket?: boolean;
  /** Send the code as an attached file instead of inline (the answer to a "too long" outcome). */
  codeAsAttachment?: boolean;
  /** Send these files (a basket of the caller's own, checked when filled) instead of the user's basket. */
  attachFrom?: AttachmentBasket;
  /** Where the task came from, when not from the user's own editor (shown in the Tasks view). */
  origin?: TrackedTask['origin'];
}

export type SendOutcome =
  | { kind: 'sent'; task: TrackedTask }
  /**
   * Nothing was sent or uploaded: the prompt would be `length` characters. `attachRefusal` says why the code
   * cannot go as an attachment instead, when the service would refuse it as one.
   */
  | { kind: 'tooLong'; length: number; canAttach: boolean; attachRefusal?: string };

/** A file to attach: on disk (streamed), in memory, or on another file system (read when sent). */
interface Upload {
  name: string;
  source: UploadSource | { uri: vscode.Uri; filename: string };
}

export class SubmissionPipeline {
  constructor(
    private readonly deps: {
      api: ApiService;
      config: Pick<Config, 'settings' | 'problems'>;
      keys: KeyStore;
      store: TaskStore;
      poller: { wake(): void };
      basket: AttachmentBasket;
      log: Logger;
      /** The model catalog, to check a reasoning effort against the model's levels before sending. */
      models?: ModelLevels;
      /** Tells the user something once (settings that cannot apply where a task goes). */
      notify?: (message: string) => void;
    },
  ) {}

  /** What was said once per session (see `noteOnce`). */
  private readonly noted = new Set<string>();

  /**
   * Settings as a submission needs them. Throws a UserFacingError naming each bad value, or the api
   * layer's ConfigurationError for an address that cannot be used: callers check before asking anything.
   */
  settings(): Settings {
    const { settings, problems } = this.deps.config;
    if (problems.length) throw new UserFacingError(problems.join(' '), [Actions.openSettings()]);
    this.deps.api.client();
    return settings;
  }

  async send(request: TaskRequest, settings: Settings = this.settings()): Promise<SendOutcome> {
    const { basket, api, log } = this.deps;
    // Taken first, before anything waits: the text the agents' code comes from, not what is typed meanwhile.
    const sources = sourceTexts([request.code, ...(request.extraCode ?? [])]);
    const inThread = request.threadId !== undefined;
    const attachedName = request.code && request.codeAsAttachment ? attachmentNameOf(request.code.source) : undefined;
    const base = !request.code
      ? request.instruction
      : attachedName
        ? buildAttachmentPrompt(request.instruction, request.code.context, attachedName)
        : buildPrompt(request.instruction, request.code.context);
    const files = request.attachFrom ?? (request.withBasket ? basket : undefined);
    const plan: AttachmentPlan = files && !inThread ? await files.plan(base) : { prompt: base, inlined: [], uploads: [], files: [] };

    const length = promptLength(plan.prompt);
    if (length > LIMITS.promptMaxChars) {
      // Checked before any upload: a prompt that cannot be sent must not cost a request.
      if (attachedName) throw new UserFacingError(promptTooLong(length, 'instruction'));
      if (!request.code || inThread) return { kind: 'tooLong', length, canAttach: false };
      // Offer the attachment only when the service would take the code as one (an HTML or XML page it refuses).
      const refusal = attachmentRefusal(request.code, settings);
      return { kind: 'tooLong', length, canAttach: !refusal, attachRefusal: refusal };
    }
    let prompt = plan.prompt;
    const carriesCode = !!request.code || !!request.extraCode?.length || plan.files.length > 0;
    if (settings.askForLandableChanges && carriesCode) {
      // The instruction counts toward the limit; it never makes a prompt too long to send.
      const asked = withLandingInstruction(prompt, (vscode.workspace.workspaceFolders ?? []).map(f => f.name));
      const askedLength = promptLength(asked);
      if (askedLength <= LIMITS.promptMaxChars) prompt = asked;
      else log.info(`landing instruction left out: with it the prompt would have ${askedLength} characters (the limit is ${LIMITS.promptMaxChars})`);
    }
    const uploads: Upload[] = plan.uploads.map(uri => {
      const name = path.basename(uri.path);
      return { name, source: uri.scheme === 'file' ? { path: uri.fsPath, filename: name } : { uri, filename: name } };
    });
    if (attachedName && request.code) {
      uploads.push({ name: attachedName, source: { data: new TextEncoder().encode(request.code.context.code), filename: attachedName } });
    }
    if (uploads.length > LIMITS.maxAttachments) {
      throw new UserFacingError(tooManyUploads());
    }
    // Every upload is checked before the first is sent: one the service would refuse (at upload or at /run) stops them all.
    for (const upload of uploads) {
      const source = upload.source;
      if ('data' in source) checkOutgoingBytes(upload.name, source.data, 'attachment', { modelId: settings.modelId });
      else await checkOutgoingFile('uri' in source ? source.uri : vscode.Uri.file(source.path), 'attachment', { modelId: settings.modelId });
    }

    const client = api.client();
    const sent = [...sources, ...(await attachedTexts(plan))];
    const attachmentIds: string[] = [];
    for (const upload of uploads) attachmentIds.push(await this.upload(client, upload, settings.modelId));
    const attachmentNames = [...plan.inlined, ...uploads.map(u => u.name)];

    const task = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: inThread ? vscode.l10n.t('Sending to the thread…') : vscode.l10n.t('Sending to the agents…') },
      () => this.submit(client, settings, request, prompt, attachmentIds, attachmentNames),
    );
    files?.clearSent(plan);
    // After the task is stored: keeping the texts must never lose a submission.
    await this.deps.store.recordSent(task.id, sent).catch(e => log.warn(`task ${task.id}: the files sent could not be kept for review: ${messageOf(e)}`));
    log.info(
      `task ${task.id} sent: "${task.title}" (${task.promptChars} characters${attachmentIds.length ? `, ${attachmentIds.length} attachments` : ''}${
        inThread ? `, thread ${request.threadId}` : ''
      })`,
    );
    return { kind: 'sent', task };
  }

  /** The one upload path: a file on disk streams from there; anything else is read through workspace.fs. */
  private async upload(client: Client, upload: Upload, modelId: string | undefined): Promise<string> {
    const uploaded = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Uploading {0}…', upload.name) },
      async () => {
        const source = 'uri' in upload.source ? { data: await vscode.workspace.fs.readFile(upload.source.uri), filename: upload.source.filename } : upload.source;
        return client.uploadAttachment(source, { modelId });
      },
    );
    return uploaded.id;
  }

  /**
   * Where a task goes: the engine's own run when a budget, role models or a reasoning effort is set (it
   * enforces and honours them; the Developer `/run` ignores the budget and refuses the others), else the
   * Developer `/run`. A run in a thread takes neither, and the earlier API form has no engine run: said once.
   */
  private route(client: Client, settings: Settings, inThread: boolean): 'engine' | 'developer' | 'thread' {
    const wanted = engineSettingNames(settings);
    if (inThread) {
      if (wanted.length) this.noteOnce(`thread:${wanted}`, engineSettingsNotApplied('thread', wanted.join(', ')));
      return 'thread';
    }
    if (!wanted.length) return 'developer';
    if (client.form === 'earlier') {
      this.noteOnce(`earlier:${wanted}`, engineSettingsNotApplied('earlierForm', wanted.join(', ')));
      return 'developer';
    }
    return 'engine';
  }

  private noteOnce(key: string, message: string): void {
    this.deps.log.info(message);
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.deps.notify?.(message);
  }

  /**
   * The model a reasoning effort goes with (the engine needs one named): the chosen model, else the service's
   * default. Refused here, before anything is sent, when the catalog says the model takes no such level.
   */
  private async effortModel(settings: Settings): Promise<string | undefined> {
    const effort = settings.reasoningEffort;
    if (!effort) return settings.modelId;
    const catalog = await this.deps.models?.list().catch(e => {
      this.deps.log.info(`model catalog not read (${messageOf(e)}): the service checks the reasoning effort`);
      return undefined;
    });
    const model = settings.modelId ?? catalog?.defaultModelId ?? undefined;
    const misfit = effortMisfit(effort, model, catalog);
    if (misfit) throw new UserFacingError(reasoningEffortUnsupported(effort, misfit.model, misfit.levels), [Actions.selectModel(), Actions.openSettings()]);
    return model;
  }

  private async submit(
    client: Client,
    settings: Settings,
    request: TaskRequest,
    prompt: string,
    attachmentIds: string[],
    attachmentNames: string[],
  ): Promise<TrackedTask> {
    const route = this.route(client, settings, request.threadId !== undefined);
    const gatewayKey = route === 'developer' ? await this.deps.keys.getGatewayKey() : undefined;
    const effortModel = route === 'engine' ? await this.effortModel(settings) : settings.modelId;
    // What the Developer run and the engine run both take.
    const run = {
      prompt,
      agentCount: settings.agentCount,
      silent: settings.silent || undefined,
      mock: settings.mock || undefined,
      budgetUsd: settings.budgetUsd,
      attachmentIds: attachmentIds.length ? attachmentIds : undefined,
      roleModels: settings.roleModels,
    };
    const sent: { taskId: string; status: string; threadId?: string | number; result?: string; conversationId?: string } = await (route === 'thread'
      ? client.runInThread(request.threadId!, { prompt, modelId: settings.modelId })
      : route === 'engine'
        ? client.runOnEngine({
            ...run,
            modelId: effortModel,
            reasoningEffort: settings.reasoningEffort,
            // A retry after a dropped answer sends the same key: the service answers with the task it made.
            idempotencyKey: randomUUID(),
          })
        : client.submitTask({ ...run, modelId: settings.modelId, gatewayKey })
    ).catch(e => {
      throw submissionMayHaveArrived(e, route === 'engine') ?? refusedExtraField(e, settings, gatewayKey, route !== 'developer') ?? e;
    });
    const now = Date.now();
    const source = request.code?.source;
    const task: TrackedTask = {
      id: sent.taskId,
      title: titleFrom(request.instruction),
      instruction: request.instruction,
      promptChars: promptLength(prompt),
      source,
      // The code's folder; a task sent without code (a follow-up in a thread) belongs to the window it was sent from.
      workspace: (source ? vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(source.uri)) : vscode.workspace.workspaceFolders?.[0])?.uri.toString(),
      modelId: effortModel,
      // The name the model picker and the Tasks view use, kept with the task (issue 35: one name everywhere).
      modelLabel: effortModel ? this.deps.models?.labelOf?.(effortModel) : undefined,
      agentCount: request.threadId !== undefined ? undefined : settings.agentCount,
      threadId: request.threadId ?? (sent.threadId !== undefined ? String(sent.threadId) : undefined),
      attachmentNames: attachmentNames.length ? attachmentNames : undefined,
      origin: request.origin,
      prompt,
      submittedAt: now,
      updatedAt: now,
      status: sent.status || 'processing',
    };
    if (route === 'engine') {
      task.via = 'engine';
      if (settings.budgetUsd !== undefined) task.budgetUsd = settings.budgetUsd;
      if (settings.reasoningEffort) task.reasoningEffort = settings.reasoningEffort;
      if (settings.roleModels) task.roleModels = settings.roleModels;
    }
    // An engine run that completed inline brings its answer along: nothing is left to follow.
    const inline = isTerminalStatus(task.status) && typeof sent.result === 'string';
    if (inline) task.status = 'processing';
    await this.deps.store.add(task);
    if (inline) await this.deps.store.finish(task.id, { status: sent.status, result: sent.result, conversationId: sent.conversationId });
    this.deps.poller.wake();
    return this.deps.store.get(task.id) ?? task;
  }
}

/** The catalog as the pipeline reads it (stores/modelCatalog.ts). */
export interface ModelLevels {
  list(): Promise<{ options?: readonly { id: string; reasoningEffortLevels?: readonly string[] | null }[] | null; defaultModelId?: string | null }>;
  /** The model's label in the list last read ("Claude Sonnet 4.5"), without asking the service. */
  labelOf?(modelId: string): string | undefined;
}

type Catalog = Awaited<ReturnType<ModelLevels['list']>>;

/**
 * The one rule for a reasoning effort and a model (checked when either is set, and again on submit): the
 * model's levels when the catalog lists the model and `effort` is not among them; else undefined (an
 * unlisted model is the service's to judge).
 */
export function effortMisfit(effort: string, model: string | undefined, catalog: Catalog | undefined): { model: string; levels: readonly string[] } | undefined {
  const entry = model ? catalog?.options?.find(m => m.id === model) : undefined;
  if (!model || !entry) return undefined;
  const levels = entry.reasoningEffortLevels ?? [];
  return levels.includes(effort) ? undefined : { model, levels };
}

/** The settings that need the engine's run, by their names, when set. */
export function engineSettingNames(settings: Pick<Settings, 'budgetUsd' | 'roleModels' | 'reasoningEffort'>): string[] {
  return [
    settings.budgetUsd !== undefined ? 'multiAgent.budgetUsd' : undefined,
    settings.roleModels ? 'multiAgent.roleModels' : undefined,
    settings.reasoningEffort ? 'multiAgent.reasoningEffort' : undefined,
  ].filter((n): n is string => !!n);
}

/**
 * The Developer API refuses `role_models` and `vercelAiKey` (422: its RunRequest allows no other fields).
 * Name the setting that caused it, so the user can clear it, instead of a bare validation error.
 */
function refusedExtraField(error: unknown, settings: Settings, gatewayKey: string | undefined, inThread: boolean): UserFacingError | undefined {
  if (inThread || errorKind(error) !== 'validation') return undefined;
  // The validation errors name the refused fields (`body.role_models: unexpected property`).
  const said = `${messageOf(error)} ${JSON.stringify((error as { fieldErrors?: unknown }).fieldErrors ?? [])}`;
  const culprits = [
    settings.roleModels && /role_models/.test(said) ? vscode.l10n.t('the multiAgent.roleModels setting') : undefined,
    gatewayKey && /vercelAiKey/i.test(said) ? vscode.l10n.t('the AI gateway key (Multi-Agent: Clear AI Gateway Key)') : undefined,
  ].filter((c): c is string => !!c);
  if (!culprits.length) return undefined;
  return new UserFacingError(
    vscode.l10n.t(
      'The service refused the task ({0}). The Developer API does not accept {1}: clear it and send again. Nothing was sent to the agents.',
      inert(messageOf(error)).replace(/\.$/, ''),
      culprits.join(vscode.l10n.t(' or ')),
    ),
    settings.roleModels ? [Actions.openSettings()] : [],
  );
}

/** Why the service would refuse this code as an attachment, or undefined when it would take it. */
function attachmentRefusal(code: NonNullable<TaskRequest['code']>, settings: Settings): string | undefined {
  try {
    checkOutgoingBytes(attachmentNameOf(code.source), new TextEncoder().encode(code.context.code), 'attachment', { modelId: settings.modelId });
    return undefined;
  } catch (e) {
    return messageOf(e);
  }
}

function attachmentNameOf(source: SourceRef): string {
  return path.basename(vscode.Uri.parse(source.uri).path) || 'code.txt';
}
