/**
 * The service's tool events (`toolEvents` of /status, `tool_usage` of stream events, `tool_events` and
 * `sources` of thread messages) read field by field, tolerant of every shape the service has sent (camelCase
 * and snake_case, ids as numbers or strings, previews as text or JSON) and bounded: only the newest events,
 * every text cut. Server text stays text here; the views decide how it is shown. No dependencies but `json.ts`.
 */
import { type Json, field, isObject } from './json';

/** A web page an agent read: shown as title, host and snippet; its address opens only on an explicit click. */
export interface SourceInfo {
  url: string;
  title?: string;
  snippet?: string;
}

/** A file an agent generated: an ordinary service file once stored (`fileId`). */
export interface GeneratedFileInfo {
  fileId?: string;
  filename: string;
  mimeType?: string;
  bytes?: number;
  toolName?: string;
}

export interface ToolEventInfo {
  /** The invocation's id, when the service gave one (an event is updated in place while it runs). */
  id?: string;
  /** 1-based, as the service labels agents (`agent-1`); from `agentLabel`, else the 0-based `agentId` + 1. */
  agent?: number;
  tool: string;
  /** `running`, `completed` or `failed` (a completed call that did not succeed). */
  status: 'running' | 'completed' | 'failed';
  preview?: string;
  error?: string;
  durationMs?: number;
  sources: SourceInfo[];
  file?: GeneratedFileInfo;
}

export const TOOL_EVENT_LIMITS = {
  /** Events read, the newest ones: a task rarely runs more than a few dozen tools. */
  events: 200,
  /** Sources kept per event. */
  sourcesPerEvent: 10,
  /** Characters of a preview, an error or a snippet. */
  text: 300,
  title: 200,
  url: 2048,
  name: 200,
} as const;

/** Cuts `text` to `max` characters (not inside a surrogate pair), with "…" when it was longer. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}


function textOf(v: unknown, max: number): string | undefined {
  if (typeof v === 'string') return v.trim() ? cutText(v.trim(), max) : undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (isObject(v) || Array.isArray(v)) {
    // A preview sent as JSON: its first characters as text (never more than needed is serialized).
    try {
      return cutText(JSON.stringify(v).slice(0, max + 1), max);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function numberOf(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** Sources as the service writes them (`[{url, title, snippet}]`); entries without an address are dropped. */
export function readSources(raw: unknown, max: number = TOOL_EVENT_LIMITS.sourcesPerEvent): SourceInfo[] {
  if (!Array.isArray(raw)) return [];
  const out: SourceInfo[] = [];
  for (const item of raw.slice(0, max * 4)) {
    if (out.length >= max) break;
    if (!isObject(item)) continue;
    const url = typeof item.url === 'string' ? item.url.trim() : '';
    if (!url || url.length > TOOL_EVENT_LIMITS.url) continue;
    out.push({ url, title: textOf(item.title, TOOL_EVENT_LIMITS.title), snippet: textOf(item.snippet, TOOL_EVENT_LIMITS.text) });
  }
  return out;
}

function readFile(raw: unknown): GeneratedFileInfo | undefined {
  if (!isObject(raw)) return undefined;
  const filename = textOf(field(raw, 'filename', 'file_name', 'name'), TOOL_EVENT_LIMITS.name);
  if (!filename) return undefined;
  const fileId = field(raw, 'fileId', 'file_id');
  const bytes = numberOf(field(raw, 'bytes', 'size'));
  return {
    filename,
    fileId: typeof fileId === 'string' && fileId.trim() ? fileId.trim() : typeof fileId === 'number' ? String(fileId) : undefined,
    mimeType: textOf(field(raw, 'mimeType', 'mime_type'), TOOL_EVENT_LIMITS.name),
    bytes: bytes !== undefined && bytes >= 0 ? bytes : undefined,
    toolName: textOf(field(raw, 'toolName', 'tool_name'), TOOL_EVENT_LIMITS.name),
  };
}

/** The agent's 1-based number: `agent-3` or `agent-3 (critic)` in the label, else the 0-based id + 1. */
function agentOf(e: Json): number | undefined {
  const label = field(e, 'agentLabel', 'agent_label');
  const m = typeof label === 'string' ? /agent[-_ ]?(\d{1,4})/i.exec(label) : null;
  if (m) return Number(m[1]);
  const id = numberOf(field(e, 'agentId', 'agent_id'));
  return id !== undefined && Number.isInteger(id) && id >= 0 && id < 10_000 ? id + 1 : undefined;
}

/** Reads a list of tool events: the newest `max`, oldest first; anything that is not an event is skipped. */
export function readToolEvents(raw: unknown, max: number = TOOL_EVENT_LIMITS.events): ToolEventInfo[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolEventInfo[] = [];
  for (const e of raw.slice(-max)) {
    if (!isObject(e)) continue;
    const tool = textOf(field(e, 'toolName', 'tool_name', 'name'), TOOL_EVENT_LIMITS.name);
    if (!tool) continue;
    const rawStatus = String(field(e, 'status') ?? '').toLowerCase();
    const success = field(e, 'success');
    const error = textOf(field(e, 'error'), TOOL_EVENT_LIMITS.text);
    const status: ToolEventInfo['status'] =
      rawStatus === 'running' || rawStatus === 'pending' || rawStatus === 'started'
        ? 'running'
        : error || success === false || rawStatus === 'failed' || rawStatus === 'error'
          ? 'failed'
          : 'completed';
    const id = field(e, 'invocationId', 'invocation_id');
    out.push({
      id: typeof id === 'string' && id ? cutText(id, TOOL_EVENT_LIMITS.name) : undefined,
      agent: agentOf(e),
      tool,
      status,
      preview: textOf(field(e, 'resultPreview', 'tool_output', 'result_preview'), TOOL_EVENT_LIMITS.text),
      error,
      durationMs: numberOf(field(e, 'durationMs', 'duration_ms')),
      sources: readSources(field(e, 'sources')),
      file: readFile(field(e, 'generatedFile', 'generated_file')),
    });
  }
  return out;
}
